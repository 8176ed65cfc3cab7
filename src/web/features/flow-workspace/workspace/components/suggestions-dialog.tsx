import { Sparkles, Trash2 } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent } from '@/components/ui/dialog';
import { LoadMore } from '@/components/ui/load-more';
import { suggestions as t } from '@/features/flow-workspace/strings';
import { itemsOf } from '@/lib/paged-list';
import { toasts, whyDisabled } from '@/lib/strings';
import { useClearSuggestions } from '../api/clear-suggestions';
import { useGenerateSuggestions } from '../api/generate-suggestions';
import { useSuggestions } from '../api/get-suggestions';
import { SuggestionRecordCard } from './suggestion-record-card';

/** AI suggestions for improving the flow: every round made so far, newest first (page by page as it scrolls); make one, or clear them. */
export function SuggestionsDialog({
  flowId,
  open,
  onOpenChange,
}: {
  flowId: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const suggestions = useSuggestions(flowId, open);
  const { isLoading, isError } = suggestions;
  const records = suggestions.data ? itemsOf(suggestions.data) : undefined;
  const generate = useGenerateSuggestions(flowId);
  const clear = useClearSuggestions(flowId);

  const onGenerate = () => generate.mutate();
  const onClear = () => clear.mutate();

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        title={t.title}
        description={t.description}
        closeLabel={toasts.close}
        className="sm:max-w-3xl"
        data-testid="suggestions-dialog"
      >
        <div className="mb-3 flex flex-wrap justify-end gap-2">
          <Button
            size="sm"
            onClick={onGenerate}
            disabled={generate.isPending}
            data-testid="generate-suggestions"
          >
            <Sparkles className="h-4 w-4" />
            {generate.isPending ? t.generating : t.generate}
          </Button>
          <Button
            variant="outline"
            size="sm"
            onClick={onClear}
            disabled={clear.isPending}
            disabledReason={(!records || records.length === 0) && whyDisabled.noSuggestions}
            data-testid="clear-suggestions"
          >
            <Trash2 className="h-4 w-4" />
            {t.clear}
          </Button>
        </div>
        <div className="max-h-[70vh] overflow-y-auto pr-1">
          {isLoading ? <p className="text-sm text-slate-500">{t.loading}</p> : null}
          {isError ? <p className="text-sm text-red-700">{t.loadFailed}</p> : null}
          {records && records.length === 0 ? (
            <p className="text-sm text-slate-500" data-testid="suggestions-empty">
              {t.empty}
            </p>
          ) : null}
          <ul className="flex flex-col gap-3">
            {records?.map((record) => (
              <SuggestionRecordCard key={record.id} record={record} />
            ))}
          </ul>
          <LoadMore
            hasNextPage={suggestions.hasNextPage}
            isFetchingNextPage={suggestions.isFetchingNextPage}
            fetchNextPage={suggestions.fetchNextPage}
            testId="suggestions-load-more"
          />
        </div>
      </DialogContent>
    </Dialog>
  );
}
