import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ZodError } from 'zod';
import {
  DomainError,
  isProductRule,
  type LimitCode,
  type OwnKeyCode,
  type ProblemKind,
} from '../../domain/errors';
import { AppendTransactionLost, ConcurrencyConflict, EventTooLarge, MAX_EVENT_BYTES } from '../../eventstore';

const statusOf: Record<ProblemKind, number> = {
  rule_violated: 400,
  signed_out: 401,
  not_found: 404,
  forbidden: 403,
  conflict: 409,
  version_mismatch: 412,
  over_limit: 429,
  too_large: 413,
  model_failed: 502,
  unavailable: 503,
};

/** One problem with the input: where it is (empty: the input as a whole) and what it is. */
export interface InputIssue {
  code: string;
  path: PropertyKey[];
  message: string;
  /** A custom check's own: PRODUCT_RULE marks a rule of the product. */
  params?: unknown;
}

/**
 * The problems of input that failed its zod schema: a ZodError thrown by a handler, or a route's declared
 * schema refusing the request (the type provider's validation error, one entry per zod issue).
 */
export function inputIssuesOf(error: unknown): InputIssue[] | null {
  if (error instanceof ZodError) return error.issues;
  if (hasZodFastifySchemaValidationErrors(error)) {
    return error.validation.map(({ keyword, instancePath, message, params }) => ({
      ...params,
      code: keyword,
      path: instancePath.split('/').filter((part) => part !== ''),
      message: message ?? 'Invalid input',
    }));
  }
  return null;
}

export const DATABASE_AWAY = 'Cơ sở dữ liệu chưa trả lời; vui lòng gửi lại request sau giây lát.';

/** The errors postgres.js and PostgreSQL give when the server cannot be reached or is going down. */
const CONNECTION_CODES = new Set([
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
  'CONNECT_TIMEOUT',
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENOTFOUND',
]);

/**
 * A connection lost or never made by `pg`, the job queue's driver (pg-boss), which says so without a code:
 * its messages, at their start (pg-boss adds the queue and worker after them).
 */
const CODELESS_CONNECTION_LOSSES =
  /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error)/;

/**
 * The database is away (restarting, unreachable, shutting down, or with no connection to spare): PostgreSQL's
 * connection exceptions (08), operator interventions (57P01-57P03: terminated, crashed, starting up or
 * stopping) and too many clients (53300: max_connections, or a role's or database's CONNECTION LIMIT, reached
 * for now), or a connection postgres.js or the job queue's driver could not make or lost.
 */
export function isDatabaseAway(error: unknown): boolean {
  // Its transaction ended under the append by a connection lost and made again: what it stored is unknown,
  // so the request is to be sent again (with its Idempotency-Key, it is then done once).
  if (error instanceof AppendTransactionLost) return true;
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (typeof code !== 'string')
    return typeof message === 'string' && CODELESS_CONNECTION_LOSSES.test(message);
  return CONNECTION_CODES.has(code) || code.startsWith('08') || /^57P0[123]$/.test(code) || code === '53300';
}

/** The database-away errors of a connection that was never made: nothing was sent, so nothing was stored. */
const NEVER_CONNECTED_CODES = new Set([
  '08001',
  '08004',
  'ECONNREFUSED',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'CONNECT_TIMEOUT',
  '57P03',
  '53300',
]);

/**
 * Whether a write that failed with this error may still have been stored: the database went away after the
 * write was sent (its commit made, its answer lost), not before a connection was made.
 */
export function mayHaveBeenStored(error: unknown): boolean {
  if (!isDatabaseAway(error)) return false;
  const { code } = (error ?? {}) as { code?: unknown };
  return !(typeof code === 'string' && NEVER_CONNECTED_CODES.has(code));
}

/**
 * What kind of problem an answer reports, for a program to act on (the `code` of every problem): the kinds of
 * the domain, and the few the HTTP layer adds.
 */
export type ProblemCode =
  | ProblemKind
  | LimitCode
  | OwnKeyCode
  | 'invalid_input'
  | 'method_not_allowed'
  | 'forbidden_origin'
  | 'request_timeout'
  | 'url_too_long'
  | 'unsupported_media_type'
  | 'idempotency_key_reused'
  | 'invalid_token'
  | 'insufficient_scope'
  | 'internal_error';

/** Each code's short, fixed summary (the problem's `title`); `detail` says what happened this time. */
const TITLES: Record<ProblemCode, string> = {
  rule_violated: 'The request breaks a rule of the product',
  invalid_input: 'The request is malformed',
  signed_out: 'Not signed in',
  not_found: 'Not found',
  forbidden: 'Your role does not allow this',
  conflict: 'Conflicts with the current state',
  version_mismatch: 'The record is not at the version the request names',
  over_limit: 'A limit is used up',
  free_allowance_used_up: 'The free step allowance is used up',
  sign_in_rate_limited: 'Too many sign-in attempts',
  model_call_rate_limited: 'Too many model calls',
  own_key_rejected: 'The provider refuses your own API key',
  own_key_unchecked: 'Your own API key could not be checked yet',
  too_large: 'Too large',
  model_failed: 'The model failed',
  unavailable: 'Unavailable for a moment',
  method_not_allowed: 'Method not allowed',
  forbidden_origin: 'A change sent from another origin',
  request_timeout: 'The request did not arrive in time',
  url_too_long: 'The URL is too long',
  unsupported_media_type: 'Unsupported media type',
  idempotency_key_reused: 'The Idempotency-Key names another request',
  invalid_token: 'The API token is malformed, unknown, revoked or expired',
  insufficient_scope: "The API token's scopes do not allow this",
  internal_error: 'Internal server error',
};

export const PROBLEM_CODES = Object.keys(TITLES) as ProblemCode[];

/**
 * Every error answer, as RFC 9457 problem details (`application/problem+json`): `type` (a URN naming the
 * code), `title`, `status`, `detail`, and the members of this API: `code`, `message` (the same text as
 * `detail`, which the web app shows), `retryable` when sending the same request again may pass, `issues` for
 * malformed input, `currentVersion` when the version a request named (If-Match) is not the record's.
 */
export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: ProblemCode;
  message: string;
  retryable?: true;
  issues?: InputIssue[];
  currentVersion?: number;
}

/** What a problem may add to the members every problem has. */
interface ProblemExtras {
  retryable?: boolean;
  issues?: InputIssue[];
  currentVersion?: number | undefined;
}

export const PROBLEM_TYPE_PREFIX = 'urn:workbench:problem:';

export function problemOf(
  status: number,
  code: ProblemCode,
  detail: string,
  extras: ProblemExtras = {},
): Problem {
  return {
    type: `${PROBLEM_TYPE_PREFIX}${code}`,
    title: TITLES[code],
    status,
    detail,
    code,
    message: detail,
    ...(extras.retryable ? { retryable: true as const } : {}),
    ...(extras.issues ? { issues: extras.issues } : {}),
    ...(extras.currentVersion !== undefined ? { currentVersion: extras.currentVersion } : {}),
  };
}

/** Answers a problem: the one way an error becomes a response. */
export function sendProblem(
  reply: FastifyReply,
  status: number,
  code: ProblemCode,
  detail: string,
  extras: ProblemExtras = {},
) {
  return reply
    .status(status)
    .type('application/problem+json; charset=utf-8')
    .send(problemOf(status, code, detail, extras));
}

export const KEY_REUSED_MESSAGE =
  'Idempotency-Key này đã được dùng cho một request khác (method, path hoặc body khác); hãy gửi key mới cho mỗi request mới.';

/**
 * A client's Idempotency-Key sent with another request than the one it first named (422): answering the
 * first request's outcome would be a lie, and doing the new one would break the key's promise.
 */
export class IdempotencyKeyReused extends Error {
  override name = 'IdempotencyKeyReused';
  constructor() {
    super(KEY_REUSED_MESSAGE);
  }
}

/** The codes of Fastify's own client errors, by status. */
const HTTP_CODES: Partial<Record<number, ProblemCode>> = {
  400: 'invalid_input',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  408: 'request_timeout',
  413: 'too_large',
  414: 'url_too_long',
  415: 'unsupported_media_type',
  // The only limiter without a message of its own: the model-call limit per user.
  429: 'model_call_rate_limited',
};

/**
 * Fastify's own refusals in the API's language (every `detail` is the web app's, Vietnamese), by Fastify's
 * error code; their `code` says the same to a program. A refusal not named here keeps Fastify's words.
 */
const FRAMEWORK_DETAILS: Record<string, (error: FastifyError, request: FastifyRequest) => string> = {
  FST_ERR_CTP_BODY_TOO_LARGE: (_error, request) =>
    `Nội dung request quá lớn: tối đa ${sizeText(request.routeOptions.bodyLimit)}.`,
  FST_ERR_CTP_INVALID_MEDIA_TYPE: (_error, request) =>
    `Không nhận nội dung kiểu "${request.headers['content-type'] ?? ''}": hãy gửi JSON (application/json).`,
  FST_ERR_CTP_INVALID_JSON_BODY: () => 'Nội dung request không phải JSON hợp lệ.',
  FST_ERR_CTP_EMPTY_JSON_BODY: () =>
    'Content-Type là application/json nhưng nội dung trống: hãy gửi JSON, hoặc bỏ Content-Type.',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: () => 'Content-Length không khớp với nội dung request.',
  FST_ERR_BAD_URL: () => 'URL không hợp lệ.',
  FST_ERR_MAX_PARAM_LENGTH: () => 'URL quá dài.',
};

/** A limit in bytes as the refusals name it: in MB, or in KB when it is no whole number of MB. */
const sizeText = (bytes: number) =>
  bytes % (1024 * 1024) === 0 ? `${bytes / 1024 / 1024} MB` : `${Math.round(bytes / 1024)} KB`;

/** A Fastify refusal's detail: its own words in the API's language, else Fastify's. */
function frameworkDetail(error: FastifyError, request: FastifyRequest): string {
  const named = error.code ? FRAMEWORK_DETAILS[error.code] : undefined;
  if (named) return named(error, request);
  // JSON.parse's own refusal of a body, as Fastify passes it on.
  if (error instanceof SyntaxError && error.statusCode === 400)
    return FRAMEWORK_DETAILS.FST_ERR_CTP_INVALID_JSON_BODY!(error, request);
  return error.message;
}

/** The one place errors become responses: problem details, no stack traces. */
export function handleError(error: unknown, request: FastifyRequest, reply: FastifyReply) {
  const issues = inputIssuesOf(error);
  if (issues) {
    // The first problem, after the field it is in: `path: message`, the field named once when the rule's own
    // words start with it (`name: tên dataset không được để trống`, as the decider refuses it too).
    const first = issues[0];
    const field = first && first.path.length > 0 ? `${first.path.join('.')}: ` : '';
    const where = first?.message.startsWith(field) ? '' : field;
    // Well formed but against a rule of the product: the same refusal a decider gives the rule.
    const code = issues.every(isProductRule) ? 'rule_violated' : 'invalid_input';
    return sendProblem(reply, 400, code, `${where}${first?.message ?? 'Invalid input'}`, { issues });
  }
  if (error instanceof DomainError) {
    return sendProblem(reply, statusOf[error.kind], error.code ?? error.kind, error.message, {
      retryable: error.retryable,
      currentVersion: error.currentVersion,
    });
  }
  if (error instanceof IdempotencyKeyReused) {
    return sendProblem(reply, 422, 'idempotency_key_reused', error.message);
  }
  if (error instanceof EventTooLarge) {
    // The limits on prompts and texts keep events far smaller; this is the store's last line.
    return sendProblem(
      reply,
      413,
      'too_large',
      `Dữ liệu request này cần ghi là ${error.bytes.toLocaleString('en-US')} byte; mỗi event tối đa ${MAX_EVENT_BYTES.toLocaleString('en-US')} byte.`,
    );
  }
  if (error instanceof ConcurrencyConflict) {
    // A command gave up after its retries: the same request again is likely to pass.
    return sendProblem(
      reply,
      409,
      'conflict',
      'Đã bị một request khác thay đổi cùng lúc; vui lòng thử lại.',
      {
        retryable: true,
      },
    );
  }
  if (isDatabaseAway(error)) {
    // Nothing was done, or what was is rolled back: the same request later, or on another instance, may pass.
    reply.header('retry-after', '2');
    return sendProblem(reply, 503, 'unavailable', DATABASE_AWAY, { retryable: true });
  }
  const fastifyError = error as FastifyError;
  if (fastifyError.statusCode && fastifyError.statusCode < 500) {
    const status = fastifyError.statusCode;
    return sendProblem(
      reply,
      status,
      HTTP_CODES[status] ?? 'rule_violated',
      frameworkDetail(fastifyError, request),
    );
  }
  request.log.error({ err: error }, 'unhandled error');
  return sendProblem(reply, 500, 'internal_error', 'Đã có lỗi ở server; vui lòng thử lại sau.');
}
