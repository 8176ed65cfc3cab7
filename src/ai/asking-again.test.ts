import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeOpenAI, promptOf, startFakeOpenAI } from '../../test/support/fake-openai';
import { askingAgain, MAX_REASKS } from './asking-again';
import { createOpenAIProvider } from './openai-provider';

let fake: FakeOpenAI;
beforeAll(async () => {
  fake = await startFakeOpenAI();
});
afterAll(() => fake.close());

const schema = { type: 'array', items: { type: 'object' } };
/** The check of a JSON list answer. */
const isJsonList = (text: string) => {
  try {
    return Array.isArray(JSON.parse(text)) ? null : 'The answer is not a JSON list.';
  } catch {
    return 'The answer is not JSON.';
  }
};

function scripted(answers: string[]) {
  const before = fake.requests.length;
  let n = 0;
  fake.respondWith(() => ({ text: answers[Math.min(n++, answers.length - 1)]! }));
  return () => fake.requests.slice(before);
}

describe('a structured answer asked for again (an endpoint that takes a schema and does not enforce it)', () => {
  const model = () => createOpenAIProvider({ apiKey: 'k', model: 'loose-model', baseUrl: fake.url });

  it('asks again with what was wrong, and the answer that fits is the text, the usage of both tries', async () => {
    const calls = scripted([
      'Sure! Here are two ideas: tea and coffee.',
      '[{"branchName":"Tea","content":"Green"}]',
    ]);
    const asked: string[] = [];
    const answer = await askingAgain(model(), isJsonList, (n, why) => asked.push(`${n}: ${why}`)).stream({
      system: 'Ideas.',
      prompt: 'Two ideas',
      json: { schema },
    }).final;
    expect(answer.text).toBe('[{"branchName":"Tea","content":"Green"}]');
    expect(asked).toEqual(['1: The answer is not JSON.']);
    const [first, second] = calls();
    expect(first!.body.response_format).toMatchObject({ type: 'json_schema' });
    expect(promptOf(second!.body)).toContain('Your previous answer was:\nSure! Here are two ideas');
    expect(promptOf(second!.body)).toContain(
      'It does not follow the required format: The answer is not JSON.',
    );
    const single = answer.usage!;
    expect(single.inputTokens).toBeGreaterThan(0);
    expect(single.outputTokens).toBeGreaterThan(0);
  });

  it(`stops after ${MAX_REASKS} more tries: the last answer is the text, for the step to refuse`, async () => {
    const calls = scripted(['no', 'still no', 'never']);
    let reasks = 0;
    const answer = await askingAgain(model(), isJsonList, () => reasks++).stream({
      system: '',
      prompt: 'List',
      json: { schema },
    }).final;
    expect(answer.text).toBe('never');
    expect(reasks).toBe(MAX_REASKS);
    expect(calls()).toHaveLength(1 + MAX_REASKS);
  });

  it('sends a request without a schema once, unchecked', async () => {
    const calls = scripted(['Plain words.']);
    const answer = await askingAgain(model(), isJsonList).stream({ system: '', prompt: 'Talk' }).final;
    expect(answer.text).toBe('Plain words.');
    expect(calls()).toHaveLength(1);
  });
});
