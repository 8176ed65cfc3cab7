import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  aStep,
  draft,
  executionStarted,
  fold,
  ranStep,
  stepRunStarted,
  stepRunSucceeded,
} from '../../domain/execution/testing';
import type { ExecutionEvent } from '../../domain/execution/types';
import { executionAnswer, stepResultAnswer, stepRunSummaryAnswer } from '../http/answer-schemas';
import { answerOf, stepRunAnswerText, stepRunSummaryText } from './execution-answer';

/** The route's answer schema, serialised the way Fastify's serialiser does with it. */
const routeAnswer = z.object({ execution: executionAnswer, results: z.array(stepResultAnswer) });

const first = aStep(1, { id: '11111111-1111-4111-8111-111111111111' });
const second = aStep(2, { id: '22222222-2222-4222-8222-222222222222' });
const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

function execution() {
  const events: ExecutionEvent[] = [
    executionStarted([first, second], [uuid(1), uuid(2)]),
    // The second step's results recorded before the first's: the answer orders them by step.
    ...ranStep(second, uuid(20), uuid(2), uuid(21), 'second "quoted"\n', '2025-01-02T03:04:06.000Z'),
    stepRunStarted(first, uuid(10), { cacheItemId: uuid(1) }),
    stepRunSucceeded(uuid(10), [draft(uuid(11), 'one'), draft(uuid(12), 'two', { label: 'Branch 2' })]),
  ];
  return { state: fold(events), version: events.length };
}

describe('stepRunAnswerText', () => {
  it('is the JSON the route schema makes of {execution, results}', () => {
    const loaded = execution();
    const results = loaded.state.results.filter((r) => r.runId === uuid(10));
    const text = stepRunAnswerText(loaded, results);
    const expected = JSON.stringify(routeAnswer.parse({ execution: answerOf(loaded), results }));
    expect(text).toBe(expected);
    expect(JSON.parse(text).execution.results.map((r: { result: string }) => r.result)).toEqual([
      'one',
      'two',
      'second "quoted"\n',
    ]);
  });

  it('leaves out what the schema does not name, as the serialiser does', () => {
    const loaded = execution();
    const [run, ...runs] = loaded.state.runs;
    const withExtra = { ...loaded, state: { ...loaded.state, runs: [{ ...run!, secret: 'x' }, ...runs] } };
    const text = stepRunAnswerText(withExtra, []);
    expect(text).not.toContain('secret');
    expect(text).toBe(JSON.stringify(routeAnswer.parse({ execution: answerOf(withExtra), results: [] })));
  });

  it('gives the same text again for the same state, and the new result once the state has it', () => {
    const loaded = execution();
    const again = stepRunAnswerText(loaded, []);
    expect(stepRunAnswerText(loaded, [])).toBe(again);
    const later = fold([stepRunStarted(first, uuid(30), { cacheItemId: uuid(1) })], loaded.state);
    expect(stepRunAnswerText({ state: later, version: 6 }, [])).toBe(
      JSON.stringify(routeAnswer.parse({ execution: answerOf({ state: later, version: 6 }), results: [] })),
    );
  });
});

describe('stepRunSummaryText', () => {
  it("is the JSON the short answer's schema makes of the run's results and where the execution stands", () => {
    const loaded = execution();
    const results = loaded.state.results.filter((r) => r.runId === uuid(10));
    const text = stepRunSummaryText(loaded, results);
    expect(text).toBe(
      JSON.stringify(
        stepRunSummaryAnswer.parse({
          executionId: loaded.state.id,
          version: loaded.version,
          status: loaded.state.status,
          currentStep: loaded.state.currentStep,
          results,
        }),
      ),
    );
    expect(JSON.parse(text)).toMatchObject({ version: 5, results: [{ result: 'one' }, { result: 'two' }] });
  });

  it('carries none of the earlier results and runs, however many there are', () => {
    const loaded = execution();
    const results = loaded.state.results.filter((r) => r.runId === uuid(10));
    const longer = fold(
      Array.from({ length: 50 }, (_, i) =>
        ranStep(second, uuid(100 + 2 * i), uuid(2), uuid(101 + 2 * i), 'x'.repeat(500)),
      ).flat(),
      loaded.state,
    );
    const short = stepRunSummaryText(loaded, results);
    const long = stepRunSummaryText({ state: longer, version: loaded.version + 100 }, results);
    expect(long.length).toBe(short.length + 2);
    expect(long).not.toContain('second "quoted"');
  });
});
