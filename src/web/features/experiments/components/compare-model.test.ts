import { describe, expect, it } from 'vitest';
import type { CompareCell, CompareRow } from '../api/experiments';
import {
  cellMatches,
  deltaDirection,
  deltaText,
  distributions,
  itemCell,
  itemMatches,
  itemsOf,
  scoreText,
  wordDiff,
} from './compare-model';

const cell = (experimentId: string, extra: Partial<CompareCell> = {}): CompareCell => ({
  experimentId,
  repetitions: 1,
  output: null,
  outputs: [],
  reused: false,
  scores: [],
  deltas: {},
  flags: [],
  ...extra,
});

const row = (itemId: string, stepId: string | null, cells: CompareCell[]): CompareRow => ({
  itemId,
  stepId,
  cells,
});

const edited = (value: number) => ({
  name: 'edited',
  source: 'review' as const,
  kind: 'boolean' as const,
  value,
});
const contains = (value: number) => ({
  name: 'contains',
  source: 'code' as const,
  kind: 'boolean' as const,
  value,
});

const ROWS: CompareRow[] = [
  row('i1', 's1', [cell('a', { output: 'one' }), cell('b', { output: 'one' })]),
  row('i1', 's2', [
    cell('a', { output: 'a short post', scores: [contains(1)] }),
    cell('b', {
      output: 'a long post',
      scores: [contains(0), edited(1)],
      deltas: { contains: -1 },
      flags: ['regressed', 'changed'],
    }),
  ]),
  row('i1', null, [
    cell('a', { scores: [{ name: 'len', source: 'code', kind: 'number', value: 3 }] }),
    cell('b'),
  ]),
  row('i2', 's1', [cell('a', { output: 'x' }), cell('b', { flags: ['missing'] })]),
];

describe('the comparison grid', () => {
  it('groups rows by item, the whole run apart from its steps', () => {
    const items = itemsOf(ROWS);
    expect(items.map((item) => [item.itemId, item.whole?.stepId, item.steps.map((s) => s.stepId)])).toEqual([
      ['i1', null, ['s1', 's2']],
      ['i2', undefined, ['s1']],
    ]);
  });

  it("shows an item by its last step's output, with the whole run's scores and every row's flags", () => {
    const [first] = itemsOf(ROWS);
    expect(itemCell(first!, 1)).toMatchObject({
      output: 'a long post',
      flags: ['regressed', 'changed'],
      deltas: { contains: -1 },
    });
    expect(itemCell(first!, 0)?.scores.map((s) => s.name)).toEqual(['len', 'contains']);
  });

  it('filters items by a flag of any row, or by a reviewer edit', () => {
    const [first, second] = itemsOf(ROWS);
    expect(itemMatches(first!, [])).toBe(true);
    expect(itemMatches(first!, ['regressed'])).toBe(true);
    expect(itemMatches(second!, ['regressed'])).toBe(false);
    expect(itemMatches(second!, ['missing'])).toBe(true);
    expect(itemMatches(first!, ['edited'])).toBe(true);
    expect(itemMatches(second!, ['edited', 'improved'])).toBe(false);
    expect(cellMatches(cell('a', { scores: [edited(0)] }), 'edited')).toBe(false);
  });

  it('says a delta is better or worse by the score (fewer edits are better)', () => {
    expect(deltaDirection({ name: 'contains', source: 'code' }, -1)).toBe('worse');
    expect(deltaDirection({ name: 'similarity', source: 'code' }, 0.2)).toBe('better');
    expect(deltaDirection({ name: 'edited', source: 'review' }, 1)).toBe('worse');
    expect(deltaDirection({ name: 'edit_distance', source: 'review' }, -3)).toBe('better');
    expect(deltaDirection({ name: 'len', source: 'code' }, 1e-9)).toBe('same');
    expect(deltaText('boolean', -0.5)).toBe('−50%');
    expect(deltaText('number', 2)).toBe('+2');
    expect(scoreText('boolean', 1)).toBe('✓');
    expect(scoreText('boolean', 0.5)).toBe('50%');
    expect(scoreText('number', 0.123)).toBe('0.12');
  });

  it('diffs an output against the baseline word by word', () => {
    expect(wordDiff('a short post', 'a long post')).toEqual([
      { kind: 'same', text: 'a ' },
      { kind: 'removed', text: 'short' },
      { kind: 'added', text: 'long' },
      { kind: 'same', text: ' post' },
    ]);
  });

  it("counts each number and boolean score's values per experiment in buckets", () => {
    const charts = distributions(ROWS, 2);
    const containsChart = charts.find((chart) => chart.name === 'contains')!;
    expect(containsChart.counts).toEqual([
      [0, 0, 0, 0, 1],
      [1, 0, 0, 0, 0],
    ]);
    expect(charts.find((chart) => chart.name === 'len')!.counts[0]).toEqual([1, 0, 0, 0, 0]);
  });
});
