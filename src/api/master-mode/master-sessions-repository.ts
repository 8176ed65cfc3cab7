import type { Sql, TransactionSql } from 'postgres';
import { notFound, ruleViolated } from '../../domain/errors';
import { SESSION_NOT_FOUND } from '../../domain/master-mode/decider';
import { masterStreamId } from '../../domain/master-mode/events';
import type {
  CreateMasterStep,
  ExecuteAllRecord,
  MasterSession,
  MasterSessionWithSteps,
  MasterStep,
  RunningExecuteAll,
} from '../../domain/master-mode/master-session';
import { MAX_MASTER_ROWS, TOO_MANY_ROWS } from '../../domain/master-mode/master-session';
import { type Statement, streamVersion } from '../../eventstore';
import { type Action, mayInSql } from '../access';
import { type Keyed, keyset, type ListOrder, type Page } from '../http/pages';

export const STEP_NOT_FOUND = 'Không tìm thấy dòng master mode';
const SESSION_COLUMNS = 'id, user_id, flow_id, session_name, created_at, updated_at';
const STEP_COLUMNS =
  'id, session_id, "order", step_name, user_input, result, system_prompt, step_type, is_required, model, created_at, updated_at';
/** The columns with a table alias before each (`s.id, s.session_id, …`). */
const aliased = (columns: string, alias: string) => columns.replace(/(^|, )/g, `$1${alias}.`);

/** The user's sessions, the last changed first. */
export const MASTER_SESSIONS_ORDER: ListOrder = {
  list: 'master-sessions',
  keys: [
    { sql: 'm.updated_at', order: 'desc', type: 'timestamptz' },
    { sql: 'm.id', order: 'asc', type: 'uuid' },
  ],
};

/** What ran in a session, newest first. */
export const MASTER_RUNS_ORDER: ListOrder = {
  list: 'master-runs',
  keys: [
    { sql: 'requested_at', order: 'desc', type: 'timestamptz' },
    { sql: 'id', order: 'asc', type: 'uuid' },
  ],
};

/** A row a new session starts with. */
export interface NewRow {
  stepName: string;
  systemPrompt: string;
  isRequired: boolean;
  /** The flow step's model, carried over; null: the server's default. */
  model: string | null;
}

/** A master mode run as its audit lists it. */
export interface MasterRunRecord {
  id: string;
  stepId: string;
  rowNumber: number;
  stepName: string;
  stepType: MasterStep['stepType'];
  systemPrompt: string;
  userInput: string;
  finalPrompt: string;
  rowReferences: Record<string, string>;
  unresolvedReferences: number[];
  model: string | null;
  provider: string | null;
  keySource: string | null;
  result: string | null;
  success: boolean | null;
  errorMessage: string | null;
  durationMs: number | null;
  inputTokens: number | null;
  outputTokens: number | null;
  firstTokenMs: number | null;
  requestedAt: Date;
}

/**
 * Master mode sessions and their rows (plain records), and the read models of what ran on them. Every
 * lookup by a user's id asks the access rule; the others take ids already checked.
 */
export class MasterSessionsRepository {
  constructor(private readonly sql: Sql) {}

  /** The session, if `actor` may do `action` to it; else its 'not found'. */
  async session(sessionId: string, actor: string, action: Action = 'read'): Promise<MasterSession> {
    const { sql } = this;
    const [session] = await sql<MasterSession[]>`
      SELECT ${sql.unsafe(SESSION_COLUMNS)} FROM master_mode_sessions
      WHERE id = ${sessionId} AND ${mayInSql(sql, actor, action, 'master-session', 'user_id')}`;
    if (!session) throw notFound(SESSION_NOT_FOUND);
    return session;
  }

  /**
   * The session with its rows, the rows running and its open Execute All, as of its stream's position (read
   * first: what is read after it is at least that new, so live updates from it miss nothing).
   */
  async withSteps(session: MasterSession, modelTimeoutMs: number): Promise<MasterSessionWithSteps> {
    const { sql } = this;
    const version = await streamVersion(sql, masterStreamId(session.id));
    const [steps, running, [executeAll = null]] = await Promise.all([
      this.rows(session.id),
      // A run a crash left without an outcome stops counting as running after the model timeout.
      sql<{ stepId: string }[]>`
        SELECT DISTINCT step_id FROM master_mode_runs
        WHERE session_id = ${session.id} AND success IS NULL
          AND requested_at > now() - ${modelTimeoutMs} * interval '1 millisecond'`,
      sql<RunningExecuteAll[]>`
        SELECT id AS "runAllId", started_at, stop_requested FROM master_mode_execute_alls
        WHERE session_id = ${session.id} AND ended_at IS NULL
        ORDER BY started_at DESC LIMIT 1`,
    ]);
    return { ...session, steps, runningStepIds: running.map((r) => r.stepId), executeAll, version };
  }

  /** The user's sessions (of one flow, when given), the last changed first, with their row counts. */
  list(userId: string, flowId: string | undefined, page: Page | null = null) {
    const { sql } = this;
    const rows = keyset(sql, MASTER_SESSIONS_ORDER, page);
    return sql<
      Keyed<
        Omit<MasterSessionWithSteps, 'steps' | 'runningStepIds' | 'executeAll' | 'version'> & {
          stepCount: number;
        }
      >[]
    >`
      SELECT ${sql.unsafe(aliased(SESSION_COLUMNS, 'm'))},
             (SELECT count(*)::int FROM master_mode_steps s WHERE s.session_id = m.id) AS step_count,
             ${rows.pageKey}
      FROM master_mode_sessions m
      WHERE ${mayInSql(sql, userId, 'read', 'master-session', 'm.user_id')} ${flowId ? sql`AND m.flow_id = ${flowId}` : sql``}
        AND ${rows.after}
      ${rows.orderBy} ${rows.limit}`;
  }

  /** The session's rows in order. */
  rows(sessionId: string): Promise<MasterStep[]> {
    const { sql } = this;
    return sql<MasterStep[]>`
      SELECT ${sql.unsafe(STEP_COLUMNS)} FROM master_mode_steps
      WHERE session_id = ${sessionId} ORDER BY "order", created_at, id`;
  }

  /** A row as it stands; 404 when it is gone. */
  async row(stepId: string): Promise<MasterStep> {
    const { sql } = this;
    const [row] = await sql<MasterStep[]>`
      SELECT ${sql.unsafe(STEP_COLUMNS)} FROM master_mode_steps WHERE id = ${stepId}`;
    if (!row) throw notFound(STEP_NOT_FOUND);
    return row;
  }

  /** A row, if `actor` may do `action` to its session; else its 'not found'. */
  async rowFor(stepId: string, actor: string, action: Action): Promise<MasterStep> {
    const { sql } = this;
    const [row] = await sql<MasterStep[]>`
      SELECT ${sql.unsafe(aliased(STEP_COLUMNS, 's'))}
      FROM master_mode_steps s JOIN master_mode_sessions m ON m.id = s.session_id
      WHERE s.id = ${stepId} AND ${mayInSql(sql, actor, action, 'master-session', 'm.user_id')}`;
    if (!row) throw notFound(STEP_NOT_FOUND);
    return row;
  }

  /** What ran in the session, newest first. */
  runs(sessionId: string, page: Page | null = null): Promise<Keyed<MasterRunRecord>[]> {
    const rows = keyset(this.sql, MASTER_RUNS_ORDER, page);
    return this.sql<Keyed<MasterRunRecord>[]>`
      SELECT id, step_id, row_number, step_name, step_type, system_prompt, user_input, final_prompt,
             row_references, unresolved_references, model, provider, key_source, result, success,
             error_message, duration_ms, input_tokens, output_tokens, first_token_ms, requested_at,
             ${rows.pageKey}
      FROM master_mode_runs WHERE session_id = ${sessionId} AND ${rows.after} ${rows.orderBy} ${rows.limit}`;
  }

  /** One Execute All of the session, running or ended; 404 when the session had none of that id. */
  async executeAll(sessionId: string, runAllId: string): Promise<ExecuteAllRecord> {
    const [record] = await this.sql<ExecuteAllRecord[]>`
      SELECT id, started_at, stop_requested, ended_at, outcome, message FROM master_mode_execute_alls
      WHERE id = ${runAllId} AND session_id = ${sessionId}`;
    if (!record) throw notFound('Không tìm thấy lần Execute All');
    return record;
  }

  /** Writes a new session and its first rows: sent with its opening event, in one statement. */
  insert(
    tx: TransactionSql,
    session: { id: string; userId: string; flowId: string | null; name: string; at: string },
    rows: NewRow[],
  ): Statement {
    const firstRows = rows.map((row, i) => ({
      position: i + 1,
      step_name: row.stepName,
      system_prompt: row.systemPrompt,
      is_required: row.isRequired,
      model: row.model,
    }));
    return tx`
      WITH session AS (
        INSERT INTO master_mode_sessions (id, user_id, flow_id, session_name, created_at, updated_at)
        VALUES (${session.id}, ${session.userId}, ${session.flowId}, ${session.name}, ${session.at}, ${session.at})
        RETURNING id)
      INSERT INTO master_mode_steps (session_id, "order", step_name, system_prompt, step_type, is_required, model, created_at, updated_at)
      SELECT session.id, r.position, r.step_name, r.system_prompt, 'ai', r.is_required, r.model, ${session.at}, ${session.at}
      FROM session, jsonb_to_recordset(${tx.json(firstRows)}::jsonb)
        AS r(position int, step_name text, system_prompt text, is_required boolean, model text)`;
  }

  /** Deletes the session and its rows: sent with its deletion event. */
  delete(tx: TransactionSql, sessionId: string): Statement {
    return tx`DELETE FROM master_mode_sessions WHERE id = ${sessionId}`;
  }

  /**
   * Marks the session's rows edited now (the sessions list is ordered by it) and counts the edit, after the
   * edit is written: an Execute All that sees the count move reads the rows again.
   */
  async touch(sessionId: string): Promise<void> {
    await this.sql`
      UPDATE master_mode_sessions SET updated_at = now(), rows_version = rows_version + 1
      WHERE id = ${sessionId}`;
  }

  /**
   * What tells an Execute All whether its session changed since it last read it, at the cost of one row
   * each: its stream's version, and how many times its rows were edited (null: the session is gone).
   */
  async marks(sessionId: string): Promise<{ version: number; rowsVersion: number | null }> {
    const [version, [session]] = await Promise.all([
      streamVersion(this.sql, masterStreamId(sessionId)),
      this.sql<{ rowsVersion: string }[]>`
        SELECT rows_version FROM master_mode_sessions WHERE id = ${sessionId}`,
    ]);
    return { version, rowsVersion: session ? Number(session.rowsVersion) : null };
  }

  /**
   * Adds a row to the session; without an order it goes last. Past MAX_MASTER_ROWS it is refused (400). The
   * session's row is held first, and the rows counted (and the last order read) by the statements after it,
   * which see what was committed when they began: rows added at once are counted and placed one after another.
   */
  async addRow(sessionId: string, input: CreateMasterStep): Promise<MasterStep> {
    return this.sql.begin(async (sql) => {
      const held = await sql`SELECT 1 FROM master_mode_sessions WHERE id = ${sessionId} FOR UPDATE`;
      if (held.length === 0) throw notFound(SESSION_NOT_FOUND);
      const [{ rows } = { rows: 0 }] = await sql<{ rows: number }[]>`
        SELECT count(*)::int AS rows FROM master_mode_steps WHERE session_id = ${sessionId}`;
      if (rows >= MAX_MASTER_ROWS) throw ruleViolated(TOO_MANY_ROWS);
      const [step] = await sql<MasterStep[]>`
      INSERT INTO master_mode_steps
        (session_id, "order", step_name, user_input, result, system_prompt, step_type, is_required, model)
      VALUES (${sessionId},
        COALESCE(${input.order ?? null}::int,
                 (SELECT COALESCE(max("order"), 0) + 1 FROM master_mode_steps WHERE session_id = ${sessionId})),
        ${input.stepName}, ${input.userInput}, ${input.result}, ${input.systemPrompt}, ${input.stepType},
        ${input.isRequired}, ${input.model})
      RETURNING ${sql.unsafe(STEP_COLUMNS)}`;
      return step!;
    });
  }

  /** Writes a row's fields as `next` has them; 404 when the row went meanwhile. */
  async changeRow(
    stepId: string,
    next: Pick<MasterStep, 'userInput' | 'systemPrompt' | 'stepType' | 'isRequired' | 'stepName' | 'model'>,
  ): Promise<MasterStep> {
    const { sql } = this;
    const [updated] = await sql<MasterStep[]>`
      UPDATE master_mode_steps SET
        user_input = ${next.userInput}, system_prompt = ${next.systemPrompt}, step_type = ${next.stepType},
        is_required = ${next.isRequired}, step_name = ${next.stepName}, model = ${next.model},
        updated_at = now()
      WHERE id = ${stepId}
      RETURNING ${sql.unsafe(STEP_COLUMNS)}`;
    if (!updated) throw notFound(STEP_NOT_FOUND);
    return updated;
  }

  async deleteRow(stepId: string): Promise<void> {
    await this.sql`DELETE FROM master_mode_steps WHERE id = ${stepId}`;
  }
}
