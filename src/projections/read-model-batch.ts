import type { TransactionSql } from 'postgres';
import { copyRows, type EncodedRows, encodeRows, type TableRows } from './copy-rows';
import {
  changeStatement,
  insertRows,
  JsonColumn,
  type KeyedTable,
  type ReadModelChange,
  type ReadModelRow,
  upsertExecutions,
} from './read-model-change';

/**
 * A rebuild batch's changes folded in memory, then written with a few multi-row statements instead of one
 * statement per change. A change to a row added in this batch is applied to it in memory, exactly as its
 * statement would apply it; a change to a row of an earlier batch (a stream split across batches) is kept and
 * sent as its own statement after the inserts, in log order.
 *
 * A rebuild sends the added rows with COPY (copy()); write() is its fallback, and the writer of reference.
 */
export class ReadModelBatch {
  private readonly added = new Map<KeyedTable, Map<string, ReadModelRow>>();
  private readonly executions = new Map<string, ReadModelRow & { position: number }>();
  private readonly later: ReadModelChange[] = [];

  add(changes: ReadModelChange[]) {
    for (const change of changes) this.fold(change);
  }

  write(sql: TransactionSql): Promise<unknown> {
    const statements: PromiseLike<unknown>[] = [];
    for (const rows of sameKeyGroups([...this.executions.values()])) {
      statements.push(upsertExecutions(sql, rows));
    }
    for (const [table, byId] of this.added) {
      for (const rows of sameKeyGroups([...byId.values()])) {
        statements.push(insertRows(sql, table, rows));
      }
    }
    for (const change of this.later) statements.push(changeStatement(sql, change));
    return Promise.all(statements);
  }

  /**
   * The same rows as write(), the added ones sent with COPY, after `ahead` (rows encoded before the
   * transaction began: see encodeAdded). An execution's row that an earlier batch wrote is deleted first
   * where it reflects an older position, and added again with the others: a row rewritten by the upsert
   * costs PostgreSQL about four times one sent with COPY. COPY is refused whole where one of its ids is
   * there already (a row write() would skip, or keep because it reflects this position or a later one): the
   * caller then rolls back and uses write().
   */
  async copy(sql: TransactionSql, ahead: EncodedRows[] = []): Promise<void> {
    const executions = [...this.executions.values()];
    if (executions.length > 0) await deleteOlderExecutions(sql, executions);
    await copyRows(sql, [...ahead, ...this.addedRows()]);
    await Promise.all(this.later.map((change) => changeStatement(sql, change)));
  }

  /**
   * The added rows, executions' included, encoded for COPY now, ahead of the transaction that sends them: for
   * the changes of streams that begin in the batch, which add every row they change and write over none.
   */
  encodeAdded(): EncodedRows[] {
    if (this.later.length > 0) throw new Error('Only rows added whole are encoded ahead');
    return this.addedRows().map(encodeRows);
  }

  /** The added rows and the executions' rows, grouped for COPY. */
  private addedRows(): TableRows[] {
    const copies: TableRows[] = [];
    for (const [table, byId] of this.added) {
      for (const rows of sameKeyGroups([...byId.values()])) copies.push({ table, rows });
    }
    for (const rows of sameKeyGroups([...this.executions.values()]))
      copies.push({ table: 'executions', rows });
    return copies;
  }

  private fold(change: ReadModelChange) {
    switch (change.type) {
      case 'insert':
        return this.insertOnce(change.table, change.row);
      case 'update': {
        const row = this.rowsOf(change.table).get(change.id);
        if (!row) return this.later.push(change);
        if ((row.position as number) < change.position)
          Object.assign(row, change.set, { position: change.position });
        return;
      }
      case 'execution': {
        const kept = this.executions.get(change.row.id);
        if (!kept || kept.position < change.row.position) this.executions.set(change.row.id, change.row);
        return;
      }
      case 'executionChanged': {
        const kept = this.executions.get(change.id);
        // A row of an earlier batch: its statement, after the rows this batch adds.
        if (!kept) return this.later.push(change);
        if (kept.position !== change.from) return;
        const runs = [...((kept.runs as JsonColumn).value as unknown[])];
        for (const { index, run } of change.runs.replaced) runs[index] = run;
        runs.push(...change.runs.appended);
        this.executions.set(change.id, {
          ...kept,
          ...change.set,
          runs: new JsonColumn(runs),
          position: change.position,
        });
        return;
      }
      case 'flowUsage': {
        const log = this.rowsOf('ai_request_logs').get(change.row.id);
        if (!log) return this.later.push(change);
        const { id, userId, executionId, stepId, executionDate } = change.row;
        // SQL's `key_source <> 'own'` is null for a null source, and COALESCE makes that the default key.
        const usedDefaultKey = log.keySource !== 'own';
        return this.insertOnce('user_usage', {
          id,
          userId,
          executionId,
          stepId,
          usedDefaultKey,
          executionDate,
        });
      }
      case 'masterUsage': {
        const run = this.rowsOf('master_mode_runs').get(change.runId);
        if (!run) return this.later.push(change);
        if (run.stepType !== 'ai') return;
        const usedDefaultKey = run.keySource == null ? null : run.keySource !== 'own';
        return this.insertOnce('user_usage', {
          id: run.id,
          userId: run.userId,
          executionId: null,
          stepId: run.stepId,
          usedDefaultKey,
          executionDate: change.at,
        });
      }
      case 'resultDeleted': {
        const results = this.rowsOf('step_results');
        const result = results.get(change.rejected.id);
        if (!result) return this.later.push(change);
        results.delete(change.rejected.id);
        const { id, userId, flowId, executionId, content, deletedAt, position } = change.rejected;
        const { stepId, stepOrder, label } = result;
        return this.insertOnce('rejected_ideas', {
          id,
          userId,
          flowId,
          executionId,
          stepId,
          stepOrder,
          label,
          content,
          deletedAt,
          position,
        });
      }
      default: {
        const unknown: never = change;
        throw new Error(`No fold for ${(unknown as { type: string }).type}`);
      }
    }
  }

  private insertOnce(table: KeyedTable, row: ReadModelRow) {
    const rows = this.rowsOf(table);
    // A copy, so folding later changes into it never touches the change it came from.
    if (!rows.has(row.id)) rows.set(row.id, { ...row });
  }

  private rowsOf(table: KeyedTable) {
    let rows = this.added.get(table);
    if (!rows) {
      rows = new Map();
      this.added.set(table, rows);
    }
    return rows;
  }
}

/** Deletes the executions' rows that reflect an older stream position than the rows given. */
function deleteOlderExecutions(sql: TransactionSql, rows: (ReadModelRow & { position: number })[]) {
  const positions = JSON.stringify(rows.map(({ id, position }) => ({ id, position })));
  return sql`
    DELETE FROM executions e
    USING json_to_recordset(${positions}::text::json) AS n(id uuid, position bigint)
    WHERE e.id = n.id AND e.position < n.position`;
}

/**
 * Rows grouped by their keys: one statement names one column list. Rows made alike come one after another,
 * so each is first compared with the row before, key by key, before its keys are joined into a name.
 */
function sameKeyGroups(rows: ReadModelRow[]): ReadModelRow[][] {
  const groups = new Map<string, ReadModelRow[]>();
  let lastKeys: string[] = [];
  let lastGroup: ReadModelRow[] | undefined;
  for (const row of rows) {
    const keys = Object.keys(row);
    if (!lastGroup || !sameKeys(keys, lastKeys)) {
      const name = keys.join(',');
      lastGroup = groups.get(name);
      if (!lastGroup) {
        lastGroup = [];
        groups.set(name, lastGroup);
      }
      lastKeys = keys;
    }
    lastGroup.push(row);
  }
  return [...groups.values()];
}

function sameKeys(keys: string[], others: string[]) {
  if (keys.length !== others.length) return false;
  for (let i = 0; i < keys.length; i++) if (keys[i] !== others[i]) return false;
  return true;
}
