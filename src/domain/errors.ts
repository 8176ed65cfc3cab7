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
  /** Seen by a member of its workspace whose role does not allow this (403). */
  | 'forbidden'
  /** Clashes with the current state, e.g. a run already in progress (409). */
  | 'conflict'
  /** The client's If-Match names another version than the record's current one (412). */
  | 'version_mismatch'
  /** A quota or rate limit is used up (429). */
  | 'over_limit'
  /** The work asked for is larger than a size limit allows: a prompt, a text, an event (413). */
  | 'too_large'
  /** The model or an outside API failed or answered nothing usable (502). */
  | 'model_failed'
  /** This server process is stopping and took no part in the request: any other may answer it (503). */
  | 'unavailable';

/** Which limit a request ran into, when a program needs to tell them apart (all are 'over_limit'). */
export type LimitCode = 'free_allowance_used_up' | 'sign_in_rate_limited' | 'model_call_rate_limited';

/**
 * An own key saved while its provider could not be asked about it, asked at its first use: refused then
 * (`own_key_rejected`, 400), or still not to be asked (`own_key_unchecked`, 409, retryable).
 */
export type OwnKeyCode = 'own_key_rejected' | 'own_key_unchecked';

export class DomainError extends Error {
  readonly retryable: boolean;
  /** A finer name of the problem than its kind, for a program to tell apart (which limit is used up). */
  readonly code: LimitCode | OwnKeyCode | undefined;
  /** On a version mismatch: the record's version, so the client knows what to read again. */
  readonly currentVersion: number | undefined;

  constructor(
    readonly kind: ProblemKind,
    message: string,
    options: {
      retryable?: boolean;
      cause?: unknown;
      code?: LimitCode | OwnKeyCode;
      currentVersion?: number;
    } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'DomainError';
    this.retryable = options.retryable ?? false;
    this.code = options.code;
    this.currentVersion = options.currentVersion;
  }
}

/**
 * The `params` of a schema check that is a rule of the product (a multiple_choice step needs a choice, input
 * sources name earlier steps), not a shape: its refusal is `rule_violated`, as the same rule's refusal by a
 * decider is. A schema cannot show such a rule, so a request the API document allows may still break it.
 */
export const PRODUCT_RULE = { productRule: true } as const;

/** Whether a schema issue is a rule of the product (PRODUCT_RULE). */
export const isProductRule = (issue: { params?: unknown }) =>
  (issue.params as { productRule?: unknown } | undefined)?.productRule === true;

export const notFound = (what = 'Not found') => new DomainError('not_found', what);
export const ruleViolated = (message: string) => new DomainError('rule_violated', message);
export const forbidden = (message: string) => new DomainError('forbidden', message);
export const conflict = (message: string, retryable = false) =>
  new DomainError('conflict', message, { retryable });
