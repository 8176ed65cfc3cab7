import { ChevronLeft, ChevronRight } from 'lucide-react';
import { type ReactNode, useEffect, useRef } from 'react';
import { HistoryDiff } from '@/components/history-diff';
import { Button } from '@/components/ui/button';
import { FlowVersionLink } from '@/features/flow-workspace/versions/components/flow-version-link';
import { cn } from '@/lib/cn';
import { formatDateTime } from '@/lib/format-date';
import { history as t } from '@/lib/strings';
import { isVerified, type Unverified } from '../api/verify-execution';
import type { HistoryPoint } from './history-points';
import { UnverifiedMark } from './unverified-mark';

/** Events that change what was produced or what is carried on stand out from the bookkeeping ones. */
const tones: Partial<Record<string, string>> = {
  StepRunFailed: 'border-l-red-400',
  ResultApproved: 'border-l-emerald-400',
  ResultEdited: 'border-l-amber-400',
  ResultDeleted: 'border-l-red-300',
  ExecutionReset: 'border-l-indigo-400',
  ExecutionStopped: 'border-l-slate-500',
};

/** What an event not proved by the record check looks like: struck through, so it does not read as fact. */
const unprovedText = 'text-slate-500 line-through decoration-red-400';

function TimelineEntry({
  point,
  flowId,
  selected,
  onSelect,
  unverifiedWhy,
}: {
  point: HistoryPoint;
  flowId: string;
  selected: boolean;
  onSelect: () => void;
  /** Why the record check does not prove this event; null when it does. */
  unverifiedWhy: string | null;
}) {
  const verified = unverifiedWhy === null;
  const ref = useRef<HTMLLIElement>(null);
  useEffect(() => {
    if (selected) ref.current?.scrollIntoView({ block: 'nearest' });
  }, [selected]);
  return (
    <li
      ref={ref}
      className={cn(
        'rounded-lg border border-l-4 border-slate-200 transition-colors',
        // Before the tone: an unproved entry keeps its left edge's colour (an unreadable one its red).
        verified ? '' : 'border-dashed border-red-300',
        point.readable ? (tones[point.type] ?? 'border-l-slate-200') : 'border-l-red-600 border-dashed',
        selected ? 'bg-indigo-50 ring-2 ring-indigo-300' : verified ? 'bg-white' : 'bg-red-50/40',
      )}
    >
      <button
        type="button"
        onClick={onSelect}
        aria-current={selected ? 'step' : undefined}
        className={cn('w-full cursor-pointer rounded-lg p-3 text-left', selected ? '' : 'hover:bg-slate-50')}
        data-testid="history-entry"
        data-position={point.position}
        data-type={point.type}
        data-readable={point.readable}
        data-verified={verified}
        data-selected={selected}
      >
        <div className="flex items-baseline gap-2">
          <span className="shrink-0 font-mono text-xs text-slate-500">#{point.position}</span>
          <span
            className={cn(
              'text-sm font-medium',
              point.readable ? 'text-slate-900' : 'text-red-700',
              verified ? '' : unprovedText,
            )}
            data-testid="history-entry-title"
          >
            {point.text.title}
          </span>
          {verified ? null : (
            <UnverifiedMark
              why={unverifiedWhy}
              className="ml-auto self-center"
              testId="history-entry-unverified"
            />
          )}
        </div>
        {point.text.detail ? (
          <p
            className={cn('mt-1 text-xs text-slate-600', verified ? '' : unprovedText)}
            data-testid="history-entry-detail"
          >
            {point.text.detail}
          </p>
        ) : null}
        {point.text.diff ? (
          <div className={verified ? undefined : 'line-through decoration-red-400'}>
            <HistoryDiff parts={point.text.diff} />
          </div>
        ) : null}
        <p className="mt-1 text-xs text-slate-500">
          {formatDateTime(point.at)}
          {point.actor ? ` · ${point.actor}` : ''}
        </p>
      </button>
      {/* A link cannot sit inside the entry's button: it follows it, in the same card. */}
      {point.flowVersion !== null ? (
        <div className="-mt-1 px-3 pb-3" data-testid="history-entry-flow-version">
          <FlowVersionLink flowId={flowId} version={point.flowVersion} />
        </div>
      ) : null}
    </li>
  );
}

/** Picks a point of the history: by the slider, the previous/next buttons, or a click on an event. */
export function HistoryTimeline({
  points,
  flowId,
  position,
  onPositionChange,
  more,
  unverified = null,
}: {
  points: HistoryPoint[];
  /** From where on the record check does not prove the events; null: it proves them all (or is not known). */
  unverified?: Unverified | null;
  /** The end of the entries while later pages of the log are to be read. */
  more?: ReactNode;
  /** The flow the execution ran, whose versions the entries link to. */
  flowId: string;
  position: number;
  onPositionChange: (position: number) => void;
}) {
  const total = points.length;
  return (
    <div className="flex min-h-0 flex-col gap-3" data-testid="history-timeline">
      <div className="flex flex-col gap-2 rounded-lg border border-slate-200 bg-slate-50 p-3">
        <div className="flex items-center justify-between gap-2">
          <span className="text-sm font-medium text-slate-700" data-testid="history-point-label">
            {t.point(position, total)}
          </span>
          <div className="flex gap-1">
            <Button
              variant="outline"
              size="sm"
              onClick={() => onPositionChange(position - 1)}
              disabled={position <= 1}
              data-testid="history-previous"
            >
              <ChevronLeft className="h-4 w-4" />
              {t.previous}
            </Button>
            <Button
              variant="outline"
              size="sm"
              onClick={() => onPositionChange(position + 1)}
              disabled={position >= total}
              data-testid="history-next"
            >
              {t.next}
              <ChevronRight className="h-4 w-4" />
            </Button>
          </div>
        </div>
        <input
          type="range"
          min={1}
          max={total}
          step={1}
          value={position}
          onChange={(e) => onPositionChange(Number(e.target.value))}
          aria-label={t.slider}
          className="w-full cursor-pointer accent-indigo-600"
          data-testid="history-slider"
        />
      </div>
      <ol className="flex min-h-0 flex-1 flex-col gap-2 overflow-y-auto pr-1" aria-label={t.timeline}>
        {points.map((point) => (
          <TimelineEntry
            key={point.position}
            point={point}
            flowId={flowId}
            selected={point.position === position}
            onSelect={() => onPositionChange(point.position)}
            unverifiedWhy={isVerified(unverified, point.position) ? null : (unverified?.why ?? null)}
          />
        ))}
        {more ? <li className="list-none">{more}</li> : null}
      </ol>
    </div>
  );
}
