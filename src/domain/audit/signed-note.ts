/**
 * Signed notes (C2SP signed-note) with Ed25519 signatures, and the transparency-log checkpoint that is their body
 * (C2SP tlog-checkpoint): the text an outsider checks with the log's public key alone. Keys are written as Go's
 * golang.org/x/mod/sumdb/note writes them, so its tools read ours and ours read theirs:
 *
 * - a verifier key: `<name>+<key ID as 8 hex digits>+<base64(0x01 || 32-byte public key)>`;
 * - a signer key: `PRIVATE+KEY+<name>+<key ID as 8 hex digits>+<base64(0x01 || 32-byte seed)>`.
 *
 * Pure: no I/O and no Node-only module (Ed25519 and SHA-256 are @noble's), so it runs in a browser as well.
 */
import { ed25519 } from '@noble/curves/ed25519.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { HASH_SIZE, type Hash } from './merkle';

/** The signature type byte of Ed25519 in a key ID and a key's encoding (C2SP signed-note, "Signature types"). */
export const ED25519_SIGNATURE_TYPE = 0x01;

/** More signature lines than this make a note malformed (C2SP asks a verifier to accept at least 16). */
export const MAX_SIGNATURES = 100;

/** A transparency-log checkpoint: the log's identity, its size and its RFC 9162 tree head at that size. */
export interface Checkpoint {
  origin: string;
  size: number;
  rootHash: Hash;
}

/** An Ed25519 public key with its name and key ID, as a verifier key's text gives them. */
export interface VerifierKey {
  name: string;
  keyId: number;
  publicKey: Uint8Array;
}

/** An Ed25519 private key (its 32-byte seed) with its name and key ID, as a signer key's text gives them. */
export interface SignerKey {
  name: string;
  keyId: number;
  secretKey: Uint8Array;
}

/** Why a note or a key was refused. */
export type NoteFailureReason =
  /** Not the syntax of a signed note, a checkpoint or a key. */
  | 'malformed'
  /** Well formed, but no signature line is by the key asked for (same name and key ID). */
  | 'no_signature_by_key'
  /** A signature line by the key asked for does not verify: the text or the signature was changed. */
  | 'invalid_signature';

/** The problems whose sentence names no value. */
type PlainNoteProblem =
  | 'verifier-key-syntax'
  | 'signer-key-syntax'
  | 'key-not-ed25519'
  | 'key-id-mismatch'
  | 'key-name'
  | 'key-id-syntax'
  | 'key-not-base64'
  | 'key-type'
  | 'key-length'
  | 'note-text'
  | 'checkpoint-lines'
  | 'origin-empty'
  | 'size-syntax'
  | 'size-too-large'
  | 'extension-empty'
  | 'note-control'
  | 'note-unicode'
  | 'no-blank-line'
  | 'no-signature-line'
  | 'signature-newline';

/**
 * What is malformed in a key or a note, as a code with the value its sentence names, for a reader that says it
 * in another language than the English of `message`.
 */
export type NoteProblem =
  | { [P in PlainNoteProblem]: { problem: P } }[PlainNoteProblem]
  | { problem: 'root-hash'; bytes: number }
  | { problem: 'too-many-signatures'; limit: number }
  | { problem: 'signature-line'; line: string }
  | { problem: 'signature-payload'; name: string };

/**
 * The outcome of reading or checking: the value, or the reason it was refused with a sentence saying why (and,
 * when malformed, what is).
 */
export type NoteResult<T> =
  | { ok: true; value: T }
  | { ok: false; reason: NoteFailureReason; message: string; problem?: NoteProblem };

/** The key ID: the first 4 bytes (big-endian) of SHA-256(name || 0x0A || 0x01 || public key). */
export function ed25519KeyId(name: string, publicKey: Uint8Array): number {
  if (!isKeyName(name)) throw new TypeError(`not a key name: ${JSON.stringify(name)}`);
  if (publicKey.length !== 32) throw new TypeError('an Ed25519 public key has 32 bytes');
  const nameBytes = new TextEncoder().encode(name);
  const input = new Uint8Array(nameBytes.length + 2 + publicKey.length);
  input.set(nameBytes, 0);
  input[nameBytes.length] = 0x0a;
  input[nameBytes.length + 1] = ED25519_SIGNATURE_TYPE;
  input.set(publicKey, nameBytes.length + 2);
  const digest = sha256(input);
  return new DataView(digest.buffer, digest.byteOffset, 4).getUint32(0, false);
}

/** A new Ed25519 key pair named `name`, as signer and verifier key texts (a seed may be given, for tests). */
export function generateKey(name: string, seed?: Uint8Array): { signerKey: string; verifierKey: string } {
  if (!isKeyName(name)) throw new TypeError(`not a key name: ${JSON.stringify(name)}`);
  if (seed !== undefined && seed.length !== 32) throw new TypeError('an Ed25519 seed has 32 bytes');
  const secretKey = seed === undefined ? ed25519.utils.randomSecretKey() : seed.slice();
  return {
    signerKey: encodeSignerKey(name, secretKey),
    verifierKey: encodeVerifierKey(name, publicKeyOf(secretKey)),
  };
}

/** The Ed25519 public key of a 32-byte secret key (its seed). */
export function publicKeyOf(secretKey: Uint8Array): Uint8Array {
  if (secretKey.length !== 32) throw new TypeError('an Ed25519 secret key has 32 bytes');
  return ed25519.getPublicKey(secretKey);
}

/** The verifier key text `<name>+<key ID>+<base64(0x01 || public key)>`. */
export function encodeVerifierKey(name: string, publicKey: Uint8Array): string {
  return `${name}+${hex8(ed25519KeyId(name, publicKey))}+${encodeBase64(typed(publicKey))}`;
}

/** The signer key text `PRIVATE+KEY+<name>+<key ID>+<base64(0x01 || seed)>`: a secret, to keep as one. */
export function encodeSignerKey(name: string, secretKey: Uint8Array): string {
  const keyId = ed25519KeyId(name, publicKeyOf(secretKey));
  return `PRIVATE+KEY+${name}+${hex8(keyId)}+${encodeBase64(typed(secretKey))}`;
}

/** Reads a verifier key text; refused unless its key ID is the one its name and public key give. */
export function parseVerifierKey(text: string): NoteResult<VerifierKey> {
  const parts = chop(text, 3);
  if (parts === undefined) {
    return malformed({ problem: 'verifier-key-syntax' }, 'a verifier key is <name>+<key ID>+<key>');
  }
  const decoded = decodeKeyParts(parts[0]!, parts[1]!, parts[2]!);
  if (!decoded.ok) return decoded;
  const { name, keyId, key } = decoded.value;
  if (!ed25519.utils.isValidPublicKey(key, false)) {
    return malformed({ problem: 'key-not-ed25519' }, 'the key is not an Ed25519 public key');
  }
  if (ed25519KeyId(name, key) !== keyId) {
    return malformed({ problem: 'key-id-mismatch' }, 'the key ID is not the one of this name and key');
  }
  return { ok: true, value: { name, keyId, publicKey: key } };
}

/** Reads a signer key text; refused unless its key ID is the one its name and derived public key give. */
export function parseSignerKey(text: string): NoteResult<SignerKey> {
  const parts = chop(text, 5);
  if (parts === undefined || parts[0] !== 'PRIVATE' || parts[1] !== 'KEY') {
    return malformed({ problem: 'signer-key-syntax' }, 'a signer key is PRIVATE+KEY+<name>+<key ID>+<key>');
  }
  const decoded = decodeKeyParts(parts[2]!, parts[3]!, parts[4]!);
  if (!decoded.ok) return decoded;
  const { name, keyId, key } = decoded.value;
  if (ed25519KeyId(name, publicKeyOf(key)) !== keyId) {
    return malformed({ problem: 'key-id-mismatch' }, 'the key ID is not the one of this name and key');
  }
  return { ok: true, value: { name, keyId, secretKey: key } };
}

/**
 * The signed note: `body`, a blank line, and one signature line `— <name> <base64(key ID || signature)>` by the
 * Ed25519 key `secretKey` (its 32-byte seed) named `name`. The body must be text ending in a newline, without
 * control characters other than newlines.
 */
export function signNote(body: string, name: string, secretKey: Uint8Array): string {
  const problem = bodyProblem(body);
  if (problem !== undefined) throw new TypeError(problem);
  if (!isKeyName(name)) throw new TypeError(`not a key name: ${JSON.stringify(name)}`);
  const keyId = ed25519KeyId(name, publicKeyOf(secretKey));
  const signature = ed25519.sign(new TextEncoder().encode(body), secretKey);
  const payload = new Uint8Array(4 + signature.length);
  new DataView(payload.buffer).setUint32(0, keyId, false);
  payload.set(signature, 4);
  return `${body}\n— ${name} ${encodeBase64(payload)}\n`;
}

/**
 * Checks a signed note against one verifier key (its text or its parsed form) and gives the note's body. As
 * C2SP signed-note asks: signature lines of other keys (another name or another key ID) are ignored; a line of
 * this key that does not verify refuses the whole note; and a note without a verified line of this key is
 * refused. Ed25519 is verified as RFC 8032 specifies (not the laxer ZIP-215 rules).
 */
export function verifyNote(noteText: string, verifierKey: string | VerifierKey): NoteResult<string> {
  const key =
    typeof verifierKey === 'string'
      ? parseVerifierKey(verifierKey)
      : { ok: true as const, value: verifierKey };
  if (!key.ok) {
    return {
      ...key,
      reason: 'malformed',
      message: `the verifier key is malformed: ${key.message}`,
    };
  }
  const { name, keyId, publicKey } = key.value;
  const note = splitNote(noteText);
  if (!note.ok) return note;
  const { body, signatures } = note.value;
  const message = new TextEncoder().encode(body);
  let verified = false;
  for (const signature of signatures) {
    if (signature.name !== name || signature.keyId !== keyId) continue;
    if (!verifiesEd25519(signature.signature, message, publicKey)) {
      return {
        ok: false,
        reason: 'invalid_signature',
        message: `the signature by ${name}+${hex8(keyId)} does not verify: the note's text or its signature was changed`,
      };
    }
    verified = true;
  }
  if (!verified) {
    return {
      ok: false,
      reason: 'no_signature_by_key',
      message: `the note has no signature by ${name}+${hex8(keyId)}`,
    };
  }
  return { ok: true, value: body };
}

/**
 * The checkpoint's note body: the origin, the size in decimal and the base64 root hash, each on its line, then
 * its extension lines if any (each non-empty, without control characters).
 */
export function formatCheckpoint(checkpoint: Checkpoint & { extensions?: readonly string[] }): string {
  const { origin, size, rootHash, extensions = [] } = checkpoint;
  if (origin === '' || hasControlCharacter(origin, false)) {
    throw new TypeError('the origin must be one non-empty line without control characters');
  }
  if (!Number.isSafeInteger(size) || size < 0) throw new RangeError(`not a tree size: ${size}`);
  if (rootHash.length !== HASH_SIZE) throw new TypeError(`the root hash must have ${HASH_SIZE} bytes`);
  if (extensions.some((line) => line === '' || hasControlCharacter(line, false))) {
    throw new TypeError('an extension line must be non-empty, without control characters');
  }
  return [origin, String(size), encodeBase64(rootHash), ...extensions].map((line) => `${line}\n`).join('');
}

/** Reads a checkpoint's note body (C2SP tlog-checkpoint), with its extension lines if any. */
export function parseCheckpoint(body: string): NoteResult<Checkpoint & { extensions: string[] }> {
  const problem = bodyProblem(body);
  if (problem !== undefined) return malformed({ problem: 'note-text' }, problem);
  const lines = body.slice(0, -1).split('\n');
  if (lines.length < 3) {
    return malformed(
      { problem: 'checkpoint-lines' },
      'a checkpoint has at least three lines: origin, size and root hash',
    );
  }
  const [origin, sizeText, rootText, ...extensions] = lines as [string, string, string, ...string[]];
  if (origin === '') return malformed({ problem: 'origin-empty' }, 'the origin line is empty');
  if (!/^(0|[1-9][0-9]*)$/.test(sizeText)) {
    return malformed({ problem: 'size-syntax' }, 'the size is not a decimal number without leading zeros');
  }
  const size = Number(sizeText);
  if (!Number.isSafeInteger(size)) return malformed({ problem: 'size-too-large' }, 'the size is too large');
  const rootHash = decodeBase64(rootText);
  if (rootHash === undefined || rootHash.length !== HASH_SIZE) {
    return malformed(
      { problem: 'root-hash', bytes: HASH_SIZE },
      `the root hash is not the base64 of ${HASH_SIZE} bytes`,
    );
  }
  if (extensions.some((line) => line === '')) {
    return malformed({ problem: 'extension-empty' }, 'an extension line is empty');
  }
  return { ok: true, value: { origin, size, rootHash, extensions } };
}

/** A signed checkpoint: the note of `formatCheckpoint(checkpoint)` signed with `secretKey` named `name`. */
export function signCheckpoint(
  checkpoint: Checkpoint & { extensions?: readonly string[] },
  name: string,
  secretKey: Uint8Array,
): string {
  return signNote(formatCheckpoint(checkpoint), name, secretKey);
}

/** Checks a signed checkpoint against a verifier key, then reads it. */
export function verifyCheckpoint(
  noteText: string,
  verifierKey: string | VerifierKey,
): NoteResult<Checkpoint & { extensions: string[] }> {
  const body = verifyNote(noteText, verifierKey);
  return body.ok ? parseCheckpoint(body.value) : body;
}

/** Standard base64 (RFC 4648 §4) with padding. */
export function encodeBase64(bytes: Uint8Array): string {
  let text = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const a = bytes[i]!;
    const b = bytes[i + 1];
    const c = bytes[i + 2];
    text += BASE64[a >> 2]!;
    text += BASE64[((a & 3) << 4) | ((b ?? 0) >> 4)]!;
    text += b === undefined ? '=' : BASE64[((b & 15) << 2) | ((c ?? 0) >> 6)]!;
    text += c === undefined ? '=' : BASE64[c & 63]!;
  }
  return text;
}

/** Decodes standard base64 with padding; undefined unless `text` is the canonical encoding of its bytes. */
export function decodeBase64(text: string): Uint8Array | undefined {
  if (!/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(text)) return undefined;
  const digits = text.replace(/=+$/, '');
  const bytes = new Uint8Array(Math.floor((digits.length * 6) / 8));
  let buffer = 0;
  let bits = 0;
  let at = 0;
  for (const digit of digits) {
    buffer = ((buffer << 6) | BASE64.indexOf(digit)) & 0xffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      bytes[at++] = (buffer >> bits) & 0xff;
    }
  }
  // Bits left over must be zero, so that one byte string has one encoding.
  return encodeBase64(bytes) === text ? bytes : undefined;
}

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

interface SignatureLine {
  name: string;
  keyId: number;
  signature: Uint8Array;
}

/** The body and the signature lines of a note: the body ends at the note's last blank line. */
function splitNote(noteText: string): NoteResult<{ body: string; signatures: SignatureLine[] }> {
  if (hasControlCharacter(noteText, true)) {
    return malformed({ problem: 'note-control' }, 'the note contains a control character other than newline');
  }
  if (/\p{Surrogate}/u.test(noteText)) {
    return malformed({ problem: 'note-unicode' }, 'the note is not valid Unicode text');
  }
  const split = noteText.lastIndexOf('\n\n');
  if (split < 0) {
    return malformed(
      { problem: 'no-blank-line' },
      'the note has no blank line between its text and its signatures',
    );
  }
  const body = noteText.slice(0, split + 1);
  const signatureText = noteText.slice(split + 2);
  if (signatureText === '') {
    return malformed({ problem: 'no-signature-line' }, 'the note has no signature line after its blank line');
  }
  if (!signatureText.endsWith('\n')) {
    return malformed({ problem: 'signature-newline' }, 'the last signature line does not end in a newline');
  }
  const lines = signatureText.slice(0, -1).split('\n');
  if (lines.length > MAX_SIGNATURES) {
    return malformed(
      { problem: 'too-many-signatures', limit: MAX_SIGNATURES },
      `the note has more than ${MAX_SIGNATURES} signatures`,
    );
  }
  const signatures: SignatureLine[] = [];
  for (const line of lines) {
    const match = /^\u2014 ([^ ]+) ([^ ]+)$/.exec(line);
    if (match === null || !isKeyName(match[1]!)) {
      return malformed(
        { problem: 'signature-line', line },
        `not a signature line "— <key name> <base64 signature>": ${JSON.stringify(line)}`,
      );
    }
    const payload = decodeBase64(match[2]!);
    if (payload === undefined || payload.length < 5) {
      return malformed(
        { problem: 'signature-payload', name: match[1]! },
        `the signature of ${match[1]} is not the base64 of a key ID and a signature`,
      );
    }
    signatures.push({
      name: match[1]!,
      keyId: new DataView(payload.buffer, payload.byteOffset, 4).getUint32(0, false),
      signature: payload.slice(4),
    });
  }
  return { ok: true, value: { body, signatures } };
}

/** Why `body` cannot be a note's text, if it cannot. */
function bodyProblem(body: string): string | undefined {
  if (body === '' || !body.endsWith('\n')) return 'a note text must end in a newline';
  if (hasControlCharacter(body, true)) return 'a note text has no control character other than newline';
  if (/\p{Surrogate}/u.test(body)) return 'a note text must be valid Unicode text';
  return undefined;
}

/** C2SP signed-note: non-empty, no Unicode space and no plus; and no control character. */
function isKeyName(name: string): boolean {
  if (name === '' || /[\s+\u0085]/u.test(name) || /\p{Surrogate}/u.test(name)) return false;
  return !hasControlCharacter(name, false) && !name.includes('\u007f');
}

/** Whether `text` has an ASCII control character (below U+0020), a newline aside if `newlineAllowed`. */
function hasControlCharacter(text: string, newlineAllowed: boolean): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 && !(newlineAllowed && code === 0x0a)) return true;
  }
  return false;
}

/** Splits and decodes `<name>`, `<key ID>` and `<base64(0x01 || 32 bytes)>`. */
function decodeKeyParts(
  name: string,
  id: string,
  encoded: string,
): NoteResult<{ name: string; keyId: number; key: Uint8Array }> {
  if (!isKeyName(name)) {
    return malformed({ problem: 'key-name' }, 'the key name is empty or contains a space or a plus');
  }
  if (!/^[0-9a-f]{8}$/.test(id)) {
    return malformed({ problem: 'key-id-syntax' }, 'the key ID is not 8 lowercase hexadecimal digits');
  }
  const bytes = decodeBase64(encoded);
  if (bytes === undefined) return malformed({ problem: 'key-not-base64' }, 'the key is not base64');
  if (bytes[0] !== ED25519_SIGNATURE_TYPE) {
    return malformed({ problem: 'key-type' }, 'the key is not an Ed25519 key (type 0x01)');
  }
  if (bytes.length !== 33) return malformed({ problem: 'key-length' }, 'an Ed25519 key has 32 bytes');
  return { ok: true, value: { name, keyId: Number.parseInt(id, 16), key: bytes.slice(1) } };
}

/** RFC 8032 Ed25519 verification; false, not an exception, for bytes of the wrong length or form. */
function verifiesEd25519(signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): boolean {
  if (signature.length !== 64 || publicKey.length !== 32) return false;
  try {
    return ed25519.verify(signature, message, publicKey, { zip215: false });
  } catch {
    return false;
  }
}

/** `text` cut at its first `count - 1` plus signs (base64, the last part, may hold more), if it has as many. */
function chop(text: string, count: number): string[] | undefined {
  const parts: string[] = [];
  let rest = text;
  for (let i = 1; i < count; i++) {
    const at = rest.indexOf('+');
    if (at < 0) return undefined;
    parts.push(rest.slice(0, at));
    rest = rest.slice(at + 1);
  }
  return [...parts, rest];
}

/** 0x01 || key: a key's bytes with the signature type in front. */
function typed(key: Uint8Array): Uint8Array {
  const bytes = new Uint8Array(1 + key.length);
  bytes[0] = ED25519_SIGNATURE_TYPE;
  bytes.set(key, 1);
  return bytes;
}

function hex8(n: number): string {
  return n.toString(16).padStart(8, '0');
}

function malformed(
  problem: NoteProblem,
  message: string,
): { ok: false; reason: 'malformed'; message: string; problem: NoteProblem } {
  return { ok: false, reason: 'malformed', message, problem };
}
