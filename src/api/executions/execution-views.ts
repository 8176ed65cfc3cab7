import type { Sql } from 'postgres';
import { executionAnswer } from '../answer-schemas';
import { type ExecutionView, readExecutionView } from './execution-view';
import { ExecutionViewCache } from './execution-view-cache';

/** What GET /api/executions/:id answers: the projected execution, kept as JSON text between its changes. */
export class ExecutionViews {
  private readonly cache = new ExecutionViewCache();

  constructor(private readonly sql: Sql) {}

  view(executionId: string, userId: string): Promise<ExecutionView> {
    return readExecutionView(this.sql, executionId, userId);
  }

  /** The same view as JSON text, kept between changes: what polling asks for again and again. */
  async viewJson(executionId: string, userId: string): Promise<string> {
    const kept = this.cache.get(executionId, userId);
    if (kept !== undefined) return kept;
    const ticket = this.cache.ticket();
    // Through the route's answer schema, as every other answer is serialised: nothing beyond it is sent.
    const body = JSON.stringify(executionAnswer.parse(await this.view(executionId, userId)));
    this.cache.remember(executionId, userId, ticket, body);
    return body;
  }

  /** An event of the execution was appended (by this process or, through the log tailer, another). */
  changed(executionId: string) {
    this.cache.invalidate(executionId);
  }
}
