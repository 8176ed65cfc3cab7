import { createHash } from 'node:crypto';
import PgBoss from 'pg-boss';
import type { TransactionSql } from 'postgres';
import type { Statement } from '../../eventstore';
import { traceContextNow, traceJob } from '../telemetry/spans';

/** The queue's tables live in their own schema, made and upgraded by pg-boss itself when the server starts. */
export const QUEUE_SCHEMA = 'pgboss';

/** How a job is retried when its work fails: pg-boss's retry policy. */
export interface Retry {
  retryLimit: number;
  /** Seconds before the first retry; with `retryBackoff`, doubled at each one after. */
  retryDelay: number;
  retryBackoff: boolean;
}

/** A job to run: the work's name (a queue) and its data. */
export interface Job<Data extends object = object> {
  name: string;
  data: Data;
}

/** A job's insert, as pg-boss writes it, to be sent inside another transaction. */
export interface JobInsert {
  text: string;
  values: unknown[];
}

export interface JobQueueOptions {
  databaseUrl: string;
  /** The most connections pg-boss's own pool opens. */
  poolSize: number;
  /** How often an idle worker asks for new jobs, in seconds (pg-boss's least is 0.5). */
  pollingIntervalSeconds: number;
  /** How long `stop` waits for the jobs under way, in ms. */
  stopTimeoutMs: number;
}

/**
 * The durable job queue of every instance: pg-boss on the app's PostgreSQL. Jobs are rows; every instance
 * runs workers, which take a job each with SKIP LOCKED, so one job runs on one instance at a time, and a
 * failed job is retried by its retry policy, after restarts too.
 *
 * A job that a command calls for is written in the command's transaction: `insertOf` captures the library's
 * own insert (its SQL and values, through a `db` executor that only records them), and `statementOf` sends
 * it on the command's connection, so the job commits with the events or not at all.
 */
/** How many times a queue is looked for and made before its making's failure counts (see `ensure`). */
const ENSURE_ATTEMPTS = 6;

export class JobQueue {
  private readonly boss: PgBoss;
  private readonly queues = new Set<string>();
  private started = false;

  constructor(private readonly options: JobQueueOptions) {
    this.boss = new PgBoss({
      connectionString: options.databaseUrl,
      schema: QUEUE_SCHEMA,
      max: options.poolSize,
      application_name: 'workbench-queue',
    });
  }

  /** Errors of the workers and the library's upkeep, to be logged. */
  onError(listener: (error: Error) => void) {
    this.boss.on('error', listener);
  }

  /**
   * Each query of the queue's (a worker's poll, an upkeep, a send) the database answered: after errors, the
   * sign that the queue works again. Every query pg-boss sends goes through its one executor, wrapped here.
   */
  onAnswer(listener: () => void) {
    const db = this.boss.getDb();
    const execute = db.executeSql.bind(db);
    db.executeSql = async (text, values) => {
      const result = await execute(text, values);
      listener();
      return result;
    };
  }

  /**
   * The jobs waiting to be worked now, by queue (every queue, 0 when none waits): created or to be retried,
   * their start time come (a timer not yet due is not waiting). One statement, on the index pg-boss keeps for
   * its fetches.
   */
  async jobsWaiting(): Promise<Map<string, number>> {
    const { rows } = await this.boss.getDb().executeSql(
      `SELECT q.name, count(j.id)::int AS waiting FROM ${QUEUE_SCHEMA}.queue q
       LEFT JOIN ${QUEUE_SCHEMA}.job j ON j.name = q.name AND j.state < 'active' AND j.start_after < now()
       GROUP BY q.name`,
      [],
    );
    return new Map((rows as { name: string; waiting: number }[]).map((row) => [row.name, row.waiting]));
  }

  /** Makes or upgrades the queue's schema and starts its upkeep; then `ensure` the queues, then `work`. */
  async start() {
    await this.boss.start();
    this.started = true;
  }

  /** Stops fetching, waits for the jobs under way (up to `stopTimeoutMs`), closes the connections. */
  async stop() {
    if (!this.started) return;
    this.started = false;
    await this.boss.stop({ graceful: true, wait: true, close: true, timeout: this.options.stopTimeoutMs });
  }

  /**
   * Makes the queue `name` with its retry policy, unless it exists. Instances starting together make their
   * queues at once, and PostgreSQL may end one of two such makings as a deadlock (or the other may not have
   * committed yet when this one fails): the queue is looked for again, a few times, before that counts.
   */
  async ensure(name: string, retry?: Retry) {
    if (this.queues.has(name)) return;
    for (let attempt = 1; ; attempt++) {
      if ((await this.boss.getQueue(name)) !== null) break;
      try {
        await this.boss.createQueue(name, { name, ...retry });
        break;
      } catch (error) {
        if (attempt >= ENSURE_ATTEMPTS) throw error;
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 50 * 2 ** attempt));
      }
    }
    this.queues.add(name);
  }

  /** Runs `handler` for each job of `name` on this instance; a thrown error fails the try (then retried). */
  async work<Data extends object>(
    name: string,
    handler: (job: PgBoss.JobWithMetadata<Data>) => Promise<void>,
  ) {
    await this.ensure(name);
    await this.boss.work<Data>(
      name,
      { pollingIntervalSeconds: this.options.pollingIntervalSeconds, batchSize: 1, includeMetadata: true },
      async (jobs) => {
        for (const job of jobs) await traceJob(name, job, () => handler(job));
      },
    );
  }

  /** Sends a job now, in its own statement (not tied to any command). */
  async send<Data extends object>(job: Job<Data>, options: PgBoss.SendOptions = {}): Promise<string | null> {
    await this.ensure(job.name);
    return this.boss.send(job.name, withTraceContext(job.data), options);
  }

  /**
   * The library's insert of `job`, captured and not sent: pg-boss builds it and hands it to the `db` executor
   * given, which only records it. pg-boss calls the executor before its first await, so the insert is known
   * when `send` returns its promise.
   */
  insertOf<Data extends object>(job: Job<Data>, options: Omit<PgBoss.SendOptions, 'db'> = {}): JobInsert {
    let captured: JobInsert | undefined;
    const recorder: PgBoss.Db = {
      executeSql: async (text, values) => {
        captured = { text, values };
        return { rows: [{ id: values[0] }] };
      },
    };
    this.boss.send(job.name, withTraceContext(job.data), { ...options, db: recorder }).catch(() => {});
    if (captured === undefined)
      throw new Error(`The queue's insert of a ${job.name} job could not be captured`);
    return captured;
  }

  /** The captured insert as a statement of the transaction `tx`: it commits with the transaction, or not. */
  static statementOf(tx: TransactionSql, insert: JobInsert): Statement {
    // Nothing is NULL and a time ISO text, as pg sends them for pg-boss; postgres.js writes an object for
    // the jsonb parameter itself.
    const values = insert.values.map((value) =>
      value === undefined ? null : value instanceof Date ? value.toISOString() : value,
    );
    return tx.unsafe(insert.text, values as never[]);
  }

  /**
   * Runs `job` at `at` (within a poll of its time), once: `key` names the timer, and a second `scheduleAt` with
   * the same key while its job is kept changes nothing. The time is a job row's start time in PostgreSQL, not a
   * timer of this process: it survives restarts and crashes, and one instance takes it.
   */
  async scheduleAt<Data extends object>(key: string, at: Date, job: Job<Data>, retry?: Retry) {
    await this.ensure(job.name);
    return this.boss.send(job.name, withTraceContext(job.data), timerOptions(key, at, retry));
  }

  /** The insert of the timer `scheduleAt` makes, for a command's transaction (see `insertOf`). */
  timerInsertOf<Data extends object>(key: string, at: Date, job: Job<Data>, retry?: Retry): JobInsert {
    return this.insertOf(job, timerOptions(key, at, retry));
  }

  /** A job as the queue has it now (its state, tries, ...), or null once it is gone. */
  jobOf<Data extends object>(name: string, id: string) {
    return this.boss.getJobById<Data>(name, id, { includeArchive: true });
  }

  /**
   * The job id a key names: the same for the same key on every instance, so a key can only ever make one job
   * row (a timer's, a mail sent once whatever retries the work that sends it).
   */
  static idFor(key: string) {
    return jobIdOf(key);
  }
}

/**
 * A job's data with the trace context of the span that queues it (W3C traceparent), when tracing is on: the
 * job's span links back to it (see traceJob).
 */
function withTraceContext<Data extends object>(data: Data): Data {
  const traceContext = traceContextNow();
  return Object.keys(traceContext).length === 0 ? data : { ...data, traceContext };
}

/** How a timer is sent: its id and singleton key from its key, started at its time. */
const timerOptions = (key: string, at: Date, retry?: Retry): Omit<PgBoss.SendOptions, 'db'> => ({
  id: jobIdOf(key),
  singletonKey: key,
  startAfter: at,
  ...retry,
});

/** A UUID made of the key's SHA-256. */
function jobIdOf(key: string) {
  const hex = createHash('sha256').update(`timer:${key}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
