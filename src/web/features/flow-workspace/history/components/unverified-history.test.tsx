// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { history as t } from '@/lib/strings';
import {
  aStep,
  draft,
  executionStarted,
  stepRunStarted,
  stepRunSucceeded,
} from '../../../../../domain/execution/testing';
import type { ExecutionEvent } from '../../../../../domain/execution/types';
import type { HistoryEvent } from '../api/get-execution-history';
import { type ReviewAudit, reviewAuditQueryOptions } from '../api/get-review-audit';
import { type RecordCheck as Check, executionCheckQueryOptions, unverifiedOf } from '../api/verify-execution';
import { historyPointsOf } from './history-points';
import { HistoryTimeline } from './history-timeline';
import { RecordCheck } from './record-check';
import { ReviewAuditSection } from './review-audit';

/**
 * What the auditor's screens say when the record check does not prove everything: every event from the first
 * changed position on is marked and struck through, a decision resting on such an event too, and the latest
 * checkpoint is told with its signature's state.
 */

const step = aStep(1, { name: 'Ý tưởng' });
const events: ExecutionEvent[] = [
  executionStarted([step], ['c1']),
  stepRunStarted(step, 'run-1', { cacheItemId: 'c1' }),
  stepRunSucceeded('run-1', [draft('r1', 'An idea')]),
  { type: 'ResultApproved', data: { resultId: 'r1', at: '2025-01-02T03:05:00.000Z' } },
  { type: 'ResultUnapproved', data: { resultId: 'r1', at: '2025-01-02T03:07:00.000Z' } },
];
const points = historyPointsOf(
  events.map(
    (event, i) =>
      ({
        ...event,
        position: i + 1,
        at: `2025-01-02T03:0${i}:00.000Z`,
        actor: { userId: 'user-an', name: 'An' },
        commandId: `command-${i + 1}`,
      }) as HistoryEvent,
  ),
);

const EXECUTION = 'execution-1';

beforeEach(() => {
  // The queries' data is set by each test; a refetch on mount waits for ever instead of failing.
  vi.stubGlobal('fetch', () => new Promise<Response>(() => {}));
  // jsdom lays nothing out: the selected entry's scroll into view does nothing.
  Element.prototype.scrollIntoView = () => {};
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderWith(ui: ReactNode, data: { check?: Check; reviews?: ReviewAudit[] } = {}) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  if (data.check) client.setQueryData(executionCheckQueryOptions(EXECUTION).queryKey, data.check);
  if (data.reviews) client.setQueryData(reviewAuditQueryOptions(EXECUTION).queryKey, data.reviews);
  return render(<QueryClientProvider client={client}>{ui}</QueryClientProvider>);
}

const timeline = (check: Check) =>
  renderWith(
    <HistoryTimeline
      points={points}
      flowId="flow-1"
      position={points.length}
      onPositionChange={() => {}}
      unverified={unverifiedOf(check)}
    />,
  );

const entries = () => screen.getAllByTestId('history-entry');

describe('the history of a record that does not verify', () => {
  it('marks every entry from the first changed position on, and none before it', () => {
    timeline({ verified: false, events: 5, firstBadPosition: 3 });
    expect(entries().map((entry) => entry.dataset.verified)).toEqual([
      'true',
      'true',
      'false',
      'false',
      'false',
    ]);
    for (const entry of entries().slice(2)) {
      const mark = within(entry).getByTestId('history-entry-unverified');
      expect(mark.textContent).toContain(t.unverified);
      // Its content is not told as fact: struck through.
      expect(within(entry).getByTestId('history-entry-title').className).toContain('line-through');
    }
    for (const entry of entries().slice(0, 2)) {
      expect(within(entry).queryByTestId('history-entry-unverified')).toBeNull();
      expect(within(entry).getByTestId('history-entry-title').className).not.toContain('line-through');
    }
    // A screen reader hears why, with the position it was changed at, in the entry's name.
    const why = `${t.unverified}: ${t.unverifiedEntry(3)}`;
    expect(screen.getAllByRole('img', { name: why })).toHaveLength(3);
    const marked = screen.getAllByRole('button', {
      name: /không xác minh được: record đã bị thay đổi ở vị trí 3/,
    });
    expect(marked.map((button) => button.dataset.position)).toEqual(['3', '4', '5']);
  });

  it('marks every entry when the key does not match', () => {
    timeline({
      verified: false,
      events: 5,
      keyMismatch: true,
      message: "the key does not match this database's records",
    });
    expect(entries().every((entry) => entry.dataset.verified === 'false')).toBe(true);
    expect(screen.getAllByTestId('history-entry-unverified')).toHaveLength(5);
    expect(screen.getAllByRole('img', { name: /^không xác minh được: APP_SECRET/ })).toHaveLength(5);
  });

  it('marks nothing when the record verifies', () => {
    timeline({ verified: true, events: 5, head: 'ab'.repeat(32) });
    expect(screen.queryAllByTestId('history-entry-unverified')).toEqual([]);
    expect(entries().every((entry) => entry.dataset.verified === 'true')).toBe(true);
  });
});

const decision = (userId: string, name: string, verified: boolean) => ({
  decision: 'approved' as const,
  comment: `OK from ${name}`,
  position: verified ? 5 : 9,
  verified,
  userId,
  name,
  role: 'reviewer' as const,
  at: '2025-01-02T04:00:00.000Z',
  seen: [],
});

const review = (
  reviewId: string,
  verified: boolean,
  decisions: ReturnType<typeof decision>[],
): ReviewAudit => ({
  reviewId,
  stepId: step.id,
  requestedBy: { userId: 'user-an', name: 'An' },
  requestedAt: '2025-01-02T03:30:00.000Z',
  requestedPosition: 4,
  verified,
  asked: { by: 'members', members: [], role: null, approvalsNeeded: 1 },
  dueAt: null,
  note: null,
  decisions,
  due: null,
  handedBack: [],
  ownersToo: false,
  status: 'approved',
  decidedAt: '2025-01-02T04:00:00.000Z',
  waitedMs: 1_800_000,
});

describe('the Reviews section of a record that does not verify', () => {
  it('marks a decision resting on unverified events rather than telling Approved as fact', () => {
    renderWith(<ReviewAuditSection executionId={EXECUTION} steps={[]} />, {
      reviews: [
        review('review-1', true, [decision('user-ana', 'Ana', true)]),
        review('review-2', false, [decision('user-bao', 'Bao', false)]),
      ],
    });
    const [proved, unproved] = screen.getAllByTestId('review-audit-decision');
    expect(proved!.dataset.verified).toBe('true');
    expect(within(proved!).queryByTestId('review-audit-decision-unverified')).toBeNull();
    expect(within(proved!).getByTestId('review-audit-decision-badge').className).not.toContain(
      'line-through',
    );

    expect(unproved!.dataset.verified).toBe('false');
    expect(within(unproved!).getByTestId('review-audit-decision-unverified').textContent).toContain(
      t.unverified,
    );
    expect(within(unproved!).getByTestId('review-audit-decision-badge').className).toContain('line-through');
    expect(within(unproved!).getByTestId('review-audit-text').className).toContain('line-through');

    const [first, second] = screen.getAllByTestId('review-audit');
    expect(within(first!).queryByTestId('review-audit-unverified')).toBeNull();
    expect(within(second!).getByTestId('review-audit-unverified').textContent).toContain(t.unverified);
  });
});

describe("the record check's checkpoint", () => {
  const verified = { verified: true as const, events: 5, head: 'ab'.repeat(32) };
  const shown = () => screen.getByTestId('history-record-checkpoint').textContent;

  it('names the checkpoint covering the record, and that its signature checks', () => {
    renderWith(<RecordCheck executionId={EXECUTION} />, {
      check: {
        ...verified,
        checkpoint: { size: 42, at: '2025-01-02T05:00:00.000Z', coversRecord: true, signatureVerified: true },
      },
    });
    expect(shown()).toMatch(/^Checkpoint #42 · .+ · chữ ký hợp lệ$/);
    expect(screen.getByTestId('history-record-signature').className).toContain('emerald');
  });

  it('says when its signature does not check', () => {
    renderWith(<RecordCheck executionId={EXECUTION} />, {
      check: {
        verified: false,
        events: 5,
        firstBadPosition: 3,
        checkpoint: {
          size: 42,
          at: '2025-01-02T05:00:00.000Z',
          coversRecord: true,
          signatureVerified: false,
        },
      },
    });
    expect(shown()).toMatch(/^Checkpoint #42 · .+ · chữ ký không hợp lệ$/);
    expect(screen.getByTestId('history-record-signature').className).toContain('red');
    expect(screen.getByTestId('history-record-changed')).toBeTruthy();
  });

  it('says that no checkpoint covers the record, when none does or none was made', () => {
    renderWith(<RecordCheck executionId={EXECUTION} />, {
      check: {
        ...verified,
        checkpoint: { size: 3, at: '2025-01-02T05:00:00.000Z', coversRecord: false, signatureVerified: true },
      },
    });
    expect(shown()).toBe(t.noCheckpoint);
    cleanup();
    renderWith(<RecordCheck executionId={EXECUTION} />, { check: { ...verified, checkpoint: null } });
    expect(shown()).toBe(t.noCheckpoint);
  });

  it('says nothing of checkpoints when the server tells none', () => {
    renderWith(<RecordCheck executionId={EXECUTION} />, { check: verified });
    expect(screen.getByTestId('history-record-verified')).toBeTruthy();
    expect(screen.queryByTestId('history-record-checkpoint')).toBeNull();
  });
});
