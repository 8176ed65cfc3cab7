import { describe, expect, it } from 'vitest';
import { ModelCallError, type ModelRequest, STOPPED_MESSAGE } from './model-provider';
import { createOfflineProvider } from './offline-provider';
import { structuredOutputFor } from './structured-output';

const task = 'Write a tagline for a bakery in Hanoi. Keep it warm and short.';
const prompt = `${task}\n\n## Context from Step 1: Research\nThe bakery sells banh mi and croissants.\n\n## User input\nFocus on morning customers`;

async function collect(request: ModelRequest, chunkDelayMs?: number) {
  const stream = createOfflineProvider(chunkDelayMs === undefined ? {} : { chunkDelayMs }).stream(request);
  const chunks: string[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return { chunks, answer: await stream.final };
}

describe('offline provider', () => {
  it('names itself offline, never Gemini', () => {
    const provider = createOfflineProvider();
    expect(provider).toMatchObject({ kind: 'offline', model: 'offline' });
  });

  it('answers a plain request with a marked, structured restatement of the task', async () => {
    const { answer } = await collect({ system: 'Be concise.', prompt });
    expect(answer.text.startsWith('[Offline model] Write a tagline for a bakery in Hanoi.')).toBe(true);
    expect(answer.text).toContain('- **Task:** Write a tagline for a bakery in Hanoi.');
    expect(answer.text).toContain('- **Builds on** Context from Step 1: Research: The bakery sells banh mi');
    expect(answer.text).toContain('- **Input:** Focus on morning customers');
    expect(answer.text).toMatch(/- \*\*Key words:\*\* .*bakery/);
    expect(answer.text).not.toMatch(/gemini/i);
    expect(answer.usage).toBeNull();
  });

  it('drafts on the input from the earlier results, in the language of the task', async () => {
    const { answer } = await collect({
      system: '',
      prompt:
        'Viết mở bài từ dàn ý sau:\nHọc sinh tự học theo tốc độ riêng. Giáo viên chấm bài nhanh hơn.\n\n' +
        '## Context from Step 1: Dàn ý\nHọc sinh tự học theo tốc độ riêng. Giáo viên chấm bài nhanh hơn.\n\n' +
        '## User input\nAI trong giáo dục',
    });
    expect(answer.text.startsWith('[Offline model] Viết mở bài từ dàn ý sau')).toBe(true);
    expect(answer.text).toContain(
      'Về "AI trong giáo dục": Học sinh tự học theo tốc độ riêng; Giáo viên chấm bài nhanh hơn.',
    );
    expect(answer.text).toContain('- **Nhiệm vụ:** Viết mở bài từ dàn ý sau');
    expect(answer.text).toContain('- **Đầu vào:** AI trong giáo dục');
  });

  it('answers each loop round on from the round before', async () => {
    const { answer } = await collect({
      system: '',
      prompt:
        'Improve the tagline.\n\n## Previous iterations\n### Loop 1\nFresh bread at dawn, every day.\n\n' +
        '### Loop 2\nWarm bread for early risers.\n\n## User input\nRun mode execution - no additional input',
    });
    expect(answer.text).toContain(
      '- **Loop:** round 3, revising the previous one: Warm bread for early risers.',
    );
  });

  it('falls back to the system prompt for the heading when the prompt is empty', async () => {
    const { answer } = await collect({ system: 'Summarise the meeting\nMore rules', prompt: '' });
    expect(answer.text.startsWith('[Offline model] Summarise the meeting')).toBe(true);
    // With nothing to restate it says what it is, in the UI's Vietnamese whatever the prompt's language.
    expect(answer.text).toContain('- **Ghi chú:** Thêm Gemini API key để có câu trả lời thật.');
  });

  it('is deterministic', async () => {
    const first = await collect({ system: 'Be concise.', prompt });
    const second = await collect({ system: 'Be concise.', prompt });
    expect(second).toEqual(first);
  });

  it('streams the answer in several chunks that join to the final text', async () => {
    const { chunks, answer } = await collect({ system: 'Be concise.', prompt });
    expect(chunks.length).toBeGreaterThan(3);
    expect(chunks.join('')).toBe(answer.text);
  });

  it('can pace its chunks for demos', async () => {
    const started = performance.now();
    const { chunks } = await collect({ system: '', prompt }, 5);
    expect(performance.now() - started).toBeGreaterThanOrEqual((chunks.length - 1) * 4);
  });

  it('gives the final answer to a consumer that never iterates', async () => {
    const stream = createOfflineProvider().stream({ system: '', prompt });
    await expect(stream.final).resolves.toMatchObject({ text: expect.stringContaining('[Offline model]') });
  });

  it('stops with the Stopped error when the signal aborts', async () => {
    const controller = new AbortController();
    const stream = createOfflineProvider({ chunkDelayMs: 20 }).stream({
      system: '',
      prompt,
      signal: controller.signal,
    });
    const seen: string[] = [];
    const reading = (async () => {
      for await (const chunk of stream) {
        seen.push(chunk);
        controller.abort();
      }
    })();
    await expect(reading).rejects.toThrow(STOPPED_MESSAGE);
    await expect(stream.final).rejects.toMatchObject({ message: STOPPED_MESSAGE, retryable: false });
    await expect(stream.final).rejects.toBeInstanceOf(ModelCallError);
    expect(seen).toHaveLength(1);
  });

  it('refuses at once when the signal was already aborted', async () => {
    const stream = createOfflineProvider().stream({ system: '', prompt, signal: AbortSignal.abort() });
    await expect(stream.final).rejects.toThrow(STOPPED_MESSAGE);
  });

  describe('structured requests', () => {
    it('returns 3 alternatives for the multiple-output schema', async () => {
      const shape = structuredOutputFor('multiple', []);
      const { answer } = await collect({ system: shape.instruction, prompt, json: shape.json! });
      const branches = JSON.parse(answer.text) as Array<{ branchName: string; content: string }>;
      expect(branches).toHaveLength(3);
      for (const branch of branches) {
        expect(branch.branchName).toEqual(expect.any(String));
        expect(branch.content.startsWith('[Offline model]')).toBe(true);
      }
      expect(new Set(branches.map((b) => b.branchName)).size).toBe(3);
    });

    const ideasFor = async (request: string) => {
      const shape = structuredOutputFor('multiple', []);
      const { answer } = await collect({ system: shape.instruction, prompt: request, json: shape.json! });
      return JSON.parse(answer.text) as Array<{ branchName: string; content: string }>;
    };

    it("gives ideas that each name the user's input, and differ from each other", async () => {
      const ideas = await ideasFor('Liệt kê ý tưởng bài viết cho blog.\n\n## User input\nAI trong giáo dục');
      expect(ideas).toHaveLength(3);
      for (const idea of ideas) {
        expect(idea.content.startsWith('[Offline model]')).toBe(true);
        expect(idea.content).toContain('AI trong giáo dục');
        expect(idea.content).toContain('Liệt kê ý tưởng bài viết cho blog');
      }
      expect(new Set(ideas.map((idea) => idea.content)).size).toBe(3);
      expect(new Set(ideas.map((idea) => idea.branchName)).size).toBe(3);
      // In the language of the task.
      expect(ideas[0]!.branchName).toBe('Hướng trực diện');
      expect(
        await ideasFor('Liệt kê ý tưởng bài viết cho blog.\n\n## User input\nAI trong giáo dục'),
      ).toEqual(ideas);
    });

    it('takes up the earlier results the prompt quotes, one point per idea', async () => {
      const research =
        'Students practise at their own pace. Teachers save time on grading. Parents see progress.';
      const ideas = await ideasFor(
        `Propose post ideas based on this research:\n${research}\n\n## Context from Step 1: Research\n${research}\n\n## User input\nAI in education`,
      );
      expect(ideas.map((idea) => idea.content.match(/Builds on: ([^.]+)\./)?.[1])).toEqual([
        'Students practise at their own pace',
        'Teachers save time on grading',
        'Parents see progress',
      ]);
      // The instruction is the step's own words, not the research it quotes.
      expect(ideas[0]!.content).toContain('Task: Propose post ideas based on this research.');
    });

    it('offers other angles in place of the rejected ones', async () => {
      const ideas = await ideasFor(
        'Give angles about tea.\n\n## Rejected ideas (do not repeat)\n### Step 1 · Creative approach\nOld idea.\n\n## User input\noolong',
      );
      expect(ideas.map((idea) => idea.branchName)).toEqual([
        'Straightforward approach',
        'Detailed approach',
        'Practical approach',
      ]);
    });

    it('picks one of the listed choices, the same one for the same prompt', async () => {
      const choices = ['Cheap', 'Balanced', 'Premium'];
      const shape = structuredOutputFor('multiple_choice', choices);
      const picks = new Set<string>();
      for (const input of ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']) {
        const request = {
          system: shape.instruction,
          prompt: `${task}\n\n## User input\n${input}`,
          json: shape.json!,
        };
        const first = JSON.parse((await collect(request)).answer.text) as { choice: string; reason: string };
        const again = JSON.parse((await collect(request)).answer.text) as { choice: string };
        expect(choices).toContain(first.choice);
        expect(again.choice).toBe(first.choice);
        expect(first.reason.startsWith('[Offline model]')).toBe(true);
        picks.add(first.choice);
      }
      // A stable hash, not a constant: different prompts spread over the choices.
      expect(picks.size).toBeGreaterThan(1);
    });

    it('picks the choice the input and the earlier results speak for, and says why in the UI’s Vietnamese', async () => {
      const shape = structuredOutputFor('multiple_choice', ['Health', 'History', 'Taste']);
      const { answer } = await collect({
        system: shape.instruction,
        prompt: 'Pick the angle of the post.\n\n## User input\nThe long history of oolong in Fujian',
        json: shape.json!,
      });
      expect(JSON.parse(answer.text)).toEqual({
        choice: 'History',
        reason:
          '[Offline model] Chọn "History" vì nội dung nhắc đến "history" (chủ đề: The long history of oolong in Fujian).',
      });
    });

    it('builds a conforming value for any other schema', async () => {
      const schema = {
        type: 'object',
        properties: {
          name: { type: 'string' },
          steps: {
            type: 'array',
            minItems: 3,
            items: {
              type: 'object',
              properties: {
                name: { type: 'string' },
                systemPrompt: { type: 'string' },
                outputMode: { type: 'string', enum: ['single', 'multiple'] },
                order: { type: 'integer' },
                requiresUserInput: { type: 'boolean' },
              },
              required: ['name', 'systemPrompt'],
            },
          },
          rating: { type: 'NUMBER', minimum: 2.5 },
          notes: { type: ['string', 'null'], maxLength: 20 },
        },
        required: ['name', 'steps'],
      };
      const { answer } = await collect({ system: '', prompt: 'Plan a trip to Hue.', json: { schema } });
      const value = JSON.parse(answer.text);
      expect(value.name).toBe('[Offline model] name 1: Plan a trip to Hue.');
      expect(value.steps).toHaveLength(3);
      expect(value.steps[1]).toEqual({
        name: '[Offline model] name 2: Plan a trip to Hue.',
        systemPrompt: '[Offline model] system prompt 2: Plan a trip to Hue.',
        outputMode: 'single',
        order: 2,
        requiresUserInput: true,
      });
      expect(value.rating).toBe(3);
      expect(value.notes).toHaveLength(20);
    });
  });
});
