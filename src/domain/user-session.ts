import { z } from 'zod';
import { FILLED, isFilled } from './filled-text';
import { requestedId } from './record-id';

/** The workspace modes a saved session can bring the user back to. */
export const SESSION_MODES = ['edit', 'run', 'chat'] as const;
export type SessionMode = (typeof SESSION_MODES)[number];

export const SESSION_NAME_REQUIRED = 'Tên session không được để trống';
export const SESSION_NAME_MAX_LENGTH = 200;
export const SESSION_DESCRIPTION_MAX_LENGTH = 2000;

/** What the user names a new session, checked as the request body is checked. */
export const sessionNamingSchema = z.object({
  sessionName: z.string().max(SESSION_NAME_MAX_LENGTH).refine(isFilled, SESSION_NAME_REQUIRED).meta(FILLED),
  description: z.string().max(SESSION_DESCRIPTION_MAX_LENGTH),
});

/** The page sends empty ids to mean "what I am working on now"; they become null here. */
const placeId = z
  .union([z.literal(''), requestedId()])
  .nullish()
  .transform((id) => id || null);

/**
 * A new session: a name, an optional description and mode, and the flow or execution it keeps. A blank
 * name answers one message with no field name in front, so the check sits on the whole body.
 */
export const newUserSessionSchema = z
  .strictObject({
    flowId: placeId,
    executionId: placeId,
    sessionName: z.string().max(SESSION_NAME_MAX_LENGTH).optional().meta(FILLED),
    sessionData: z
      .strictObject({
        description: z.string().max(SESSION_DESCRIPTION_MAX_LENGTH).optional(),
        mode: z.enum(SESSION_MODES).optional(),
      })
      .optional(),
  })
  .refine((body) => isFilled(body.sessionName), { message: SESSION_NAME_REQUIRED })
  // The document names the field required too (the check sits on the body for its one message).
  .meta({ required: ['sessionName'] })
  .transform((body) => ({
    flowId: body.flowId,
    executionId: body.executionId,
    sessionName: body.sessionName!.trim(),
    description: body.sessionData?.description?.trim() ?? '',
    mode: body.sessionData?.mode ?? null,
  }));

export type NewUserSession = z.output<typeof newUserSessionSchema>;

/** With an execution to come back to the session opens it to run; a flow without one opens its editor. */
export const defaultModeOf = (executionId: string | null): SessionMode => (executionId ? 'run' : 'edit');

/** Where loading a session takes the browser: its flow's workspace in its mode, or the flows list. */
export function sessionUrlOf(flowId: string | null, mode: SessionMode): string {
  if (!flowId) return '/flows';
  return mode === 'edit' ? `/flows/${flowId}` : `/flows/${flowId}?mode=${mode}`;
}
