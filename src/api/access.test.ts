import { describe, expect, it } from 'vitest';
import { ACTIONS, may, RECORD_KINDS } from './access';

const OWNER = '4f9a1c2e-0000-4000-8000-000000000001';
const OTHER = '4f9a1c2e-0000-4000-8000-000000000002';

describe('may: who may do what to which record', () => {
  it.each(RECORD_KINDS.flatMap((kind) => ACTIONS.map((action) => [kind, action] as const)))(
    'lets the owner %s-%s, never another user, and the server itself always',
    (kind, action) => {
      expect(may(OWNER, action, kind, OWNER)).toBe(true);
      expect(may(OTHER, action, kind, OWNER)).toBe(false);
      expect(may(null, action, kind, OWNER)).toBe(true);
    },
  );

  it('answers no for a record that does not exist, whoever asks', () => {
    expect(may(OWNER, 'read', 'flow', undefined)).toBe(false);
    expect(may(null, 'read', 'execution', undefined)).toBe(false);
  });

  it('answers no for a record without an owner to a user, yes to the server', () => {
    expect(may(OWNER, 'read', 'master-session', null)).toBe(false);
    expect(may(null, 'read', 'master-session', null)).toBe(true);
  });
});
