import { DomainError } from './errors';

/**
 * Every size a user's work can reach, bounded: what one request may make the server build, send to a
 * model or store. Configured by the environment variables named here (README, Configuration).
 */
export interface Limits {
  /** The final prompt sent to a model: system prompt, inputs, resolved references, context. */
  maxPromptChars: number;
  /** One text a user or a model writes: a result, a user input, a note, a master mode cell. */
  maxTextChars: number;
}

export const DEFAULT_LIMITS: Limits = { maxPromptChars: 1_000_000, maxTextChars: 500_000 };

/**
 * What MAX_TEXT_CHARS may be set to at most, and so what the request schemas let through for a text the
 * limit governs: the configured limit refuses (413) before a schema would.
 */
export const MAX_TEXT_CEILING = 1_000_000;

const LIMIT_NAMES: Record<keyof Limits, string> = {
  maxPromptChars: 'MAX_PROMPT_CHARS',
  maxTextChars: 'MAX_TEXT_CHARS',
};

const count = (n: number) => n.toLocaleString('en-US');

/**
 * `what` would be `size` characters, past `limit`: a 413 that names the limit and both sizes, in the words
 * the screens show it in.
 */
export function tooLarge(what: string, size: number, limit: keyof Limits, limits: Limits): DomainError {
  return new DomainError(
    'too_large',
    `${what} sẽ dài ${count(size)} ký tự; giới hạn (${LIMIT_NAMES[limit]}) là ${count(limits[limit])}.`,
  );
}

/** Refuses a size past its limit, before anything is built, appended or sent. */
export function checkSize(what: string, size: number, limit: keyof Limits, limits: Limits): void {
  if (size > limits[limit]) throw tooLarge(what, size, limit, limits);
}

/**
 * An answer from outside (a model, an API) past MAX_TEXT_CHARS is not kept: the run fails saying so (502,
 * the outside answered too much), whether the size is known as it streams or at its end.
 */
export function checkAnswerSize(what: string, size: number, limits: Limits): void {
  if (size <= limits.maxTextChars) return;
  const { message } = tooLarge(what, size, 'maxTextChars', limits);
  throw new DomainError(
    'model_failed',
    `${message} Câu trả lời không được giữ; hãy yêu cầu một câu trả lời ngắn hơn.`,
  );
}

/** A workspace's name: as long as a flow's may be. */
export const WORKSPACE_NAME_MAX_LENGTH = 200;
/** Workspaces one user may be a member of, in any role (made by them or joined). */
export const MAX_WORKSPACES_PER_USER = 100;
/** Members of one workspace. */
export const MAX_WORKSPACE_MEMBERS = 1_000;
/** How long an invitation's link may be used. */
export const INVITATION_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;
/** Invitations one user may send in an hour, over all their workspaces and every server instance. */
export const INVITATIONS_PER_HOUR = 30;

/** A dataset's name. */
export const DATASET_NAME_MAX_LENGTH = 100;
/** Datasets of one flow. */
export const MAX_DATASETS_PER_FLOW = 100;
/** Items of one dataset, archived ones included (items are never deleted). */
export const MAX_DATASET_ITEMS = 5_000;
/** Items one request adds (JSON, CSV rows or a captured run). */
export const MAX_DATASET_ITEMS_PER_ADD = 500;
/** Inputs of one item, and expected texts of one item. */
export const MAX_DATASET_ITEM_FIELDS = 50;
/** One input or expected text of an item. */
export const DATASET_TEXT_MAX_CHARS = 20_000;
/** Every input and expected text of a dataset together, so that reading one stays bounded. */
export const DATASET_MAX_TOTAL_CHARS = 10_000_000;
/** Tags of one item, and the length of each. */
export const MAX_DATASET_ITEM_TAGS = 10;
export const DATASET_TAG_MAX_LENGTH = 50;
/** A CSV file of items, in bytes. */
export const DATASET_CSV_MAX_BYTES = 5 * 1024 * 1024;

/**
 * Experiments one user may have running at once (started by them, neither completed nor stopped), over all
 * their flows and workspaces: each may have up to 20 model calls in flight for up to 5,000 runs.
 */
export const MAX_RUNNING_EXPERIMENTS_PER_USER = 5;
/** Experiments of one flow, ended ones included (experiments are never deleted). */
export const MAX_EXPERIMENTS_PER_FLOW = 200;
