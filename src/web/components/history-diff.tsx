import { cn } from '@/lib/cn';
import { history as t } from '@/lib/strings';
import type { DiffPart } from '../../domain/execution/text-diff';

const partClasses: Record<DiffPart['kind'], string> = {
  same: 'text-slate-700',
  removed: 'bg-red-100 text-red-800 line-through decoration-red-400',
  added: 'bg-emerald-100 text-emerald-800',
};

/** An edit's text with what was taken out struck through in red and what was put in in green. */
export function HistoryDiff({ parts }: { parts: DiffPart[] }) {
  return (
    <div className="mt-2 rounded-md border border-slate-200 bg-slate-50 p-2" data-testid="history-diff">
      <div className="mb-1 flex gap-3 text-[11px] font-medium">
        <span className="rounded bg-red-100 px-1 text-red-800 line-through">{t.diffBefore}</span>
        <span className="rounded bg-emerald-100 px-1 text-emerald-800">{t.diffAfter}</span>
      </div>
      <p className="max-h-48 overflow-y-auto whitespace-pre-wrap break-words font-mono text-xs leading-relaxed">
        {parts.map((part, i) => (
          <span
            // biome-ignore lint/suspicious/noArrayIndexKey: the list is rebuilt whole, never reordered
            key={i}
            className={cn('rounded-sm', partClasses[part.kind])}
            data-kind={part.kind}
          >
            {part.text}
          </span>
        ))}
      </p>
    </div>
  );
}
