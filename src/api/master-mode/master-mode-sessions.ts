import type { Sql } from 'postgres';
import { notFound } from '../../domain/errors';
import type {
  CreateMasterStep,
  MasterSessionWithSteps,
  MasterStep,
} from '../../domain/master-mode/master-session';
import { mayInSql } from '../access';
import { SESSION_COLUMNS, STEP_COLUMNS } from './master-mode-service';

/** A row a new session starts with. */
export interface NewRow {
  stepName: string;
  systemPrompt: string;
  isRequired: boolean;
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
  keySource: string | null;
  result: string | null;
  success: boolean | null;
  errorMessage: string | null;
  durationMs: number | null;
  requestedAt: Date;
}

/**
 * Master mode sessions and their rows as tables (the runs are commands on the session's stream, in
 * MasterModeService). Who may reach a session is the service's to say: these take ids already checked.
 */
export class MasterModeSessions {
  constructor(private readonly sql: Sql) {}

  /** The user's sessions (of one flow, when given), the last changed first, with their row counts. */
  list(userId: string, flowId: string | undefined) {
    const { sql } = this;
    return sql<
      (Omit<MasterSessionWithSteps, 'steps' | 'runningStepIds' | 'version'> & { stepCount: number })[]
    >`
      SELECT ${sql.unsafe(SESSION_COLUMNS.replace(/(^|, )/g, '$1m.'))},
             (SELECT count(*)::int FROM master_mode_steps s WHERE s.session_id = m.id) AS step_count
      FROM master_mode_sessions m
      WHERE ${mayInSql(sql, userId, 'read', 'master-session', 'm.user_id')} ${flowId ? sql`AND m.flow_id = ${flowId}` : sql``}
      ORDER BY m.updated_at DESC, m.id`;
  }

  /** What ran in the session, newest first. */
  runs(sessionId: string): Promise<MasterRunRecord[]> {
    return this.sql<MasterRunRecord[]>`
      SELECT id, step_id, row_number, step_name, step_type, system_prompt, user_input, final_prompt,
             row_references, unresolved_references, model, key_source, result, success, error_message,
             duration_ms, requested_at
      FROM master_mode_runs WHERE session_id = ${sessionId} ORDER BY requested_at DESC, id`;
  }

  /** A session and its first rows, in one transaction. */
  create(
    userId: string,
    name: string,
    flowId: string | null,
    rows: NewRow[],
  ): Promise<MasterSessionWithSteps> {
    return this.sql.begin(async (tx) => {
      const [session] = await tx<MasterSessionWithSteps[]>`
        INSERT INTO master_mode_sessions (user_id, flow_id, session_name)
        VALUES (${userId}, ${flowId}, ${name})
        RETURNING ${tx.unsafe(SESSION_COLUMNS)}`;
      const steps =
        rows.length === 0
          ? []
          : await tx<MasterStep[]>`
            INSERT INTO master_mode_steps ${tx(
              rows.map((row, i) => ({
                sessionId: session!.id,
                order: i + 1,
                stepName: row.stepName,
                systemPrompt: row.systemPrompt,
                stepType: 'ai',
                isRequired: row.isRequired,
              })),
            )}
            RETURNING ${tx.unsafe(STEP_COLUMNS)}`;
      return {
        ...session!,
        steps: steps.toSorted((a, b) => a.order - b.order),
        runningStepIds: [],
        version: 0,
      };
    });
  }

  /** Adds a row to the session; without an order it goes last. */
  async addRow(sessionId: string, input: CreateMasterStep): Promise<MasterStep> {
    const { sql } = this;
    const [step] = await sql<MasterStep[]>`
      INSERT INTO master_mode_steps
        (session_id, "order", step_name, user_input, result, system_prompt, step_type, is_required)
      VALUES (${sessionId},
        COALESCE(${input.order ?? null}::int,
                 (SELECT COALESCE(max("order"), 0) + 1 FROM master_mode_steps WHERE session_id = ${sessionId})),
        ${input.stepName}, ${input.userInput}, ${input.result}, ${input.systemPrompt}, ${input.stepType},
        ${input.isRequired})
      RETURNING ${sql.unsafe(STEP_COLUMNS)}`;
    return step!;
  }

  /** Writes a row's fields as `next` has them; 404 when the row went meanwhile. */
  async changeRow(
    stepId: string,
    next: Pick<MasterStep, 'userInput' | 'systemPrompt' | 'stepType' | 'isRequired' | 'stepName'>,
  ): Promise<MasterStep> {
    const { sql } = this;
    const [updated] = await sql<MasterStep[]>`
      UPDATE master_mode_steps SET
        user_input = ${next.userInput}, system_prompt = ${next.systemPrompt}, step_type = ${next.stepType},
        is_required = ${next.isRequired}, step_name = ${next.stepName}, updated_at = now()
      WHERE id = ${stepId}
      RETURNING ${sql.unsafe(STEP_COLUMNS)}`;
    if (!updated) throw notFound('Master mode step not found');
    return updated;
  }

  async deleteRow(stepId: string): Promise<void> {
    await this.sql`DELETE FROM master_mode_steps WHERE id = ${stepId}`;
  }
}
