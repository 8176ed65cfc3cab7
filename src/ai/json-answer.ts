import type { z } from 'zod';
import { ModelCallError } from './model-provider';

/**
 * A JSON-mode answer checked against its schema; text that is not JSON or not of that shape is a
 * retryable ModelCallError naming `what` the model was asked for.
 */
export function parseJsonAnswer<T>(text: string, schema: z.ZodType<T>, what: string): T {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (cause) {
    throw new ModelCallError(`The model answered the ${what} with text that is not JSON. Try again.`, {
      retryable: true,
      cause,
    });
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    throw new ModelCallError(`The model answered the ${what} in the wrong shape. Try again.`, {
      retryable: true,
      cause: parsed.error,
    });
  }
  return parsed.data;
}
