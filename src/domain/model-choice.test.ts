import { describe, expect, it } from 'vitest';
import { answeringModelId, modelIdSchema, parseModelId } from './model-choice';

describe('parseModelId', () => {
  it('splits at the first colon: the name keeps its own', () => {
    expect(parseModelId('ollama:qwen3:8b')).toEqual({ provider: 'ollama', name: 'qwen3:8b' });
    expect(parseModelId('openai:gpt-4.1-mini')).toEqual({ provider: 'openai', name: 'gpt-4.1-mini' });
  });
});

describe('answeringModelId', () => {
  it('is the chosen id when its provider answers on that name, whatever code the provider runs on', () => {
    expect(answeringModelId('openai:gpt-4.1-mini', { kind: 'openai', model: 'gpt-4.1-mini' })).toBe(
      'openai:gpt-4.1-mini',
    );
    expect(answeringModelId('ollama:qwen3:8b', { kind: 'openai', model: 'qwen3:8b' })).toBe(
      'ollama:qwen3:8b',
    );
  });

  it('names what answered in its place: a Gemini model on an own key, the offline model', () => {
    expect(answeringModelId('offline:offline', { kind: 'gemini', model: 'gemini-2.5-flash' })).toBe(
      'gemini:gemini-2.5-flash',
    );
    expect(answeringModelId('gemini:gemini-2.5-pro', { kind: 'offline', model: 'offline' })).toBe(
      'offline:offline',
    );
  });
});

describe('modelIdSchema', () => {
  it('takes provider:name, and refuses text PostgreSQL cannot store or a log cannot show', () => {
    expect(modelIdSchema.parse(' ollama:qwen3:8b ')).toBe('ollama:qwen3:8b');
    expect(modelIdSchema.parse('openai:meta-llama/Llama-3.1-8B')).toBe('openai:meta-llama/Llama-3.1-8B');
    for (const refused of ['openai:a\u0000b', 'openai:a\ud800', 'openai:a b', 'OpenAI:x', 'openai:', ':x'])
      expect(modelIdSchema.safeParse(refused).success, JSON.stringify(refused)).toBe(false);
  });
});

describe('the model id pattern', () => {
  const pattern = (modelIdSchema.toJSONSchema() as { pattern: string }).pattern;

  it('names no Unicode property (\\p{…}), which not every JSON Schema engine reads', () => {
    expect(pattern).not.toMatch(/\\[pP]\{/);
  });

  it('reads the same with the `u` flag and without: control characters and lone surrogates refused', () => {
    const accepted = [
      'openai:gpt-4.1-mini',
      'ollama:qwen3:8b',
      'openai:mô-hình',
      `openai:${'🙂'.repeat(160)}`,
    ];
    const refused = [
      'openai:a\u0000b',
      'openai:a\u001fb',
      'openai:a\u007fb',
      'openai:a\u0085b',
      'openai:a\u009fb',
      'openai:a\ud800',
      'openai:\udc00a',
      'openai:a b',
      'openai:a\u00a0b',
      `openai:${'🙂'.repeat(161)}`,
      `openai:${'x'.repeat(161)}`,
    ];
    for (const flags of ['u', '']) {
      const regex = new RegExp(pattern, flags);
      for (const id of accepted) expect(regex.test(id), `${JSON.stringify(id)} /${flags}`).toBe(true);
      for (const id of refused) expect(regex.test(id), `${JSON.stringify(id)} /${flags}`).toBe(false);
    }
  });
});
