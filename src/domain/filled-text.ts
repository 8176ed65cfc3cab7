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

/** A text that must be filled in (more than spaces), trimmed, at most `max` characters (else `tooLong`). */
export const requiredText = (message: string, max: number, tooLong?: string) =>
  z.string({ error: message }).trim().min(1, message).max(max, tooLong).meta(FILLED);

/** Whether a text is filled in (more than spaces). */
export const isFilled = (text: string | undefined) => (text ?? '').trim() !== '';
