import { z } from 'zod';

/**
 * The API document's word for "holds more than spaces": the schemas trim before they count, which a JSON
 * Schema cannot say, so a text that must be filled in carries this pattern as well.
 */
export const FILLED = { pattern: '\\S' } as const;

/** The refusal of a text over its limit, in the API's words. */
export const atMostCharacters = (max: number) => `tối đa ${max} ký tự`;

/** The refusal of a field left empty, in the API's words. */
export const isRequired = (field: string) => `${field} không được để trống`;

/** The refusal of a value outside its list, in the API's words. */
export const oneOf = (values: readonly string[]) => `phải là một trong: ${values.join(', ')}`;

/**
 * Characters that show nothing: the format characters (zero-width space and joiners, word joiner, bidi
 * marks and overrides, soft hyphen, byte order mark, Mongolian vowel separator) and the blank fillers
 * (Hangul fillers, the blank Braille pattern). A text of these and spaces alone reads as empty.
 */
const INVISIBLE = /[\p{Cf}\u115F\u1160\u2800\u3164\uFFA0]/gu;

/** Whether a text is filled in: it holds a character that shows, more than spaces and invisible ones. */
export const isFilled = (text: string | undefined) => (text ?? '').replace(INVISIBLE, '').trim() !== '';

/** A text that must be filled in (more than spaces), trimmed, at most `max` characters (else `tooLong`). */
export const requiredText = (message: string, max: number, tooLong?: string) =>
  z
    .string({ error: message })
    .trim()
    .min(1, { error: message, abort: true })
    .max(max, tooLong)
    .refine(isFilled, message)
    .meta(FILLED);
