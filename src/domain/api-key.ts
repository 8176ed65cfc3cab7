import { z } from 'zod';
import { FILLED, isFilled } from './filled-text';

export const FILL_IN_EVERYTHING = 'Vui lòng điền đầy đủ thông tin';
export const API_KEY_NAME_MAX_LENGTH = 200;
export const API_KEY_MAX_LENGTH = 1000;

/**
 * A new own key (POST /api/user/api-keys). Blank fields answer one message, without a field
 * name before it; the 'AI' prefix of the key is not checked.
 */
export const newApiKeySchema = z
  .strictObject({
    keyName: z.string().max(API_KEY_NAME_MAX_LENGTH).optional().meta(FILLED),
    apiKey: z.string().max(API_KEY_MAX_LENGTH).optional().meta(FILLED),
    keyType: z.literal('gemini').default('gemini'),
  })
  .refine((body) => isFilled(body.keyName) && isFilled(body.apiKey), { message: FILL_IN_EVERYTHING })
  // The document names the fields required too (the check sits on the body for its one message).
  .meta({ required: ['keyName', 'apiKey'] })
  .transform((body) => ({
    keyName: body.keyName!.trim(),
    apiKey: body.apiKey!.trim(),
    keyType: body.keyType,
  }));

/** A new own key as validated. */
export type NewApiKey = z.output<typeof newApiKeySchema>;

/** A new key its provider refused: it is not saved. */
export const keyRejected = (reason: string) => `Gemini không nhận API key này: ${reason}`;

/** A new key saved although its provider could not be asked about it. */
export const keyUnchecked = (reason: string) =>
  `API key đã được lưu nhưng chưa kiểm tra được với Gemini: ${reason}`;
