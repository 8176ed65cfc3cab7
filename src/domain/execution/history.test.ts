import { describe, expect, it } from 'vitest';
// The real catalogue, so these tests read the words the History screen shows.
import { history } from '../../web/lib/strings';
import { decider } from './decider';
import { describeEvent, statesAlong } from './history';
import { aStep, draft, executionStarted, fold, ranStep, stepRunStarted, stepRunSucceeded } from './testing';
import type { ExecutionEvent, ExecutionState } from './types';

const words = history.words;
const ideas = aStep(1, { name: 'Ý tưởng', outputMode: 'multiple' });
const draftStep = aStep(2, { name: 'Bản nháp' });
const started = executionStarted([ideas, draftStep], ['c1', 'c2']);
const ideasRun: ExecutionEvent[] = [
  stepRunStarted(ideas, 'run-1', { cacheItemId: 'c1' }),
  stepRunSucceeded('run-1', [draft('r1', 'First idea'), draft('r2', 'Second idea', { label: 'Branch 2' })]),
];

const describedAfter = (events: ExecutionEvent[], event: ExecutionEvent, actor: string | null = 'An') =>
  describeEvent(event, fold(events), words, actor);

describe('describeEvent: every event in plain words', () => {
  it('ExecutionStarted names who started it and the steps', () => {
    expect(describeEvent(started, decider.initialState(), words, 'An')).toEqual({
      title: 'Execution bắt đầu bởi An',
      detail: 'Step 1 (Ý tưởng), Step 2 (Bản nháp)',
      diff: null,
    });
  });

  it('StepsSynced lists the steps as they now are', () => {
    const synced: ExecutionEvent = {
      type: 'StepsSynced',
      data: { steps: [ideas, draftStep, aStep(3, { name: 'Tiêu đề' })], cacheItemIds: ['c3'], at: 'x' },
    };
    expect(describedAfter([started], synced)).toMatchObject({
      title: 'Các step của flow đã thay đổi',
      detail: 'Step 1 (Ý tưởng), Step 2 (Bản nháp), Step 3 (Tiêu đề)',
    });
  });

  it('ResultsReused names the steps taken over and the execution they came from', () => {
    const reused: ExecutionEvent = {
      type: 'ResultsReused',
      data: {
        sourceExecutionId: 'execution-0',
        sourceStartedAt: '2025-01-01T03:00:00.000Z',
        fromStepId: draftStep.id,
        stepIds: [ideas.id],
        results: [
          {
            resultId: 'r9',
            sourceResultId: 'r1',
            sourceRunId: 'run-1',
            stepId: ideas.id,
            stepOrder: 1,
            label: 'Branch 1',
            branchName: null,
            branchPath: null,
            choiceIndex: null,
            loopIteration: null,
            content: 'First idea',
          },
        ],
        at: 'x',
      },
    };
    expect(describedAfter([started], reused)).toEqual({
      title: `Dùng lại kết quả đã approve của Step 1 (Ý tưởng) từ execution lúc ${new Date('2025-01-01T03:00:00.000Z').toLocaleString('vi-VN')}`,
      detail: "'Branch 1'",
      diff: null,
    });
  });

  it('StepRunStarted quotes the input and names the model and where its key came from', () => {
    const run = stepRunStarted(draftStep, 'run-2', { cacheItemId: 'c2' });
    if (run.type !== 'StepRunStarted') throw new Error('unexpected');
    run.data.userInput = 'Viết về   trà\nxanh';
    run.data.model = 'gemini-2.5-flash';
    run.data.keySource = 'own';
    expect(describedAfter([started, ...ideasRun], run)).toEqual({
      title: "Step 2 (Bản nháp) bắt đầu chạy với input 'Viết về trà xanh'",
      detail: 'Model gemini-2.5-flash · API key của bạn',
      diff: null,
    });
  });

  it('StepRunStarted without input says the default input, and cuts a long one short', () => {
    const blank = stepRunStarted(draftStep, 'run-2', { cacheItemId: 'c2' });
    const long = stepRunStarted(draftStep, 'run-3', { cacheItemId: 'c2' });
    if (blank.type !== 'StepRunStarted' || long.type !== 'StepRunStarted') throw new Error('unexpected');
    blank.data.userInput = '  ';
    long.data.userInput = 'x'.repeat(200);
    expect(describedAfter([started], blank).title).toBe(
      "Step 2 (Bản nháp) bắt đầu chạy với input 'Run mode execution - no additional input'",
    );
    expect(describedAfter([started], long).title).toBe(
      `Step 2 (Bản nháp) bắt đầu chạy với input '${'x'.repeat(79)}…'`,
    );
  });

  it('a step run again is told as a new version, counting only runs that gave results', () => {
    const failed: ExecutionEvent[] = [
      stepRunStarted(ideas, 'run-0', { cacheItemId: 'c1' }),
      { type: 'StepRunFailed', data: { runId: 'run-0', message: 'boom', retryable: true, at: 'x' } },
    ];
    const again = stepRunStarted(ideas, 'run-9', { cacheItemId: 'c1' });
    expect(describedAfter([started, ...failed], again).title).toBe(
      "Step 1 (Ý tưởng) bắt đầu chạy với input 'input'",
    );
    expect(describedAfter([started, ...failed, ...ideasRun], again).title).toBe(
      "Step 1 (Ý tưởng) chạy lại (version 2) với input 'input'",
    );
    const third = [...ranStep(ideas, 'run-5', 'c1', 'r5', 'Again')];
    expect(describedAfter([started, ...ideasRun, ...third], again).title).toContain('(version 3)');
  });

  it('StepRunSucceeded counts and names the results', () => {
    expect(describedAfter([started, ideasRun[0]!], ideasRun[1]!)).toEqual({
      title: 'Step 1 (Ý tưởng) chạy xong: 2 kết quả',
      detail: "'Branch 1', 'Branch 2'",
      diff: null,
    });
  });

  it('StepRunFailed gives the step and the message', () => {
    const failed: ExecutionEvent = {
      type: 'StepRunFailed',
      data: { runId: 'run-1', message: 'quota exceeded', retryable: true, at: 'x' },
    };
    expect(describedAfter([started, ideasRun[0]!], failed).title).toBe(
      'Step 1 (Ý tưởng) chạy thất bại: quota exceeded',
    );
  });

  it('ResultApproved and ResultUnapproved name the result and who did it', () => {
    const approved: ExecutionEvent = { type: 'ResultApproved', data: { resultId: 'r2', at: 'x' } };
    const unapproved: ExecutionEvent = { type: 'ResultUnapproved', data: { resultId: 'r2', at: 'x' } };
    expect(describedAfter([started, ...ideasRun], approved)).toEqual({
      title: "Kết quả 'Branch 2' được approve bởi An",
      detail: 'Step 1 (Ý tưởng)',
      diff: null,
    });
    expect(describedAfter([started, ...ideasRun, approved], unapproved, 'Bình').title).toBe(
      "Kết quả 'Branch 2' bị bỏ approve bởi Bình",
    );
    expect(describedAfter([started, ...ideasRun], approved, null).title).toBe(
      "Kết quả 'Branch 2' được approve",
    );
  });

  it('ResultEdited shows the text before and after as a diff, and a new label', () => {
    const edited: ExecutionEvent = {
      type: 'ResultEdited',
      data: { resultId: 'r1', before: 'First idea', after: 'First good idea', label: 'Mở bài', at: 'x' },
    };
    expect(describedAfter([started, ...ideasRun], edited)).toEqual({
      title: "Kết quả 'Branch 1' được sửa bởi An",
      detail: "Step 1 (Ý tưởng) · Đổi label 'Branch 1' → 'Mở bài'",
      diff: [
        { kind: 'same', text: 'First ' },
        { kind: 'added', text: 'good ' },
        { kind: 'same', text: 'idea' },
      ],
    });
  });

  it('ResultEdited of the label alone has no diff', () => {
    const relabelled: ExecutionEvent = {
      type: 'ResultEdited',
      data: { resultId: 'r1', before: 'First idea', after: 'First idea', label: 'Mở bài', at: 'x' },
    };
    expect(describedAfter([started, ...ideasRun], relabelled).diff).toBeNull();
  });

  it('ResultDeleted says the text becomes a rejected idea', () => {
    const deleted: ExecutionEvent = {
      type: 'ResultDeleted',
      data: { resultId: 'r1', content: 'First idea', at: 'x' },
    };
    expect(describedAfter([started, ...ideasRun], deleted)).toEqual({
      title: "Kết quả 'Branch 1' bị xóa bởi An",
      detail: 'Nội dung được lưu làm rejected idea',
      diff: null,
    });
  });

  it('a result the state does not know is named as unknown rather than failing', () => {
    const approved: ExecutionEvent = { type: 'ResultApproved', data: { resultId: 'nope', at: 'x' } };
    expect(describedAfter([started], approved)).toEqual({
      title: "Kết quả '(kết quả không rõ)' được approve bởi An",
      detail: null,
      diff: null,
    });
  });

  it('ExecutionStopped, ExecutionReset and ExecutionCompleted', () => {
    const before = [started, ...ideasRun];
    expect(describedAfter(before, { type: 'ExecutionStopped', data: { at: 'x' } }).title).toBe(
      'Execution đã dừng bởi An',
    );
    expect(
      describedAfter(before, { type: 'ExecutionReset', data: { cacheItemIds: ['c9'], at: 'x' } }),
    ).toEqual({
      title: 'Execution được reset bởi An',
      detail: 'Mọi step trở về Pending; các kết quả trước vẫn được giữ trong lịch sử',
      diff: null,
    });
    expect(describedAfter(before, { type: 'ExecutionCompleted', data: { at: 'x' } }, null)).toEqual({
      title: 'Execution hoàn thành',
      detail: null,
      diff: null,
    });
  });
});

describe('describeEvent: reviews by another person, as the auditor reads them', () => {
  const requested: ExecutionEvent = {
    type: 'ReviewRequested',
    data: {
      reviewId: 'rv',
      stepId: ideas.id,
      runId: 'run-1',
      resultIds: ['r1', 'r2'],
      by: 'role',
      userIds: [],
      role: 'reviewer',
      approvals: 2,
      selfApproval: false,
      requestedBy: 'user-1',
      dueAt: null,
      onDue: null,
      note: 'Check the tone',
      at: '2025-01-02T03:00:00.000Z',
    },
  };
  const history = [started, ...ideasRun, requested];

  it('says who was asked, how many approvals are needed, and who asked', () => {
    expect(describedAfter([started, ...ideasRun], requested)).toEqual({
      title: 'Step 1 (Ý tưởng) chờ duyệt (review) bởi một thành viên có role reviewer · yêu cầu bởi An',
      detail: "Cần 2 người approve · ghi chú: 'Check the tone'",
      diff: null,
    });
  });

  it('says who decided, in which role, what they wrote and how long the review waited', () => {
    const approved: ExecutionEvent = {
      type: 'ReviewApproved',
      data: {
        reviewId: 'rv',
        userId: 'ana',
        role: 'reviewer',
        comment: 'Good',
        at: '2025-01-02T05:00:00.000Z',
      },
    };
    expect(describedAfter(history, approved, 'Ana')).toEqual({
      title: 'Step 1 (Ý tưởng) được approve bởi Ana (reviewer) · 1/2',
      detail: "Đã chờ 2 giờ · 'Good'",
      diff: null,
    });
    const rejected: ExecutionEvent = {
      type: 'ReviewRejected',
      data: {
        reviewId: 'rv',
        userId: 'bao',
        role: 'reviewer',
        reason: 'Too long',
        at: '2025-01-02T03:30:00.000Z',
      },
    };
    expect(describedAfter([...history, approved], rejected, 'Bao')).toEqual({
      title: 'Step 1 (Ý tưởng) bị từ chối (reject) bởi Bao (reviewer): trả lại cho người chạy',
      detail: "Đã chờ 30 phút · 'Too long'",
      diff: null,
    });
  });
});

describe('statesAlong', () => {
  it('gives the state after each number of events, the same as folding that many', () => {
    const events = [
      started,
      ...ideasRun,
      { type: 'ResultApproved', data: { resultId: 'r1', at: 'x' } } as ExecutionEvent,
      { type: 'ExecutionReset', data: { cacheItemIds: ['c5', 'c6'], at: 'y' } } as ExecutionEvent,
    ];
    const states = statesAlong(events);
    expect(states).toHaveLength(events.length + 1);
    for (let n = 0; n <= events.length; n++) {
      expect(states[n]).toEqual(
        events.slice(0, n).reduce<ExecutionState>(decider.evolve, decider.initialState()),
      );
    }
    // Reset sends the work back to pending but the results stay.
    expect(states[5]!.executionCache.every((item) => item.status === 'pending')).toBe(true);
    expect(states[5]!.results.map((r) => r.result)).toEqual(['First idea', 'Second idea']);
  });
});
