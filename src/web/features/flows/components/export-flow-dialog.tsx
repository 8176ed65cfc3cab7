import { Check, Copy } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import type { WorkflowJsonInput } from '../../../../domain/workflow-json';
import { Button } from '../../../components/ui/button';
import { Dialog, DialogContent } from '../../../components/ui/dialog';
import { useToast } from '../../../components/ui/toast';
import { exportFlow as t, toasts } from '../../../lib/strings';

/** Spec §9: 'Đã copy!' shows for 2 s after a copy. */
export const COPY_CONFIRMATION_MS = 2000;

/** The exported Workflow JSON of one flow, pretty-printed, with a button that copies it. */
export function ExportFlowDialog({
  flowName,
  workflow,
  onClose,
}: {
  flowName: string;
  /** The dialog is open while there is one. */
  workflow: WorkflowJsonInput | null;
  onClose: () => void;
}) {
  const json = workflow ? JSON.stringify(workflow, null, 2) : '';
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const toast = useToast();

  useEffect(() => () => clearTimeout(timer.current), []);

  const copy = async () => {
    try {
      // Outside a secure context there is no clipboard at all: that is a failure like any other.
      await navigator.clipboard.writeText(json);
    } catch {
      toast({ title: t.copyFailedTitle, description: t.copyFailed, variant: 'destructive' });
      return;
    }
    toast({ title: t.copiedTitle, description: t.copiedText(flowName), variant: 'success' });
    setCopied(true);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setCopied(false), COPY_CONFIRMATION_MS);
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
          <Button onClick={() => void copy()} data-testid="export-flow-copy" data-copied={copied}>
            {copied ? <Check className="h-4 w-4" /> : <Copy className="h-4 w-4" />}
            {copied ? t.copied : t.copy}
          </Button>
        </div>
      </DialogContent>
    </Dialog>
  );
}
