import { describe, expect, it } from 'vitest';
import { mayDo, mayMakeFlows, recordAccess, WORKSPACE_ROLES } from './workspace-roles';

describe('what each workspace role may do', () => {
  it('gives the owner everything, members included', () => {
    for (const action of ['read', 'change', 'run', 'review', 'watch', 'manage'] as const) {
      expect(mayDo('owner', action), action).toBe(true);
    }
  });

  it('lets an editor make, edit, run and approve flows, but not manage members', () => {
    expect(['read', 'change', 'run', 'review', 'watch'].every((a) => mayDo('editor', a as never))).toBe(true);
    expect(mayDo('editor', 'manage')).toBe(false);
  });

  it('lets a reviewer read and approve, edit or reject results only', () => {
    expect(mayDo('reviewer', 'read')).toBe(true);
    expect(mayDo('reviewer', 'review')).toBe(true);
    expect(mayDo('reviewer', 'run')).toBe(false);
    expect(mayDo('reviewer', 'change')).toBe(false);
    expect(mayDo('reviewer', 'manage')).toBe(false);
  });

  it('lets an auditor only read and watch', () => {
    expect(mayDo('auditor', 'read')).toBe(true);
    expect(mayDo('auditor', 'watch')).toBe(true);
    for (const action of ['change', 'run', 'review', 'manage'] as const) {
      expect(mayDo('auditor', action), action).toBe(false);
    }
  });

  it('lets no one who is not a member do anything', () => {
    expect(mayDo(null, 'read')).toBe(false);
    expect(mayDo(undefined, 'read')).toBe(false);
  });

  it('offers flow making in a workspace to owners and editors only', () => {
    expect(WORKSPACE_ROLES.filter(mayMakeFlows)).toEqual(['owner', 'editor']);
  });

  it("allows everything on the user's own records and the role's actions on a workspace's", () => {
    const own = recordAccess(null, undefined);
    expect(own('run') && own('change') && own('review')).toBe(true);
    const audited = recordAccess('w1', 'auditor');
    expect([audited('read'), audited('run'), audited('review'), audited('change')]).toEqual([
      true,
      false,
      false,
      false,
    ]);
    const reviewed = recordAccess('w1', 'reviewer');
    expect([reviewed('run'), reviewed('review'), reviewed('change')]).toEqual([false, true, false]);
    // While the role is not known, only reading.
    const unknown = recordAccess('w1', undefined);
    expect([unknown('read'), unknown('run')]).toEqual([true, false]);
  });
});
