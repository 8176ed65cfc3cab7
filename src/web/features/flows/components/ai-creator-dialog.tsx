import { Sparkles } from 'lucide-react';
import { Button } from '../../../components/ui/button';
import { Dialog, DialogClose, DialogContent } from '../../../components/ui/dialog';
import { aiCreator as t, toasts } from '../../../lib/strings';

/** The AI workflow creator (generate, template, import) is not built yet; the dialog says so. */
export function AiCreatorDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent title={t.title} closeLabel={toasts.close} data-testid="ai-creator-dialog">
        <div className="flex items-start gap-3">
          <Sparkles className="mt-0.5 h-5 w-5 shrink-0 text-indigo-500" />
          <p className="text-sm text-slate-600">{t.coming}</p>
        </div>
        <div className="mt-6 flex justify-end">
          <DialogClose asChild>
            <Button variant="outline">{t.close}</Button>
          </DialogClose>
        </div>
      </DialogContent>
    </Dialog>
  );
}
