import type { JSONValue, Sql } from 'postgres';
import type { StepSnapshot } from '../../domain/flow';
import type { FlowReview, FlowStructure, SuggestionRecord } from '../../domain/flow-suggestions';
import { type Keyed, keyset, type ListOrder, type Page } from '../http/pages';
import { readFlowReview } from './flow-review';

/** The row as read: its time is a Date until it is serialised. */
export type SuggestionRow = Omit<SuggestionRecord, 'createdAt'> & { createdAt: Date };

const RECORD_COLUMNS = 'id, flow_id, flow_structure, suggestions, strategic_recommendation, created_at';

/** A flow's suggestions, newest first. */
export const SUGGESTIONS_ORDER: ListOrder = {
  list: 'suggestions',
  keys: [
    { sql: 'created_at', order: 'desc', type: 'timestamptz' },
    { sql: 'id', order: 'asc', type: 'uuid' },
  ],
};

/** The AI suggestions made for each flow (`ai_suggestions`), each with the flow as it was when they were made. */
export class SuggestionsRepository {
  constructor(private readonly sql: Sql) {}

  /** Newest first. */
  listed(flowId: string, page: Page | null = null): Promise<Keyed<SuggestionRow>[]> {
    const { sql } = this;
    const rows = keyset(sql, SUGGESTIONS_ORDER, page);
    return sql<Keyed<SuggestionRow>[]>`
      SELECT ${sql.unsafe(RECORD_COLUMNS)}, ${rows.pageKey} FROM ai_suggestions
      WHERE flow_id = ${flowId} AND ${rows.after} ${rows.orderBy} ${rows.limit}`;
  }

  /** What new suggestions are grounded in: the flow's steps and its history. */
  review(
    flow: { id: string; name: string; description: string; logsClearedAt: Date | null },
    steps: StepSnapshot[],
  ): Promise<FlowReview> {
    return readFlowReview(this.sql, flow, steps);
  }

  async save(
    flowId: string,
    structure: FlowStructure,
    made: Pick<SuggestionRecord, 'suggestions' | 'strategicRecommendation'>,
  ): Promise<SuggestionRow> {
    const { sql } = this;
    const [record] = await sql<SuggestionRow[]>`
      INSERT INTO ai_suggestions (flow_id, flow_structure, suggestions, strategic_recommendation)
      VALUES (${flowId}, ${sql.json(structure as unknown as JSONValue)},
              ${sql.json(made.suggestions as unknown as JSONValue)}, ${made.strategicRecommendation})
      RETURNING ${sql.unsafe(RECORD_COLUMNS)}`;
    return record!;
  }

  async clear(flowId: string): Promise<void> {
    await this.sql`DELETE FROM ai_suggestions WHERE flow_id = ${flowId}`;
  }
}
