import { Badge } from '@/components/ui/badge';
import { editMode as t } from '@/features/flow-workspace/strings';
import type { PromptLabel } from './prompt-labels';

/** The [[label]]s a prompt uses, each with the earlier step it names, if any. */
export function PromptLabelsList({ labels }: { labels: PromptLabel[] }) {
  return (
    <div className="flex flex-col gap-1" data-testid="prompt-labels">
      <span className="text-xs font-medium text-slate-500">{t.labelsTitle}</span>
      {labels.length === 0 ? (
        <span className="text-xs text-slate-500">{t.noLabels}</span>
      ) : (
        <ul className="flex flex-wrap gap-1.5">
          {labels.map(({ label, step: named }) => (
            <li key={label}>
              <Badge tone={named ? 'indigo' : 'outline'} data-testid="prompt-label">
                <span className="font-mono">[[{label}]]</span>
                {named ? <span>→ {t.labelRefersTo(named.order)}</span> : null}
              </Badge>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
