import { z } from 'zod';

/**
 * A record's id as a request names it: a UUID written in either case, taken in the lower case PostgreSQL
 * writes it. The database reads a uuid in either case, but an event stream's id is text: `experiment-<ID>` in
 * capitals is no stream at all, and one record named in both cases would be two (compared with itself).
 */
export const requestedId = (error?: string) =>
  z.uuid(error === undefined ? undefined : { error }).toLowerCase();
