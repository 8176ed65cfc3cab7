/**
 * The offline check of an audit bundle (`workbench-audit-bundle/v1`): that every event it carries is the one
 * the audit log holds, by the log's signed checkpoint (C2SP signed note, Ed25519) and RFC 9162 inclusion
 * proofs; that no event the log holds for a record is missing or replaced; and, given another checkpoint of
 * the log, that the log at one extends the log at the other (RFC 9162 consistency proof).
 *
 * Pure: no I/O and no Node-only module, so the same checks run in the command-line verifier and in the
 * verifier page in a browser. It never throws: any input it cannot read is a failure saying why, naming the
 * stream, the position and the leaf index where one applies. Its outcome is data (`checkBundle`: a message code
 * and its values, see messages.ts), which each front end puts in its language: `verifyBundle` in English for
 * the command line, the page in Vietnamese.
 */
import { en as zodEnglish } from 'zod/locales';
import * as z from 'zod/mini';
import { contentHash, eventLeafHash } from '../domain/audit/event-leaf';
import {
  equalHashes,
  HASH_SIZE,
  type Hash,
  verifyConsistency,
  verifyInclusion,
} from '../domain/audit/merkle';
import {
  type Checkpoint,
  decodeBase64,
  parseVerifierKey,
  type VerifierKey,
  verifyCheckpoint,
} from '../domain/audit/signed-note';
import {
  type CheckpointOf,
  en,
  type FieldProblem,
  type Message,
  type MessageOf,
  type NoteProblem,
  render,
} from './messages';

export const BUNDLE_FORMAT = 'workbench-audit-bundle/v1';

/** The outcome as data: the message of success and the warnings, or the refusal (the first bad thing). */
export type Outcome =
  | { ok: true; events: number; size: number; message: MessageOf<'verified'>; warnings: Message[] }
  | { ok: false; message: Message };

/** The outcome in words. */
export type VerifyResult =
  | { ok: true; events: number; size: number; message: string; warnings: string[] }
  | { ok: false; message: string };

export interface VerifyOptions {
  /** The log's verifier key text (`<name>+<key ID>+<base64>`), got from elsewhere than the bundle. */
  key?: string;
  /**
   * Another checkpoint of the log, earlier or later than the bundle's: a signed note, or the JSON the
   * consistency route answers (`{ from, to, proof }`).
   */
  checkpoint?: string;
}

/** The warning when no key was given (the bundle then vouches for itself), in English. */
export const OWN_KEY_WARNING = /* @__PURE__ */ en['own-key']({ code: 'own-key' });

/** A proof of a tree of up to 2^53 leaves has at most 53 hashes. */
const MAX_PROOF = 64;

// zod/mini, not zod: the page carries only the parts used (zod's whole namespace, with all its locales, is
// half a megabyte). English messages, given to each parse rather than set for the whole process, which may
// have set another language for its own schemas.
const ENGLISH = { error: zodEnglish().localeError };

const count = z.int().check(z.minimum(0));
const position = z.int().check(z.minimum(1));
const proofSchema = z.array(z.string()).check(z.maxLength(MAX_PROOF));
const noteSchema = z.string().check(z.minLength(1));

const bundleSchema = z.object({
  format: z.string(),
  record: z.object({
    kind: z.enum(['execution', 'flow', 'workspace']),
    id: z.string(),
    from: z.optional(z.string()),
    to: z.optional(z.string()),
  }),
  origin: z.string(),
  publicKey: z.string(),
  checkpoint: z.object({ size: count, at: z.string(), note: noteSchema }),
  consistency: z.array(
    z.object({ from: z.object({ size: count, note: z.nullable(noteSchema) }), proof: proofSchema }),
  ),
  streams: z.array(
    z.object({
      streamId: z.string().check(z.minLength(1)),
      leaves: z.array(z.object({ index: count, position })),
      events: z.array(
        z.object({
          position,
          type: z.string(),
          actor: z.nullable(z.string()),
          at: z.string(),
          content: z.string(),
          leafIndex: z.nullable(count),
          proof: proofSchema,
        }),
      ),
    }),
  ),
});

type Bundle = z.infer<typeof bundleSchema>;
type Stream = Bundle['streams'][number];

const signedCheckpointSchema = z.object({ size: count, at: z.optional(z.string()), note: noteSchema });
const consistencyAnswerSchema = z.object({
  from: signedCheckpointSchema,
  to: signedCheckpointSchema,
  proof: proofSchema,
});

/** A failure: thrown inside the checks, caught once at the top. */
class Refusal extends Error {
  constructor(readonly refusal: Message) {
    super(refusal.code);
  }
}

function refuse(message: Message): never {
  throw new Refusal(message);
}

/** Checks the bundle's text as the contract's "Verifier checks" list them, in that order; the first failure wins. */
export function checkBundle(bundleText: string, options: VerifyOptions = {}): Outcome {
  try {
    return check(bundleText, options);
  } catch (error) {
    if (error instanceof Refusal) return { ok: false, message: error.refusal };
    // Nothing should reach here; if something does, it is still a failure, never a verified bundle.
    return { ok: false, message: { code: 'unexpected', error: String(error) } };
  }
}

/** `checkBundle`, its messages in English (the command line's). */
export function verifyBundle(bundleText: string, options: VerifyOptions = {}): VerifyResult {
  const outcome = checkBundle(bundleText, options);
  const say = (message: Message) => render(en, message);
  if (!outcome.ok) return { ok: false, message: say(outcome.message) };
  const { events, size, message, warnings } = outcome;
  return { ok: true, events, size, message: say(message), warnings: warnings.map(say) };
}

function check(bundleText: string, options: VerifyOptions): Outcome {
  const warnings: Message[] = [];

  // 1. Readable, of a known format.
  const bundle = readBundle(bundleText);

  // 2. The key: the one given, else the bundle's own (and say so).
  let key: VerifierKey;
  if (options.key !== undefined) {
    key = readKey(options.key.trim(), 'given');
    if (bundle.publicKey.trim() !== options.key.trim()) {
      warnings.push({ code: 'other-key', key: short(bundle.publicKey) });
    }
  } else {
    key = readKey(bundle.publicKey, 'bundle');
    warnings.push({ code: 'own-key' });
  }

  // 3. The checkpoint: signed by that key, its origin the key's name, and as the bundle describes it.
  const checkpoint = readSignedCheckpoint(bundle.checkpoint.note, key, 'bundle');
  const size = checkpoint.size;
  if (bundle.origin !== checkpoint.origin) {
    refuse({ code: 'origin', origin: bundle.origin, signed: checkpoint.origin });
  }
  if (bundle.checkpoint.size !== size) {
    refuse({ code: 'checkpoint-size', size: bundle.checkpoint.size, signed: size });
  }
  const at = timeOf(checkpoint.extensions);
  if (!sameTime(at, bundle.checkpoint.at)) {
    refuse({ code: 'checkpoint-at', at: bundle.checkpoint.at, signed: at ?? null });
  }

  // 4. Each stream: its events are the ones the log holds for it, none missing, none added.
  checkListing(bundle.streams, size);
  for (const stream of bundle.streams) checkStream(stream);

  // 5. Each event: its leaf is in the log at the checkpoint.
  let events = 0;
  for (const stream of bundle.streams) {
    for (const event of stream.events) {
      const where = { stream: stream.streamId, position: event.position, leaf: event.leafIndex };
      const proof = readHashes(event.proof, (index, bytes) => ({
        code: 'proof-hash',
        ...where,
        index,
        bytes,
      }));
      const leaf = eventLeafHash({
        streamId: stream.streamId,
        position: event.position,
        type: event.type,
        contentHash: contentHash(event.content),
        actor: event.actor,
        at: event.at,
      });
      const index = event.leafIndex!;
      const expected = inclusionProofLength(index, size);
      if (proof.length !== expected) {
        refuse({ code: 'proof-length', ...where, hashes: proof.length, expected, size });
      }
      if (!verifyInclusion(leaf, index, size, proof, checkpoint.rootHash)) {
        refuse({ code: 'leaf-changed', ...where, size });
      }
      events += 1;
    }
  }

  // 6. Another checkpoint, if given: the log at the later one extends the log at the earlier one.
  if (options.checkpoint !== undefined) checkOtherCheckpoint(options.checkpoint, bundle, key, checkpoint);

  return { ok: true, events, size, message: { code: 'verified', events, size }, warnings };
}

function readBundle(bundleText: string): Bundle {
  let json: unknown;
  try {
    // A byte order mark, as some editors save a file, is not part of the JSON.
    json = JSON.parse(bundleText.replace(/^\uFEFF/, ''));
  } catch {
    refuse({ code: 'not-json' });
  }
  const format = (json as { format?: unknown } | null)?.format;
  if (typeof json !== 'object' || json === null || Array.isArray(json)) refuse({ code: 'not-object' });
  if (format !== BUNDLE_FORMAT) refuse({ code: 'format', format, expected: BUNDLE_FORMAT });
  const parsed = bundleSchema.safeParse(json, ENGLISH);
  if (!parsed.success) refuse(malformed('bundle', json, parsed.error));
  return parsed.data;
}

/** A zod issue, as much of it as is read here. */
interface Issue {
  code: string;
  path: PropertyKey[];
  message: string;
  expected?: string;
  received?: string;
  origin?: string;
  minimum?: number | bigint;
  maximum?: number | bigint;
  values?: unknown[];
}

/** The refusal of a JSON input by the first issue zod found, where it is (`streams.0.events.2.leafIndex`). */
function malformed(
  input: 'bundle' | 'consistency',
  json: unknown,
  error: { issues: readonly Issue[] },
): Message {
  const issue = error.issues[0];
  if (!issue) return { code: 'malformed', input, path: '', issue: 'unreadable', problem: 'other' };
  return {
    code: 'malformed',
    input,
    path: issue.path.map(String).join('.'),
    issue: issue.message,
    ...fieldProblem(issue, json),
  };
}

function fieldProblem(issue: Issue, json: unknown): FieldProblem {
  const origin = issue.origin ?? '';
  switch (issue.code) {
    case 'invalid_type':
      return {
        problem: 'type',
        expected: issue.expected ?? '',
        received: issue.received ?? typeOf(valueAt(json, issue.path)),
      };
    case 'too_small':
      return { problem: 'too-small', origin, minimum: Number(issue.minimum) };
    case 'too_big':
      return { problem: 'too-big', origin, maximum: Number(issue.maximum) };
    case 'invalid_value':
      return { problem: 'value', values: (issue.values ?? []).map(String) };
    default:
      return { problem: 'other' };
  }
}

function valueAt(json: unknown, path: readonly PropertyKey[]): unknown {
  let value = json;
  for (const key of path) {
    if (typeof value !== 'object' || value === null || !Object.hasOwn(value, key)) return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

function readKey(text: string, key: 'given' | 'bundle'): VerifierKey {
  const read = parseVerifierKey(text);
  if (!read.ok) refuse({ code: 'bad-key', key, reason: read.message, ...problemOf(read) });
  return read.value;
}

function problemOf(failure: { problem?: NoteProblem }): { problem?: NoteProblem } {
  return failure.problem === undefined ? {} : { problem: failure.problem };
}

function readSignedCheckpoint(
  note: string,
  key: VerifierKey,
  checkpoint: CheckpointOf,
): Checkpoint & { extensions: string[] } {
  const checked = verifyCheckpoint(note, key);
  if (!checked.ok) {
    refuse({
      code: 'checkpoint-signature',
      checkpoint,
      key: keyText(key),
      why: checked.reason,
      reason: checked.message,
      ...problemOf(checked),
    });
  }
  if (checked.value.origin !== key.name) {
    refuse({ code: 'checkpoint-origin', checkpoint, origin: checked.value.origin, name: key.name });
  }
  return checked.value;
}

/** The checkpoint's time: its `at <ISO time>` extension line. */
function timeOf(extensions: readonly string[]): string | undefined {
  return extensions.find((line) => line.startsWith('at '))?.slice(3);
}

/** Whether two ISO times are the same instant (written alike or not: `…:00Z`, `…:00.000Z`). */
function sameTime(a: string | undefined, b: string): boolean {
  if (a === b) return true;
  if (a === undefined || !ISO_TIME.test(a) || !ISO_TIME.test(b)) return false;
  const [x, y] = [Date.parse(a), Date.parse(b)];
  return !Number.isNaN(x) && x === y;
}

/** A time as RFC 3339 writes it, with its offset: the one form two times are compared in (Date.parse takes many). */
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;

/**
 * What is listed, across the streams: each stream once, its leaves by index, each below the checkpoint's size
 * and in one stream only.
 */
function checkListing(streams: readonly Stream[], size: number): void {
  const streamIds = new Set<string>();
  const owner = new Map<number, string>();
  for (const stream of streams) {
    if (streamIds.has(stream.streamId)) refuse({ code: 'stream-twice', stream: stream.streamId });
    streamIds.add(stream.streamId);
    let previous = -1;
    for (const leaf of stream.leaves) {
      const where = { stream: stream.streamId, position: leaf.position, leaf: leaf.index };
      if (leaf.index >= size) refuse({ code: 'leaf-beyond', ...where, size });
      if (leaf.index <= previous) refuse({ code: 'leaves-order', ...where });
      const other = owner.get(leaf.index);
      if (other !== undefined) refuse({ code: 'leaf-shared', ...where, other });
      owner.set(leaf.index, stream.streamId);
      previous = leaf.index;
    }
  }
}

/** Step 4 for one stream: positions 1..n, every listed leaf has its event, every event has its leaf. */
function checkStream(stream: Stream): void {
  const { streamId, leaves, events } = stream;
  const missing = (position: number, leaf: number): Message => ({
    code: 'event-missing',
    stream: streamId,
    position,
    leaf,
  });
  for (const [i, event] of events.entries()) {
    const position = i + 1;
    if (event.position === position) continue;
    if (event.position < position) {
      refuse({ code: 'positions-order', stream: streamId, position: event.position });
    }
    const leaf = leaves.find((l) => l.position === position);
    if (leaf) refuse(missing(position, leaf.index));
    refuse({ code: 'position-missing', stream: streamId, position });
  }
  for (const leaf of leaves) {
    const event = events[leaf.position - 1];
    if (event === undefined || event.leafIndex !== leaf.index) refuse(missing(leaf.position, leaf.index));
  }
  // Each leaf index is listed once (checkListing): its position, for every event to be looked up at once.
  const positionOf = new Map(leaves.map((leaf) => [leaf.index, leaf.position]));
  for (const event of events) {
    if (event.leafIndex === null) refuse({ code: 'not-in-log', stream: streamId, position: event.position });
    const index = event.leafIndex;
    if (positionOf.get(index) !== event.position) {
      refuse({ code: 'not-stream-leaf', stream: streamId, position: event.position, leaf: index });
    }
  }
}

function checkOtherCheckpoint(text: string, bundle: Bundle, key: VerifierKey, ours: Checkpoint): void {
  const given = text.replace(/\r\n/g, '\n');
  const S = ours.size;
  if (given.trimStart().startsWith('{')) {
    let json: unknown;
    try {
      json = JSON.parse(given);
    } catch {
      refuse({ code: 'checkpoint-not-json' });
    }
    const parsed = consistencyAnswerSchema.safeParse(json, ENGLISH);
    if (!parsed.success) refuse(malformed('consistency', json, parsed.error));
    const answer = parsed.data;
    const from = readSignedCheckpoint(answer.from.note, key, 'from');
    const to = readSignedCheckpoint(answer.to.note, key, 'to');
    if (from.size !== answer.from.size || to.size !== answer.to.size) refuse({ code: 'consistency-sizes' });
    const ourSide = from.size === S ? from : to.size === S ? to : undefined;
    if (ourSide === undefined) {
      refuse({ code: 'consistency-elsewhere', from: from.size, to: to.size, size: S });
    }
    sameSizeSameRoot(ourSide, ours);
    const proof = readHashes(answer.proof, (index, bytes) => ({ code: 'given-proof-hash', index, bytes }));
    if (!verifyConsistency(from.size, to.size, from.rootHash, to.rootHash, proof)) {
      refuse(doesNotExtend(to.size, from.size));
    }
    return;
  }
  const other = readSignedCheckpoint(given, key, 'given');
  const M = other.size;
  if (M === S) {
    sameSizeSameRoot(other, ours);
    return;
  }
  if (M > S) refuse({ code: 'checkpoint-later', given: M, size: S });
  const entry = bundle.consistency.find((c) => c.from.size === M);
  if (entry === undefined) refuse({ code: 'no-consistency', from: M });
  const proof = readHashes(entry.proof, (index, bytes) => ({
    code: 'bundle-proof-hash',
    from: M,
    index,
    bytes,
  }));
  if (!verifyConsistency(M, S, other.rootHash, ours.rootHash, proof)) refuse(doesNotExtend(S, M));
}

function sameSizeSameRoot(other: Checkpoint, ours: Checkpoint): void {
  if (!equalHashes(other.rootHash, ours.rootHash)) {
    refuse({ code: 'rewritten', size: ours.size });
  }
}

function doesNotExtend(later: number, earlier: number): Message {
  return { code: 'not-extend', later, earlier };
}

/** Base64 hashes, each of HASH_SIZE bytes; `bad` is the refusal of the one at `index` that is not. */
function readHashes(texts: readonly string[], bad: (index: number, bytes: number) => Message): Hash[] {
  return texts.map((text, i) => {
    const hash = decodeBase64(text);
    if (hash === undefined || hash.length !== HASH_SIZE) refuse(bad(i, HASH_SIZE));
    return hash;
  });
}

/** How many hashes the inclusion proof of leaf `index` in a tree of `size` has (RFC 9162 §2.1.3.1). */
function inclusionProofLength(index: number, size: number): number {
  let length = 0;
  let start = 0;
  let end = size;
  let m = index;
  while (end - start > 1) {
    let k = 1;
    while (k * 2 < end - start) k *= 2;
    if (m < k) end = start + k;
    else {
      start += k;
      m -= k;
    }
    length += 1;
  }
  return length;
}

function keyText(key: VerifierKey): string {
  return `${key.name}+${key.keyId.toString(16).padStart(8, '0')}`;
}

function short(text: string): string {
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
