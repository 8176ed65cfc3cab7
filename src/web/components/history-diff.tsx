import { cn } from '@/lib/cn';
import { history as t } from '@/lib/strings';
import type { DiffPart } from '../../domain/execution/text-diff';

const partClasses: Record<DiffPart['kind'], string> = {
  same: 'text-slate-700',
  removed: 'bg-red-100 text-red-800 line-through decoration-red-400',
  added: 'bg-emerald-100 text-emerald-800',
};

/**
 * A text against an earlier one, word by word: what was taken out struck through in red, what was put in in
 * green, under the two labels (an edit's before and after by default). `whole`: the text at its full length
 * rather than in a box that scrolls past a few lines.
 */
export function HistoryDiff({
  parts,
  labels = { before: t.diffBefore, after: t.diffAfter },
  whole = false,
  testId = 'history-diff',
}: {
  parts: DiffPart[];
  labels?: { before: string; after: string };
  whole?: boolean;
  testId?: string;
}) {
  return (
    <div className="mt-2 rounded-md border border-slate-200 bg-slate-50 p-2" data-testid={testId}>
      <div className="mb-1 flex gap-3 text-[11px] font-medium">
        <span className="rounded bg-red-100 px-1 text-red-800 line-through">{labels.before}</span>
        <span className="rounded bg-emerald-100 px-1 text-emerald-800">{labels.after}</span>
      </div>
      <p
        className={cn(
          'whitespace-pre-wrap break-words font-mono text-xs leading-relaxed',
          whole ? '' : 'max-h-48 overflow-y-auto',
        )}
      >
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
