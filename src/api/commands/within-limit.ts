import type { TransactionSql } from 'postgres';
import type { Statement } from '../../eventstore';

/**
 * A count a command's new row must keep within its limit, re-checked in the transaction that writes the row:
 * the count a decider had was read before, and rows made at once would each pass it. `parent` is the row the
 * counted rows hang on (the flow of datasets, the user of workspaces): it is held to the end of the
 * transaction, so commands made at once are counted one after another, each with itself and those committed
 * before (each statement of the block reads what was committed when it began).
 */
export interface CountLimit {
  /** What is raised past the limit (`isPastLimit`): a word of letters and underscores. */
  name: string;
  /** The parent row to hold: a table whose `id` is a uuid, and the row's id. */
  parent: { table: 'flows' | 'users'; id: string };
  /** The count, a SELECT of one number, given the parent's id as an SQL literal. */
  count: (parentId: string) => string;
  /** The most the count may be once the command's rows are written. */
  limit: number;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const NAME = /^[a-z_]+$/;

/**
 * The statement that holds each count within its limit in the command's transaction (parents held in the
 * order given: callers name them in one order, flows before users); past one it raises its name, and nothing
 * of the command is stored.
 */
export function withinLimits(tx: TransactionSql, limits: readonly CountLimit[]): Statement {
  // A DO block takes no parameters: the ids are the parent rows' own, uuids, and are checked as such.
  const checks = limits.map(({ name, parent, count, limit }) => {
    if (!UUID.test(parent.id)) throw new Error(`not an id of ${parent.table}: ${parent.id}`);
    if (!NAME.test(name) || !Number.isInteger(limit)) throw new Error(`not a limit: ${name}`);
    return `
        PERFORM 1 FROM ${parent.table} WHERE id = '${parent.id}' FOR UPDATE;
        IF (${count(`'${parent.id}'`)}) > ${limit} THEN
          RAISE EXCEPTION '${name}';
        END IF;`;
  });
  return tx.unsafe(`DO $$ BEGIN ${checks.join('')}
      END $$`);
}

/** Whether an error is the refusal of `withinLimits` for the limit `name`: nothing of the command was stored. */
export const isPastLimit = (error: unknown, name: string) =>
  (error as { code?: string } | null)?.code === 'P0001' && (error as Error).message === name;
