import { diffWords } from 'diff';
import type { DiffPart } from '../../../../domain/execution/text-diff';
import { REVIEW_SCORE_NAMES } from '../../../../domain/experiment/review-scores';
import type { CompareCell, CompareRow } from '../api/experiments';

/** What the grid can be narrowed to: a compare flag, or a cell a reviewer edited. */
export const COMPARE_FILTERS = ['regressed', 'improved', 'changed', 'edited', 'missing'] as const;
export type CompareFilter = (typeof COMPARE_FILTERS)[number];

/** A change smaller than this is no change (a mean over repetitions, floating point). */
const EPSILON = 1e-6;

type ScoreRef = { name: string; source: string };

/** Scores where less is better: the review's edits and waiting; every other one is better higher. */
export const lowerIsBetter = (score: ScoreRef) =>
  score.source === 'review' &&
  [REVIEW_SCORE_NAMES.edited, REVIEW_SCORE_NAMES.editDistance, REVIEW_SCORE_NAMES.timeToDecide].includes(
    score.name as never,
  );

/** Whether a delta of this score is for the better, the worse, or no change. */
export function deltaDirection(score: ScoreRef, delta: number): 'better' | 'worse' | 'same' {
  if (Math.abs(delta) <= EPSILON) return 'same';
  const up = delta > 0;
  return up !== lowerIsBetter(score) ? 'better' : 'worse';
}

/** A reviewer changed the text of the cell's step (its `edited` review score is above 0). */
export const wasEdited = (cell: CompareCell) =>
  cell.scores.some(
    (score) =>
      score.source === 'review' &&
      score.name === REVIEW_SCORE_NAMES.edited &&
      typeof score.value === 'number' &&
      score.value > EPSILON,
  );

/** Whether a cell is one the filter looks for. */
export function cellMatches(cell: CompareCell, filter: CompareFilter): boolean {
  return filter === 'edited' ? wasEdited(cell) : cell.flags.includes(filter);
}

/** Whether a row has a cell the filter looks for (the baseline's cells have no flags, but may be edited). */
export const rowMatches = (row: CompareRow, filter: CompareFilter) =>
  row.cells.some((cell) => cellMatches(cell, filter));

/** One dataset item: its whole-run row (if any) and its steps' rows, in the comparison's order. */
export interface ItemRows {
  itemId: string;
  whole: CompareRow | null;
  steps: CompareRow[];
}

/** The comparison's rows grouped by item, items in the order they first appear. */
export function itemsOf(rows: readonly CompareRow[]): ItemRows[] {
  const items = new Map<string, ItemRows>();
  for (const row of rows) {
    let item = items.get(row.itemId);
    if (!item) {
      item = { itemId: row.itemId, whole: null, steps: [] };
      items.set(row.itemId, item);
    }
    if (row.stepId === null) item.whole = row;
    else item.steps.push(row);
  }
  return [...items.values()];
}

const rowsOfItem = (item: ItemRows) => (item.whole ? [item.whole, ...item.steps] : item.steps);

/** Whether an item passes the filters chosen: any of them on any of its rows (none chosen: every item). */
export function itemMatches(item: ItemRows, filters: readonly CompareFilter[]): boolean {
  if (filters.length === 0) return true;
  return rowsOfItem(item).some((row) => filters.some((filter) => rowMatches(row, filter)));
}

/**
 * An item's cell of one experiment, as its collapsed row shows it: the output of its last step (what the flow
 * made), the whole run's scores and the last step's, and the flags of any of its rows.
 */
export function itemCell(item: ItemRows, index: number): CompareCell | null {
  const last = item.steps.at(-1)?.cells[index];
  const whole = item.whole?.cells[index];
  const base = last ?? whole;
  if (!base) return null;
  const flags = [...new Set(rowsOfItem(item).flatMap((row) => row.cells[index]?.flags ?? []))];
  return {
    ...base,
    scores: [...(whole && whole !== base ? whole.scores : []), ...base.scores],
    deltas: { ...(whole && whole !== base ? whole.deltas : {}), ...base.deltas },
    flags,
  };
}

/** A score's value as the grid shows it: a pass share as a percentage (✓ / ✗ when whole), a number rounded. */
export function scoreText(kind: string, value: number | string): string {
  if (typeof value === 'string') return value;
  if (kind === 'boolean') return value === 1 ? '✓' : value === 0 ? '✗' : `${Math.round(value * 100)}%`;
  return Number.isInteger(value) ? String(value) : value.toFixed(2);
}

/** A delta as the grid shows it, with its sign. */
export function deltaText(kind: string, delta: number): string {
  const sign = delta > 0 ? '+' : delta < 0 ? '−' : '±';
  const size = Math.abs(delta);
  return kind === 'boolean'
    ? `${sign}${Math.round(size * 100)}%`
    : `${sign}${Number.isInteger(size) ? size : size.toFixed(2)}`;
}

/** The word diff of an output against the baseline's: what the baseline had struck, what this one has added. */
export function wordDiff(baseline: string, output: string): DiffPart[] {
  return diffWords(baseline, output).map((change) => ({
    kind: change.added ? 'added' : change.removed ? 'removed' : 'same',
    text: change.value,
  }));
}

/** How many buckets a score's distribution is drawn with. */
export const BUCKETS = 5;

export interface Distribution {
  name: string;
  kind: string;
  min: number;
  max: number;
  /** Per experiment (by index), how many cells fall in each bucket. */
  counts: number[][];
}

/**
 * Each number or boolean score's distribution per experiment over every row's cells: buckets between the
 * lowest and the highest value any experiment has (booleans: the pass share, 0 to 1).
 */
export function distributions(rows: readonly CompareRow[], experiments: number): Distribution[] {
  const values = new Map<string, { kind: string; byExperiment: number[][] }>();
  for (const row of rows)
    row.cells.forEach((cell, index) => {
      for (const score of cell.scores) {
        if (typeof score.value !== 'number' || (score.kind !== 'number' && score.kind !== 'boolean'))
          continue;
        let entry = values.get(score.name);
        if (!entry) {
          entry = { kind: score.kind, byExperiment: Array.from({ length: experiments }, () => []) };
          values.set(score.name, entry);
        }
        entry.byExperiment[index]?.push(score.value);
      }
    });
  return [...values].map(([name, { kind, byExperiment }]) => {
    const all = byExperiment.flat();
    const min = kind === 'boolean' ? 0 : Math.min(...all);
    const max = kind === 'boolean' ? 1 : Math.max(...all);
    const width = (max - min) / BUCKETS;
    const bucketOf = (value: number) =>
      width === 0 ? 0 : Math.min(BUCKETS - 1, Math.floor((value - min) / width));
    const counts = byExperiment.map((list) => {
      const buckets = Array.from({ length: BUCKETS }, () => 0);
      for (const value of list) buckets[bucketOf(value)]! += 1;
      return buckets;
    });
    return { name, kind, min, max, counts };
  });
}
