import { describe, expect, it } from 'vitest';
import { ExecutionViewCache } from './execution-view-cache';

/** A kept view whose version is the one in its JSON text. */
const view = (body: string) => ({ body, version: Number(/"version":(\d+)/.exec(body)?.[1] ?? 0) });

describe('ExecutionViewCache', () => {
  it('keeps a view for its owner only, until its execution changes', () => {
    const views = new ExecutionViewCache();
    views.remember('e1', 'alice', views.ticket(), view('{"version":3}'));
    expect(views.get('e1', 'alice')).toEqual(view('{"version":3}'));
    expect(views.get('e1', 'bob')).toBeUndefined();
    views.invalidate('e1');
    expect(views.get('e1', 'alice')).toBeUndefined();
  });

  it('never keeps a read that began before a change of its execution', () => {
    const views = new ExecutionViewCache();
    const before = views.ticket();
    views.invalidate('e1');
    views.remember('e1', 'alice', before, view('{"version":3}'));
    expect(views.get('e1', 'alice')).toBeUndefined();
    const after = views.ticket();
    views.remember('e1', 'alice', after, view('{"version":4}'));
    expect(views.get('e1', 'alice')).toEqual(view('{"version":4}'));
  });

  it('a change of another execution does not matter', () => {
    const views = new ExecutionViewCache();
    const ticket = views.ticket();
    views.invalidate('e2');
    views.remember('e1', 'alice', ticket, view('{}'));
    expect(views.get('e1', 'alice')).toEqual(view('{}'));
  });
});
