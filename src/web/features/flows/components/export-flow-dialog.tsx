import { Check, Copy } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent } from '@/components/ui/dialog';
import { useToast } from '@/components/ui/toast';
import type { FlowExport } from '@/features/flows/api/export-flow';
import { toasts } from '@/lib/strings';
import { useCopyConfirmation } from '@/lib/use-copy-confirmation';
import { exportFlow as t } from '../strings';

/** The exported Workflow JSON of one flow, pretty-printed, with a button that copies it. */
export function ExportFlowDialog({
  flowName,
  workflow,
  onClose,
}: {
  flowName: string;
  /** The dialog is open while there is one. */
  workflow: FlowExport['workflow'] | null;
  onClose: () => void;
}) {
  const json = workflow ? JSON.stringify(workflow, null, 2) : '';
  const { copied, copy } = useCopyConfirmation(t.copyFailedTitle, t.copyFailed);
  const toast = useToast();

  const copyJson = async () => {
    if (await copy(json))
      toast({ title: t.copiedTitle, description: t.copiedText(flowName), variant: 'success' });
  };

  return (
    <Dialog open={workflow !== null} onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent
        title={t.title}
        description={t.description}
        closeLabel={toasts.close}
        className="max-h-[80vh] max-w-3xl overflow-y-auto"
        data-testid="export-flow-dialog"
      >
        <p className="text-sm font-medium text-slate-900" data-testid="export-flow-name">
          {flowName}
        </p>
        <pre
          className="mt-3 max-h-[50vh] overflow-auto rounded-lg bg-slate-950 p-4 font-mono text-xs leading-relaxed text-slate-100"
          data-testid="export-flow-json"
        >
          {json}
        </pre>
        <div className="mt-4 flex justify-end">
          <Button onClick={() => void copyJson()} data-testid="export-flow-copy" data-copied={copied}>
            {copied ? <Check className="h-4 w-4" /> : <Copy className="h-4 w-4" />}
            {copied ? t.copied : t.copy}
          </Button>
        </div>
      </DialogContent>
    </Dialog>
  );
}
