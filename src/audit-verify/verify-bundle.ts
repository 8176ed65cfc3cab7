/**
 * The offline check of an audit bundle (`workbench-audit-bundle/v1`): that every event it carries is the one
 * the audit log holds, by the log's signed checkpoint (C2SP signed note, Ed25519) and RFC 9162 inclusion
 * proofs; that no event the log holds for a record is missing or replaced; and, given another checkpoint of
 * the log, that the log at one extends the log at the other (RFC 9162 consistency proof).
 *
 * Pure: no I/O and no Node-only module, so the same checks run in the command-line verifier and in the
 * verifier page in a browser. It never throws: any input it cannot read is a failure with a sentence saying
 * why, in English, naming the stream, the position and the leaf index where one applies.
 */
import { en } from 'zod/locales';
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

export const BUNDLE_FORMAT = 'workbench-audit-bundle/v1';

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

/** The warning when no key was given: the bundle then vouches for itself. */
export const OWN_KEY_WARNING =
  "the key is the bundle's own: this shows the bundle agrees with itself, not that it is the log's; get the log's public key from elsewhere and check with it";

/** A proof of a tree of up to 2^53 leaves has at most 53 hashes. */
const MAX_PROOF = 64;

// zod/mini, not zod: the page carries only the parts used (zod's whole namespace, with all its locales, is
// half a megabyte), and English messages.
z.config(en());

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
class Refusal extends Error {}

function refuse(message: string): never {
  throw new Refusal(message);
}

/** Checks the bundle's text as the contract's "Verifier checks" list them, in that order; the first failure wins. */
export function verifyBundle(bundleText: string, options: VerifyOptions = {}): VerifyResult {
  try {
    return check(bundleText, options);
  } catch (error) {
    if (error instanceof Refusal) return { ok: false, message: error.message };
    // Nothing should reach here; if something does, it is still a failure, never a verified bundle.
    return { ok: false, message: `the bundle could not be checked: ${String(error)}` };
  }
}

function check(bundleText: string, options: VerifyOptions): VerifyResult {
  const warnings: string[] = [];

  // 1. Readable, of a known format.
  const bundle = readBundle(bundleText);

  // 2. The key: the one given, else the bundle's own (and say so).
  let key: VerifierKey;
  if (options.key !== undefined) {
    key = readKey(options.key.trim(), 'the key given');
    if (bundle.publicKey.trim() !== options.key.trim()) {
      warnings.push(
        `the bundle names another key (${short(bundle.publicKey)}); it was checked with the key given`,
      );
    }
  } else {
    key = readKey(bundle.publicKey, "the bundle's publicKey");
    warnings.push(OWN_KEY_WARNING);
  }

  // 3. The checkpoint: signed by that key, its origin the key's name, and as the bundle describes it.
  const checkpoint = readSignedCheckpoint(bundle.checkpoint.note, key, "the bundle's checkpoint");
  const size = checkpoint.size;
  if (bundle.origin !== checkpoint.origin) {
    refuse(
      `the bundle's origin ${JSON.stringify(bundle.origin)} is not the checkpoint's ${JSON.stringify(checkpoint.origin)}`,
    );
  }
  if (bundle.checkpoint.size !== size) {
    refuse(
      `the bundle's checkpoint.size ${bundle.checkpoint.size} is not the size its signed note gives, ${size}`,
    );
  }
  const at = timeOf(checkpoint.extensions);
  if (!sameTime(at, bundle.checkpoint.at)) {
    refuse(
      `the bundle's checkpoint.at ${JSON.stringify(bundle.checkpoint.at)} is not the time its signed note gives, ${JSON.stringify(at ?? null)}`,
    );
  }

  // 4. Each stream: its events are the ones the log holds for it, none missing, none added.
  checkListing(bundle.streams, size);
  for (const stream of bundle.streams) checkStream(stream);

  // 5. Each event: its leaf is in the log at the checkpoint.
  let events = 0;
  for (const stream of bundle.streams) {
    for (const event of stream.events) {
      const where = `stream ${stream.streamId} position ${event.position} (leaf ${event.leafIndex})`;
      const proof = readHashes(event.proof, `${where}: proof hash`);
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
        refuse(
          `${where}: the proof has ${proof.length} hashes, where a leaf ${index} of a tree of ${size} has ${expected}`,
        );
      }
      if (!verifyInclusion(leaf, index, size, proof, checkpoint.rootHash)) {
        refuse(`${where}: does not match the log at checkpoint ${size} (changed)`);
      }
      events += 1;
    }
  }

  // 6. Another checkpoint, if given: the log at the later one extends the log at the earlier one.
  if (options.checkpoint !== undefined) checkOtherCheckpoint(options.checkpoint, bundle, key, checkpoint);

  return { ok: true, events, size, message: `verified ${events} events up to checkpoint ${size}`, warnings };
}

function readBundle(bundleText: string): Bundle {
  let json: unknown;
  try {
    // A byte order mark, as some editors save a file, is not part of the JSON.
    json = JSON.parse(bundleText.replace(/^\uFEFF/, ''));
  } catch {
    refuse('the bundle is not JSON');
  }
  const format = (json as { format?: unknown } | null)?.format;
  if (typeof json !== 'object' || json === null || Array.isArray(json))
    refuse('the bundle is not a JSON object');
  if (format !== BUNDLE_FORMAT) {
    refuse(`the bundle's format is ${JSON.stringify(format ?? null)}, not ${BUNDLE_FORMAT}`);
  }
  const parsed = bundleSchema.safeParse(json);
  if (!parsed.success) refuse(`the bundle is malformed: ${describeIssue(parsed.error)}`);
  return parsed.data;
}

/** The first issue zod found, after where it is (`streams.0.events.2.leafIndex`). */
function describeIssue(error: { issues: readonly { path: PropertyKey[]; message: string }[] }): string {
  const issue = error.issues[0];
  if (!issue) return 'unreadable';
  const where = issue.path.map(String).join('.');
  return where === '' ? issue.message : `${where}: ${issue.message}`;
}

function readKey(text: string, what: string): VerifierKey {
  const key = parseVerifierKey(text);
  if (!key.ok) refuse(`${what} is not a verifier key: ${key.message}`);
  return key.value;
}

function readSignedCheckpoint(
  note: string,
  key: VerifierKey,
  what: string,
): Checkpoint & { extensions: string[] } {
  const checked = verifyCheckpoint(note, key);
  if (!checked.ok) refuse(`${what} does not verify with the key ${keyText(key)}: ${checked.message}`);
  if (checked.value.origin !== key.name) {
    refuse(
      `${what}'s origin ${JSON.stringify(checked.value.origin)} is not the key's name ${JSON.stringify(key.name)}`,
    );
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
  if (a === undefined) return false;
  const [x, y] = [Date.parse(a), Date.parse(b)];
  return !Number.isNaN(x) && x === y;
}

/**
 * What is listed, across the streams: each stream once, its leaves by index, each below the checkpoint's size
 * and in one stream only.
 */
function checkListing(streams: readonly Stream[], size: number): void {
  const streamIds = new Set<string>();
  const owner = new Map<number, string>();
  for (const stream of streams) {
    if (streamIds.has(stream.streamId)) refuse(`stream ${stream.streamId} is listed twice`);
    streamIds.add(stream.streamId);
    let previous = -1;
    for (const leaf of stream.leaves) {
      const where = `stream ${stream.streamId} position ${leaf.position} (leaf ${leaf.index})`;
      if (leaf.index >= size) refuse(`${where}: the leaf is not below the checkpoint's size ${size}`);
      if (leaf.index <= previous) refuse(`${where}: the stream's leaves are not listed once each, by index`);
      const other = owner.get(leaf.index);
      if (other !== undefined) refuse(`${where}: the leaf is listed for stream ${other} as well`);
      owner.set(leaf.index, stream.streamId);
      previous = leaf.index;
    }
  }
}

/** Step 4 for one stream: positions 1..n, every listed leaf has its event, every event has its leaf. */
function checkStream(stream: Stream): void {
  const { streamId, leaves, events } = stream;
  const missing = (position: number, leaf: number) =>
    `stream ${streamId} position ${position} (leaf ${leaf}): the event the log holds is missing or was replaced`;
  for (const [i, event] of events.entries()) {
    const position = i + 1;
    if (event.position === position) continue;
    if (event.position < position) {
      refuse(
        `stream ${streamId} position ${event.position}: listed twice or out of order (the positions must run 1..n)`,
      );
    }
    const leaf = leaves.find((l) => l.position === position);
    if (leaf) refuse(missing(position, leaf.index));
    refuse(`stream ${streamId} position ${position}: missing (the positions must run 1..n)`);
  }
  for (const leaf of leaves) {
    const event = events[leaf.position - 1];
    if (event === undefined || event.leafIndex !== leaf.index) refuse(missing(leaf.position, leaf.index));
  }
  // Each leaf index is listed once (checkListing): its position, for every event to be looked up at once.
  const positionOf = new Map(leaves.map((leaf) => [leaf.index, leaf.position]));
  for (const event of events) {
    if (event.leafIndex === null) refuse(`stream ${streamId} position ${event.position}: not in the log`);
    const index = event.leafIndex;
    if (positionOf.get(index) !== event.position) {
      refuse(
        `stream ${streamId} position ${event.position}: not in the log (leaf ${index} is not one of the stream's leaves at this position)`,
      );
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
      refuse('the checkpoint given is not JSON (nor a signed note)');
    }
    const parsed = consistencyAnswerSchema.safeParse(json);
    if (!parsed.success) refuse(`the consistency proof given is malformed: ${describeIssue(parsed.error)}`);
    const answer = parsed.data;
    const from = readSignedCheckpoint(answer.from.note, key, 'the consistency proof\'s "from" checkpoint');
    const to = readSignedCheckpoint(answer.to.note, key, 'the consistency proof\'s "to" checkpoint');
    if (from.size !== answer.from.size || to.size !== answer.to.size) {
      refuse("the consistency proof's sizes are not the ones its signed checkpoints give");
    }
    const ourSide = from.size === S ? from : to.size === S ? to : undefined;
    if (ourSide === undefined) {
      refuse(
        `the consistency proof given is between checkpoints ${from.size} and ${to.size}; neither is the bundle's checkpoint ${S}`,
      );
    }
    sameSizeSameRoot(ourSide, ours);
    const proof = readHashes(answer.proof, 'the consistency proof given: hash');
    if (!verifyConsistency(from.size, to.size, from.rootHash, to.rootHash, proof)) {
      refuse(doesNotExtend(to.size, from.size));
    }
    return;
  }
  const other = readSignedCheckpoint(given, key, 'the checkpoint given');
  const M = other.size;
  if (M === S) {
    sameSizeSameRoot(other, ours);
    return;
  }
  if (M > S) {
    refuse(
      `the checkpoint given (${M}) is later than the bundle's (${S}) and the bundle holds no proof to it: give the consistency proof from ${S} to ${M} (GET /api/audit/proofs/consistency?from=${S}&to=${M}) instead`,
    );
  }
  const entry = bundle.consistency.find((c) => c.from.size === M);
  if (entry === undefined) {
    refuse(
      `the bundle holds no consistency proof from checkpoint ${M} (ask for the bundle with ?since=${M})`,
    );
  }
  const proof = readHashes(entry.proof, `the bundle's consistency proof from ${M}: hash`);
  if (!verifyConsistency(M, S, other.rootHash, ours.rootHash, proof)) refuse(doesNotExtend(S, M));
}

function sameSizeSameRoot(other: Checkpoint, ours: Checkpoint): void {
  if (!equalHashes(other.rootHash, ours.rootHash)) {
    refuse(
      `the log at checkpoint ${ours.size} is not the one the checkpoint given shows at the same size: another root (rewritten)`,
    );
  }
}

function doesNotExtend(later: number, earlier: number): string {
  return `the log at checkpoint ${later} does not extend checkpoint ${earlier} (cut or rewritten)`;
}

/** Base64 hashes, each of HASH_SIZE bytes. */
function readHashes(texts: readonly string[], what: string): Hash[] {
  return texts.map((text, i) => {
    const hash = decodeBase64(text);
    if (hash === undefined || hash.length !== HASH_SIZE) {
      refuse(`${what} ${i} is not the base64 of a ${HASH_SIZE}-byte hash`);
    }
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
