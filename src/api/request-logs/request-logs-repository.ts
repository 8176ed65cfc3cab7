import type { Sql } from 'postgres';
import type { UnreviewedResultUse } from '../../domain/execution/types';
import type { OutputMode } from '../../domain/flow';
import { type Keyed, keyset, type ListOrder, type Page } from '../http/pages';

/** A model request of a flow as stored, with where its StepRunStarted event sits in the event log. */
export interface RequestLogRow {
  id: string;
  flowId: string;
  executionId: string;
  stepId: string;
  stepOrder: number;
  startedEventId: string;
  originalSystemPrompt: string;
  finalPrompt: string;
  userInput: string | null;
  outputMode: OutputMode;
  choices: string[];
  stepLabels: Record<string, string>;
  unresolvedLabels: string[];
  unreviewedResults: UnreviewedResultUse[];
  model: string | null;
  /** The model's provider; null on requests recorded before it was kept. */
  provider: string | null;
  keySource: string | null;
  reasks: number;
  /** The model's token counts; null while it answers, when it failed, or when it reported none. */
  inputTokens: number | null;
  outputTokens: number | null;
  /** Milliseconds from sending the request to the first text; null when none came or it was not measured. */
  firstTokenMs: number | null;
  aiResponse: string | null;
  success: boolean | null;
  errorMessage: string | null;
  requestedAt: Date;
  startedEventPosition: number | null;
  startedEventCommandId: string | null;
}

/** A flow's requests, newest first (the id orders requests made at the same microsecond). */
export const REQUEST_LOGS_ORDER: ListOrder = {
  list: 'request-logs',
  keys: [
    { sql: 'l.requested_at', order: 'desc', type: 'timestamptz' },
    { sql: 'l.id', order: 'desc', type: 'uuid' },
  ],
};

/** The model requests of each flow (`ai_request_logs`), as its logs dialog lists them. */
export class RequestLogsRepository {
  constructor(private readonly sql: Sql) {}

  /** The flow's requests since its log was last cleared, newest first; clearing hides, the event log keeps. */
  listed(
    flow: { id: string; logsClearedAt: Date | null },
    page: Page | null = null,
  ): Promise<Keyed<RequestLogRow>[]> {
    const rows = keyset(this.sql, REQUEST_LOGS_ORDER, page);
    return this.sql<Keyed<RequestLogRow>[]>`
      SELECT l.id, l.flow_id, l.execution_id, l.step_id, l.step_order, l.started_event_id, l.original_system_prompt,
             l.final_prompt, l.user_input, l.output_mode, l.choices, l.step_labels, l.unresolved_labels,
             l.unreviewed_results, l.model, l.provider,
             l.key_source, l.reasks, l.input_tokens, l.output_tokens, l.first_token_ms, l.ai_response, l.success, l.error_message, l.requested_at,
             e.stream_position AS started_event_position, e.metadata ->> 'commandId' AS started_event_command_id,
             ${rows.pageKey}
      FROM ai_request_logs l
      LEFT JOIN events e ON e.event_id = l.started_event_id
      WHERE l.flow_id = ${flow.id}
        AND (${flow.logsClearedAt}::timestamptz IS NULL OR l.requested_at > ${flow.logsClearedAt})
        AND ${rows.after}
      ${rows.orderBy} ${rows.limit}`;
  }
}
