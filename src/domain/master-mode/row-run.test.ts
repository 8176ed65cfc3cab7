import { describe, expect, it } from 'vitest';
import { DomainError } from '../errors';
import { DEFAULT_LIMITS } from '../limits';
import type { MasterStep } from './master-session';
import { allowedApiUrl, blankRequiredRow, DEFAULT_MASTER_INPUT, planRowRun } from './row-run';

let ids = 0;
function row(fields: Partial<MasterStep>): MasterStep {
  ids++;
  return {
    id: `row-${ids}`,
    sessionId: 'session',
    order: ids,
    stepName: `Step ${ids}`,
    userInput: '',
    result: '',
    systemPrompt: '',
    stepType: 'ai',
    isRequired: false,
    model: null,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    ...fields,
  };
}

const refusal = (run: () => unknown) => {
  expect(run).toThrow(DomainError);
  try {
    run();
  } catch (error) {
    return (error as Error).message;
  }
  return '';
};

describe('running a master mode row', () => {
  const rows = [
    row({ stepType: 'text', userInput: 'Vietnam', result: 'Vietnam' }),
    row({ stepType: 'calculation', userInput: '6 * 7', result: '42' }),
    row({ stepType: 'text', userInput: 'Country [[row-1]], answer [[row-2]], missing [[row-9]]' }),
    row({ stepType: 'calculation', userInput: '[[row-2]] / 2' }),
    row({ stepType: 'ai', systemPrompt: 'Describe [[row-1]] in [[row-2]] words.', userInput: 'Be brief' }),
    row({ stepType: 'ai', systemPrompt: 'Say hello' }),
    row({ stepType: 'api', userInput: 'http://127.0.0.1:4000/data?country=[[row-1]]' }),
  ];

  it('text passes its input through with references replaced', () => {
    expect(planRowRun(rows, 3, [], DEFAULT_LIMITS)).toMatchObject({
      kind: 'answered',
      result: 'Country Vietnam, answer 42, missing [[row-9]]',
      input: { unresolved: [9] },
    });
  });

  it('calculation evaluates its input over earlier results', () => {
    expect(planRowRun(rows, 4, [], DEFAULT_LIMITS)).toMatchObject({ kind: 'answered', result: '21' });
    const broken = [...rows.slice(0, 3), row({ stepType: 'calculation', userInput: '[[row-3]] + 1' })];
    expect(refusal(() => planRowRun(broken, 4, [], DEFAULT_LIMITS))).toMatch(
      /^Dòng 004 "Step \d+": Dòng 003 chưa có kết quả$/,
    );
  });

  it('ai asks the model with the resolved prompt and input', () => {
    const plan = planRowRun(rows, 5, [], DEFAULT_LIMITS);
    expect(plan.kind).toBe('model');
    if (plan.kind !== 'model') return;
    expect(plan.prompt).toBe('Describe Vietnam in 42 words.\n\n## User input\nBe brief');
    expect(plan.systemPrompt.references).toEqual({ '1': 'Vietnam', '2': '42' });
    const blank = planRowRun(rows, 6, [], DEFAULT_LIMITS);
    expect(blank.kind === 'model' && blank.prompt).toBe(
      `Say hello\n\n## User input\n${DEFAULT_MASTER_INPUT}`,
    );
  });

  it("ai asks the model the row names, or the server's default when it names none", () => {
    const named = [row({ stepType: 'ai', systemPrompt: 'Hi', model: 'anthropic:claude-sonnet-5' })];
    expect(planRowRun(named, 1, [], DEFAULT_LIMITS)).toMatchObject({
      kind: 'model',
      model: 'anthropic:claude-sonnet-5',
    });
    expect(planRowRun(rows, 6, [], DEFAULT_LIMITS)).toMatchObject({ kind: 'model', model: null });
  });

  it('api calls only allowed hosts', () => {
    const plan = planRowRun(rows, 7, ['127.0.0.1:4000'], DEFAULT_LIMITS);
    expect(plan.kind === 'http' && plan.url.href).toBe('http://127.0.0.1:4000/data?country=Vietnam');
    expect(refusal(() => planRowRun(rows, 7, [], DEFAULT_LIMITS))).toMatch(/MASTER_MODE_API_HOSTS trống/);
    expect(refusal(() => planRowRun(rows, 7, ['127.0.0.1'], DEFAULT_LIMITS))).toMatch(
      /127\.0\.0\.1:4000 không được phép/,
    );
  });

  it('refuses a required row with blank input', () => {
    const required = [row({ stepName: 'Topic', isRequired: true, userInput: '  ' })];
    expect(refusal(() => planRowRun(required, 1, [], DEFAULT_LIMITS))).toBe(
      'Dòng 001 "Topic" là bắt buộc: hãy nhập input trước khi chạy',
    );
    expect(blankRequiredRow([...rows, ...required])).toMatchObject({ position: 8 });
    expect(blankRequiredRow(rows)).toBeNull();
  });
});

describe('the API host allow-list', () => {
  const hosts = ['api.example.com', '127.0.0.1:4000'];

  it('allows listed hosts, a port only when listed with it', () => {
    expect(allowedApiUrl('https://api.example.com/v1', hosts).host).toBe('api.example.com');
    expect(allowedApiUrl('http://API.example.com/v1', hosts).host).toBe('api.example.com');
    expect(allowedApiUrl(' http://127.0.0.1:4000/x ', hosts).port).toBe('4000');
    expect(refusal(() => allowedApiUrl('https://api.example.com:8443/', hosts))).toMatch(/không được phép/);
    expect(refusal(() => allowedApiUrl('http://127.0.0.1:4001/', hosts))).toMatch(/không được phép/);
  });

  it('refuses other hosts, other schemes, credentials and non-URLs', () => {
    expect(refusal(() => allowedApiUrl('https://evil.example.com/', hosts))).toMatch(/không được phép/);
    expect(refusal(() => allowedApiUrl('https://api.example.com.evil.io/', hosts))).toMatch(
      /không được phép/,
    );
    expect(refusal(() => allowedApiUrl('file:///etc/passwd', hosts))).toMatch(/http/);
    expect(refusal(() => allowedApiUrl('https://me:pw@api.example.com/', hosts))).toMatch(/password/);
    expect(refusal(() => allowedApiUrl('not a url', hosts))).toMatch(/phải là một URL/);
  });
});

describe('sizes of a row run', () => {
  const limits = { maxPromptChars: 5_000, maxTextChars: 2_000 };
  const chain = (result: string, prompt: string, stepType: 'ai' | 'text' = 'ai') => [
    row({ stepName: 'Source', result }),
    row({
      stepName: 'Uses it',
      stepType,
      systemPrompt: prompt,
      userInput: stepType === 'text' ? prompt : '',
    }),
  ];

  it('counts a repeated [[row-N]] without expanding it, and refuses a prompt past MAX_PROMPT_CHARS', () => {
    const rows = chain('x'.repeat(1_000), '[[row-1]]'.repeat(400));
    expect(refusal(() => planRowRun(rows, 2, [], limits))).toBe(
      'Dòng 002 "Uses it": prompt sẽ dài 400,020 ký tự; giới hạn (MAX_PROMPT_CHARS) là 5,000.',
    );
  });

  it('refuses a text row whose result would pass MAX_TEXT_CHARS', () => {
    const rows = chain('x'.repeat(1_000), '[[row-1]][[row-1]][[row-1]]', 'text');
    expect(refusal(() => planRowRun(rows, 2, [], limits))).toBe(
      'Dòng 002 "Uses it": input sẽ dài 3,000 ký tự; giới hạn (MAX_TEXT_CHARS) là 2,000.',
    );
    expect(
      planRowRun(chain('x'.repeat(600), '[[row-1]][[row-1]][[row-1]]', 'text'), 2, [], limits),
    ).toMatchObject({
      kind: 'answered',
      result: 'x'.repeat(1_800),
    });
  });
});
