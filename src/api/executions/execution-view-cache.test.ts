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

describe('ExecutionViewCache limits', () => {
  it('holds at most its characters in all, the oldest going first, and never a view too large', () => {
    const sized = (characters: number) => view(`{"version":1,"text":"${'x'.repeat(characters - 25)}"}`);
    const views = new ExecutionViewCache(300, 150);
    for (const id of ['e1', 'e2', 'e3']) views.remember(id, 'alice', views.ticket(), sized(100));
    views.remember('e4', 'alice', views.ticket(), sized(100));
    expect(['e1', 'e2', 'e3', 'e4'].filter((id) => views.get(id, 'alice'))).toEqual(['e2', 'e3', 'e4']);
    views.remember('e5', 'alice', views.ticket(), sized(200));
    expect(views.get('e5', 'alice')).toBeUndefined();
    // A newer view too large to keep drops the older one.
    views.remember('e2', 'alice', views.ticket(), sized(200));
    expect(views.get('e2', 'alice')).toBeUndefined();
    expect(['e3', 'e4'].filter((id) => views.get(id, 'alice'))).toEqual(['e3', 'e4']);
  });
});
