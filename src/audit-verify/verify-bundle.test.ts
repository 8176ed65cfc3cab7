import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { consistencyProof } from '../domain/audit/merkle';
import { encodeBase64 } from '../domain/audit/signed-note';
import { MAX_SHOWN } from './messages';
import {
  type BundleJson,
  checkpointOf,
  leafHashOf,
  logKey,
  makeBundle,
  makeLog,
  ORIGIN,
  type TestLog,
} from './testing';
import { OWN_KEY_WARNING, verifyBundle } from './verify-bundle';

const text = (bundle: BundleJson) => JSON.stringify(bundle, null, 2);
const failure = (result: ReturnType<typeof verifyBundle>) => {
  expect(result.ok, result.message).toBe(false);
  return result.message;
};

/** A log of 3 streams of 4 events, interleaved, with 13 other leaves: 25 leaves. */
const log = makeLog();
const SIZE = log.leaves.length;
const fresh = () => makeBundle(log);
const key = log.verifierKey;
const stream = (bundle: BundleJson, streamId = 'execution-a') =>
  bundle.streams.find((s) => s.streamId === streamId)!;

describe('verifyBundle: a bundle as the server makes it', () => {
  it('verifies, with the key given: every event of the streams up to the checkpoint', () => {
    const result = verifyBundle(text(fresh()), { key });
    expect(result).toEqual({
      ok: true,
      events: 8,
      size: SIZE,
      message: `verified 8 events up to checkpoint ${SIZE}`,
      warnings: [],
    });
  });

  it('verifies with its own key, and warns that the key came from the bundle itself', () => {
    const result = verifyBundle(text(fresh()), {});
    expect(result.ok).toBe(true);
    expect(result.ok && result.warnings).toEqual([OWN_KEY_WARNING]);
  });

  it('verifies files as editors save them (a trailing newline, a byte order mark), and a bundle of no stream', () => {
    expect(verifyBundle(text(fresh()), { key: `${key}\n` }).ok).toBe(true);
    expect(verifyBundle(`\uFEFF${text(fresh())}`, { key: `\uFEFF${key}\r\n` }).ok).toBe(true);
    const empty = { ...fresh(), streams: [] };
    expect(verifyBundle(text(empty), { key }).message).toBe(`verified 0 events up to checkpoint ${SIZE}`);
  });
});

describe('verifyBundle: a changed bundle fails, naming the first bad thing', () => {
  it("one event's content changed", () => {
    const bundle = fresh();
    const event = stream(bundle).events[1]!;
    event.content = event.content.replace('Kết quả', 'Ket qua');
    expect(failure(verifyBundle(text(bundle), { key }))).toBe(
      `stream execution-a position 2 (leaf ${event.leafIndex}): does not match the log at checkpoint ${SIZE} (changed)`,
    );
  });

  it("one event's type changed", () => {
    const bundle = fresh();
    const event = stream(bundle, 'execution-b').events[2]!;
    event.type = 'StepRunFailed';
    expect(failure(verifyBundle(text(bundle), { key }))).toBe(
      `stream execution-b position 3 (leaf ${event.leafIndex}): does not match the log at checkpoint ${SIZE} (changed)`,
    );
  });

  it("one event's actor or time changed", () => {
    const bundle = fresh();
    stream(bundle).events[0]!.actor = null;
    expect(failure(verifyBundle(text(bundle), { key }))).toMatch(
      /^stream execution-a position 1 \(leaf \d+\): does not match/,
    );
    const later = fresh();
    stream(later).events[3]!.at = '2026-11-28T11:00:00.000Z';
    expect(failure(verifyBundle(text(later), { key }))).toMatch(
      /^stream execution-a position 4 \(leaf \d+\): does not match/,
    );
  });

  it('an event removed: a gap in the positions, at the leaf the log holds for it', () => {
    const bundle = fresh();
    const events = stream(bundle).events;
    const [removed] = events.splice(2, 1);
    expect(failure(verifyBundle(text(bundle), { key }))).toBe(
      `stream execution-a position 3 (leaf ${removed!.leafIndex}): the event the log holds is missing or was replaced`,
    );
  });

  it('the last event removed (the tail cut): its leaf has no event', () => {
    const bundle = fresh();
    const [removed] = stream(bundle).events.splice(3, 1);
    expect(failure(verifyBundle(text(bundle), { key }))).toBe(
      `stream execution-a position 4 (leaf ${removed!.leafIndex}): the event the log holds is missing or was replaced`,
    );
  });

  it("a stream's events all removed while its leaves are listed", () => {
    const bundle = fresh();
    const b = stream(bundle, 'execution-b');
    const first = b.leaves[0]!.index;
    b.events = [];
    expect(failure(verifyBundle(text(bundle), { key }))).toBe(
      `stream execution-b position 1 (leaf ${first}): the event the log holds is missing or was replaced`,
    );
  });

  it('a leaf listed twice at one position with only one event: the tail cut and a new event appended', () => {
    // The log holds event 4 of execution-a; the stored one was cut and another appended in its place.
    const grown: TestLog = {
      ...log,
      leaves: [
        ...log.leaves,
        {
          event: {
            streamId: 'execution-a',
            position: 4,
            type: 'StepRunSucceeded',
            actor: null,
            at: '2026-11-28T11:30:00.000Z',
            content: '{"text": "another"}',
          },
        },
      ],
    };
    const bundle = makeBundle(grown);
    const a = stream(bundle);
    const cut = a.leaves.find((leaf) => leaf.position === 4)!.index;
    a.events = a.events.filter((event) => event.leafIndex !== cut);
    expect(a.leaves.filter((leaf) => leaf.position === 4)).toHaveLength(2);
    expect(failure(verifyBundle(text(bundle), { key }))).toBe(
      `stream execution-a position 4 (leaf ${cut}): the event the log holds is missing or was replaced`,
    );
  });

  it('a forged event with leafIndex null: not in the log', () => {
    const bundle = fresh();
    const a = stream(bundle);
    a.events.push({ ...a.events[3]!, position: 5, content: '{"forged": true}', leafIndex: null, proof: [] });
    expect(failure(verifyBundle(text(bundle), { key }))).toBe(
      'stream execution-a position 5: not in the log',
    );
  });

  it('a forged event naming a leaf of another stream: not in the log', () => {
    const bundle = fresh();
    const a = stream(bundle);
    const other = stream(bundle, 'execution-b').events[0]!;
    a.events.push({ ...a.events[3]!, position: 5, leafIndex: other.leafIndex, proof: other.proof });
    expect(failure(verifyBundle(text(bundle), { key }))).toMatch(
      /^stream execution-a position 5: not in the log/,
    );
  });

  it('a checkpoint signed by another key (the key given)', () => {
    const other = makeLog(undefined, undefined, logKey(2));
    const bundle = makeBundle(other);
    expect(verifyBundle(text(bundle), {}).ok).toBe(true);
    expect(failure(verifyBundle(text(bundle), { key }))).toMatch(
      /^the bundle's checkpoint does not verify with the key workbench\/audit-log\+[0-9a-f]{8}: the note has no signature by/,
    );
  });

  it('a checkpoint whose text was changed: its size or its root', () => {
    const bundle = fresh();
    bundle.checkpoint.note = bundle.checkpoint.note.replace(`\n${SIZE}\n`, `\n${SIZE - 1}\n`);
    bundle.checkpoint.size = SIZE - 1;
    expect(failure(verifyBundle(text(bundle), { key }))).toMatch(
      /^the bundle's checkpoint does not verify with the key .*: the signature .* does not verify/,
    );
    const rooted = fresh();
    const lines = rooted.checkpoint.note.split('\n');
    lines[2] = encodeBase64(leafHashOf(log.leaves[0]!));
    rooted.checkpoint.note = lines.join('\n');
    expect(failure(verifyBundle(text(rooted), { key }))).toMatch(/does not verify/);
  });

  it("a checkpoint's size or time in the bundle other than its signed note's", () => {
    const bundle = fresh();
    bundle.checkpoint.size = SIZE + 1;
    expect(failure(verifyBundle(text(bundle), { key }))).toBe(
      `the bundle's checkpoint.size ${SIZE + 1} is not the size its signed note gives, ${SIZE}`,
    );
    const written = fresh();
    written.checkpoint.at = '2026-11-28T12:00:00Z';
    expect(verifyBundle(text(written), { key }).ok).toBe(true);
    const timed = fresh();
    timed.checkpoint.at = '2026-11-28T13:00:00.000Z';
    expect(failure(verifyBundle(text(timed), { key }))).toMatch(/^the bundle's checkpoint\.at/);
  });

  it('a proof of the wrong length, or a proof hash changed', () => {
    const bundle = fresh();
    const event = stream(bundle).events[0]!;
    event.proof = event.proof.slice(1);
    expect(failure(verifyBundle(text(bundle), { key }))).toBe(
      `stream execution-a position 1 (leaf ${event.leafIndex}): the proof has ${event.proof.length} hashes, where a leaf ${event.leafIndex} of a tree of ${SIZE} has ${event.proof.length + 1}`,
    );
    const changed = fresh();
    const other = stream(changed, 'execution-b').events[1]!;
    other.proof[0] = encodeBase64(new Uint8Array(32));
    expect(failure(verifyBundle(text(changed), { key }))).toBe(
      `stream execution-b position 2 (leaf ${other.leafIndex}): does not match the log at checkpoint ${SIZE} (changed)`,
    );
  });

  it('a proof hash that is not base64, or not 32 bytes', () => {
    const bundle = fresh();
    const event = stream(bundle).events[0]!;
    event.proof[1] = 'not base64!';
    expect(failure(verifyBundle(text(bundle), { key }))).toBe(
      `stream execution-a position 1 (leaf ${event.leafIndex}): proof hash 1 is not the base64 of a 32-byte hash`,
    );
    event.proof[1] = encodeBase64(new Uint8Array(31));
    expect(failure(verifyBundle(text(bundle), { key }))).toMatch(
      /proof hash 1 is not the base64 of a 32-byte hash$/,
    );
  });

  it('a leaf listed beyond the checkpoint, twice, or for two streams', () => {
    const beyond = fresh();
    stream(beyond).leaves.push({ index: SIZE, position: 5 });
    expect(failure(verifyBundle(text(beyond), { key }))).toBe(
      `stream execution-a position 5 (leaf ${SIZE}): the leaf is not below the checkpoint's size ${SIZE}`,
    );
    const shared = fresh();
    const b = stream(shared, 'execution-b').leaves[0]!;
    stream(shared).leaves.push({ index: b.index, position: 5 });
    stream(shared).leaves.sort((x, y) => x.index - y.index);
    expect(failure(verifyBundle(text(shared), { key }))).toMatch(
      /the leaf is listed for stream execution-a as well$/,
    );
  });
});

describe('verifyBundle: another checkpoint of the log (--checkpoint)', () => {
  const EARLIER = 9;
  it('an earlier checkpoint with the bundle’s consistency proof: still verified', () => {
    const bundle = makeBundle(log, undefined, [EARLIER]);
    const result = verifyBundle(text(bundle), { key, checkpoint: checkpointOf(log, EARLIER) });
    expect(result).toMatchObject({ ok: true, message: `verified 8 events up to checkpoint ${SIZE}` });
  });

  it('an earlier checkpoint of another log (rewritten): does not extend it', () => {
    const bundle = makeBundle(log, undefined, [EARLIER]);
    const rewritten: TestLog = { ...log, leaves: [{ other: 'rewritten' }, ...log.leaves.slice(1)] };
    expect(failure(verifyBundle(text(bundle), { key, checkpoint: checkpointOf(rewritten, EARLIER) }))).toBe(
      `the log at checkpoint ${SIZE} does not extend checkpoint ${EARLIER} (cut or rewritten)`,
    );
  });

  it('a consistency proof in the bundle that fails', () => {
    const bundle = makeBundle(log, undefined, [EARLIER]);
    bundle.consistency[0]!.proof.reverse();
    expect(failure(verifyBundle(text(bundle), { key, checkpoint: checkpointOf(log, EARLIER) }))).toBe(
      `the log at checkpoint ${SIZE} does not extend checkpoint ${EARLIER} (cut or rewritten)`,
    );
  });

  it('an earlier checkpoint the bundle holds no proof from', () => {
    expect(failure(verifyBundle(text(fresh()), { key, checkpoint: checkpointOf(log, EARLIER) }))).toBe(
      `the bundle holds no consistency proof from checkpoint ${EARLIER} (ask for the bundle with ?since=${EARLIER})`,
    );
  });

  it('a checkpoint of the same size: the same root, else rewritten', () => {
    expect(verifyBundle(text(fresh()), { key, checkpoint: checkpointOf(log) }).ok).toBe(true);
    const rewritten: TestLog = { ...log, leaves: [{ other: 'rewritten' }, ...log.leaves.slice(1)] };
    expect(failure(verifyBundle(text(fresh()), { key, checkpoint: checkpointOf(rewritten) }))).toMatch(
      /another root \(rewritten\)$/,
    );
  });

  it('a later checkpoint with the consistency route’s answer: verified; inconsistent: fails', () => {
    const bundle = makeBundle({ ...log, leaves: log.leaves.slice(0, 20) });
    const hashes = log.leaves.map(leafHashOf);
    const answer = {
      from: { size: 20, at: '2026-11-28T12:00:00.000Z', note: checkpointOf(log, 20) },
      to: { size: SIZE, at: '2026-11-28T12:00:00.000Z', note: checkpointOf(log, SIZE) },
      proof: consistencyProof(hashes, 20).map(encodeBase64),
    };
    expect(verifyBundle(text(bundle), { key, checkpoint: JSON.stringify(answer) })).toMatchObject({
      ok: true,
      message: 'verified 7 events up to checkpoint 20',
    });
    expect(failure(verifyBundle(text(bundle), { key, checkpoint: checkpointOf(log, SIZE) }))).toMatch(
      /^the checkpoint given \(25\) is later than the bundle's \(20\)/,
    );
    const cut = { ...answer, proof: answer.proof.slice(1) };
    expect(failure(verifyBundle(text(bundle), { key, checkpoint: JSON.stringify(cut) }))).toBe(
      `the log at checkpoint ${SIZE} does not extend checkpoint 20 (cut or rewritten)`,
    );
    const unrelated = { ...answer, from: { ...answer.from, size: 19, note: checkpointOf(log, 19) } };
    expect(failure(verifyBundle(text(bundle), { key, checkpoint: JSON.stringify(unrelated) }))).toMatch(
      /neither is the bundle's checkpoint 20$/,
    );
  });

  it('a checkpoint given signed by another key', () => {
    const other = makeLog(undefined, undefined, logKey(3));
    expect(failure(verifyBundle(text(fresh()), { key, checkpoint: checkpointOf(other, 9) }))).toMatch(
      /^the checkpoint given does not verify with the key/,
    );
  });

  it('a checkpoint given that is neither a note nor JSON', () => {
    expect(failure(verifyBundle(text(fresh()), { key, checkpoint: 'hello' }))).toMatch(
      /^the checkpoint given does not verify/,
    );
    expect(failure(verifyBundle(text(fresh()), { key, checkpoint: '{"from": 1' }))).toMatch(/is not JSON/);
  });
});

describe('verifyBundle: malformed input is a failure with a reason, never a throw', () => {
  it.each([
    ['', 'the bundle is not JSON'],
    ['[]', 'the bundle is not a JSON object'],
    ['{"format": "other/v1"}', 'the bundle\'s format is "other/v1", not workbench-audit-bundle/v1'],
  ])('%j', (input, message) => {
    expect(verifyBundle(input, {})).toEqual({ ok: false, message });
  });

  it('names the first wrong field: its type, a huge number, a negative index', () => {
    const typed = fresh() as unknown as { streams: { events: { leafIndex: unknown }[] }[] };
    typed.streams[0]!.events[2]!.leafIndex = '12';
    expect(failure(verifyBundle(JSON.stringify(typed), {}))).toMatch(
      /^the bundle is malformed: streams\.0\.events\.2\.leafIndex: /,
    );
    const huge = text(fresh()).replace(`"size": ${SIZE}`, '"size": 1e400');
    expect(failure(verifyBundle(huge, {}))).toMatch(/^the bundle is malformed: checkpoint\.size: /);
    const unsafe = text(fresh()).replace(`"size": ${SIZE}`, '"size": 9007199254740993');
    expect(failure(verifyBundle(unsafe, {}))).toMatch(/^the bundle is malformed: checkpoint\.size: /);
    const negative = fresh();
    stream(negative).leaves[0]!.index = -1;
    expect(failure(verifyBundle(text(negative), {}))).toMatch(
      /^the bundle is malformed: streams\.0\.leaves\.0\.index: /,
    );
  });

  it('quotes the input plainly and briefly: no control character, nothing longer than MAX_SHOWN, nothing too deep', () => {
    const long = fresh();
    stream(long).streamId = `execution-${'x'.repeat(5_000_000)}`;
    const cut = failure(verifyBundle(text(long), { key }));
    expect(cut.length).toBeLessThan(400);
    expect(cut).toContain(`execution-${'x'.repeat(MAX_SHOWN - 11)}…`);
    const hidden = fresh();
    stream(hidden).streamId = 'a\u202eb\u001b[8mc\u2028d';
    expect(failure(verifyBundle(text(hidden), { key }))).toMatch(
      /^stream a\\u202eb\\u001b\[8mc\\u2028d position 1 /,
    );
    const origin = { ...fresh(), origin: `o\r${'o'.repeat(1_000)}` };
    expect(failure(verifyBundle(text(origin), { key }))).toBe(
      `the bundle's origin "o\\u000d${'o'.repeat(MAX_SHOWN - 8)}…" is not the checkpoint's "${ORIGIN}"`,
    );
    const deep = `{"format":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    expect(verifyBundle(deep, {})).toEqual({
      ok: false,
      message: "the bundle's format is […], not workbench-audit-bundle/v1",
    });
    expect(verifyBundle(JSON.stringify({ format: 'f'.repeat(1_000) }), {})).toEqual({
      ok: false,
      message: `the bundle's format is "${'f'.repeat(MAX_SHOWN - 1)}…", not workbench-audit-bundle/v1`,
    });
  });

  it('a key that is not a verifier key', () => {
    expect(failure(verifyBundle(text(fresh()), { key: 'not a key' }))).toMatch(
      /^the key given is not a verifier key: /,
    );
    expect(failure(verifyBundle(text({ ...fresh(), publicKey: 'x+y+z' }), {}))).toMatch(
      /^the bundle's publicKey is not a verifier key: /,
    );
  });

  it('random JSON, and random changes of a good bundle, never throw and never verify', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const result = verifyBundle(JSON.stringify(value), {});
        return result.ok === false && typeof result.message === 'string';
      }),
      { numRuns: 300 },
    );
    const good = text(fresh());
    fc.assert(
      fc.property(fc.nat(good.length - 1), fc.string({ minLength: 1, maxLength: 3 }), (at, insert) => {
        const changed = good.slice(0, at) + insert + good.slice(at + 1);
        const result = verifyBundle(changed, { key });
        // A change of whitespace, of the record's description (which no signature covers), of the bundle's
        // own key (the key given is the one checked with) or of how the checkpoint's time is written (the same
        // instant) may leave it valid; any other change fails.
        const checked = (json: string) => {
          const bundle = JSON.parse(json);
          const at = bundle?.checkpoint?.at;
          const checkpoint =
            typeof at === 'string' ? { ...bundle.checkpoint, at: Date.parse(at) } : bundle?.checkpoint;
          return JSON.stringify({ ...bundle, record: null, publicKey: null, checkpoint });
        };
        return typeof result.message === 'string' && (!result.ok || checked(changed) === checked(good));
      }),
      { numRuns: 300 },
    );
  });

  it("refuses a checkpoint time written otherwise than RFC 3339, even for the signed note's instant", () => {
    const bundle = fresh();
    const at = bundle.checkpoint.at;
    expect(
      verifyBundle(text({ ...bundle, checkpoint: { ...bundle.checkpoint, at: at.replace('.000Z', 'Z') } }), {
        key,
      }).ok,
    ).toBe(true);
    expect(
      failure(
        verifyBundle(text({ ...bundle, checkpoint: { ...bundle.checkpoint, at: at.replace('T', ' ') } }), {
          key,
        }),
      ),
    ).toMatch(/checkpoint/);
  });

  it('random shapes of a bundle (right keys, wrong values) never throw', () => {
    const bundle = fresh();
    fc.assert(
      fc.property(
        fc.record({
          format: fc.constant('workbench-audit-bundle/v1'),
          record: fc.oneof(fc.constant(bundle.record), fc.jsonValue()),
          origin: fc.oneof(fc.constant(bundle.origin), fc.string()),
          publicKey: fc.oneof(fc.constant(bundle.publicKey), fc.string()),
          checkpoint: fc.oneof(fc.constant(bundle.checkpoint), fc.jsonValue()),
          consistency: fc.oneof(fc.constant([]), fc.jsonValue()),
          streams: fc.oneof(fc.constant(bundle.streams), fc.jsonValue()),
        }),
        fc.option(fc.string()),
        (value, checkpoint) => {
          const result = verifyBundle(JSON.stringify(value), checkpoint === null ? {} : { checkpoint });
          return typeof result.message === 'string';
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('verifyBundle: a large bundle', () => {
  it('checks 2,000 events of one stream (4,001 leaves) within seconds', () => {
    const big = makeLog(['execution-big'], 2_000);
    const bundle = JSON.stringify(makeBundle(big, ['execution-big']));
    const started = performance.now();
    const result = verifyBundle(bundle, { key: big.verifierKey });
    expect(result).toMatchObject({ ok: true, events: 2_000, size: 4_001 });
    expect(performance.now() - started).toBeLessThan(10_000);
  }, 60_000);
});
