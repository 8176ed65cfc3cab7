import { randomUUID } from 'node:crypto';
import type { Sql } from 'postgres';
import { ModelCallError } from '../ai';
import { conflict, DomainError, notFound, ruleViolated } from '../domain/errors';
import {
  type ExecuteAllOutcome,
  executeAllState,
  type MasterEvent,
  masterStreamId,
} from '../domain/master-mode/master-events';
import type { MasterSession, MasterSessionWithSteps, MasterStep } from '../domain/master-mode/master-session';
import { blankRequiredRow, planRowRun, requiredInputMessage, rowLabel } from '../domain/master-mode/row-run';
import type { EventStore } from '../eventstore';
import { projectMasterStreams } from '../projections/project-master-events';
import type { AppServices } from './app';
import { callApiRow } from './master-api-call';
import { ownKeyForRun } from './usage-standing';
import { providerWithKey } from './user-model';

export const SESSION_COLUMNS = 'id, user_id, flow_id, session_name, created_at, updated_at';
export const STEP_COLUMNS =
  'id, session_id, "order", step_name, user_input, result, system_prompt, step_type, is_required, created_at, updated_at';

export interface ExecuteAllAnswer {
  outcome: Exclude<ExecuteAllOutcome, 'failed'>;
  session: MasterSessionWithSteps;
}

/**
 * Running master mode rows. Each run is recorded in the session's `master-<sessionId>` stream
 * (started, then succeeded or failed; the read model `master_mode_runs` is projected in the same
 * transaction) and its result written to the row. ai rows go through the same provider choice and free
 * allowance as flow step runs. Execute All runs the rows in order, each after the previous ends, and
 * looks for a Stop in the stream between rows, so a Stop sent to any server process ends it.
 */
export class MasterModeService {
  /** Sessions with an Execute All running in this process: a second one at once is refused. */
  private readonly executingAll = new Set<string>();

  constructor(private readonly services: AppServices) {}

  private get sql(): Sql {
    return this.services.sql;
  }

  private get store(): EventStore {
    return this.services.store;
  }

  async session(sessionId: string, userId: string): Promise<MasterSession> {
    const [session] = await this.sql<MasterSession[]>`
      SELECT ${this.sql.unsafe(SESSION_COLUMNS)} FROM master_mode_sessions
      WHERE id = ${sessionId} AND user_id = ${userId}`;
    if (!session) throw notFound('Master mode session not found');
    return session;
  }

  rows(sessionId: string): Promise<MasterStep[]> {
    return this.sql<MasterStep[]>`
      SELECT ${this.sql.unsafe(STEP_COLUMNS)} FROM master_mode_steps
      WHERE session_id = ${sessionId} ORDER BY "order", created_at, id`;
  }

  async sessionWithSteps(sessionId: string, userId: string): Promise<MasterSessionWithSteps> {
    const session = await this.session(sessionId, userId);
    const [steps, running] = await Promise.all([
      this.rows(sessionId),
      // A run a crash left without an outcome stops counting as running after the model timeout.
      this.sql<{ stepId: string }[]>`
        SELECT DISTINCT step_id FROM master_mode_runs
        WHERE session_id = ${sessionId} AND success IS NULL
          AND requested_at > now() - ${this.services.config.modelTimeoutMs} * interval '1 millisecond'`,
    ]);
    return { ...session, steps, runningStepIds: running.map((r) => r.stepId) };
  }

  /** Marks the session changed now (the sessions list is ordered by it). */
  async touch(sessionId: string): Promise<void> {
    await this.sql`UPDATE master_mode_sessions SET updated_at = now() WHERE id = ${sessionId}`;
  }

  /** The row and its session, when the session is the user's. */
  async ownedRow(stepId: string, userId: string): Promise<MasterStep> {
    const [row] = await this.sql<MasterStep[]>`
      SELECT ${this.sql.unsafe(STEP_COLUMNS.replace(/(^|, )/g, '$1s.'))}
      FROM master_mode_steps s JOIN master_mode_sessions m ON m.id = s.session_id
      WHERE s.id = ${stepId} AND m.user_id = ${userId}`;
    if (!row) throw notFound('Master mode step not found');
    return row;
  }

  /** Runs one row (POST /api/master-mode/execute/:stepId) and answers the row with its new result. */
  async executeRow(stepId: string, userId: string): Promise<MasterStep> {
    const row = await this.ownedRow(stepId, userId);
    return this.runRow(row.sessionId, stepId, userId);
  }

  /** Runs every row in order; stops at the first failure (thrown) or at a Stop between rows. */
  async executeAll(sessionId: string, userId: string): Promise<ExecuteAllAnswer> {
    await this.session(sessionId, userId);
    const blank = blankRequiredRow(await this.rows(sessionId));
    if (blank) throw ruleViolated(requiredInputMessage(blank.position, blank.row));
    if (this.executingAll.has(sessionId)) throw conflict('Execute All is already running');
    this.executingAll.add(sessionId);
    const runAllId = randomUUID();
    try {
      const started = await this.append(sessionId, userId, [
        { type: 'MasterExecuteAllStarted', data: { runAllId, at: now() } },
      ]);
      const end = (outcome: ExecuteAllOutcome, message: string | null = null) =>
        this.append(sessionId, userId, [
          { type: 'MasterExecuteAllEnded', data: { runAllId, outcome, message, at: now() } },
        ]);
      // Rows are read again before each run: earlier results and edits made meanwhile count.
      for (let position = 1; ; position++) {
        if (await this.stopRequested(sessionId, runAllId, started)) {
          await end('stopped');
          return { outcome: 'stopped', session: await this.sessionWithSteps(sessionId, userId) };
        }
        const row = (await this.rows(sessionId))[position - 1];
        if (!row) break;
        try {
          await this.runRow(sessionId, row.id, userId);
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          await end('failed', message);
          throw error;
        }
      }
      await end('completed');
      return { outcome: 'completed', session: await this.sessionWithSteps(sessionId, userId) };
    } finally {
      this.executingAll.delete(sessionId);
    }
  }

  /** Asks the running Execute All to stop before its next row; false when none is running. */
  async stop(sessionId: string, userId: string): Promise<boolean> {
    await this.session(sessionId, userId);
    const state = executeAllState(await this.events(sessionId));
    if (!state.running) return false;
    if (!state.stopRequested) {
      await this.append(sessionId, userId, [
        { type: 'MasterExecuteAllStopped', data: { runAllId: state.running, at: now() } },
      ]);
    }
    return true;
  }

  /** Clears every row's result (a running Execute All is stopped first); the runs stay recorded. */
  async reset(sessionId: string, userId: string): Promise<MasterSessionWithSteps> {
    await this.stop(sessionId, userId);
    await this.sql`
      UPDATE master_mode_steps SET result = '', updated_at = now() WHERE session_id = ${sessionId}`;
    await this.touch(sessionId);
    await this.append(sessionId, userId, [{ type: 'MasterResultsReset', data: { at: now() } }]);
    return this.sessionWithSteps(sessionId, userId);
  }

  private async runRow(sessionId: string, stepId: string, userId: string): Promise<MasterStep> {
    const rows = await this.rows(sessionId);
    const position = rows.findIndex((r) => r.id === stepId) + 1;
    const row = rows[position - 1];
    if (!row) throw notFound('Master mode step not found');
    const plan = planRowRun(rows, position, this.services.config.masterModeApiHosts);
    // Past the free allowance an ai row is refused (429) before anything is recorded or called.
    const model = plan.kind === 'model' ? await this.modelFor(userId) : null;
    const runId = randomUUID();
    const startedAt = performance.now();
    await this.append(sessionId, userId, [
      {
        type: 'MasterRowRunStarted',
        data: {
          runId,
          userId,
          sessionId,
          stepId,
          rowNumber: position,
          stepName: row.stepName,
          stepType: row.stepType,
          systemPrompt: row.systemPrompt,
          userInput: row.userInput,
          finalPrompt:
            plan.kind === 'model' ? plan.prompt : plan.kind === 'http' ? plan.url.href : plan.input.text,
          references: {
            ...plan.input.references,
            ...(plan.kind === 'model' ? plan.systemPrompt.references : {}),
          },
          unresolvedReferences: [
            ...new Set([
              ...plan.input.unresolved,
              ...(plan.kind === 'model' ? plan.systemPrompt.unresolved : []),
            ]),
          ],
          model: model?.provider.model ?? null,
          keySource: model?.keySource ?? null,
          at: now(),
        },
      },
    ]);
    let result: string;
    let usage: { inputTokens: number; outputTokens: number } | null = null;
    try {
      if (plan.kind === 'answered') {
        result = plan.result;
      } else if (plan.kind === 'http') {
        result = await callApiRow(plan.url, this.services.config.masterModeApiHosts);
      } else {
        const answer = await model!.provider.stream({ system: plan.system, prompt: plan.prompt }).final;
        result = answer.text;
        usage = answer.usage;
      }
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      await this.append(sessionId, userId, [
        { type: 'MasterRowRunFailed', data: { runId, message, at: now() } },
      ]);
      const retryable = error instanceof ModelCallError && error.retryable;
      throw new DomainError('model_failed', `${rowLabel(position, row)}: ${message}`, { retryable });
    }
    const durationMs = Math.round(performance.now() - startedAt);
    await this.append(sessionId, userId, [
      { type: 'MasterRowRunSucceeded', data: { runId, result, usage, durationMs, at: now() } },
    ]);
    const [updated] = await this.sql<MasterStep[]>`
      UPDATE master_mode_steps SET result = ${result}, updated_at = now()
      WHERE id = ${stepId} RETURNING ${this.sql.unsafe(STEP_COLUMNS)}`;
    await this.touch(sessionId);
    // The row was deleted while it ran: the run stays recorded, there is no row to show it.
    if (!updated) throw notFound('Master mode step not found');
    return updated;
  }

  /** As for a flow step run: the own key, else the server's, else the offline model; the allowance applies. */
  private async modelFor(userId: string) {
    const ownKey = await ownKeyForRun(this.services, userId);
    return providerWithKey(this.services.config, ownKey, this.services.resolveModel);
  }

  private async stopRequested(sessionId: string, runAllId: string, startedAt: number): Promise<boolean> {
    const { events } = await this.store.readStream(masterStreamId(sessionId), { after: startedAt });
    return events.some(
      (e) => e.type === 'MasterExecuteAllStopped' && (e.data as { runAllId: string }).runAllId === runAllId,
    );
  }

  private async events(sessionId: string): Promise<MasterEvent[]> {
    const { events } = await this.store.readStream(masterStreamId(sessionId));
    return events.map((e) => ({ type: e.type, data: e.data }) as MasterEvent);
  }

  /** Appends to the session's stream (facts that need no ordering guard) and projects them. */
  private async append(sessionId: string, userId: string, events: MasterEvent[]): Promise<number> {
    const commandId = randomUUID();
    const appended = await this.store.append(
      masterStreamId(sessionId),
      'master',
      'any',
      events.map((event) => ({ ...event, metadata: { userId, commandId, correlationId: commandId } })),
      { inTransaction: (tx, recorded) => projectMasterStreams(tx, [recorded]) },
    );
    return appended.nextExpectedVersion;
  }
}

const now = () => new Date().toISOString();
