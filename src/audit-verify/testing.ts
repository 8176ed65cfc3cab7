/**
 * Audit bundles made in memory, as the server makes them (the contract's `workbench-audit-bundle/v1`), for the
 * verifier's tests: a log of the events of a few streams interleaved with leaves of others, its checkpoint
 * signed with a key of the test's, and proofs computed with the audit library.
 */
import { contentHash, eventLeafHash } from '../domain/audit/event-leaf';
import {
  consistencyProofOf,
  type Hash,
  inclusionProofOf,
  leafHash,
  nodeHash,
  rootOfSize,
  type SubtreeHashes,
} from '../domain/audit/merkle';
import { encodeBase64, generateKey, parseSignerKey, signCheckpoint } from '../domain/audit/signed-note';

export const ORIGIN = 'workbench/audit-log';

export interface TestEvent {
  streamId: string;
  position: number;
  type: string;
  actor: string | null;
  at: string;
  content: string;
}

export interface TestLog {
  signerKey: string;
  verifierKey: string;
  /** The leaves in the log's order: an event's, or another leaf (a stream the bundle does not carry). */
  leaves: ({ event: TestEvent } | { other: string })[];
}

const seed = (n: number) => Uint8Array.from({ length: 32 }, (_, i) => (i * 13 + n) % 256);

/** A key of the log (the same for the same n). */
export function logKey(n = 1): { signerKey: string; verifierKey: string } {
  return generateKey(ORIGIN, seed(n));
}

/**
 * A log of `streams` streams of `perStream` events each, interleaved with each other and with a leaf of
 * some other stream between every two.
 */
export function makeLog(
  streams = ['execution-a', 'execution-b', 'flow-c'],
  perStream = 4,
  key = logKey(),
): TestLog {
  const leaves: TestLog['leaves'] = [{ other: 'before' }];
  for (let position = 1; position <= perStream; position++) {
    for (const streamId of streams) {
      leaves.push({
        event: {
          streamId,
          position,
          type: position === 1 ? 'ExecutionStarted' : 'StepRunSucceeded',
          actor: position % 2 === 0 ? null : '0b6f3c1e-8a52-4d8e-9c1f-2f5a7d9e4b10',
          at: `2026-11-28T10:0${position}:00.000Z`,
          content: JSON.stringify({ stepId: `step-${position}`, text: `Kết quả ${streamId} ${position}` }),
        },
      });
      leaves.push({ other: `${streamId}/${position}` });
    }
  }
  return { ...key, leaves };
}

export function leafHashOf(leaf: TestLog['leaves'][number]): Hash {
  if ('other' in leaf) return leafHash(new TextEncoder().encode(`other leaf ${leaf.other}`));
  const { content, ...event } = leaf.event;
  return eventLeafHash({ ...event, contentHash: contentHash(content) });
}

/** The signed checkpoint of the first `size` leaves of the log. */
export function checkpointOf(
  log: TestLog,
  size = log.leaves.length,
  at = '2026-11-28T12:00:00.000Z',
): string {
  const signer = parseSignerKey(log.signerKey);
  if (!signer.ok) throw new Error(signer.message);
  const subtrees = subtreesOf(log.leaves.slice(0, size).map(leafHashOf));
  return signCheckpoint(
    { origin: ORIGIN, size, rootHash: rootOfSize(size, subtrees), extensions: [`at ${at}`] },
    signer.value.name,
    signer.value.secretKey,
  );
}

export interface BundleJson {
  format: string;
  record: { kind: string; id: string };
  origin: string;
  publicKey: string;
  checkpoint: { size: number; at: string; note: string };
  consistency: { from: { size: number; note: string }; proof: string[] }[];
  streams: {
    streamId: string;
    leaves: { index: number; position: number }[];
    events: (Omit<TestEvent, 'streamId'> & { leafIndex: number | null; proof: string[] })[];
  }[];
}

/** The bundle of the streams named, at the log's whole size, with consistency proofs from the sizes `since`. */
export function makeBundle(
  log: TestLog,
  streamIds = ['execution-a', 'execution-b'],
  since: number[] = [],
): BundleJson {
  const hashes = log.leaves.map(leafHashOf);
  const size = hashes.length;
  const subtrees = subtreesOf(hashes);
  const at = '2026-11-28T12:00:00.000Z';
  const b64 = (proof: Hash[]) => proof.map(encodeBase64);
  return {
    format: 'workbench-audit-bundle/v1',
    record: { kind: 'execution', id: '7d1e2c3b-4a5f-4e6d-8c7b-9a0f1e2d3c4b' },
    origin: ORIGIN,
    publicKey: log.verifierKey,
    checkpoint: { size, at, note: checkpointOf(log, size, at) },
    consistency: since.map((m) => ({
      from: { size: m, note: checkpointOf(log, m) },
      proof: b64(consistencyProofOf(m, size, subtrees)),
    })),
    streams: streamIds.map((streamId) => {
      const indexed = log.leaves.flatMap((leaf, index) =>
        'event' in leaf && leaf.event.streamId === streamId ? [{ index, event: leaf.event }] : [],
      );
      return {
        streamId,
        leaves: indexed.map(({ index, event }) => ({ index, position: event.position })),
        events: indexed.map(({ index, event: { streamId: _, ...event } }) => ({
          ...event,
          leafIndex: index,
          proof: b64(inclusionProofOf(index, size, subtrees)),
        })),
      };
    }),
  };
}

/** The perfect subtrees of a tree of these leaf hashes, each computed once: proofs of a large log made quickly. */
export function subtreesOf(leafHashes: readonly Hash[]): SubtreeHashes {
  const known = new Map<string, Hash>();
  const hashOf: SubtreeHashes = ({ level, index }) => {
    if (level === 0) return leafHashes[index]!;
    const name = `${level}/${index}`;
    let hash = known.get(name);
    if (hash === undefined) {
      hash = nodeHash(
        hashOf({ level: level - 1, index: 2 * index }),
        hashOf({ level: level - 1, index: 2 * index + 1 }),
      );
      known.set(name, hash);
    }
    return hash;
  };
  return hashOf;
}
