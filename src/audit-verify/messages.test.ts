import { describe, expect, it } from 'vitest';
import {
  type Catalog,
  type Code,
  en,
  MAX_SHOWN,
  type MessageOf,
  type NoteProblem,
  render,
  shown,
  vi,
  viNoteProblem,
} from './messages';
import { makeBundle, makeLog } from './testing';
import { checkBundle } from './verify-bundle';

const at = { stream: 'execution-a', position: 4, leaf: 17 };

/** One message of every code (the type makes a missing one a compile error). */
const samples: { [C in Code]: MessageOf<C> } = {
  verified: { code: 'verified', events: 8, size: 25 },
  'own-key': { code: 'own-key' },
  'other-key': { code: 'other-key', key: 'workbench/audit-log+1a2b3c4d+AQ…' },
  'not-json': { code: 'not-json' },
  'not-object': { code: 'not-object' },
  format: { code: 'format', format: 'other/v1', expected: 'workbench-audit-bundle/v1' },
  malformed: {
    code: 'malformed',
    input: 'bundle',
    path: 'checkpoint.size',
    issue: 'Invalid input: expected number, received string',
    problem: 'type',
    expected: 'number',
    received: 'string',
  },
  'bad-key': { code: 'bad-key', key: 'given', reason: 'a verifier key is <name>+<key ID>+<key>' },
  'checkpoint-signature': {
    code: 'checkpoint-signature',
    checkpoint: 'bundle',
    key: 'workbench/audit-log+1a2b3c4d',
    why: 'invalid_signature',
    reason: 'the signature does not verify',
  },
  'checkpoint-origin': { code: 'checkpoint-origin', checkpoint: 'given', origin: 'other', name: 'mine' },
  origin: { code: 'origin', origin: 'other', signed: 'mine' },
  'checkpoint-size': { code: 'checkpoint-size', size: 24, signed: 25 },
  'checkpoint-at': { code: 'checkpoint-at', at: '2026-11-28T12:00:00Z', signed: null },
  'stream-twice': { code: 'stream-twice', stream: 'execution-a' },
  'leaf-beyond': { code: 'leaf-beyond', ...at, size: 10 },
  'leaves-order': { code: 'leaves-order', ...at },
  'leaf-shared': { code: 'leaf-shared', ...at, other: 'execution-b' },
  'positions-order': { code: 'positions-order', stream: 'execution-a', position: 4 },
  'event-missing': { code: 'event-missing', ...at },
  'position-missing': { code: 'position-missing', stream: 'execution-a', position: 4 },
  'not-in-log': { code: 'not-in-log', stream: 'execution-a', position: 4 },
  'not-stream-leaf': { code: 'not-stream-leaf', ...at },
  'proof-length': { code: 'proof-length', ...at, hashes: 3, expected: 5, size: 25 },
  'leaf-changed': { code: 'leaf-changed', ...at, size: 25 },
  'proof-hash': { code: 'proof-hash', ...at, index: 2, bytes: 32 },
  'given-proof-hash': { code: 'given-proof-hash', index: 2, bytes: 32 },
  'bundle-proof-hash': { code: 'bundle-proof-hash', from: 9, index: 2, bytes: 32 },
  'checkpoint-not-json': { code: 'checkpoint-not-json' },
  'consistency-sizes': { code: 'consistency-sizes' },
  'consistency-elsewhere': { code: 'consistency-elsewhere', from: 9, to: 19, size: 25 },
  'checkpoint-later': { code: 'checkpoint-later', given: 30, size: 25 },
  'no-consistency': { code: 'no-consistency', from: 9 },
  'not-extend': { code: 'not-extend', later: 25, earlier: 9 },
  rewritten: { code: 'rewritten', size: 25 },
  unexpected: { code: 'unexpected', error: 'RangeError: x' },
};

/** One problem of every kind a key or a signed note can have. */
const problems: { [P in NoteProblem['problem']]: Extract<NoteProblem, { problem: P }> } = {
  'verifier-key-syntax': { problem: 'verifier-key-syntax' },
  'signer-key-syntax': { problem: 'signer-key-syntax' },
  'key-not-ed25519': { problem: 'key-not-ed25519' },
  'key-id-mismatch': { problem: 'key-id-mismatch' },
  'key-name': { problem: 'key-name' },
  'key-id-syntax': { problem: 'key-id-syntax' },
  'key-not-base64': { problem: 'key-not-base64' },
  'key-type': { problem: 'key-type' },
  'key-length': { problem: 'key-length' },
  'note-text': { problem: 'note-text' },
  'checkpoint-lines': { problem: 'checkpoint-lines' },
  'origin-empty': { problem: 'origin-empty' },
  'size-syntax': { problem: 'size-syntax' },
  'size-too-large': { problem: 'size-too-large' },
  'root-hash': { problem: 'root-hash', bytes: 32 },
  'extension-empty': { problem: 'extension-empty' },
  'note-control': { problem: 'note-control' },
  'note-unicode': { problem: 'note-unicode' },
  'no-blank-line': { problem: 'no-blank-line' },
  'no-signature-line': { problem: 'no-signature-line' },
  'signature-newline': { problem: 'signature-newline' },
  'too-many-signatures': { problem: 'too-many-signatures', limit: 256 },
  'signature-line': { problem: 'signature-line', line: '- x y' },
  'signature-payload': { problem: 'signature-payload', name: 'workbench/audit-log' },
};

const catalogs: [string, Catalog][] = [
  ['en', en],
  ['vi', vi],
];

describe('the messages of the verifier', () => {
  it.each(catalogs)('%s has a sentence for every code, and no other', (_, catalog) => {
    expect(Object.keys(catalog).sort()).toEqual(Object.keys(samples).sort());
    for (const message of Object.values(samples)) {
      const text = render(catalog, message);
      expect(text, message.code).not.toBe('');
      expect(text, message.code).not.toMatch(/undefined|\[object /);
    }
  });

  it('says each in its own words in Vietnamese', () => {
    for (const message of Object.values(samples)) {
      expect(render(vi, message), message.code).not.toBe(render(en, message));
    }
  });

  it('names the stream, the position and the leaf in both', () => {
    const refusal = samples['leaf-changed'];
    expect(render(en, refusal)).toBe(
      'stream execution-a position 4 (leaf 17): does not match the log at checkpoint 25 (changed)',
    );
    expect(render(vi, refusal)).toBe(
      'stream execution-a, vị trí 4 (leaf 17): không khớp với log tại checkpoint #25 (đã bị thay đổi)',
    );
  });

  it('quotes the input in both plainly: escaped control characters and direction marks, cut long, deep as […]', () => {
    const hostile = { code: 'stream-twice', stream: 'a\r\u001b[2Kb\u202ec' } as const;
    expect(render(en, hostile)).toBe('stream a\\u000d\\u001b[2Kb\\u202ec is listed twice');
    expect(render(vi, hostile)).toBe('stream a\\u000d\\u001b[2Kb\\u202ec được liệt kê hai lần');
    const long = render(vi, { code: 'origin', origin: 'o'.repeat(10_000), signed: 'mine' });
    expect(long).toBe(
      `origin của bundle là "${'o'.repeat(MAX_SHOWN - 1)}…", không phải origin của checkpoint "mine"`,
    );
    const line = '\u001b]0;title\u0007— x'.padEnd(500, 'y');
    const signature = {
      code: 'bad-key',
      key: 'given',
      reason: 'English',
      problem: { problem: 'signature-line', line },
    } as const;
    expect(render(vi, signature)).toBe(
      `khóa được đưa vào không phải verifier key: không phải dòng chữ ký "— <tên khóa> <chữ ký base64>": "${shown(line)}"`,
    );
    expect(shown(line)).toMatch(/^\\u001b\]0;title\\u0007— xy+…$/);
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(render(vi, { code: 'format', format: deep, expected: 'v1' })).toBe(
      'format của bundle là […], không phải v1',
    );
  });

  it('says what is wrong with a field in Vietnamese from the issue, not the English sentence', () => {
    const field = { code: 'malformed', input: 'bundle', path: 'checkpoint.size', issue: 'Too big' } as const;
    expect(render(vi, samples.malformed)).toBe(
      'bundle không đúng cấu trúc: trường checkpoint.size cần số, nhưng là chuỗi',
    );
    expect(render(vi, { ...field, problem: 'type', expected: 'string', received: 'undefined' })).toBe(
      'bundle không đúng cấu trúc: trường checkpoint.size bị thiếu (cần chuỗi)',
    );
    expect(render(vi, { ...field, problem: 'too-big', origin: 'int', maximum: 9007199254740991 })).toBe(
      'bundle không đúng cấu trúc: trường checkpoint.size phải nhỏ hơn hoặc bằng 9007199254740991',
    );
    expect(render(en, { ...field, problem: 'too-big', origin: 'int', maximum: 1 })).toBe(
      'the bundle is malformed: checkpoint.size: Too big',
    );
  });

  it('says what is wrong with a key or a signed note in Vietnamese, for every problem the audit library names', () => {
    expect(Object.keys(viNoteProblem).sort()).toEqual(Object.keys(problems).sort());
    for (const problem of Object.values(problems)) {
      const refusal = { code: 'bad-key', key: 'given', reason: 'English', problem } as const;
      expect(render(vi, refusal), problem.problem).toMatch(/^khóa được đưa vào không phải verifier key: \S/);
      expect(render(vi, refusal), problem.problem).not.toMatch(/English|undefined/);
      expect(render(en, refusal)).toBe('the key given is not a verifier key: English');
    }
    const log = makeLog();
    const refused = (key: string, checkpoint?: string) => {
      const outcome = checkBundle(JSON.stringify(makeBundle(log)), {
        key,
        ...(checkpoint ? { checkpoint } : {}),
      });
      return outcome.ok ? '' : render(vi, outcome.message);
    };
    expect(refused('workbench/audit-log+1a2b3c4d+%%%')).toBe(
      'khóa được đưa vào không phải verifier key: khóa không phải base64',
    );
    expect(refused(log.verifierKey, 'hello')).toMatch(
      /^checkpoint được đưa vào không xác minh được bằng khóa \S+: signed note không đọc được: note không có dòng trống giữa nội dung và các chữ ký$/,
    );
  });
});
