import { Badge } from '@/components/ui/badge';
import { MarkdownBlock } from '@/components/ui/markdown';
import { suggestions as t } from '@/features/flow-workspace/strings';
import { formatDateTime } from '@/lib/format-date';
import type { SuggestionRecord } from '../api/get-suggestions';

/** One round of suggestions: when it was made, what it says of each step, and of the flow as a whole. */
export function SuggestionRecordCard({ record }: { record: SuggestionRecord }) {
  return (
    <li className="rounded-lg border border-slate-200 p-4" data-testid="suggestion-record">
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <span className="font-medium text-slate-800" data-testid="suggestion-time">
          {formatDateTime(record.createdAt)}
        </span>
        <Badge tone="outline">{t.stepCount(record.flowStructure.steps.length)}</Badge>
      </div>
      <h3 className="mt-3 text-sm font-semibold text-slate-700">{t.stepSuggestions}</h3>
      {record.suggestions.length === 0 ? (
        <p className="mt-1 text-sm text-slate-500">{t.noStepSuggestions}</p>
      ) : (
        <ul className="mt-2 flex flex-col gap-2">
          {record.suggestions.map((item) => (
            <li
              key={item.stepOrder}
              className="rounded-md bg-slate-50 p-3 text-sm"
              data-testid="step-suggestion"
            >
              <p className="font-medium text-slate-900">{t.step(item.stepOrder, item.stepName)}</p>
              <p className="mt-1 whitespace-pre-wrap text-slate-700">{item.suggestion}</p>
            </li>
          ))}
        </ul>
      )}
      {record.strategicRecommendation === null ? null : (
        <>
          <h3 className="mt-4 text-sm font-semibold text-slate-700">{t.strategicRecommendation}</h3>
          <div
            className="mt-2 rounded-md border border-indigo-100 bg-indigo-50/50 p-3"
            data-testid="strategic-recommendation"
          >
            <MarkdownBlock text={record.strategicRecommendation} />
          </div>
        </>
      )}
    </li>
  );
}
