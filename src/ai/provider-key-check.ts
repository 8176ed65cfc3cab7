import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { anthropicFailure } from './anthropic-provider';
import type { KeyCheck } from './gemini-key-check';
import { openAIFailure } from './openai-provider';
import { explainProviderFailure, type ProviderName, type SdkFailure } from './provider-failure';

export interface ProviderKeyCheckOptions {
  apiKey: string;
  /** Where the API lives (OpenAI's with its version path, Anthropic's without); the provider's own when unset. */
  baseUrl?: string | undefined;
  timeoutMs?: number;
  /** A redirect fails the check instead of being followed: for an address a user gave. */
  noRedirects?: boolean;
}

/**
 * What a failed models list says of the key: refused on 401/403 (the API's own reason); known on a quota
 * answer (429); anything else (unreachable, too slow, down, no models list at all) leaves it unchecked.
 */
function keyCheckOf(
  error: unknown,
  failure: SdkFailure | null,
  context: { provider: ProviderName; baseUrl: string; timeoutMs: number },
): KeyCheck {
  if (failure?.kind === 'status' && (failure.status === 401 || failure.status === 403))
    return { outcome: 'rejected', reason: failure.detail || `${failure.status}` };
  if (failure?.kind === 'status' && failure.status === 429) return { outcome: 'accepted' };
  const explained = explainProviderFailure(error, failure, {
    ...context,
    model: 'models',
    stopped: false,
    timedOut: false,
  });
  return { outcome: 'unchecked', reason: explained.message };
}

/** The SDK client's options for a key check: no retries, the check's time limit, no redirects when asked. */
const clientOptions = ({ apiKey, baseUrl, timeoutMs = 10_000, noRedirects }: ProviderKeyCheckOptions) => ({
  apiKey,
  maxRetries: 0,
  timeout: timeoutMs,
  ...(baseUrl ? { baseURL: baseUrl } : {}),
  ...(noRedirects ? { fetchOptions: { redirect: 'error' as const } } : {}),
});

/** Asks the API something that needs the key and costs nothing; what its failure says of the key. */
async function checkBy(
  ask: () => Promise<unknown>,
  failureOf: (error: unknown) => SdkFailure | null,
  context: { provider: ProviderName; baseUrl: string; timeoutMs: number },
): Promise<KeyCheck> {
  try {
    await ask();
    return { outcome: 'accepted' };
  } catch (error) {
    return keyCheckOf(error, failureOf(error), context);
  }
}

/** Asks an OpenAI-compatible API for its models with the key. */
export function checkOpenAIKey(options: ProviderKeyCheckOptions): Promise<KeyCheck> {
  const client = new OpenAI(clientOptions(options));
  return checkBy(() => client.models.list(), openAIFailure, {
    provider: 'OpenAI',
    baseUrl: client.baseURL,
    timeoutMs: client.timeout,
  });
}

/** Asks Anthropic's API for one model with the key. */
export function checkAnthropicKey(options: ProviderKeyCheckOptions): Promise<KeyCheck> {
  const client = new Anthropic(clientOptions(options));
  return checkBy(() => client.models.list({ limit: 1 }), anthropicFailure, {
    provider: 'Anthropic',
    baseUrl: client.baseURL,
    timeoutMs: client.timeout,
  });
}
