import { bytesToHex } from '@noble/hashes/utils.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CompactTree, inclusionProof, leafHash, rootOf, verifyInclusion } from './merkle';
import {
  decodeBase64,
  ed25519KeyId,
  encodeBase64,
  encodeVerifierKey,
  formatCheckpoint,
  generateKey,
  parseCheckpoint,
  parseSignerKey,
  parseVerifierKey,
  publicKeyOf,
  signCheckpoint,
  signNote,
  verifyCheckpoint,
  verifyNote,
} from './signed-note';

/**
 * The published example of Go's golang.org/x/mod/sumdb/note (its tests): two keys, a text and each key's
 * signature of it. Ed25519 signatures are deterministic, so signing the text again must give the same line.
 */
const PETER_VERIFIER = 'PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW';
const PETER_SIGNER = 'PRIVATE+KEY+PeterNeumann+c74f20a3+AYEKFALVFGyNhPJEMzD1QIDr+Y7hfZx09iUvxdXHKDFz';
const ENOCH_VERIFIER = 'EnochRoot+af0cfe78+ATtqJ7zOtqQtYqOo0CpvDXNlMhV3HeJDpjrASKGLWdop';
const TEXT =
  "If you think cryptography is the answer to your problem,\nthen you don't know what your problem is.\n";
const PETER_SIG =
  '— PeterNeumann x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=\n';
const ENOCH_SIG =
  '— EnochRoot rwz+eBzmZa0SO3NbfRGzPCpDckykFXSdeX+MNtCOXm2/5n2tiOHp+vAF1aGrQ5ovTG01oOTGwnWLox33WWd1RvMc+QQ=\n';

const ok = <T>(result: { ok: true; value: T } | { ok: false; message: string }): T => {
  if (!result.ok) throw new Error(result.message);
  return result.value;
};

/** A fixed key for the tests that need one of their own. */
const seed = Uint8Array.from({ length: 32 }, (_, i) => i * 7 + 1);
const LOG = 'audit.example/workbench';
const logKeys = generateKey(LOG, seed);

describe('keys (C2SP signed-note, as Go writes them)', () => {
  it('reads the published verifier keys, with their key IDs', () => {
    expect(ok(parseVerifierKey(PETER_VERIFIER))).toMatchObject({ name: 'PeterNeumann', keyId: 0xc74f20a3 });
    expect(ok(parseVerifierKey(ENOCH_VERIFIER))).toMatchObject({ name: 'EnochRoot', keyId: 0xaf0cfe78 });
  });

  it('derives the key ID as the first 4 bytes of SHA-256(name || 0x0A || 0x01 || public key)', () => {
    const { publicKey } = ok(parseVerifierKey(PETER_VERIFIER));
    expect(ed25519KeyId('PeterNeumann', publicKey)).toBe(0xc74f20a3);
    expect(encodeVerifierKey('PeterNeumann', publicKey)).toBe(PETER_VERIFIER);
  });

  it('reads the published signer key, whose public key is the verifier key', () => {
    const signer = ok(parseSignerKey(PETER_SIGNER));
    expect(signer).toMatchObject({ name: 'PeterNeumann', keyId: 0xc74f20a3 });
    expect(encodeVerifierKey(signer.name, publicKeyOf(signer.secretKey))).toBe(PETER_VERIFIER);
  });

  it('refuses every cut and every one-character change of a verifier key', () => {
    const accepted: string[] = [];
    for (let i = 0; i <= PETER_VERIFIER.length; i++) {
      for (let j = i + 1; j <= PETER_VERIFIER.length; j++) {
        if (i === 0 && j === PETER_VERIFIER.length) continue;
        const cut = PETER_VERIFIER.slice(i, j);
        if (parseVerifierKey(cut).ok) accepted.push(cut);
      }
    }
    for (let i = 0; i < PETER_VERIFIER.length; i++) {
      const changed =
        PETER_VERIFIER.slice(0, i) +
        String.fromCharCode(PETER_VERIFIER.charCodeAt(i) + 1) +
        PETER_VERIFIER.slice(i + 1);
      if (parseVerifierKey(changed).ok) accepted.push(changed);
    }
    expect(accepted).toEqual([]);
  });

  it('refuses a key of the wrong length or of another algorithm, even with a matching key ID', () => {
    expect(
      parseVerifierKey('PeterNeumann+cc469956+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TWBADKEY=='),
    ).toMatchObject({
      ok: false,
      reason: 'malformed',
    });
    expect(
      parseVerifierKey('PeterNeumann+173116ae+ZRpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW'),
    ).toMatchObject({
      ok: false,
      reason: 'malformed',
    });
  });

  it('refuses every cut and every one-character change of a signer key', () => {
    const accepted: string[] = [];
    for (let i = 0; i <= PETER_SIGNER.length; i++) {
      for (let j = i + 1; j <= PETER_SIGNER.length; j++) {
        if (i === 0 && j === PETER_SIGNER.length) continue;
        if (parseSignerKey(PETER_SIGNER.slice(i, j)).ok) accepted.push(PETER_SIGNER.slice(i, j));
      }
    }
    for (let i = 0; i < PETER_SIGNER.length; i++) {
      const changed =
        PETER_SIGNER.slice(0, i) +
        String.fromCharCode(PETER_SIGNER.charCodeAt(i) + 1) +
        PETER_SIGNER.slice(i + 1);
      if (parseSignerKey(changed).ok) accepted.push(changed);
    }
    expect(accepted).toEqual([]);
  });

  it('generates a key pair whose texts read back and agree', () => {
    const { signerKey, verifierKey } = generateKey('EnochRoot');
    const signer = ok(parseSignerKey(signerKey));
    const verifier = ok(parseVerifierKey(verifierKey));
    expect(signer.keyId).toBe(verifier.keyId);
    expect(bytesToHex(publicKeyOf(signer.secretKey))).toBe(bytesToHex(verifier.publicKey));
    expect(generateKey('EnochRoot').verifierKey).not.toBe(verifierKey);
    expect(generateKey(LOG, seed)).toEqual(logKeys);
  });

  it('refuses a key name with a space or a plus', () => {
    expect(() => generateKey('a b')).toThrow(TypeError);
    expect(() => generateKey('a+b')).toThrow(TypeError);
    expect(() => generateKey('')).toThrow(TypeError);
  });
});

describe('signing and verifying a note', () => {
  it("signs the published text exactly as Go's signed note does", () => {
    const { name, secretKey } = ok(parseSignerKey(PETER_SIGNER));
    expect(signNote(TEXT, name, secretKey)).toBe(`${TEXT}\n${PETER_SIG}`);
  });

  it('verifies the published note by each of its two keys, ignoring the other signature', () => {
    const note = `${TEXT}\n${PETER_SIG}${ENOCH_SIG}`;
    expect(verifyNote(note, PETER_VERIFIER)).toEqual({ ok: true, value: TEXT });
    expect(verifyNote(note, ENOCH_VERIFIER)).toEqual({ ok: true, value: TEXT });
    expect(verifyNote(note, ok(parseVerifierKey(PETER_VERIFIER)))).toEqual({ ok: true, value: TEXT });
  });

  it('signs then verifies any text, including blank lines inside it', () => {
    const { name, secretKey } = ok(parseSignerKey(logKeys.signerKey));
    fc.assert(
      fc.property(
        fc.array(
          fc.string({ unit: 'grapheme' }).map((line) => [...line].filter((c) => c >= ' ').join('')),
          {
            minLength: 1,
            maxLength: 6,
          },
        ),
        (lines) => {
          const body = `${lines.join('\n')}\n`;
          expect(verifyNote(signNote(body, name, secretKey), logKeys.verifierKey)).toEqual({
            ok: true,
            value: body,
          });
        },
      ),
      { numRuns: 50 },
    );
  });

  it('refuses a changed text', () => {
    const note = `${TEXT.replace('answer', 'Answer')}\n${PETER_SIG}`;
    expect(verifyNote(note, PETER_VERIFIER)).toEqual({
      ok: false,
      reason: 'invalid_signature',
      message:
        "the signature by PeterNeumann+c74f20a3 does not verify: the note's text or its signature was changed",
    });
  });

  it('refuses a changed signature, and one cut or lengthened', () => {
    const sig = PETER_SIG.slice(0, -1);
    const changedAt = (at: number) => {
      const digit = sig[at] === 'A' ? 'B' : 'A';
      return `${sig.slice(0, at)}${digit}${sig.slice(at + 1)}\n`;
    };
    // Past the key ID (the first 6 base64 digits after the name), inside the 64 signature bytes.
    for (const at of [21, 40, 60, 100]) {
      expect(verifyNote(`${TEXT}\n${changedAt(at)}`, PETER_VERIFIER)).toMatchObject({
        reason: 'invalid_signature',
      });
    }
    const lengthened = `${PETER_SIG.slice(0, 60)}ABCD${PETER_SIG.slice(60)}`;
    expect(verifyNote(`${TEXT}\n${lengthened}`, PETER_VERIFIER)).toMatchObject({
      reason: 'invalid_signature',
    });
  });

  it('refuses a valid signature by a bad key line among those of the right key: the whole note', () => {
    const bad = `${PETER_SIG.slice(0, 60)}ABCD${PETER_SIG.slice(60)}`;
    expect(verifyNote(`${TEXT}\n${PETER_SIG}${bad}`, PETER_VERIFIER)).toMatchObject({
      reason: 'invalid_signature',
    });
  });

  it('refuses a note by another key, or by a key of the same name and another ID', () => {
    expect(verifyNote(`${TEXT}\n${ENOCH_SIG}`, PETER_VERIFIER)).toEqual({
      ok: false,
      reason: 'no_signature_by_key',
      message: 'the note has no signature by PeterNeumann+c74f20a3',
    });
    const { publicKey } = ok(parseVerifierKey(logKeys.verifierKey));
    const samenamed = encodeVerifierKey('PeterNeumann', publicKey);
    expect(verifyNote(`${TEXT}\n${PETER_SIG}`, samenamed)).toMatchObject({ reason: 'no_signature_by_key' });
    // A signature line that claims Peter's name and key ID is checked against Peter's key, and fails.
    const { secretKey } = ok(parseSignerKey(logKeys.signerKey));
    const otherLine = signNote(TEXT, 'Other', secretKey).slice(TEXT.length + 1);
    const payload = decodeBase64(otherLine.slice('— Other '.length, -1))!;
    new DataView(payload.buffer).setUint32(0, 0xc74f20a3);
    const forgedWithPetersId = `${TEXT}\n— PeterNeumann ${encodeBase64(payload)}\n`;
    expect(verifyNote(forgedWithPetersId, PETER_VERIFIER)).toMatchObject({ reason: 'invalid_signature' });
  });

  it('refuses a verifier key that does not read', () => {
    expect(verifyNote(`${TEXT}\n${PETER_SIG}`, 'PeterNeumann+c74f20a3')).toMatchObject({
      ok: false,
      reason: 'malformed',
      message: 'the verifier key is malformed: a verifier key is <name>+<key ID>+<key>',
    });
  });

  it.each([
    ['the text alone', TEXT, 'the note has no blank line between its text and its signatures'],
    ['the text and a blank line', `${TEXT}\n`, 'the note has no signature line after its blank line'],
    [
      'a signature without its newline',
      `${TEXT}\n${PETER_SIG.slice(0, -1)}`,
      'the last signature line does not end in a newline',
    ],
    [
      'a control character',
      `\u0001${TEXT}\n${PETER_SIG}`,
      'the note contains a control character other than newline',
    ],
    ['a lone surrogate', `\ud800${TEXT}\n${PETER_SIG}`, 'the note is not valid Unicode text'],
    [
      'a key name with a space',
      `${TEXT}\n— Bad Name x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=\n`,
      'not a signature line',
    ],
    ['a line after the signatures', `${TEXT}\n${PETER_SIG}Unexpected line.\n`, 'not a signature line'],
    ['a hyphen for the em dash', `${TEXT}\n${PETER_SIG.replace('—', '-')}`, 'not a signature line'],
    [
      'a signature that is not base64',
      `${TEXT}\n— PeterNeumann x08go!\n`,
      'is not the base64 of a key ID and a signature',
    ],
    ['too many signatures', `${TEXT}\n${PETER_SIG.repeat(101)}`, 'the note has more than 100 signatures'],
  ])('refuses a note with %s as malformed, saying why', (_, note, message) => {
    const result = verifyNote(note, PETER_VERIFIER);
    expect(result).toMatchObject({ ok: false, reason: 'malformed' });
    expect(!result.ok && result.message).toContain(message);
  });

  it('refuses to sign a text that does not end in a newline or has control characters', () => {
    const { name, secretKey } = ok(parseSignerKey(PETER_SIGNER));
    expect(() => signNote('abc', name, secretKey)).toThrow(TypeError);
    expect(() => signNote('', name, secretKey)).toThrow(TypeError);
    expect(() => signNote('a\tb\n', name, secretKey)).toThrow(TypeError);
    expect(() => signNote(TEXT, 'Peter Neumann', secretKey)).toThrow(TypeError);
  });
});

describe('checkpoints (C2SP tlog-checkpoint)', () => {
  it('reads the published example body', () => {
    const body = 'example.com/behind-the-sofa\n20852163\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n';
    const checkpoint = ok(parseCheckpoint(body));
    expect(checkpoint).toMatchObject({
      origin: 'example.com/behind-the-sofa',
      size: 20852163,
      extensions: [],
    });
    expect(checkpoint.rootHash).toHaveLength(32);
    expect(formatCheckpoint(checkpoint)).toBe(body);
  });

  it('writes the origin, the decimal size and the base64 root hash, one a line', () => {
    expect(formatCheckpoint({ origin: LOG, size: 0, rootHash: rootOf([]) })).toBe(
      `${LOG}\n0\n47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=\n`,
    );
  });

  it('reads back what it writes, with extension lines kept', () => {
    fc.assert(
      fc.property(
        fc.nat({ max: Number.MAX_SAFE_INTEGER }),
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        (size, rootHash) => {
          const body = formatCheckpoint({ origin: LOG, size, rootHash });
          expect(ok(parseCheckpoint(body))).toEqual({ origin: LOG, size, rootHash, extensions: [] });
          expect(ok(parseCheckpoint(`${body}ext one\n`)).extensions).toEqual(['ext one']);
        },
      ),
      { numRuns: 100 },
    );
  });

  it.each([
    ['two lines', `${LOG}\n1\n`, 'at least three lines'],
    ['an empty origin', '\n1\n47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=\n', 'the origin line is empty'],
    [
      'a size with a leading zero',
      `${LOG}\n01\n47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=\n`,
      'leading zeros',
    ],
    ['a negative size', `${LOG}\n-1\n47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=\n`, 'not a decimal number'],
    [
      'a size past 2^53',
      `${LOG}\n9007199254740993\n47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=\n`,
      'too large',
    ],
    ['a short root hash', `${LOG}\n1\nAAAA\n`, 'not the base64 of 32 bytes'],
    [
      'a root hash in unpadded base64',
      `${LOG}\n1\n47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU\n`,
      'not the base64',
    ],
    [
      'an empty extension line',
      `${LOG}\n1\n47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=\n\n`,
      'extension line is empty',
    ],
    ['no final newline', `${LOG}\n1\n47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=`, 'end in a newline'],
  ])('refuses a body with %s', (_, body, message) => {
    const result = parseCheckpoint(body);
    expect(result).toMatchObject({ ok: false, reason: 'malformed' });
    expect(!result.ok && result.message).toContain(message);
  });

  it("lets an outsider check a leaf against the log's signed checkpoint with the public key alone", () => {
    const leaves = Array.from({ length: 11 }, (_, i) => leafHash(new TextEncoder().encode(`event ${i}`)));
    const tree = new CompactTree();
    for (const leaf of leaves) tree.append(leaf);
    const { secretKey } = ok(parseSignerKey(logKeys.signerKey));
    const note = signCheckpoint({ origin: LOG, size: tree.size, rootHash: tree.root() }, LOG, secretKey);

    const checkpoint = ok(verifyCheckpoint(note, logKeys.verifierKey));
    expect(checkpoint.size).toBe(11);
    expect(
      verifyInclusion(leaves[7]!, 7, checkpoint.size, inclusionProof(leaves, 7), checkpoint.rootHash),
    ).toBe(true);
    expect(verifyCheckpoint(note.replace('\n11\n', '\n12\n'), logKeys.verifierKey)).toMatchObject({
      reason: 'invalid_signature',
    });
  });
});

describe('base64 (RFC 4648 §4)', () => {
  it('matches the RFC 4648 test vectors and reads back', () => {
    const vectors = ['', 'Zg==', 'Zm8=', 'Zm9v', 'Zm9vYg==', 'Zm9vYmE=', 'Zm9vYmFy'];
    for (const [length, encoded] of vectors.entries()) {
      expect(encodeBase64(new TextEncoder().encode('foobar'.slice(0, length)))).toBe(encoded);
      expect(new TextDecoder().decode(decodeBase64(encoded))).toBe('foobar'.slice(0, length));
    }
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 70 }), (bytes) => {
        expect(decodeBase64(encodeBase64(bytes))).toEqual(bytes);
      }),
    );
  });

  it('refuses anything but the one canonical encoding', () => {
    for (const text of ['Zg', 'Zg=', 'Zh==', 'Z===', 'Zm9v\n', ' Zm9v', 'Zm-v', 'Zm_v']) {
      expect(decodeBase64(text), text).toBeUndefined();
    }
  });
});
