import { describe, expect, it } from 'vitest';
import { ModelCallError } from '../../ai';
import { DomainError } from '../../domain/errors';
import {
  chatRequestAttributes,
  chatResponseAttributes,
  errorTypeOf,
  genAiProviderName,
  inferenceDetails,
  OFFLINE_PROVIDER_NAME,
} from './gen-ai';

describe('gen_ai.provider.name of a model call', () => {
  it.each([
    ['gemini:gemini-2.5-flash', 'gemini', 'gcp.gemini'],
    ['openai:gpt-4.1-mini', 'openai', 'openai'],
    ['anthropic:claude-sonnet-4-5', 'anthropic', 'anthropic'],
    ['mistral:mistral-large', 'openai', 'mistral_ai'],
    ['ollama:qwen3', 'openai', 'ollama'],
    ['openrouter:meta/llama-3', 'openai', 'openrouter'],
  ] as const)('%s (a %s provider) is %s', (modelId, kind, name) => {
    expect(genAiProviderName(modelId, kind)).toBe(name);
  });

  it('names the offline model as such, whatever its id', () => {
    expect(genAiProviderName('offline:offline', 'offline')).toBe(OFFLINE_PROVIDER_NAME);
    expect(genAiProviderName('gemini:gemini-2.5-flash', 'offline')).toBe(OFFLINE_PROVIDER_NAME);
  });
});

describe('the attributes of a chat span', () => {
  const provider = { kind: 'openai', model: 'gpt-4.1-mini' } as const;

  it('before the call: the operation, the provider and the model asked for', () => {
    expect(chatRequestAttributes('openai:gpt-4.1-mini', provider)).toEqual({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'openai',
      'gen_ai.request.model': 'gpt-4.1-mini',
    });
  });

  it('once answered: the model, and the finish reason and token counts when reported', () => {
    const answer = { text: 'Hi', usage: { inputTokens: 12, outputTokens: 3 }, finishReason: 'end_turn' };
    expect(chatResponseAttributes(provider, answer)).toEqual({
      'gen_ai.response.model': 'gpt-4.1-mini',
      'gen_ai.response.finish_reasons': ['end_turn'],
      'gen_ai.usage.input_tokens': 12,
      'gen_ai.usage.output_tokens': 3,
    });
    expect(chatResponseAttributes(provider, { text: 'Hi', usage: null })).toEqual({
      'gen_ai.response.model': 'gpt-4.1-mini',
    });
  });

  it('never carries the texts: those are only in the details event', () => {
    const request = { system: 'Be brief.', prompt: 'Secret plan' };
    const answer = { text: 'Secret answer', usage: null };
    const chat = chatRequestAttributes('openai:gpt-4.1-mini', provider);
    const spanAttributes = JSON.stringify({ ...chat, ...chatResponseAttributes(provider, answer) });
    expect(spanAttributes).not.toContain('Secret');
    const details = inferenceDetails(request, answer, chat);
    expect(JSON.parse(details['gen_ai.system_instructions'] as string)).toEqual([
      { type: 'text', content: 'Be brief.' },
    ]);
    expect(JSON.parse(details['gen_ai.input.messages'] as string)).toEqual([
      { role: 'user', parts: [{ type: 'text', content: 'Secret plan' }] },
    ]);
    expect(JSON.parse(details['gen_ai.output.messages'] as string)).toEqual([
      { role: 'assistant', parts: [{ type: 'text', content: 'Secret answer' }], finish_reason: 'stop' },
    ]);
    expect(inferenceDetails({ system: '', prompt: 'x' }, answer, chat)).not.toHaveProperty(
      'gen_ai.system_instructions',
    );
  });
});

describe('error.type of a failed call', () => {
  it('is a word of a small set, never the message', () => {
    expect(errorTypeOf(new Error('boom'), 'stopped')).toBe('stopped');
    expect(errorTypeOf(new Error('boom'), 'interrupted')).toBe('interrupted');
    expect(errorTypeOf(new ModelCallError('Too many requests', { retryable: true, status: 429 }), null)).toBe(
      '429',
    );
    expect(errorTypeOf(new DomainError('model_failed', 'The model said no'), null)).toBe('model_failed');
    expect(errorTypeOf(new TypeError('fetch failed'), null)).toBe('TypeError');
    expect(errorTypeOf(new Error('anything'), null)).toBe('_OTHER');
    expect(errorTypeOf('a string', null)).toBe('_OTHER');
  });
});
