import type { KeySource } from '../domain/execution';
import { createGeminiProvider } from './gemini-provider';
import type { ModelProvider } from './model-provider';
import { createOfflineProvider } from './offline-provider';

export interface ProviderChoice {
  /** The user's active own key, decrypted. */
  ownKey: string | null;
  /** The server's GEMINI_API_KEY. */
  defaultKey: string | undefined;
  model: string;
  baseUrl?: string;
  timeoutMs?: number;
}

export interface ResolvedProvider {
  provider: ModelProvider;
  keySource: KeySource;
}

/** The model a run uses: the user's own key, else the server's key, else the offline model. */
export function resolveProvider({
  ownKey,
  defaultKey,
  model,
  baseUrl,
  timeoutMs,
}: ProviderChoice): ResolvedProvider {
  const gemini = (apiKey: string) =>
    createGeminiProvider({
      apiKey,
      model,
      ...(baseUrl ? { baseUrl } : {}),
      ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    });
  const own = ownKey?.trim();
  if (own) return { provider: gemini(own), keySource: 'own' };
  const server = defaultKey?.trim();
  if (server) return { provider: gemini(server), keySource: 'default' };
  return { provider: createOfflineProvider(), keySource: 'offline' };
}
