/**
 * The Merkle tree of an append-only log as RFC 9162 (and RFC 6962 before it) defines it, with SHA-256: the tree
 * head, inclusion proofs and consistency proofs, their verification, and a compact tree that appends one leaf
 * at a time. Pure: no I/O and no Node-only module, so the same code checks a proof on the server, in a test and
 * in a browser.
 *
 * Sizes and indexes are plain numbers (safe integers); the bit steps of the RFC's algorithms are written with
 * division, not with JavaScript's 32-bit operators, so they hold past 2^32 leaves.
 */
import { sha256 } from '@noble/hashes/sha2.js';

/** A SHA-256 digest: a leaf hash, a node hash or a tree head. */
export type Hash = Uint8Array;

/** The length of every hash in the tree, in bytes. */
export const HASH_SIZE = 32;

/** The root of the empty tree: SHA-256 of the empty string (RFC 9162 §2.1.1). */
export function emptyRoot(): Hash {
  return sha256(new Uint8Array(0));
}

/** RFC 9162 §2.1.1: the hash of a leaf, SHA-256(0x00 || data). */
export function leafHash(data: Uint8Array): Hash {
  const input = new Uint8Array(1 + data.length);
  input[0] = 0x00;
  input.set(data, 1);
  return sha256(input);
}

/** RFC 9162 §2.1.1: the hash of an inner node, SHA-256(0x01 || left || right). */
export function nodeHash(left: Hash, right: Hash): Hash {
  assertHash(left, 'left');
  assertHash(right, 'right');
  const input = new Uint8Array(1 + 2 * HASH_SIZE);
  input[0] = 0x01;
  input.set(left, 1);
  input.set(right, 1 + HASH_SIZE);
  return sha256(input);
}

/** Whether two hashes (or any two byte strings) are the same bytes. */
export function equalHashes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a[i]! ^ b[i]!;
  return difference === 0;
}

/** The Merkle tree head MTH(D[n]) over the leaf hashes given (RFC 9162 §2.1.1); n = 0 gives the empty root. */
export function rootOf(leafHashes: readonly Hash[]): Hash {
  assertHashes(leafHashes, 'leaf hash');
  if (leafHashes.length === 0) return emptyRoot();
  return subtreeRoot(leafHashes, 0, leafHashes.length);
}

/**
 * The inclusion proof PATH(m, D[n]) of the leaf at `index` in the tree of the leaf hashes given (RFC 9162
 * §2.1.3.1): the sibling hashes from the leaf up to the root, the nearest first.
 */
export function inclusionProof(leafHashes: readonly Hash[], index: number): Hash[] {
  assertHashes(leafHashes, 'leaf hash');
  return inclusionProofOf(index, leafHashes.length, subtreesOf(leafHashes));
}

/**
 * A perfect subtree of the log: the 2^level leaves from leaf index * 2^level (level 0: one leaf). Every
 * subtree hash a tree head or a proof needs is made of these, so a log that keeps them (or can compute them)
 * answers proofs without reading all its leaves.
 */
export interface Subtree {
  level: number;
  index: number;
}

/** The hash of a perfect subtree, from wherever the tree is kept. */
export type SubtreeHashes = (subtree: Subtree) => Hash;

/** inclusionProof for a tree of `size` leaves kept as perfect subtrees. */
export function inclusionProofOf(index: number, size: number, subtrees: SubtreeHashes): Hash[] {
  assertCount(index, 'index');
  assertCount(size, 'size');
  if (index >= size) throw new RangeError(`index ${index} is not a leaf of a tree of ${size}`);
  const path: Hash[] = [];
  // PATH(m, D[start:end]) = PATH(m', one half) : MTH(the other half), so the siblings are met root first.
  let start = 0;
  let end = size;
  let m = index;
  while (end - start > 1) {
    const k = largestPowerOfTwoBelow(end - start);
    if (m < k) {
      path.push(rangeRoot(subtrees, start + k, end));
      end = start + k;
    } else {
      path.push(rangeRoot(subtrees, start, start + k));
      start += k;
      m -= k;
    }
  }
  return path.reverse();
}

/** The tree head of the first `size` leaves of a tree kept as perfect subtrees. */
export function rootOfSize(size: number, subtrees: SubtreeHashes): Hash {
  assertCount(size, 'size');
  return size === 0 ? emptyRoot() : rangeRoot(subtrees, 0, size);
}

/**
 * The perfect subtrees a computation over `SubtreeHashes` asks for (a proof, a tree head), in the order asked:
 * what a log reads from storage in one go before computing it. The computation runs once on placeholder
 * hashes; what it asks for does not depend on the hashes.
 */
export function subtreesAskedBy(compute: (subtrees: SubtreeHashes) => unknown): Subtree[] {
  const asked = new Map<string, Subtree>();
  const placeholder = new Uint8Array(HASH_SIZE);
  compute((subtree) => {
    asked.set(`${subtree.level}/${subtree.index}`, { level: subtree.level, index: subtree.index });
    return placeholder;
  });
  return [...asked.values()];
}

/**
 * RFC 9162 §2.1.3.2: whether `proof` shows the leaf of hash `leaf` at `index` in the tree of `size` leaves whose
 * head is `root`. False for any malformed input (an index outside the tree, a hash of the wrong length).
 *
 * The size and the root must come together from one checked checkpoint: the hashes alone do not fix the size
 * (the proof of leaf 0 in a tree of 3 also verifies against the same root for a size of 4, its last hash then
 * read as the head of two leaves).
 */
export function verifyInclusion(
  leaf: Hash,
  index: number,
  size: number,
  proof: readonly Hash[],
  root: Hash,
): boolean {
  if (!isCount(index) || !isCount(size) || index >= size) return false;
  if (!isHash(leaf) || !isHash(root) || !proof.every(isHash)) return false;
  let fn = index;
  let sn = size - 1;
  let r = leaf;
  for (const p of proof) {
    if (sn === 0) return false;
    if (fn % 2 === 1 || fn === sn) {
      r = nodeHash(p, r);
      if (fn % 2 === 0) {
        while (fn % 2 === 0 && fn !== 0) {
          fn = half(fn);
          sn = half(sn);
        }
      }
    } else {
      r = nodeHash(r, p);
    }
    fn = half(fn);
    sn = half(sn);
  }
  return sn === 0 && equalHashes(r, root);
}

/**
 * The consistency proof PROOF(m, D[n]) between the first `m` leaves and all n leaves given (RFC 9162
 * §2.1.4.1). Empty when m is 0 or n: those need no proof.
 */
export function consistencyProof(leafHashes: readonly Hash[], m: number): Hash[] {
  assertHashes(leafHashes, 'leaf hash');
  return consistencyProofOf(m, leafHashes.length, subtreesOf(leafHashes));
}

/** consistencyProof between sizes m and n of a tree kept as perfect subtrees. */
export function consistencyProofOf(m: number, n: number, subtrees: SubtreeHashes): Hash[] {
  assertCount(m, 'm');
  assertCount(n, 'n');
  if (m > n) throw new RangeError(`a tree of ${n} leaves has no earlier tree of ${m}`);
  if (m === 0 || m === n) return [];
  // SUBPROOF(m, D[start:end], b), unrolled: each level adds one hash, met root first.
  const proof: Hash[] = [];
  let start = 0;
  let end = n;
  let left = m;
  let whole = true;
  while (left !== end - start) {
    const k = largestPowerOfTwoBelow(end - start);
    if (left <= k) {
      proof.push(rangeRoot(subtrees, start + k, end));
      end = start + k;
    } else {
      proof.push(rangeRoot(subtrees, start, start + k));
      start += k;
      left -= k;
      whole = false;
    }
  }
  // SUBPROOF(m, D[m], b): nothing when D[m] is the old tree itself, else MTH(D[m]).
  if (!whole) proof.push(rangeRoot(subtrees, start, end));
  return proof.reverse();
}

/**
 * RFC 9162 §2.1.4.2: whether `proof` shows that the tree of `n` leaves with head `newRoot` extends the tree of
 * its first `m` leaves with head `oldRoot`. With m = n the roots must be equal and the proof empty; with m = 0
 * the old root must be the empty tree's and the proof empty. False for any malformed input. As with
 * `verifyInclusion`, each size must come with its root from a checked checkpoint.
 */
export function verifyConsistency(
  m: number,
  n: number,
  oldRoot: Hash,
  newRoot: Hash,
  proof: readonly Hash[],
): boolean {
  if (!isCount(m) || !isCount(n) || m > n) return false;
  if (!isHash(oldRoot) || !isHash(newRoot) || !proof.every(isHash)) return false;
  if (m === 0) return proof.length === 0 && equalHashes(oldRoot, emptyRoot());
  if (m === n) return proof.length === 0 && equalHashes(oldRoot, newRoot);
  if (proof.length === 0) return false;
  const path = isPowerOfTwo(m) ? [oldRoot, ...proof] : [...proof];
  let fn = m - 1;
  let sn = n - 1;
  while (fn % 2 === 1) {
    fn = half(fn);
    sn = half(sn);
  }
  let fr = path[0]!;
  let sr = path[0]!;
  for (const c of path.slice(1)) {
    if (sn === 0) return false;
    if (fn % 2 === 1 || fn === sn) {
      fr = nodeHash(c, fr);
      sr = nodeHash(c, sr);
      if (fn % 2 === 0) {
        while (fn % 2 === 0 && fn !== 0) {
          fn = half(fn);
          sn = half(sn);
        }
      }
    } else {
      sr = nodeHash(sr, c);
    }
    fn = half(fn);
    sn = half(sn);
  }
  return sn === 0 && equalHashes(fr, oldRoot) && equalHashes(sr, newRoot);
}

/**
 * The right edge of a tree: the roots of its perfect subtrees, largest first, one for each bit set in its size.
 * Enough to append leaves one at a time and to give the tree head at every size, without keeping the leaves:
 * at most one hash per bit of the size (53 for any safe integer).
 */
export class CompactTree {
  #size: number;
  readonly #edge: Hash[];

  /** A tree of `size` leaves whose right edge is `edge` (as `edge` of an earlier tree gave it); empty by default. */
  constructor(size = 0, edge: readonly Hash[] = []) {
    assertCount(size, 'size');
    assertHashes(edge, 'edge hash');
    if (edge.length !== bitCount(size)) {
      throw new RangeError(`a tree of ${size} leaves has ${bitCount(size)} edge hashes, not ${edge.length}`);
    }
    this.#size = size;
    this.#edge = edge.map((hash) => hash.slice());
  }

  /** The number of leaves appended. */
  get size(): number {
    return this.#size;
  }

  /** The roots of the perfect subtrees, largest (leftmost) first: copies, to store and restore the tree. */
  get edge(): Hash[] {
    return this.#edge.map((hash) => hash.slice());
  }

  /**
   * Appends a leaf by its hash (`leafHash(data)`). Returns the perfect subtrees above it that it completes,
   * the lowest first (none when its index is even), each with its hash: what a log keeps to answer proofs.
   */
  append(leaf: Hash): (Subtree & { hash: Hash })[] {
    assertHash(leaf, 'leaf hash');
    if (this.#size >= Number.MAX_SAFE_INTEGER) throw new RangeError('the tree is full');
    // Each trailing 1 bit of the size is a perfect subtree as large as the one growing: merge them.
    const completed: (Subtree & { hash: Hash })[] = [];
    let hash: Hash = leaf.slice();
    let level = 0;
    for (let s = this.#size; s % 2 === 1; s = half(s)) {
      hash = nodeHash(this.#edge.pop()!, hash);
      level += 1;
      completed.push({ level, index: Math.floor(this.#size / 2 ** level), hash: hash.slice() });
    }
    this.#edge.push(hash);
    this.#size += 1;
    return completed;
  }

  /** The tree head: the same as `rootOf` over all the leaves appended. */
  root(): Hash {
    if (this.#edge.length === 0) return emptyRoot();
    let root = this.#edge[this.#edge.length - 1]!;
    for (let i = this.#edge.length - 2; i >= 0; i--) root = nodeHash(this.#edge[i]!, root);
    return root.slice();
  }
}

/**
 * The perfect subtrees that make up the leaves [0, size), largest (leftmost) first: the right edge of the tree
 * of that size, one for each bit set in it.
 */
export function edgeOf(size: number): Subtree[] {
  assertCount(size, 'size');
  return coverOf(0, size);
}

/** The perfect subtrees covering [start, end) as the RFC's recursion splits it: largest first, each aligned. */
function coverOf(start: number, end: number): Subtree[] {
  const cover: Subtree[] = [];
  let from = start;
  while (from < end) {
    let size = 1;
    let level = 0;
    while (size * 2 <= end - from && from % (size * 2) === 0) {
      size *= 2;
      level += 1;
    }
    cover.push({ level, index: from / size });
    from += size;
  }
  return cover;
}

/** MTH(D[start:end]) for end > start, from the perfect subtrees that cover it. */
function rangeRoot(subtrees: SubtreeHashes, start: number, end: number): Hash {
  const cover = coverOf(start, end);
  let root = subtrees(cover[cover.length - 1]!);
  for (let i = cover.length - 2; i >= 0; i--) root = nodeHash(subtrees(cover[i]!), root);
  return root;
}

/** A tree given by all its leaf hashes, as perfect subtrees (computed when asked). */
function subtreesOf(leafHashes: readonly Hash[]): SubtreeHashes {
  return ({ level, index }) => {
    const size = 2 ** level;
    const start = index * size;
    if (start + size > leafHashes.length) throw new RangeError(`no subtree ${level}/${index} in the tree`);
    return subtreeRoot(leafHashes, start, start + size);
  };
}

/** MTH(D[start:end]) for end > start. */
function subtreeRoot(leafHashes: readonly Hash[], start: number, end: number): Hash {
  if (end - start === 1) return leafHashes[start]!.slice();
  const k = largestPowerOfTwoBelow(end - start);
  return nodeHash(subtreeRoot(leafHashes, start, start + k), subtreeRoot(leafHashes, start + k, end));
}

/** The largest power of two smaller than n, for n > 1 (RFC 9162's k). */
function largestPowerOfTwoBelow(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

function isPowerOfTwo(n: number): boolean {
  let k = 1;
  while (k < n) k *= 2;
  return k === n;
}

function bitCount(n: number): number {
  let count = 0;
  for (let s = n; s > 0; s = half(s)) count += s % 2;
  return count;
}

/** n >> 1, for any safe integer. */
function half(n: number): number {
  return Math.floor(n / 2);
}

function isCount(n: number): boolean {
  return Number.isSafeInteger(n) && n >= 0;
}

function isHash(hash: unknown): hash is Hash {
  return hash instanceof Uint8Array && hash.length === HASH_SIZE;
}

function assertCount(n: number, what: string): void {
  if (!isCount(n)) throw new RangeError(`${what} must be a whole number from 0, not ${n}`);
}

function assertHash(hash: unknown, what: string): void {
  if (!isHash(hash)) throw new TypeError(`${what} must be a ${HASH_SIZE}-byte hash`);
}

function assertHashes(hashes: readonly unknown[], what: string): void {
  for (const [i, hash] of hashes.entries()) assertHash(hash, `${what} ${i}`);
}
