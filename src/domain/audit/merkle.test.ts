import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CompactTree,
  consistencyProof,
  consistencyProofOf,
  edgeOf,
  emptyRoot,
  type Hash,
  inclusionProof,
  inclusionProofOf,
  leafHash,
  nodeHash,
  rootOf,
  rootOfSize,
  type SubtreeHashes,
  subtreesAskedBy,
  verifyConsistency,
  verifyInclusion,
} from './merkle';

const hex = (bytes: Uint8Array) => bytesToHex(bytes);

/** RFC 9162 §2.1.1's MTH written out as the RFC states it, on the leaf data, slicing the list at each step. */
function referenceRoot(data: Uint8Array[]): Uint8Array {
  const n = data.length;
  if (n === 0) return sha256(new Uint8Array(0));
  if (n === 1) return sha256(Uint8Array.of(0, ...data[0]!));
  let k = 1;
  while (k * 2 < n) k *= 2;
  return sha256(Uint8Array.of(1, ...referenceRoot(data.slice(0, k)), ...referenceRoot(data.slice(k))));
}

/**
 * The test data of RFC 6962's reference implementation, as the Certificate Transparency and Trillian code
 * carries it (transparency-dev/merkle's proof tests): eight leaves, the tree head at each size from 1 to 8,
 * and proofs between them.
 */
const LEAVES = [
  '',
  '00',
  '10',
  '2021',
  '3031',
  '40414243',
  '5051525354555657',
  '606162636465666768696a6b6c6d6e6f',
].map((h) => hexToBytes(h));
const ROOTS = [
  '6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d',
  'fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125',
  'aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77',
  'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
  '4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4',
  '76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef',
  'ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c',
  '5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328',
];
/** [leaf index (from 0), tree size, proof]. */
const INCLUSION_PROOFS: [number, number, string[]][] = [
  [0, 1, []],
  [
    0,
    8,
    [
      '96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7',
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      '6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4',
    ],
  ],
  [
    5,
    8,
    [
      'bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b',
      'ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0',
      'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
    ],
  ],
  [2, 3, ['fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125']],
  [
    1,
    5,
    [
      '6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d',
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      'bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b',
    ],
  ],
];
/** [old size, new size, proof]. */
const CONSISTENCY_PROOFS: [number, number, string[]][] = [
  [1, 1, []],
  [
    1,
    8,
    [
      '96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7',
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      '6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4',
    ],
  ],
  [
    6,
    8,
    [
      '0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a',
      'ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0',
      'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
    ],
  ],
  [
    2,
    5,
    [
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      'bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b',
    ],
  ],
  [
    6,
    7,
    [
      '0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a',
      'b08693ec2e721597130641e8211e7eedccb4c26413963eee6c1e2ed16ffb1a5f',
      'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
    ],
  ],
];
const LEAF_HASHES = LEAVES.map(leafHash);

/** The leaf hashes of `n` distinct leaves. */
const leavesOf = (n: number, salt = 0) =>
  Array.from({ length: n }, (_, i) => leafHash(new TextEncoder().encode(`leaf ${salt} ${i}`)));

/** `hash` with one bit flipped. */
const flipped = (hash: Hash, bit = 0) => {
  const copy = hash.slice();
  copy[bit >> 3]! ^= 1 << (bit & 7);
  return copy;
};

describe('the hashes of RFC 9162 §2.1.1', () => {
  it('gives the empty tree the SHA-256 of the empty string', () => {
    expect(hex(rootOf([]))).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(hex(emptyRoot())).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });

  it('prefixes a leaf with 0x00 and a node with 0x01', () => {
    expect(hex(leafHash(new Uint8Array(0)))).toBe(hex(sha256(Uint8Array.of(0))));
    expect(hex(leafHash(new Uint8Array(0)))).toBe(ROOTS[0]);
    const [a, b] = [LEAF_HASHES[0]!, LEAF_HASHES[1]!];
    expect(hex(nodeHash(a, b))).toBe(hex(sha256(Uint8Array.of(1, ...a, ...b))));
  });

  it('gives the published tree heads of 1 to 8 leaves', () => {
    for (let n = 1; n <= 8; n++) expect(hex(rootOf(LEAF_HASHES.slice(0, n)))).toBe(ROOTS[n - 1]);
  });

  it('gives the reference MTH for every size from 0 to 8 and some larger', () => {
    for (const n of [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 15, 16, 17, 31, 33, 100]) {
      const data = Array.from({ length: n }, (_, i) => Uint8Array.of(i & 0xff, i >> 8, 7));
      expect(hex(rootOf(data.map(leafHash))), `size ${n}`).toBe(hex(referenceRoot(data)));
    }
  });

  it('refuses a leaf hash of the wrong length', () => {
    expect(() => rootOf([new Uint8Array(31)])).toThrow(TypeError);
    expect(() => nodeHash(new Uint8Array(32), new Uint8Array(33))).toThrow(TypeError);
  });
});

describe('inclusion proofs (RFC 9162 §2.1.3)', () => {
  it.each(INCLUSION_PROOFS)(
    'gives and verifies the published proof of leaf %i in a tree of %i',
    (index, size, proof) => {
      const leaves = LEAF_HASHES.slice(0, size);
      expect(inclusionProof(leaves, index).map(hex)).toEqual(proof);
      expect(
        verifyInclusion(
          LEAF_HASHES[index]!,
          index,
          size,
          proof.map(hexToBytes),
          hexToBytes(ROOTS[size - 1]!),
        ),
      ).toBe(true);
    },
  );

  it.each(INCLUSION_PROOFS.filter(([, , proof]) => proof.length > 0))(
    'refuses the published proof of leaf %i in a tree of %i when any part is changed',
    (index, size, proofHex) => {
      const proof = proofHex.map(hexToBytes);
      const root = hexToBytes(ROOTS[size - 1]!);
      const leaf = LEAF_HASHES[index]!;
      const probes: [string, boolean][] = [
        ['index - 1', verifyInclusion(leaf, index - 1, size, proof, root)],
        ['index + 1', verifyInclusion(leaf, index + 1, size, proof, root)],
        ['index ^ 2', verifyInclusion(leaf, index ^ 2, size, proof, root)],
        ['size * 2', verifyInclusion(leaf, index, size * 2, proof, root)],
        ['size / 2', verifyInclusion(leaf, index, Math.floor(size / 2), proof, root)],
        ['wrong leaf', verifyInclusion(flipped(leaf), index, size, proof, root)],
        ['empty root', verifyInclusion(leaf, index, size, proof, emptyRoot())],
        ['wrong root', verifyInclusion(leaf, index, size, proof, flipped(root))],
        ['trailing root', verifyInclusion(leaf, index, size, [...proof, root], root)],
        ['preceding root', verifyInclusion(leaf, index, size, [root, ...proof], root)],
        ['trailing garbage', verifyInclusion(leaf, index, size, [...proof, new Uint8Array(0)], root)],
        ['removed component', verifyInclusion(leaf, index, size, proof.slice(0, -1), root)],
        ...proof.map((_, i): [string, boolean] => [
          `flipped bit in proof[${i}]`,
          verifyInclusion(
            leaf,
            index,
            size,
            proof.map((p, j) => (j === i ? flipped(p, 3) : p)),
            root,
          ),
        ]),
      ];
      expect(probes.filter(([, verified]) => verified).map(([name]) => name)).toEqual([]);
    },
  );

  it('verifies the one leaf of a tree of one with an empty proof, and nothing in the empty tree', () => {
    const [leaf] = leavesOf(1);
    expect(verifyInclusion(leaf!, 0, 1, [], leaf!)).toBe(true);
    expect(verifyInclusion(leaf!, 0, 0, [], emptyRoot())).toBe(false);
    expect(verifyInclusion(leaf!, 1, 1, [], leaf!)).toBe(false);
    expect(verifyInclusion(new Uint8Array(0), 0, 1, [], new Uint8Array(0))).toBe(false);
    expect(() => inclusionProof([], 0)).toThrow(RangeError);
    expect(() => inclusionProof(leavesOf(3), 3)).toThrow(RangeError);
  });

  it('does not fix the size by itself: it comes with the root from a checkpoint', () => {
    // The last hash of leaf 0's proof in a tree of 3 reads, for a size of 4, as the head of leaves 2 and 3.
    const leaves = LEAF_HASHES.slice(0, 3);
    const proof = inclusionProof(leaves, 0);
    expect(verifyInclusion(leaves[0]!, 0, 4, proof, rootOf(leaves))).toBe(true);
    expect(verifyInclusion(leaves[0]!, 0, 5, proof, rootOf(leaves))).toBe(false);
  });

  it('verifies every leaf of random trees and refuses a wrong index, leaf or root', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 70 }), fc.nat(), (size, pick) => {
        const leaves = leavesOf(size, pick);
        const root = rootOf(leaves);
        for (let index = 0; index < size; index++) {
          const proof = inclusionProof(leaves, index);
          expect(verifyInclusion(leaves[index]!, index, size, proof, root)).toBe(true);
          const other = (index + 1 + (pick % (size > 1 ? size - 1 : 1))) % size;
          if (other !== index) {
            expect(verifyInclusion(leaves[index]!, other, size, proof, root)).toBe(false);
            expect(verifyInclusion(leaves[other]!, index, size, proof, root)).toBe(false);
          }
          expect(verifyInclusion(flipped(leaves[index]!, pick % 256), index, size, proof, root)).toBe(false);
          expect(verifyInclusion(leaves[index]!, index, size, proof, flipped(root, pick % 256))).toBe(false);
        }
      }),
      { numRuns: 60 },
    );
  });
});

describe('consistency proofs (RFC 9162 §2.1.4)', () => {
  it.each(CONSISTENCY_PROOFS)(
    'gives and verifies the published proof from %i to %i leaves',
    (m, n, proof) => {
      expect(consistencyProof(LEAF_HASHES.slice(0, n), m).map(hex)).toEqual(proof);
      const [oldRoot, newRoot] = [hexToBytes(ROOTS[m - 1]!), hexToBytes(ROOTS[n - 1]!)];
      expect(verifyConsistency(m, n, oldRoot, newRoot, proof.map(hexToBytes))).toBe(true);
    },
  );

  it.each(CONSISTENCY_PROOFS.filter(([, , proof]) => proof.length > 0))(
    'refuses the published proof from %i to %i leaves when any part is changed',
    (m, n, proofHex) => {
      const proof = proofHex.map(hexToBytes);
      const [oldRoot, newRoot] = [hexToBytes(ROOTS[m - 1]!), hexToBytes(ROOTS[n - 1]!)];
      const probes: [string, boolean][] = [
        ['m - 1', verifyConsistency(m - 1, n, oldRoot, newRoot, proof)],
        ['m + 1', verifyConsistency(m + 1, n, oldRoot, newRoot, proof)],
        ['m ^ 2', verifyConsistency(m ^ 2, n, oldRoot, newRoot, proof)],
        ['n * 2', verifyConsistency(m, n * 2, oldRoot, newRoot, proof)],
        ['n / 2', verifyConsistency(m, Math.floor(n / 2), oldRoot, newRoot, proof)],
        ['wrong old root', verifyConsistency(m, n, flipped(oldRoot), newRoot, proof)],
        ['wrong new root', verifyConsistency(m, n, oldRoot, flipped(newRoot), proof)],
        ['swapped roots', verifyConsistency(m, n, newRoot, oldRoot, proof)],
        ['empty proof', verifyConsistency(m, n, oldRoot, newRoot, [])],
        ['trailing old root', verifyConsistency(m, n, oldRoot, newRoot, [...proof, oldRoot])],
        ['trailing new root', verifyConsistency(m, n, oldRoot, newRoot, [...proof, newRoot])],
        ['preceding old root', verifyConsistency(m, n, oldRoot, newRoot, [oldRoot, ...proof])],
        ['preceding new root', verifyConsistency(m, n, oldRoot, newRoot, [newRoot, ...proof])],
        ['preceding proof[0]', verifyConsistency(m, n, oldRoot, newRoot, [proof[0]!, ...proof])],
        ['truncated proof', verifyConsistency(m, n, oldRoot, newRoot, proof.slice(0, -1))],
        ...proof.map((_, i): [string, boolean] => [
          `flipped bit in proof[${i}]`,
          verifyConsistency(
            m,
            n,
            oldRoot,
            newRoot,
            proof.map((p, j) => (j === i ? flipped(p, 4) : p)),
          ),
        ]),
      ];
      expect(probes.filter(([, verified]) => verified).map(([name]) => name)).toEqual([]);
    },
  );

  it('needs no proof from the empty tree or to the same size, and refuses going back', () => {
    const leaves = leavesOf(5);
    const root = rootOf(leaves);
    expect(consistencyProof(leaves, 0)).toEqual([]);
    expect(consistencyProof(leaves, 5)).toEqual([]);
    expect(verifyConsistency(0, 5, emptyRoot(), root, [])).toBe(true);
    expect(verifyConsistency(0, 0, emptyRoot(), emptyRoot(), [])).toBe(true);
    expect(verifyConsistency(0, 5, root, root, [])).toBe(false);
    expect(verifyConsistency(5, 5, root, root, [])).toBe(true);
    expect(verifyConsistency(5, 5, root, flipped(root), [])).toBe(false);
    expect(verifyConsistency(5, 5, root, root, [root])).toBe(false);
    expect(verifyConsistency(5, 4, root, root, [])).toBe(false);
    expect(verifyConsistency(1, 2, root, root, [])).toBe(false);
    expect(() => consistencyProof(leaves, 6)).toThrow(RangeError);
  });

  it('verifies between random sizes m <= n and refuses once an earlier leaf changed', () => {
    fc.assert(
      fc.property(
        fc
          .tuple(fc.integer({ min: 1, max: 90 }), fc.nat(), fc.nat())
          .map(([n, a, b]) => ({ n, m: a % (n + 1), changed: b })),
        ({ n, m, changed }) => {
          const leaves = leavesOf(n, changed);
          const oldRoot = rootOf(leaves.slice(0, m));
          const newRoot = rootOf(leaves);
          const proof = consistencyProof(leaves, m);
          expect(verifyConsistency(m, n, oldRoot, newRoot, proof)).toBe(true);
          if (m === 0) return;
          // The log rewrote one of the first m leaves: its new head cannot be shown to extend the old one.
          const rewritten = leaves.slice();
          const at = changed % m;
          rewritten[at] = flipped(rewritten[at]!, changed % 256);
          const rewrittenRoot = rootOf(rewritten);
          expect(verifyConsistency(m, n, oldRoot, rewrittenRoot, proof)).toBe(false);
          expect(verifyConsistency(m, n, oldRoot, rewrittenRoot, consistencyProof(rewritten, m))).toBe(false);
          if (m < n) expect(verifyConsistency(m, n, newRoot, oldRoot, proof)).toBe(false);
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('sizes past 2^32 (no 32-bit arithmetic)', () => {
  it('verifies an inclusion proof in a perfect tree of 2^40 leaves', () => {
    const size = 2 ** 40;
    const index = 2 ** 39 + 2 ** 32 + 5;
    const siblings = leavesOf(40, 9);
    const leaf = leavesOf(1, 10)[0]!;
    // In a perfect tree, bit i of the index says whether the i-th sibling from the leaf is on the left.
    let root = leaf;
    for (let level = 0; level < 40; level++) {
      const onTheLeft = Math.floor(index / 2 ** level) % 2 === 1;
      root = onTheLeft ? nodeHash(siblings[level]!, root) : nodeHash(root, siblings[level]!);
    }
    expect(verifyInclusion(leaf, index, size, siblings, root)).toBe(true);
    expect(verifyInclusion(leaf, index - 2 ** 32, size, siblings, root)).toBe(false);
    expect(verifyInclusion(leaf, index - 2 ** 39, size, siblings, root)).toBe(false);
    expect(verifyInclusion(leaf, index, size * 2, siblings, root)).toBe(false);
  });

  it('verifies the consistency of 2^32 leaves with 2^32 + 1', () => {
    const [oldRoot, leaf] = leavesOf(2, 11) as [Hash, Hash];
    const newRoot = nodeHash(oldRoot, leaf);
    expect(verifyConsistency(2 ** 32, 2 ** 32 + 1, oldRoot, newRoot, [leaf])).toBe(true);
    expect(verifyConsistency(2 ** 32, 2 ** 33 + 1, oldRoot, newRoot, [leaf])).toBe(false);
    expect(verifyConsistency(2 ** 31, 2 ** 32 + 1, oldRoot, newRoot, [leaf])).toBe(false);
  });

  it('appends to a compact tree of 2^40 leaves', () => {
    const [edge, leaf] = leavesOf(2, 12) as [Hash, Hash];
    const tree = new CompactTree(2 ** 40, [edge]);
    tree.append(leaf);
    expect(tree.size).toBe(2 ** 40 + 1);
    expect(hex(tree.root())).toBe(hex(nodeHash(edge, leaf)));
    tree.append(leaf);
    expect(hex(tree.root())).toBe(hex(nodeHash(edge, nodeHash(leaf, leaf))));
    expect(tree.edge).toHaveLength(2);
  });
});

describe('CompactTree', () => {
  it('has the tree head of rootOf at every size, and can be stored and restored from its edge', () => {
    const leaves = leavesOf(130);
    const tree = new CompactTree();
    expect(tree.size).toBe(0);
    expect(hex(tree.root())).toBe(hex(emptyRoot()));
    for (let n = 1; n <= leaves.length; n++) {
      tree.append(leaves[n - 1]!);
      expect(tree.size).toBe(n);
      expect(hex(tree.root()), `size ${n}`).toBe(hex(rootOf(leaves.slice(0, n))));
      expect(tree.edge).toHaveLength(n.toString(2).replaceAll('0', '').length);
    }
    const restored = new CompactTree(tree.size, tree.edge);
    restored.append(leaves[0]!);
    expect(hex(restored.root())).toBe(hex(rootOf([...leaves, leaves[0]!])));
  });

  it('gives the published tree heads of 1 to 8 leaves', () => {
    const tree = new CompactTree();
    for (const [i, leaf] of LEAF_HASHES.entries()) {
      tree.append(leaf);
      expect(hex(tree.root())).toBe(ROOTS[i]);
    }
  });

  it('refuses an edge that does not fit the size', () => {
    expect(() => new CompactTree(3, leavesOf(1))).toThrow(RangeError);
    expect(() => new CompactTree(-1, [])).toThrow(RangeError);
    expect(() => new CompactTree(1, [new Uint8Array(3)])).toThrow(TypeError);
  });

  it('keeps its state apart from the arrays given to it and taken from it', () => {
    const leaf = leavesOf(1)[0]!;
    const tree = new CompactTree();
    tree.append(leaf);
    leaf.fill(0);
    tree.edge[0]!.fill(0);
    expect(hex(tree.root())).toBe(hex(rootOf(leavesOf(1))));
  });
});

describe('a tree kept as perfect subtrees (what a log stores)', () => {
  /** The leaves of a tree of `size`, and every perfect subtree its appends completed, by level and index. */
  function kept(size: number) {
    const leaves = Array.from({ length: size }, (_, i) => leafHash(new TextEncoder().encode(`leaf ${i}`)));
    const tree = new CompactTree();
    const stored = new Map<string, Uint8Array>();
    for (const [index, leaf] of leaves.entries()) {
      stored.set(`0/${index}`, leaf);
      for (const node of tree.append(leaf)) stored.set(`${node.level}/${node.index}`, node.hash);
    }
    const subtrees: SubtreeHashes = ({ level, index }) => {
      const hash = stored.get(`${level}/${index}`);
      if (!hash) throw new Error(`subtree ${level}/${index} was never completed`);
      return hash;
    };
    return { leaves, tree, subtrees };
  }

  it('gives the same heads and proofs as the leaves themselves, at every earlier size', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 130 }), fc.nat(), fc.nat(), (size, a, b) => {
        const { leaves, subtrees } = kept(size);
        const n = 1 + (a % size);
        const m = b % (n + 1);
        const index = b % n;
        const first = leaves.slice(0, n);
        expect(bytesToHex(rootOfSize(n, subtrees))).toBe(bytesToHex(rootOf(first)));
        expect(inclusionProofOf(index, n, subtrees).map(bytesToHex)).toEqual(
          inclusionProof(first, index).map(bytesToHex),
        );
        expect(consistencyProofOf(m, n, subtrees).map(bytesToHex)).toEqual(
          consistencyProof(first, m).map(bytesToHex),
        );
      }),
    );
  });

  it('completes each perfect subtree once, when its last leaf arrives', () => {
    const tree = new CompactTree();
    const completed = Array.from({ length: 8 }, (_, i) =>
      tree.append(leafHash(new Uint8Array([i]))).map(({ level, index }) => `${level}/${index}`),
    );
    expect(completed).toEqual([[], ['1/0'], [], ['1/1', '2/0'], [], ['1/2'], [], ['1/3', '2/1', '3/0']]);
  });

  it('names the subtrees a computation reads, so a log reads them in one go', () => {
    expect(edgeOf(13)).toEqual([
      { level: 3, index: 0 },
      { level: 2, index: 2 },
      { level: 0, index: 12 },
    ]);
    const forRoot = subtreesAskedBy((subtrees) => rootOfSize(13, subtrees));
    expect(forRoot).toHaveLength(3);
    expect(forRoot).toEqual(expect.arrayContaining(edgeOf(13)));
    const asked = subtreesAskedBy((subtrees) => inclusionProofOf(5, 13, subtrees));
    expect(asked).toEqual(
      expect.arrayContaining([
        { level: 0, index: 4 },
        { level: 1, index: 3 },
        { level: 2, index: 0 },
      ]),
    );
  });
});
