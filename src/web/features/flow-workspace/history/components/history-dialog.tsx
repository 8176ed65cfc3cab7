import { useCallback, useId, useMemo, useState } from 'react';
import { Dialog, DialogContent } from '@/components/ui/dialog';
import { LoadMore } from '@/components/ui/load-more';
import { queueCard } from '@/features/flow-workspace/strings';
import { messageOf } from '@/lib/api-client';
import { formatDateTime } from '@/lib/format-date';
import { itemsOf, useReadUntil } from '@/lib/paged-list';
import { history as t, toasts } from '@/lib/strings';
import { useExecutionHistory } from '../api/get-execution-history';
import { useFlowExecutions } from '../api/get-flow-executions';
import { isVerified, unverifiedOf, useExecutionCheck } from '../api/verify-execution';
import { auditTrailOf, flowVersionAt, historyPointsOf } from './history-points';
import { HistoryStateView } from './history-state-view';
import { HistoryTimeline } from './history-timeline';
import { RecordCheck } from './record-check';
import { ReviewAuditSection } from './review-audit';
import { UnverifiedMark } from './unverified-mark';

const selectClasses =
  'h-9 rounded-lg border border-slate-300 bg-white px-3 text-sm text-slate-900 focus:border-indigo-500 focus:outline-none focus:ring-2 focus:ring-indigo-200';

/** One execution's history: the timeline on the left, the execution at the chosen point on the right. */
function ExecutionHistory({
  flowId,
  executionId,
  onOpenExecution,
}: {
  flowId: string;
  executionId: string;
  onOpenExecution: (executionId: string) => void;
}) {
  // Read page by page, oldest first, as the timeline scrolls: the points are those of the events read so far.
  const log = useExecutionHistory(executionId);
  const { isLoading, error } = log;
  const events = useMemo(() => (log.data ? itemsOf(log.data) : undefined), [log.data]);
  const points = useMemo(() => historyPointsOf(events ?? []), [events]);
  // null follows the end of the history.
  const [chosen, setChosen] = useState<number | null>(null);
  const position = chosen === null ? points.length : Math.min(Math.max(chosen, 1), points.length);
  const { fetchNextPage } = log;
  // The point shown stays where it is while the next page is read: following the end would scroll the
  // timeline down to its end again, and read page after page unasked.
  const readMore = useCallback(() => {
    setChosen((current) => current ?? points.length);
    return fetchNextPage();
  }, [fetchNextPage, points.length]);
  const trail = useMemo(() => auditTrailOf(events ?? [], position), [events, position]);
  // The same check as the banner's (one request): from its first changed position on, nothing reads as fact.
  const unverified = unverifiedOf(useExecutionCheck(executionId).data);

  if (isLoading) return <p className="text-sm text-slate-500">{t.loading}</p>;
  if (error) return <p className="text-sm text-red-600">{messageOf(error, t.loadFailed)}</p>;
  const point = points[position - 1];
  if (!point) return <p className="text-sm text-slate-500">{t.empty}</p>;

  return (
    <>
      <ReviewAuditSection executionId={executionId} steps={points.at(-1)?.state.steps ?? []} />
      <div className="grid min-h-0 flex-1 grid-cols-1 gap-4 overflow-y-auto lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)] lg:grid-rows-[minmax(0,1fr)] lg:overflow-hidden">
        <HistoryTimeline
          points={points}
          flowId={flowId}
          position={position}
          unverified={unverified}
          onPositionChange={(next) => setChosen(next >= points.length ? null : next)}
          more={
            log.hasNextPage ? (
              <LoadMore
                hasNextPage={log.hasNextPage}
                isFetchingNextPage={log.isFetchingNextPage}
                fetchNextPage={readMore}
                testId="history-load-more"
              />
            ) : null
          }
        />
        <div
          className={`min-h-0 overflow-y-auto rounded-lg p-3 ${
            isVerified(unverified, position)
              ? 'bg-slate-50'
              : 'border border-dashed border-red-300 bg-red-50/40'
          }`}
          data-testid="history-state-pane"
          data-verified={isVerified(unverified, position)}
        >
          <p className="mb-3 text-sm text-slate-700" data-testid="history-selected-title">
            <span className="font-medium">{point.text.title}</span>
            <span className="text-slate-500">
              {' · '}
              {formatDateTime(point.at)}
            </span>
            {isVerified(unverified, position) ? null : (
              <UnverifiedMark why={t.unverifiedState} className="ml-2" testId="history-state-unverified" />
            )}
          </p>
          <HistoryStateView
            state={point.state}
            position={position}
            syncedVersion={flowVersionAt(points, position)}
            trail={trail}
            onOpenExecution={onOpenExecution}
          />
        </div>
      </div>
    </>
  );
}

function HistoryBody({ flowId, executionId: initial }: { flowId: string; executionId?: string }) {
  // Newest first, page by page: the picker offers the executions read so far, and the next page on its button.
  const list = useFlowExecutions(flowId, true);
  const { isLoading, error } = list;
  const executions = useMemo(() => itemsOf(list.data), [list.data]);
  const [picked, setPicked] = useState<string | null>(initial ?? null);
  const pickerId = useId();
  const pickedRead = picked !== null && executions.some((execution) => execution.id === picked);
  // An execution opened from elsewhere (a version's, a link in the history) may be on a later page.
  useReadUntil(list, picked === null || pickedRead);
  if (isLoading || (picked !== null && !pickedRead && list.hasNextPage)) {
    return <p className="text-sm text-slate-500">{t.loading}</p>;
  }
  if (error) return <p className="text-sm text-red-600">{messageOf(error, t.loadFailed)}</p>;
  const executionId = pickedRead ? picked : (executions[0]?.id ?? null);
  if (!executionId) return <p className="text-sm text-slate-500">{t.empty}</p>;

  return (
    <div className="flex h-[78vh] flex-col gap-3">
      {executions.length > 1 || list.hasNextPage ? (
        <div className="flex flex-wrap items-center gap-2">
          <label htmlFor={pickerId} className="text-sm font-medium text-slate-700">
            {t.execution}
          </label>
          <select
            id={pickerId}
            value={executionId}
            onChange={(e) => setPicked(e.target.value)}
            className={selectClasses}
            data-testid="history-execution-select"
          >
            {executions.map((execution) => (
              <option key={execution.id} value={execution.id}>
                {t.executionOption(formatDateTime(execution.startedAt), queueCard.status[execution.status])}
              </option>
            ))}
          </select>
          {/* Beside the picker it is always in view: older executions are read on its button only. */}
          <LoadMore
            hasNextPage={list.hasNextPage}
            isFetchingNextPage={list.isFetchingNextPage}
            fetchNextPage={list.fetchNextPage}
            testId="history-executions-load-more"
            onSight={false}
          />
        </div>
      ) : null}
      <RecordCheck key={`check-${executionId}`} executionId={executionId} />
      {/* A new key per execution starts its history at its end again. */}
      <ExecutionHistory
        key={executionId}
        flowId={flowId}
        executionId={executionId}
        onOpenExecution={setPicked}
      />
    </div>
  );
}

/**
 * Everything that happened to the flow's executions, for auditing: nothing here changes anything. It opens
 * on `executionId` when given, else on the latest execution; following a link out of it closes it, while
 * downloading a file from it (the audit file) leaves it open.
 */
export function HistoryDialog({
  flowId,
  executionId,
  open,
  onOpenChange,
}: {
  flowId: string;
  executionId?: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        title={t.title}
        description={t.description}
        closeLabel={toasts.close}
        className="max-w-[min(96vw,1500px)]"
        data-testid="history-dialog"
      >
        {/* biome-ignore lint/a11y/noStaticElementInteractions: it only hears clicks on the links inside */}
        {/* biome-ignore lint/a11y/useKeyWithClickEvents: a link followed by the keyboard fires a click too */}
        <div
          onClick={(event) => {
            const link = event.target instanceof Element ? event.target.closest('a[href]') : null;
            if (link && !link.hasAttribute('download')) onOpenChange(false);
          }}
        >
          <HistoryBody flowId={flowId} executionId={executionId} />
        </div>
      </DialogContent>
    </Dialog>
  );
}
