import { describe, expect, it } from 'vitest';
import { aFlowStep } from '../../../../../domain/execution/testing';
import type { Step } from '../../../../../domain/flow';
import { compareVersions, type VersionContent } from './version-comparison';

const FLOW = { name: 'Blog', description: 'Ideas, then a post', status: 'draft' };

const step = (id: string, order: number, fields: Partial<Step> = {}): Step =>
  aFlowStep(order, { id, name: `Step ${id}`, systemPrompt: `Prompt of ${id}`, ...fields });

const version = (steps: Step[], flow: Partial<VersionContent['flow']> = {}): VersionContent => ({
  flow: { ...FLOW, ...flow },
  steps,
});

describe('compareVersions', () => {
  it('finds nothing between a version and itself', () => {
    const v = version([step('a', 1), step('b', 2)]);
    const comparison = compareVersions(v, v);
    expect(comparison.changed).toBe(false);
    expect(comparison.steps.map((s) => [s.step.id, s.kind])).toEqual([
      ['a', 'unchanged'],
      ['b', 'unchanged'],
    ]);
    expect(comparison.steps.every((s) => s.promptDiff === null)).toBe(true);
  });

  it("gives a changed prompt's removed and added words", () => {
    const before = version([step('a', 1, { systemPrompt: 'Write a short poem about tea.' })]);
    const after = version([step('a', 1, { systemPrompt: 'Write a long essay about tea.' })]);
    const [only] = compareVersions(before, after).steps;
    expect(only!.kind).toBe('changed');
    const removed = only!.promptDiff!.filter((p) => p.kind === 'removed').map((p) => p.text);
    const added = only!.promptDiff!.filter((p) => p.kind === 'added').map((p) => p.text);
    expect(removed.join('')).toContain('short poem');
    expect(added.join('')).toContain('long essay');
    expect(only!.renamedFrom).toBeNull();
    expect(only!.fields).toEqual([]);
  });

  it('names added, removed, renamed and moved steps, and other settings that changed', () => {
    const before = version([step('a', 1), step('b', 2), step('c', 3)]);
    const after = version([
      step('c', 1, { name: 'Tiêu đề', outputMode: 'multiple' }),
      step('a', 2),
      step('d', 3, { systemPrompt: 'New' }),
    ]);
    const { steps, changed } = compareVersions(before, after);
    expect(changed).toBe(true);
    expect(steps.map((s) => [s.step.id, s.kind])).toEqual([
      ['c', 'changed'],
      ['b', 'removed'],
      ['a', 'changed'],
      ['d', 'added'],
    ]);
    const [c, b, a, d] = steps;
    expect(c).toMatchObject({
      renamedFrom: 'Step c',
      movedFrom: 3,
      fields: ['outputMode'],
      promptDiff: null,
    });
    expect(a).toMatchObject({ renamedFrom: null, movedFrom: 1, fields: [] });
    expect(b!.promptDiff).toEqual([{ kind: 'removed', text: 'Prompt of b' }]);
    expect(d!.promptDiff).toEqual([{ kind: 'added', text: 'New' }]);
  });

  it("compares the flow's name, status and description", () => {
    const comparison = compareVersions(
      version([]),
      version([], { name: 'Tea blog', status: 'active', description: 'Ideas, then two posts' }),
    );
    expect(comparison.name).toEqual({ before: 'Blog', after: 'Tea blog' });
    expect(comparison.status).toEqual({ before: 'draft', after: 'active' });
    expect(comparison.description?.filter((p) => p.kind === 'added').map((p) => p.text)).toEqual([
      'two posts',
    ]);
    expect(comparison.changed).toBe(true);
  });
});
