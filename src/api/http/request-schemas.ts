import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { FILLED } from '../../domain/filled-text';
import { requestedId } from '../../domain/record-id';

export const idParams = z.object({ id: requestedId() });

export const WHOLE_NUMBER_MESSAGE = 'phải là số nguyên viết bằng các chữ số 0-9';

/**
 * A whole number in a path or a query, from `min` to `max`: decimal digits only. Coercing with `Number()`
 * would read '0x10' as 16, ' 1' as 1, '1e2' as 100 and '' as 0, so a malformed number would name another
 * version or position than none: it is refused instead (400), saying `error`. The documented type stays an
 * integer.
 */
export const wholeNumber = (min: number, max: number, error = WHOLE_NUMBER_MESSAGE) =>
  z.preprocess(
    (value) => (typeof value === 'string' && /^\d{1,16}$/.test(value) ? Number(value) : value),
    z.int({ error }).min(min).max(max),
  );
export const flowIdParams = z.object({ flowId: requestedId() });

/** The first and last instants a time of the API may name: years 1 to 9999 in UTC, what PostgreSQL stores. */
const EARLIEST_TIME = Date.parse('0001-01-01T00:00:00Z');
const LATEST_TIME = Date.parse('9999-12-31T23:59:59.999Z');

/** Why a time is refused: outside those years (year 0, or an offset that moves it past one end). */
export const TIME_OUT_OF_RANGE = 'một thời điểm từ năm 0001 đến năm 9999 (UTC)';

/**
 * A time a request names: ISO 8601 with its offset (`error` when it is not), in years 1 to 9999 once in UTC;
 * PostgreSQL has no year 0, and a time past either end would fail there rather than here.
 */
export const requestTime = (error?: string) =>
  z.iso.datetime({ offset: true, ...(error === undefined ? {} : { error }) }).refine(
    (text) => {
      const at = Date.parse(text);
      return at >= EARLIEST_TIME && at <= LATEST_TIME;
    },
    { error: TIME_OUT_OF_RANGE },
  );

/**
 * A POST that takes no fields: an empty object, or no body at all (which reaches validation as null; a body
 * that is the JSON `null` is refused before, in route-schemas.ts).
 */
export const noFieldsBody = z.strictObject({}).nullish();

/** The client's name for one request, at most 200 characters: see the idempotency plugin. */
export const idempotencyKeyHeader = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .meta(FILLED)
  .optional()
  .describe(
    'Names this request, so that sending it again (a retry, a proxy passing it to another instance) has the effect of once and answers the first outcome. A new random key (a UUID) for each user action; the same key with another request answers 422. Kept 24 hours.',
  );

/** The headers of a write: its Idempotency-Key; every other header passes as it came. */
export const writeHeaders = z.looseObject({ 'idempotency-key': idempotencyKeyHeader });

/**
 * RFC 7240's `Prefer`, as far as the API heeds it: `return=minimal` asks a write that can for a short answer
 * instead of the whole record (a step run's results and where the execution stands, not the execution).
 */
export const preferHeader = z
  .string()
  .max(1000)
  .optional()
  .describe(
    'return=minimal: answer only what the request itself changed, not the whole record (the answer says which it is; Preference-Applied names what was heeded)',
  );

/** Whether a request's `Prefer` holds `return=minimal` (preferences by commas, parameters after `;`). */
export function prefersMinimal(header: string | string[] | undefined): boolean {
  const values = header === undefined ? [] : [header].flat();
  return values
    .flatMap((value) => value.split(','))
    .some((preference) => {
      const [name = '', value = ''] = (preference.split(';')[0] ?? '').split('=');
      return (
        name.trim().toLowerCase() === 'return' &&
        value
          .trim()
          .replace(/^"(.*)"$/, '$1')
          .toLowerCase() === 'minimal'
      );
    });
}

/** A client may name its command (`Idempotency-Key`) so that sending it twice has the effect of once. */
export function commandIdOf(request: FastifyRequest): string | undefined {
  return idempotencyKeyHeader.parse(request.headers['idempotency-key']);
}
