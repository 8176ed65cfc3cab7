import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseCsv, startsFormula } from '../csv';
import {
  type CompareResult,
  type CompareRow,
  compareExperiments,
  compareToCsv,
  type ExperimentOutcome,
  percentile,
  type RunOutcome,
  rowsInPage,
  type StepOutcome,
} from './compare';
import type { Score } from './scorer-definitions';

const stepOf = (stepId: string, output: string | null, fields: Partial<StepOutcome> = {}): StepOutcome => ({
  stepId,
  output,
  reused: false,
  inputTokens: 10,
  outputTokens: 5,
  durationMs: 100,
  ...fields,
});

const scoreOf = (
  executionId: string,
  stepId: string | null,
  name: string,
  value: Score['value'],
  source: Score['source'] = 'code',
): Score => ({
  target: stepId === null ? 'execution' : 'step',
  executionId,
  stepId,
  name,
  kind: typeof value === 'boolean' ? 'boolean' : typeof value === 'number' ? 'number' : 'category',
  value,
  source,
  by: source === 'code' ? 'equals' : 'user-2',
  comment: null,
});

/** A run of `itemId` whose step s1 gave `output`, with scores of s1 given as name → value. */
function runOf(
  itemId: string,
  output: string | null,
  scores: Record<string, Score['value']> = {},
  fields: Partial<RunOutcome> = {},
): RunOutcome {
  const executionId = `${itemId}-${fields.repetition ?? 1}-${output}`;
  return {
    itemId,
    repetition: 1,
    executionId,
    status: output === null ? 'failed' : 'completed',
    steps: [stepOf('s1', output)],
    scores: Object.entries(scores).map(([name, value]) =>
      scoreOf(
        executionId,
        's1',
        name,
        value,
        ['approved', 'edited', 'edit_distance'].includes(name) ? 'review' : 'code',
      ),
    ),
    ...fields,
  };
}

const cellsOf = (result: CompareResult, itemId: string, stepId: string | null = 's1') =>
  result.rows.find((row) => row.itemId === itemId && row.stepId === stepId)!.cells;

describe('compareExperiments', () => {
  it('flags a pass turned fail as regressed, a changed text as changed, with the deltas', () => {
    const result = compareExperiments([
      { experimentId: 'base', runs: [runOf('i1', 'Paris', { equals: true, similarity: 0.9 })] },
      { experimentId: 'new', runs: [runOf('i1', 'Lyon', { equals: false, similarity: 0.95 })] },
    ]);
    const [base, next] = cellsOf(result, 'i1');
    expect(base).toMatchObject({ output: 'Paris', flags: [], deltas: {} });
    expect(next).toMatchObject({ output: 'Lyon', deltas: { equals: -1 } });
    expect(next!.deltas.similarity).toBeCloseTo(0.05);
    // Both ways at once: one score fell, another rose.
    expect(next!.flags).toEqual(['regressed', 'improved', 'changed']);
    expect(result.scoreNames).toEqual(['equals', 'similarity']);
  });

  it('reads fewer edits and less waiting as better', () => {
    const result = compareExperiments([
      { experimentId: 'base', runs: [runOf('i1', 'x', { edited: true, edit_distance: 12 })] },
      { experimentId: 'new', runs: [runOf('i1', 'x', { edited: false, edit_distance: 0 })] },
    ]);
    expect(cellsOf(result, 'i1')[1]).toMatchObject({
      flags: ['improved'],
      deltas: { edited: -1, edit_distance: -12 },
    });
  });

  it('ignores differences within the epsilon', () => {
    const result = compareExperiments([
      { experimentId: 'base', runs: [runOf('i1', 'x', { similarity: 0.1 + 0.2 })] },
      { experimentId: 'new', runs: [runOf('i1', 'x', { similarity: 0.3 })] },
    ]);
    expect(cellsOf(result, 'i1')[1]!.flags).toEqual([]);
  });

  it('flags an item an experiment has no output for as missing, and counts it as not passing', () => {
    const result = compareExperiments([
      {
        experimentId: 'base',
        runs: [runOf('i1', 'a', { equals: true }), runOf('i2', 'b', { equals: true })],
      },
      { experimentId: 'new', runs: [runOf('i1', 'a', { equals: true }), runOf('i2', null)] },
      { experimentId: 'none', runs: [runOf('i1', 'a', { equals: true })] },
    ]);
    expect(cellsOf(result, 'i2').map((c) => c.flags)).toEqual([[], ['missing'], ['missing']]);
    const overall = (id: string) => result.summaries.find((s) => s.experimentId === id && s.stepId === null)!;
    expect(overall('base').passRates).toEqual({ equals: 1 });
    expect(overall('new').passRates).toEqual({ equals: 0.5 });
    expect(overall('none')).toMatchObject({ passRates: { equals: 0.5 }, missing: 1, rows: 2 });
  });

  it('averages repetitions: the share of passing runs, the mean of numbers', () => {
    const result = compareExperiments([
      {
        experimentId: 'base',
        runs: [
          runOf('i1', 'a', { equals: true, similarity: 0.5 }, { repetition: 1 }),
          runOf('i1', 'b', { equals: false, similarity: 1 }, { repetition: 2 }),
          // A repetition that failed has no score: not a pass.
          runOf('i1', null, {}, { repetition: 3 }),
        ],
      },
    ]);
    const [cell] = cellsOf(result, 'i1');
    expect(cell).toMatchObject({ repetitions: 3, output: 'a', outputs: ['a', 'b', null] });
    expect(cell!.scores).toEqual([
      { name: 'equals', source: 'code', kind: 'boolean', value: 1 / 3 },
      { name: 'similarity', source: 'code', kind: 'number', value: 0.75 },
    ]);
  });

  it('keeps scores of the whole execution in a row of their own', () => {
    const run = runOf('i1', 'a');
    run.scores.push(scoreOf(run.executionId, null, 'overall', 4));
    const result = compareExperiments([{ experimentId: 'base', runs: [run] }]);
    expect(cellsOf(result, 'i1', null)[0]!.scores).toEqual([
      { name: 'overall', source: 'code', kind: 'number', value: 4 },
    ]);
    expect(cellsOf(result, 'i1', null)[0]!.flags).toEqual([]);
  });

  it("leaves a step it reused out of its own pass rates: that result is the baseline's work", () => {
    const reviewed = (executionId: string) => scoreOf(executionId, 's1', 'approved', true, 'review');
    const base: ExperimentOutcome = {
      experimentId: 'base',
      runs: [{ ...runOf('a', 'same'), scores: [reviewed('a-1-same')] }],
    };
    const reusing: ExperimentOutcome = {
      experimentId: 'new',
      runs: [{ ...runOf('a', 'same'), steps: [stepOf('s1', 'same', { reused: true })] }],
    };
    const result = compareExperiments([base, reusing]);
    const cells = result.rows.find((row) => row.stepId === 's1')!.cells;
    expect(cells.map((cell) => cell.reused)).toEqual([false, true]);
    expect(cells[1]!.flags).toEqual([]);
    const overall = (id: string) => result.summaries.find((x) => x.experimentId === id && x.stepId === null)!;
    expect(overall('base').passRates).toEqual({ approved: 1 });
    expect(overall('new').passRates).toEqual({});
  });

  it('sums cost and tokens of the steps run (not reused) and takes p50 and p95 of times', () => {
    const runs: RunOutcome[] = Array.from({ length: 20 }, (_, i) => ({
      ...runOf(`i${i}`, 'x'),
      steps: [
        stepOf('s0', 'reused', { reused: true, costUsd: 5, inputTokens: 1000, durationMs: 9999 }),
        stepOf('s1', 'x', { costUsd: 0.01, durationMs: (i + 1) * 10 }),
      ],
    }));
    const result = compareExperiments([{ experimentId: 'base', runs }]);
    const s1 = result.summaries.find((s) => s.stepId === 's1')!;
    expect(s1.costUsd).toBeCloseTo(0.2);
    expect(s1).toMatchObject({ inputTokens: 200, outputTokens: 100, p50Ms: 100, p95Ms: 190 });
    expect(result.summaries.find((s) => s.stepId === 's0')).toMatchObject({
      costUsd: null,
      inputTokens: 0,
      p50Ms: null,
    });
    expect(result.summaries.find((s) => s.stepId === null)).toMatchObject({ p50Ms: 100, p95Ms: 190 });
  });

  it('sums up the reviews: edit rate, words changed, seconds to an approval, judge agreement', () => {
    const reviewed = (itemId: string, approved: boolean, judge: boolean, edits: number, seconds: number) => {
      const run = runOf(itemId, 'x', { approved, edited: edits > 0, edit_distance: edits });
      run.scores.push(
        scoreOf(run.executionId, 's1', 'time_to_decide_seconds', seconds, 'review'),
        scoreOf(run.executionId, 's1', 'polite', judge, 'judge'),
      );
      return run;
    };
    const result = compareExperiments([
      {
        experimentId: 'base',
        runs: [
          reviewed('i1', true, true, 0, 30),
          reviewed('i2', true, false, 4, 90),
          reviewed('i3', false, false, 2, 600),
          reviewed('i4', false, true, 0, 10),
        ],
      },
    ]);
    expect(result.summaries.find((s) => s.stepId === null)).toMatchObject({
      editRate: 0.5,
      meanEditDistance: 1.5,
      meanSecondsToApprove: 60,
      judgeAgreement: { compared: 4, rate: 0.5 },
    });
  });

  it('finds nothing moved when an experiment is compared with itself, and swaps regressed and improved', () => {
    const value = fc.oneof(fc.boolean(), fc.double({ min: 0, max: 1, noNaN: true }));
    const experiment = fc
      .array(
        fc.record({
          output: fc.option(fc.constantFrom('a', 'b', 'c')),
          scores: fc.dictionary(fc.constantFrom('equals', 'similarity', 'edited'), value),
        }),
        { minLength: 1, maxLength: 6 },
      )
      .map((items) => items.map((item, i) => runOf(`i${i}`, item.output, item.scores)));
    fc.assert(
      fc.property(experiment, experiment, (a, b) => {
        const self = compareExperiments([
          { experimentId: 'a', runs: a },
          { experimentId: 'a2', runs: a },
        ]);
        for (const row of self.rows) {
          expect(row.cells[1]!.flags.filter((f) => f !== 'missing')).toEqual([]);
          expect(Object.values(row.cells[1]!.deltas).every((d) => d === 0)).toBe(true);
        }
        const ab = compareExperiments([
          { experimentId: 'a', runs: a },
          { experimentId: 'b', runs: b },
        ]);
        const ba = compareExperiments([
          { experimentId: 'b', runs: b },
          { experimentId: 'a', runs: a },
        ]);
        for (const row of ab.rows) {
          const other = ba.rows.find((r) => r.itemId === row.itemId && r.stepId === row.stepId)!;
          const flags = row.cells[1]!.flags;
          const swapped = other.cells[1]!.flags;
          expect(flags.includes('regressed')).toBe(swapped.includes('improved'));
          expect(flags.includes('improved')).toBe(swapped.includes('regressed'));
          expect(flags.includes('changed')).toBe(swapped.includes('changed'));
        }
      }),
    );
  });
});

describe('percentile', () => {
  it('is the nearest rank', () => {
    expect(percentile([], 50)).toBeNull();
    expect(percentile([5], 95)).toBe(5);
    expect(percentile([3, 1, 2, 4], 50)).toBe(2);
    expect(percentile([1, 2, 3, 4], 95)).toBe(4);
  });
});

describe('compareToCsv', () => {
  it('writes one line per item, step and experiment, escaping formulas, quotes and line breaks', () => {
    const experiments: ExperimentOutcome[] = [
      { experimentId: 'base', runs: [runOf('i1', '=HYPERLINK("http://x")', { equals: true })] },
      { experimentId: 'new', runs: [runOf('i1', 'line one,\nline "two"', { equals: false })] },
    ];
    expect(compareToCsv(compareExperiments(experiments))).toBe(
      'item_id,step_id,experiment_id,baseline,repetitions,flags,output,equals,equals Δ\r\n' +
        `i1,s1,base,yes,1,,"'=HYPERLINK(""http://x"")",1,\r\n` +
        'i1,s1,new,no,1,regressed changed,"line one,\nline ""two""",0,-1\r\n',
    );
  });

  it('neutralises every cell that would start a formula, ids included', () => {
    const csv = compareToCsv(
      compareExperiments([{ experimentId: '@base', runs: [runOf('+item', '-1', { '=score': 1 })] }]),
    );
    expect(csv).toContain(`"'+item",s1,"'@base",yes,1,,"'-1",1,`);
    expect(csv.split('\r\n')[0]).toContain(`"'=score","'=score Δ"`);
  });

  it('reads back, by an RFC 4180 reader, as the outputs with formulas made text', () => {
    const output = fc.string({
      unit: fc.constantFrom('a', ',', '"', '\n', '\r', '=', '+', '-', '@', '\t', ' '),
    });
    fc.assert(
      fc.property(fc.array(fc.option(output), { minLength: 1, maxLength: 5 }), (outputs) => {
        const runs = outputs.map((o, i) => runOf(`i${i}`, o, { equals: i % 2 === 0 }));
        const result = compareExperiments([{ experimentId: 'base', runs }]);
        const table = parseCsv(compareToCsv(result)).map((record) => record.fields);
        expect(table).toHaveLength(outputs.length + 1);
        expect(new Set(table.map((row) => row.length))).toEqual(new Set([table[0]!.length]));
        outputs.forEach((o, i) => {
          const expected = o === null ? '' : startsFormula(o) ? `'${o}` : o;
          expect(table[i + 1]![6]).toBe(expected);
        });
      }),
    );
  });
});

describe('rowsInPage', () => {
  const row = (chars: number): CompareRow => ({
    itemId: 'i',
    stepId: 's',
    cells: [
      {
        experimentId: 'x',
        repetitions: 1,
        output: 'a'.repeat(chars),
        outputs: ['a'.repeat(chars)],
        reused: false,
        scores: [],
        deltas: {},
        flags: [],
      },
    ],
  });

  it('holds at most limit rows, and ends before the row that would pass the characters allowed', () => {
    const rows = [row(10), row(10), row(10), row(10)];
    expect(rowsInPage(rows, 0, 3, 1_000)).toBe(3);
    expect(rowsInPage(rows, 2, 3, 1_000)).toBe(2);
    // Each row is its output and its one repetition's: 20 characters.
    expect(rowsInPage(rows, 0, 4, 50)).toBe(2);
    expect(rowsInPage(rows, 0, 4, 40)).toBe(2);
    expect(rowsInPage(rows, 0, 4, 39)).toBe(1);
  });

  it('holds one row at least, however long', () => {
    expect(rowsInPage([row(1_000), row(1)], 0, 50, 10)).toBe(1);
    expect(rowsInPage([], 0, 50, 10)).toBe(0);
  });
});
