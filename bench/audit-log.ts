import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AuditLog, loadAuditSigningKey } from '../src/api/audit-log';
import { consistencyProof, inclusionProofs } from '../src/api/audit-log/log-tree';
import { connect } from '../src/api/database/connection';
import { median, type Row, round } from './load';
import { BENCH_APP_SECRET } from './server-process';

/** The log's size (BENCH_AUDIT_EVENTS): a million events by default. */
const EVENTS = Number(process.env.BENCH_AUDIT_EVENTS ?? 1_000_000);
/** Streams the events are spread over. */
const STREAMS = 10_000;
/** Events inserted per statement while the log is filled. */
const EVENTS_PER_STATEMENT = 50_000;
/** Inclusion proofs timed, of leaves spread over the log. */
const PROOFS = 200;

export interface AuditLogFigures {
  events: number;
  /** Seconds to give every event its leaf, and the rate. */
  sequenceSeconds: number;
  sequencedPerSecond: number;
  /** Milliseconds to sign a checkpoint over the whole log once its leaves are there. */
  checkpointMs: number;
  /** An inclusion proof at that size: its hashes, its bytes (raw and as the API's base64) and its time. */
  proofHashes: number;
  proofBytes: number;
  proofBase64Bytes: number;
  proofMedianMs: number;
  /** A consistency proof from half the log to all of it. */
  consistencyHashes: number;
  consistencyMs: number;
}

/**
 * The audit log at scale, on a fresh database: a log of EVENTS events (filled by SQL, spread over STREAMS
 * streams), the sequencer giving each its leaf, a checkpoint signed over all of them, and inclusion and
 * consistency proofs read back from the stored tree.
 */
export async function benchAuditLog(url: string): Promise<{ results: AuditLogFigures; rows: Row[] }> {
  const sql = connect(url, { max: 2, appSecret: BENCH_APP_SECRET });
  const keyDir = await mkdtemp(path.join(tmpdir(), 'workbench-bench-audit-'));
  try {
    for (let from = 0; from < EVENTS; from += EVENTS_PER_STATEMENT) {
      const to = Math.min(EVENTS, from + EVENTS_PER_STATEMENT);
      await sql.begin(async (tx) => {
        await tx`
          INSERT INTO streams (stream_id, stream_type, version)
          SELECT 'bench-' || s, 'bench', 0 FROM generate_series(0, ${STREAMS - 1}::int) s
          ON CONFLICT DO NOTHING`;
        await tx`
          WITH key AS MATERIALIZED (SELECT event_chain_key() AS key)
          INSERT INTO events (stream_id, stream_position, event_id, event_type, data, metadata, hash)
          SELECT e.stream_id, e.position, gen_random_uuid(), 'BenchCounted', e.data, e.metadata,
            event_hash(key.key, e.stream_id, e.position, 'BenchCounted', e.metadata, e.data)
          FROM key, (
            SELECT 'bench-' || (n % ${STREAMS}::int) AS stream_id, (n / ${STREAMS}::int + 1)::bigint AS position,
              jsonb_build_object('n', n, 'text', repeat('x', 200)) AS data,
              jsonb_build_object('userId', 'bench', 'at', to_char(now(), 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')) AS metadata
            FROM generate_series(${from}::int, ${to - 1}::int) n
          ) e`;
      });
    }
    await sql`UPDATE streams SET version = (SELECT count(*) FROM events e WHERE e.stream_id = streams.stream_id)`;
    const key = await loadAuditSigningKey(path.join(keyDir, 'audit-key'));
    const auditLog = new AuditLog(sql, key);

    const started = performance.now();
    const sequenced = await auditLog.sequence();
    const sequenceSeconds = (performance.now() - started) / 1000;
    if (sequenced.size !== EVENTS) throw new Error(`sequenced ${sequenced.size} of ${EVENTS} events`);

    const signing = performance.now();
    const checkpoint = await auditLog.checkpoint();
    const checkpointMs = performance.now() - signing;
    if (checkpoint?.size !== EVENTS) throw new Error('the checkpoint does not cover the log');

    const times: number[] = [];
    let proofHashes = 0;
    for (let i = 0; i < PROOFS; i++) {
      const leaf = Math.floor(((i + 0.5) * EVENTS) / PROOFS);
      const began = performance.now();
      const proofs = await inclusionProofs(sql, [leaf], EVENTS);
      times.push(performance.now() - began);
      proofHashes = Math.max(proofHashes, proofs.get(leaf)!.length);
    }
    const consistencyStarted = performance.now();
    const consistency = await consistencyProof(sql, Math.floor(EVENTS / 2) + 1, EVENTS);
    const consistencyMs = performance.now() - consistencyStarted;

    const results: AuditLogFigures = {
      events: EVENTS,
      sequenceSeconds: round(sequenceSeconds, 1),
      sequencedPerSecond: Math.round(EVENTS / sequenceSeconds),
      checkpointMs: round(checkpointMs, 1),
      proofHashes,
      proofBytes: proofHashes * 32,
      proofBase64Bytes: proofHashes * 44,
      proofMedianMs: round(median(times), 2),
      consistencyHashes: consistency.length,
      consistencyMs: round(consistencyMs, 2),
    };
    const n = EVENTS.toLocaleString('en');
    return {
      results,
      rows: [
        {
          figure: `audit log: leaves for ${n} events (one sequencer)`,
          value: `${results.sequencedPerSecond} events/s (${results.sequenceSeconds} s)`,
          target: 'none (figure)',
          met: null,
        },
        {
          figure: `audit log: a checkpoint signed over ${n} events`,
          value: `${results.checkpointMs} ms`,
          target: 'none (figure)',
          met: null,
        },
        {
          figure: `audit log: an inclusion proof at ${n} events`,
          value: `${proofHashes} hashes, ${results.proofBytes} bytes (${results.proofBase64Bytes} as base64), median ${results.proofMedianMs} ms of ${PROOFS}`,
          target: 'none (figure)',
          met: null,
        },
        {
          figure: `audit log: a consistency proof from half the log to ${n} events`,
          value: `${results.consistencyHashes} hashes, ${results.consistencyMs} ms`,
          target: 'none (figure)',
          met: null,
        },
      ],
    };
  } finally {
    await sql.end({ timeout: 5 });
    await rm(keyDir, { recursive: true, force: true });
  }
}
