import { describe, expect, it } from 'vitest';
import { answeringModelId, parseModelId } from './model-choice';

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
