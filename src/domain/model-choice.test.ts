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
