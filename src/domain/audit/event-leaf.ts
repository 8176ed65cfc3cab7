/**
 * What the audit log holds of each event: one leaf per event, in the log's order. The leaf names the event
 * (its stream and position), says what it was (its type, who caused it and when) and fixes its content by a
 * hash, so a proof of the leaf proves the event without the log carrying anyone's text.
 *
 * The leaf's data is the UTF-8 of a JSON array, `["workbench/event/v1", stream, position, type,
 * content SHA-256 in hex, actor or null, time]`; the content is the event's data as the database stores it
 * (PostgreSQL's jsonb text form), and that text travels with the event in an audit bundle, so a verifier hashes
 * what it reads and never has to write JSON the way the database does.
 *
 * Pure: runs in a browser as well.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { type Hash, leafHash } from './merkle';

/** The label that begins every leaf: a leaf of another kind or version never reads as this one. */
export const EVENT_LEAF_LABEL = 'workbench/event/v1';

/** An event as its leaf describes it. */
export interface EventLeaf {
  streamId: string;
  position: number;
  type: string;
  /** SHA-256 of the event's content text, in lowercase hex (`contentHash`). */
  contentHash: string;
  /** Who caused it (a user id), or null for the system. */
  actor: string | null;
  /** When, as recorded with the event (ISO 8601). */
  at: string;
}

/** SHA-256 of an event's content text (its data as stored), in lowercase hex. */
export function contentHash(content: string): string {
  return bytesToHex(sha256(utf8ToBytes(content)));
}

/** The bytes a leaf hashes. */
export function eventLeafData(leaf: EventLeaf): Uint8Array {
  return utf8ToBytes(
    JSON.stringify([
      EVENT_LEAF_LABEL,
      leaf.streamId,
      leaf.position,
      leaf.type,
      leaf.contentHash,
      leaf.actor,
      leaf.at,
    ]),
  );
}

/** The leaf's hash in the tree: SHA-256(0x00 || its data). */
export function eventLeafHash(leaf: EventLeaf): Hash {
  return leafHash(eventLeafData(leaf));
}
