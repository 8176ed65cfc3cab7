import { csvText } from '../csv';
import { REVIEW_SCORE_NAMES } from './review-scores';
import { type JudgeUsage, NO_JUDGE_USAGE, type Score } from './scorer-definitions';

/** One step of one run as the compare view reads it. */
export interface StepOutcome {
  stepId: string;
  /** The step's output (its results' text as the run left it); null when it has none (failed, not reached). */
  output: string | null;
  /** Taken over from another execution rather than run: no cost, tokens or time of this run. */
  reused: boolean;
  /** What the model calls cost, when known. */
  costUsd?: number | undefined;
  inputTokens: number;
  outputTokens: number;
  durationMs: number;
}

/** One (item, repetition) of an experiment: an ordinary execution, its steps and its scores. */
export interface RunOutcome {
  itemId: string;
  repetition: number;
  executionId: string;
  status: string;
  steps: StepOutcome[];
  scores: Score[];
}

export interface ExperimentOutcome {
  experimentId: string;
  runs: RunOutcome[];
  /** What its judges' calls took; none: no judge was asked. */
  judgeUsage?: JudgeUsage | undefined;
}

export const COMPARE_FLAGS = ['regressed', 'improved', 'changed', 'missing'] as const;
export type CompareFlag = (typeof COMPARE_FLAGS)[number];

/** A score of one item and step, its repetitions taken together. */
export interface AveragedScore {
  name: string;
  source: Score['source'];
  kind: Score['kind'];
  /**
   * number: the mean over the repetitions that have it; boolean: the share of the item's repetitions where it
   * is true (0 to 1; a repetition without it counts as not passing); category and text: the most common.
   */
  value: number | string;
}

/** One experiment's side of one item and step. */
export interface CompareCell {
  experimentId: string;
  /** The repetitions of the item this experiment ran. */
  repetitions: number;
  /** The output of the first repetition that has one; null: none has (missing). */
  output: string | null;
  /** Every repetition's output, by repetition (null where it has none). */
  outputs: (string | null)[];
  /**
   * Every repetition took the step's result from its baseline run instead of running it: the baseline's work,
   * so its pass rates leave the row out.
   */
  reused: boolean;
  scores: AveragedScore[];
  /** Each number or boolean score's value minus the baseline's, where both have it (none on the baseline). */
  deltas: Record<string, number>;
  flags: CompareFlag[];
}

/** One item and step (stepId null: the scores of the whole execution), one cell per experiment. */
export interface CompareRow {
  itemId: string;
  stepId: string | null;
  cells: CompareCell[];
}

/** One experiment's figures, over all steps (stepId null) or one step. */
export interface CompareSummary {
  experimentId: string;
  stepId: string | null;
  /** Rows (item × step) compared, and how many of them had no output in this experiment. */
  rows: number;
  missing: number;
  regressed: number;
  improved: number;
  changed: number;
  /**
   * Per boolean score: the share of rows that pass, over every row where any experiment has the score (a
   * row this experiment lacks it counts as not passing: a missing case is not a passing case).
   */
  passRates: Record<string, number>;
  /** Per number score: the mean of the rows' (averaged) values, where this experiment has it. */
  means: Record<string, number>;
  /** Sums over the steps run (reused steps cost nothing); costUsd null when no step reported a cost. */
  costUsd: number | null;
  inputTokens: number;
  outputTokens: number;
  /** Of each step's time (a step summary) or each run's, its steps' times added up (all steps). */
  p50Ms: number | null;
  p95Ms: number | null;
  /** From review scores: share of decided steps edited, words changed, seconds to an approval. */
  editRate: number | null;
  meanEditDistance: number | null;
  meanSecondsToApprove: number | null;
  /**
   * For each run's step with both a boolean judge score and a review decision (`approved`): how many there
   * are, and the share where the judge's verdict is the decision. Null rate: none to compare.
   */
  judgeAgreement: { compared: number; rate: number | null };
  /** Of the whole experiment (stepId null): its judges' calls and tokens, apart from the flow's. */
  judgeUsage: JudgeUsage | null;
}

export interface CompareResult {
  /** The experiments' ids, the baseline first. */
  experimentIds: string[];
  /** Every score name seen, in order of first appearance. */
  scoreNames: string[];
  rows: CompareRow[];
  /** Per experiment: all steps first (stepId null), then each step. */
  summaries: CompareSummary[];
}

/** A difference smaller than this is no difference (floating point, a mean over repetitions). */
export const SCORE_EPSILON = 1e-6;

/**
 * Scores where less is better: the review's edits and waiting. Every other number and boolean score is
 * better higher (a pass, a similarity, a judge's mark).
 */
const LOWER_IS_BETTER = new Set<string>([
  REVIEW_SCORE_NAMES.edited,
  REVIEW_SCORE_NAMES.editDistance,
  REVIEW_SCORE_NAMES.timeToDecide,
]);

export const lowerIsBetter = (score: Pick<Score, 'name' | 'source'>) =>
  score.source === 'review' && LOWER_IS_BETTER.has(score.name);

const keyOf = (itemId: string, stepId: string | null) => JSON.stringify([itemId, stepId]);

/**
 * Experiments side by side, the first the baseline: for each dataset item and step, each experiment's
 * output and scores (repetitions of an item averaged, see AveragedScore), the change of each number and
 * boolean score against the baseline, and flags:
 *
 * - `missing`: the experiment has no output for the item and step (not run, failed, not reached);
 * - `regressed` / `improved`: a score both have moved the worse / better way by more than SCORE_EPSILON
 *   (a pass rate falling is a pass turning into a fail);
 * - `changed`: the output's text is not the baseline's (first repetition with an output each).
 *
 * Rows follow the baseline's order of items and steps, then what only later experiments have.
 */
export function compareExperiments(experiments: readonly ExperimentOutcome[]): CompareResult {
  const order: { itemId: string; stepId: string | null }[] = [];
  const seen = new Set<string>();
  const scoreNames: string[] = [];
  const add = (itemId: string, stepId: string | null) => {
    const key = keyOf(itemId, stepId);
    if (!seen.has(key)) {
      seen.add(key);
      order.push({ itemId, stepId });
    }
  };
  for (const experiment of experiments)
    for (const run of runsInOrder(experiment.runs)) {
      for (const step of run.steps) add(run.itemId, step.stepId);
      for (const score of run.scores) {
        add(run.itemId, score.target === 'execution' ? null : score.stepId);
        if (!scoreNames.includes(score.name)) scoreNames.push(score.name);
      }
    }

  const rows: CompareRow[] = order.map(({ itemId, stepId }) => {
    const cells = experiments.map((experiment) => cellOf(experiment, itemId, stepId));
    const [baseline] = cells;
    return { itemId, stepId, cells: cells.map((cell, i) => (i === 0 ? cell : against(cell, baseline!))) };
  });

  const stepIds = [...new Set(order.map((row) => row.stepId).filter((id): id is string => id !== null))];
  const summaries = experiments.flatMap((experiment, index) =>
    [null, ...stepIds].map((stepId) => summaryOf(experiment, index, stepId, rows)),
  );
  return { experimentIds: experiments.map((e) => e.experimentId), scoreNames, rows, summaries };
}

const runsInOrder = (runs: readonly RunOutcome[]) => [...runs].sort((a, b) => a.repetition - b.repetition);

function cellOf(experiment: ExperimentOutcome, itemId: string, stepId: string | null): CompareCell {
  const runs = runsInOrder(experiment.runs.filter((run) => run.itemId === itemId));
  const outputs = runs.map((run) =>
    stepId === null ? null : (run.steps.find((s) => s.stepId === stepId)?.output ?? null),
  );
  const output = outputs.find((o) => o !== null) ?? null;
  const scoresOf = (run: RunOutcome) =>
    run.scores.filter((s) => (stepId === null ? s.target === 'execution' : s.stepId === stepId));
  const byName = new Map<string, Score[]>();
  for (const run of runs)
    for (const score of scoresOf(run)) byName.set(score.name, [...(byName.get(score.name) ?? []), score]);
  const scores = [...byName].map(([name, all]) => averaged(name, all, runs.length));
  // The execution's own row is missing only when the item was not run at all.
  const missing = stepId === null ? runs.length === 0 : output === null;
  const reused =
    stepId !== null &&
    runs.length > 0 &&
    runs.every((run) => run.steps.find((s) => s.stepId === stepId)?.reused === true);
  return {
    experimentId: experiment.experimentId,
    repetitions: runs.length,
    output,
    outputs,
    reused,
    scores,
    deltas: {},
    flags: missing ? ['missing'] : [],
  };
}

function averaged(name: string, scores: Score[], repetitions: number): AveragedScore {
  const [first] = scores;
  const { source, kind } = first!;
  if (kind === 'number') {
    const numbers = scores.map((s) => Number(s.value)).filter(Number.isFinite);
    return { name, source, kind, value: mean(numbers) ?? 0 };
  }
  if (kind === 'boolean')
    return { name, source, kind, value: scores.filter((s) => s.value === true).length / repetitions };
  const counts = new Map<string, number>();
  for (const s of scores) counts.set(String(s.value), (counts.get(String(s.value)) ?? 0) + 1);
  const [common] = [...counts].reduce((best, next) => (next[1] > best[1] ? next : best));
  return { name, source, kind, value: common };
}

/** The cell with its deltas against the baseline's, and its flags. */
function against(cell: CompareCell, baseline: CompareCell): CompareCell {
  const deltas: Record<string, number> = {};
  let regressed = false;
  let improved = false;
  for (const score of cell.scores) {
    if (score.kind !== 'number' && score.kind !== 'boolean') continue;
    const base = baseline.scores.find((b) => b.name === score.name && b.kind === score.kind);
    if (!base) continue;
    const delta = Number(score.value) - Number(base.value);
    deltas[score.name] = delta;
    const better = lowerIsBetter(score) ? -delta : delta;
    if (better < -SCORE_EPSILON) regressed = true;
    if (better > SCORE_EPSILON) improved = true;
  }
  const flags: CompareFlag[] = [...cell.flags];
  if (regressed) flags.push('regressed');
  if (improved) flags.push('improved');
  if (cell.output !== null && baseline.output !== null && cell.output !== baseline.output)
    flags.push('changed');
  return { ...cell, deltas, flags };
}

function summaryOf(
  experiment: ExperimentOutcome,
  index: number,
  stepId: string | null,
  rows: readonly CompareRow[],
): CompareSummary {
  const mine = rows.filter((row) => stepId === null || row.stepId === stepId);
  const cells = mine.map((row) => row.cells[index]!);
  const count = (flag: CompareFlag) => cells.filter((cell) => cell.flags.includes(flag)).length;

  const passRates: Record<string, number> = {};
  const means: Record<string, number> = {};
  const booleanNames = new Set<string>();
  const numberNames = new Set<string>();
  for (const row of mine)
    for (const cell of row.cells)
      for (const score of cell.scores) {
        if (score.kind === 'boolean') booleanNames.add(score.name);
        if (score.kind === 'number') numberNames.add(score.name);
      }
  for (const name of booleanNames) {
    // A row whose step this experiment reused is the baseline's work, not its own: left out of its rate.
    const rowsWith = mine.filter(
      (row) =>
        !row.cells[index]!.reused &&
        row.cells.some((cell) => cell.scores.some((s) => s.name === name && s.kind === 'boolean')),
    );
    if (rowsWith.length === 0) continue;
    const passed = rowsWith.reduce((sum, row) => {
      const score = row.cells[index]!.scores.find((s) => s.name === name && s.kind === 'boolean');
      return sum + (score ? Number(score.value) : 0);
    }, 0);
    passRates[name] = passed / rowsWith.length;
  }
  for (const name of numberNames) {
    const values = cells.flatMap((cell) =>
      cell.scores.filter((s) => s.name === name && s.kind === 'number').map((s) => Number(s.value)),
    );
    const m = mean(values);
    if (m !== null) means[name] = m;
  }

  const steps = experiment.runs.flatMap((run) =>
    run.steps.filter((s) => !s.reused && (stepId === null || s.stepId === stepId)),
  );
  const costs = steps.flatMap((s) => (s.costUsd === undefined ? [] : [s.costUsd]));
  const times =
    stepId === null
      ? experiment.runs
          .filter((run) => run.steps.some((s) => !s.reused))
          .map((run) => run.steps.reduce((sum, s) => sum + (s.reused ? 0 : s.durationMs), 0))
      : steps.map((s) => s.durationMs);

  const reviewed = experiment.runs.flatMap((run) =>
    run.scores.filter(
      (s) => s.source === 'review' && s.target === 'step' && (stepId === null || s.stepId === stepId),
    ),
  );
  const reviewValues = (name: string) =>
    reviewed
      .filter((s) => s.name === name)
      .map((s) => (typeof s.value === 'boolean' ? Number(s.value) : s.value));
  const numbers = (values: (number | string)[]) => values.filter((v): v is number => typeof v === 'number');
  const approvedSeconds = experiment.runs.flatMap((run) =>
    run.scores.filter(
      (s) =>
        s.source === 'review' &&
        s.name === REVIEW_SCORE_NAMES.timeToDecide &&
        (stepId === null || s.stepId === stepId) &&
        typeof s.value === 'number' &&
        run.scores.some(
          (d) =>
            d.source === 'review' &&
            d.name === REVIEW_SCORE_NAMES.approved &&
            d.stepId === s.stepId &&
            d.value === true,
        ),
    ),
  );

  return {
    experimentId: experiment.experimentId,
    stepId,
    rows: cells.length,
    missing: count('missing'),
    regressed: count('regressed'),
    improved: count('improved'),
    changed: count('changed'),
    passRates,
    means,
    costUsd: costs.length > 0 ? costs.reduce((a, b) => a + b, 0) : null,
    inputTokens: steps.reduce((sum, s) => sum + s.inputTokens, 0),
    outputTokens: steps.reduce((sum, s) => sum + s.outputTokens, 0),
    p50Ms: percentile(times, 50),
    p95Ms: percentile(times, 95),
    editRate: mean(numbers(reviewValues(REVIEW_SCORE_NAMES.edited))),
    meanEditDistance: mean(numbers(reviewValues(REVIEW_SCORE_NAMES.editDistance))),
    meanSecondsToApprove: mean(approvedSeconds.map((s) => Number(s.value))),
    judgeAgreement: agreement(experiment.runs, stepId),
    judgeUsage: stepId === null ? (experiment.judgeUsage ?? NO_JUDGE_USAGE) : null,
  };
}

/** Judge against people: each boolean judge score of a run's step that also has a review decision. */
function agreement(runs: readonly RunOutcome[], stepId: string | null): CompareSummary['judgeAgreement'] {
  let compared = 0;
  let agreed = 0;
  for (const run of runs)
    for (const judge of run.scores) {
      if (judge.source !== 'judge' || judge.kind !== 'boolean' || judge.stepId === null) continue;
      if (stepId !== null && judge.stepId !== stepId) continue;
      const decision = run.scores.find(
        (s) =>
          s.source === 'review' &&
          s.name === REVIEW_SCORE_NAMES.approved &&
          s.stepId === judge.stepId &&
          typeof s.value === 'boolean',
      );
      if (!decision) continue;
      compared++;
      if (decision.value === judge.value) agreed++;
    }
  return { compared, rate: compared === 0 ? null : agreed / compared };
}

const mean = (values: readonly number[]): number | null =>
  values.length === 0 ? null : values.reduce((a, b) => a + b, 0) / values.length;

/**
 * The most characters of outputs one page of a comparison's rows holds: a page ends before the row that would
 * pass it (a row holds each experiment's output of every repetition, each up to MAX_TEXT_CHARS), though it
 * always holds one row, whatever that row's size.
 */
export const COMPARE_PAGE_MAX_CHARS = 5_000_000;

/** How many of the rows from `from` one page holds: at most `limit`, and within `maxChars` of outputs. */
export function rowsInPage(
  rows: readonly CompareRow[],
  from: number,
  limit: number,
  maxChars = COMPARE_PAGE_MAX_CHARS,
): number {
  let chars = 0;
  let count = 0;
  for (const row of rows.slice(from, from + limit)) {
    const size = row.cells.reduce(
      (sum, cell) =>
        sum + (cell.output?.length ?? 0) + cell.outputs.reduce((each, text) => each + (text?.length ?? 0), 0),
      0,
    );
    if (count > 0 && chars + size > maxChars) break;
    chars += size;
    count += 1;
  }
  return count;
}

/** The nearest-rank percentile (the smallest value with p% of the values at or below it); null of none. */
export function percentile(values: readonly number[], p: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1]!;
}

/**
 * The grid as CSV (RFC 4180, CRLF line ends): one line per item, step and experiment, with its flags, its
 * output (first repetition) and each score with its change against the baseline. Every text cell is
 * escaped against spreadsheet formulas (csvField), model outputs being anyone's text.
 */
export function compareToCsv(result: CompareResult): string {
  const header = [
    'item_id',
    'step_id',
    'experiment_id',
    'baseline',
    'repetitions',
    'flags',
    'output',
    ...result.scoreNames.flatMap((name) => [name, `${name} Δ`]),
  ];
  const lines = result.rows.flatMap((row) =>
    row.cells.map((cell, i) => [
      row.itemId,
      row.stepId,
      cell.experimentId,
      i === 0 ? 'yes' : 'no',
      cell.repetitions,
      cell.flags.join(' '),
      cell.output,
      ...result.scoreNames.flatMap((name) => [
        cell.scores.find((s) => s.name === name)?.value ?? null,
        cell.deltas[name] ?? null,
      ]),
    ]),
  );
  return csvText([header, ...lines]);
}
