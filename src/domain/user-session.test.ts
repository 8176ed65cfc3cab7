import { describe, expect, it } from 'vitest';
import {
  newUserSessionSchema,
  SESSION_NAME_REQUIRED,
  sessionNamingSchema,
  sessionUrlOf,
} from './user-session';

const FLOW = '7b0e8c2e-2f0a-4c39-9d43-5d1e9a8b6f10';

describe('saved sessions', () => {
  it('reads empty ids as "what the user works on now" and trims the name and description', () => {
    expect(
      newUserSessionSchema.parse({
        flowId: '',
        executionId: '',
        sessionName: ' Sáng ',
        sessionData: { description: ' trà ' },
      }),
    ).toEqual({ flowId: null, executionId: null, sessionName: 'Sáng', description: 'trà', mode: null });
  });

  it('refuses a blank name with the one message', () => {
    const result = newUserSessionSchema.safeParse({ flowId: FLOW, sessionName: '  ' });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.message)).toEqual([SESSION_NAME_REQUIRED]);
  });

  it('checks the form as the body: a blank name gets the one message, on the name', () => {
    const result = sessionNamingSchema.safeParse({ sessionName: ' ', description: '' });
    expect(result.error?.issues.map((issue) => [issue.path, issue.message])).toEqual([
      [['sessionName'], SESSION_NAME_REQUIRED],
    ]);
    expect(sessionNamingSchema.safeParse({ sessionName: 'Sáng', description: '' }).success).toBe(true);
  });

  it('leads to the flow in its mode, the editor without a mode, or the flows list without a flow', () => {
    expect(sessionUrlOf(FLOW, 'run')).toBe(`/flows/${FLOW}?mode=run`);
    expect(sessionUrlOf(FLOW, 'chat')).toBe(`/flows/${FLOW}?mode=chat`);
    expect(sessionUrlOf(FLOW, 'edit')).toBe(`/flows/${FLOW}`);
    expect(sessionUrlOf(null, 'run')).toBe('/flows');
  });
});
