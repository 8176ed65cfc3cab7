import type { FastifyReply, FastifyRequest } from 'fastify';
import { DomainError } from '../../domain/errors';

/**
 * Entity tags (RFC 9110 §8.8.3) of the records kept as event streams, and the conditions clients put on them
 * (§13.1): the one place they are made, read and compared. A record's tag is its stream version, quoted: a
 * strong tag, since every change of the record is a new version.
 */
export const entityTagOf = (version: number) => `"${version}"`;

/** Whether a stream version satisfies a request's If-Match: checked on the state the write is decided on. */
export type VersionCondition = (version: number) => boolean;

interface ListedTag {
  weak: boolean;
  tag: string;
}

/** `*`, or the entity tags a condition header lists (none when it is malformed); undefined when it is absent. */
function tagsOf(header: string | string[] | undefined): '*' | ListedTag[] | undefined {
  if (header === undefined) return undefined;
  const value = (Array.isArray(header) ? header.join(',') : header).trim();
  if (value === '') return undefined;
  if (value === '*') return '*';
  return [...value.matchAll(/(W\/)?("[^"]*")/g)].map(([, weak, tag]) => ({
    weak: weak !== undefined,
    tag: tag!,
  }));
}

/**
 * Whether If-None-Match holds the current tag (weak comparison, §13.1.2), so a GET answers 304: the client's
 * copy is current.
 */
export function notModified(request: FastifyRequest, version: number): boolean {
  const tags = tagsOf(request.headers['if-none-match']);
  if (tags === undefined) return false;
  return tags === '*' || tags.some(({ tag }) => tag === entityTagOf(version));
}

/**
 * The request's If-Match as a condition on the version (strong comparison, §13.1.1: a weak tag never
 * matches); undefined without one, and the write goes ahead as it always did. `*` asks only that the record
 * exists, which finding it proves.
 */
export function ifMatchOf(request: FastifyRequest): VersionCondition | undefined {
  const tags = tagsOf(request.headers['if-match']);
  if (tags === undefined) return undefined;
  if (tags === '*') return () => true;
  return (version) => tags.some(({ weak, tag }) => !weak && tag === entityTagOf(version));
}

/** The words of a write refused for its If-Match: the flow's, also for a write on one of its steps. */
export const versionMismatchMessage = (version: number) =>
  `Flow đã được thay đổi ở nơi khác sau khi bạn mở và đang ở version ${version}: hãy tải lại rồi sửa trên version đó.`;

/** Refuses a write whose If-Match names another version than the flow's (412). */
export function requireVersion(condition: VersionCondition | undefined, version: number) {
  if (condition && !condition(version)) {
    throw new DomainError('version_mismatch', versionMismatchMessage(version), { currentVersion: version });
  }
}

/**
 * Sends the record's tag with the answer; when the client's copy is current (If-None-Match) the answer is a
 * 304 without a body, sent here: true then, and the route has nothing more to send.
 */
export function tagAnswer(request: FastifyRequest, reply: FastifyReply, version: number): boolean {
  reply.header('etag', entityTagOf(version));
  if (!notModified(request, version)) return false;
  reply.code(304).send();
  return true;
}
