/**
 * What went wrong, in the product's terms. The domain, the services and the routes throw only this (or a
 * subclass such as ModelCallError); the central error handler alone turns a kind into an HTTP status.
 */
export type ProblemKind =
  /** The input or the command breaks a rule of the product (400). */
  | 'rule_violated'
  /** Not signed in (401). */
  | 'signed_out'
  /** Missing, or another user's (404). */
  | 'not_found'
  /** Clashes with the current state, e.g. a run already in progress (409). */
  | 'conflict'
  /** A quota or rate limit is used up (429). */
  | 'over_limit'
  /** The work asked for is larger than a size limit allows: a prompt, a text, an event (413). */
  | 'too_large'
  /** The model or an outside API failed or answered nothing usable (502). */
  | 'model_failed'
  /** This server process is stopping and took no part in the request: any other may answer it (503). */
  | 'unavailable';

export class DomainError extends Error {
  readonly retryable: boolean;

  constructor(
    readonly kind: ProblemKind,
    message: string,
    options: { retryable?: boolean; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'DomainError';
    this.retryable = options.retryable ?? false;
  }
}

export const notFound = (what = 'Not found') => new DomainError('not_found', what);
export const ruleViolated = (message: string) => new DomainError('rule_violated', message);
export const conflict = (message: string, retryable = false) =>
  new DomainError('conflict', message, { retryable });
