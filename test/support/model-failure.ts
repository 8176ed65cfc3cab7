import { expect } from 'vitest';
import { ModelCallError, type ModelProvider } from '../../src/ai/model-provider';

/** The error a provider's call fails with, once it is known to be a ModelCallError. */
export async function failureOf(provider: ModelProvider): Promise<ModelCallError> {
  const error = await provider.stream({ system: 's', prompt: 'p' }).final.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ModelCallError);
  return error as ModelCallError;
}
