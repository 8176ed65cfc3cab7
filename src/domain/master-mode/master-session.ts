import { z } from 'zod';
import { atMostCharacters, isFilled, isRequired, requiredText } from '../filled-text';
import { MAX_FLOW_STEPS } from '../flow';
import { MAX_TEXT_CEILING } from '../limits';
import { modelIdSchema } from '../model-choice';
import { requestedId } from '../record-id';

/** What a master mode row does when it runs (default ai). */
export const MASTER_STEP_TYPES = ['text', 'ai', 'api', 'calculation'] as const;
export type MasterStepType = (typeof MASTER_STEP_TYPES)[number];

export const SESSION_NAME_REQUIRED = 'Please enter a session name';

/** Rows of one session: a long sheet, five times as many as a flow's steps may be (a session made from one fits). */
export const MAX_MASTER_ROWS = 5 * MAX_FLOW_STEPS;
export const TOO_MANY_ROWS = `Một session master mode có tối đa ${MAX_MASTER_ROWS} dòng`;

/** A row of a master mode session, as stored and returned by the API. */
export interface MasterStep {
  id: string;
  sessionId: string;
  order: number;
  stepName: string;
  userInput: string;
  result: string;
  systemPrompt: string;
  stepType: MasterStepType;
  isRequired: boolean;
  /** The model that answers an ai row (`provider:name`), as a flow step names one; null: the server's default. */
  model: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface MasterSession {
  id: string;
  userId: string;
  flowId: string | null;
  sessionName: string;
  createdAt: string;
  updatedAt: string;
}

/** GET /api/master-mode/session/:sessionId: the session with its rows in order. */
export interface MasterSessionWithSteps extends MasterSession {
  steps: MasterStep[];
  /** Rows with a run started and not ended yet (younger than the model timeout). */
  runningStepIds: string[];
  /** The Execute All running on the session, from any tab or server process; null when none is. */
  executeAll: RunningExecuteAll | null;
  /** The position of the session's stream this answer reflects: live updates continue after it. */
  version: number;
}

/** How an Execute All ended. */
export type ExecuteAllOutcome = 'completed' | 'stopped' | 'failed';

/** An Execute All under way: Execute All answers it at once and runs the rows after its answer. */
export interface RunningExecuteAll {
  runAllId: string;
  startedAt: string;
  stopRequested: boolean;
}

/** An Execute All as recorded: `outcome` stays null until it ends. */
export interface ExecuteAllRecord {
  id: string;
  startedAt: string;
  stopRequested: boolean;
  endedAt: string | null;
  outcome: ExecuteAllOutcome | null;
  /** Why it failed: the failing row's message, or 'interrupted'. */
  message: string | null;
}

// A cell is as long as MAX_TEXT_CHARS lets it be (413 past it, before this schema).
const text = z.string().max(MAX_TEXT_CEILING, atMostCharacters(MAX_TEXT_CEILING));
const stepName = requiredText(isRequired('stepName'), 200);
/** A row's model, by the rule a flow step's follows; null: the server's default. */
const model = modelIdSchema.nullable();

export const createSessionSchema = z.strictObject({
  name: z
    .string({ error: SESSION_NAME_REQUIRED })
    .trim()
    .min(1, { error: SESSION_NAME_REQUIRED, abort: true })
    .max(200, atMostCharacters(200))
    .refine(isFilled, SESSION_NAME_REQUIRED),
  flowId: requestedId().nullish(),
});

export const createMasterStepSchema = z.strictObject({
  sessionId: requestedId(),
  order: z.number().int().min(1).max(100_000).optional(),
  stepName,
  userInput: text.default(''),
  result: text.default(''),
  systemPrompt: text.default(''),
  stepType: z.enum(MASTER_STEP_TYPES).default('ai'),
  isRequired: z.boolean().default(false),
  model: model.default(null),
});

/** A new row as validated. */
export type CreateMasterStep = z.output<typeof createMasterStepSchema>;

export const updateMasterStepSchema = z
  .strictObject({
    userInput: text,
    systemPrompt: text,
    stepType: z.enum(MASTER_STEP_TYPES),
    isRequired: z.boolean(),
    stepName,
    model,
  })
  .partial();

export type UpdateMasterStepInput = z.infer<typeof updateMasterStepSchema>;

/** The name a new row gets: 'Step {n}', n being the number it will be shown with. */
export const newMasterStepName = (rowCount: number) => `Step ${rowCount + 1}`;

/** The name a session made from a flow is offered. */
export const sessionNameForFlow = (flowName: string) => `${flowName} Session`;
