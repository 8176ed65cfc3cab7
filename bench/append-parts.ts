import { randomUUID } from 'node:crypto';
import { connect } from '../src/api/database/connection';
import { EventStore } from '../src/eventstore';
import { measure, payload, rawInsert, readyToWrite, storeAppend, WARM_UP_SECONDS } from './append';
import { median } from './load';
import { BENCH_APP_SECRET } from './server-process';

/**
 * What each part of a one-event append costs against a raw INSERT, measured as `bench/append.ts` measures the
 * append (8 writers, each on its own stream, events/s), so that the append row's target can be read against
 * what the `events` row itself costs. Each kind but the store's is a statement written for the comparison,
 * not a way the store appends: the parts are taken out one at a time.
 */
export interface AppendPart {
  kind: string;
  eventsPerSecond: number;
  /** This kind's events/s over the raw INSERT's, the median of the rounds'. */
  ratio: number;
}

const WRITERS = 8;
const ROUND_SECONDS = 1;

/** The columns a store's append returns (the live updates and the command's answer need them). */
const RETURNING = `RETURNING global_position AS "globalPosition", transaction_id::text AS "transactionId",
  stream_position AS "streamPosition", created_at AS "createdAt"`;

export async function benchAppendParts(url: string, rounds = 9): Promise<AppendPart[]> {
  const sql = connect(url, { max: WRITERS, appSecret: BENCH_APP_SECRET });
  try {
    await readyToWrite(sql, WRITERS);
    const store = new EventStore(sql);
    const metadata = () =>
      JSON.stringify({ commandId: randomUUID(), userId: 'bench', at: new Date().toISOString() });

    type Loop = (writer: number) => () => Promise<number>;
    /** A statement on a stream the store made with its first event; `version` is the stream's version. */
    const onStream =
      (statement: (streamId: string, version: number, writer: number) => Promise<unknown>): Loop =>
      (writer) => {
        const streamId = `parts-${writer}-${randomUUID()}`;
        let version = 0;
        return async () => {
          if (version === 0) await store.append(streamId, 'bench', 'no_stream', [event(writer, 1)]);
          else await statement(streamId, version, writer);
          version += 1;
          return 1;
        };
      };
    const event = (writer: number, n: number) => ({
      type: 'BenchCounted',
      data: { writer, n },
      metadata: { commandId: randomUUID(), userId: 'bench' },
    });
    /** The events row with every column a parameter; the keyed hash, the claim and RETURNING as asked. */
    const row = (parts: { hash: boolean; claim: boolean; returning: boolean }) =>
      onStream((streamId, version, writer) => {
        const hash = parts.hash
          ? sql`event_hash(event_chain_key(), ${streamId}, ${version + 1}::bigint, 'BenchCounted', m.m, d.d)`
          : sql`'\\x00'::bytea`;
        const returning = parts.returning ? sql.unsafe(RETURNING) : sql``;
        const values = sql`d AS MATERIALIZED (SELECT ${payload(writer, version + 1)}::text::jsonb AS d),
          m AS MATERIALIZED (SELECT ${metadata()}::text::jsonb AS m)`;
        return parts.claim
          ? sql`WITH stream AS (
                UPDATE streams SET version = version + 1, updated_at = now()
                WHERE stream_id = ${streamId} AND version = ${version} RETURNING version), ${values}
              INSERT INTO events (stream_id, stream_position, event_id, event_type, data, metadata, hash)
              SELECT ${streamId}, stream.version, ${randomUUID()}::uuid, 'BenchCounted', d.d, m.m, ${hash}
              FROM stream, d, m ${returning}`
          : sql`WITH ${values}
              INSERT INTO events (stream_id, stream_position, event_id, event_type, data, metadata, hash)
              SELECT ${streamId}, ${version + 1}, ${randomUUID()}::uuid, 'BenchCounted', d.d, m.m, ${hash}
              FROM d, m ${returning}`;
      });

    const kinds: [string, Loop][] = [
      ['raw INSERT (the floor)', rawInsert(sql)],
      ["the store's append", storeAppend(store, 1)],
      ['its statement: claim, keyed hash, RETURNING', row({ hash: true, claim: true, returning: true })],
      ['without the keyed hash', row({ hash: false, claim: true, returning: true })],
      ['without the claim', row({ hash: true, claim: false, returning: true })],
      ['without either: the events row and RETURNING', row({ hash: false, claim: false, returning: true })],
      ['the events row alone', row({ hash: false, claim: false, returning: false })],
    ];

    const loops = kinds.map(([, loop]) => loop);
    const perSecond = async (seconds: number, loop: Loop) => {
      const run = await measure(WRITERS, seconds, loop);
      return run.units / run.seconds;
    };
    for (const loop of loops) await perSecond(WARM_UP_SECONDS, loop);
    const perRound: number[][] = kinds.map(() => []);
    for (let round = 0; round < rounds; round++) {
      // Which goes first alternates, so a change in the machine's load weighs on every kind alike.
      const order = kinds.map((_, n) => n);
      if (round % 2 === 1) order.reverse();
      for (const n of order) perRound[n]!.push(await perSecond(ROUND_SECONDS, loops[n]!));
    }
    const raw = perRound[0]!;
    return kinds.map(([kind], n) => ({
      kind,
      eventsPerSecond: Math.round(median(perRound[n]!)),
      ratio: Number(median(perRound[n]!.map((perSecond, round) => perSecond / raw[round]!)).toFixed(2)),
    }));
  } finally {
    await sql.end({ timeout: 5 });
  }
}
