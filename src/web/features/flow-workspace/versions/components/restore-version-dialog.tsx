import { useAtom } from 'jotai';
import { TriangleAlert } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Dialog, DialogClose, DialogContent } from '@/components/ui/dialog';
import { useToast } from '@/components/ui/toast';
import { flowDetailsDraftAtom, stepDraftAtom } from '@/features/flow-workspace/edit/components/edit-session';
import { hasDraftChanges } from '@/features/flow-workspace/edit/components/step-draft';
import { flowVersions as t } from '@/features/flow-workspace/strings';
import { toasts } from '@/lib/strings';
import { useRestoreFlowVersion } from '../api/restore-flow-version';

/**
 * Asks before a past version becomes the flow's newest one. The editor's unsaved edits of the flow would
 * hide the restored prompts, so they go, and the dialog says so first.
 */
export function RestoreVersionDialog({
  flowId,
  version,
  open,
  onOpenChange,
  onRestored,
}: {
  flowId: string;
  version: number;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onRestored: (newVersion: number) => void;
}) {
  const restore = useRestoreFlowVersion(flowId);
  const toast = useToast();
  const [stepDraft, setStepDraft] = useAtom(stepDraftAtom);
  const [detailsDraft, setDetailsDraft] = useAtom(flowDetailsDraftAtom);
  const openStepEdits = stepDraft?.flowId === flowId && hasDraftChanges(stepDraft);
  const openDetailsEdits = detailsDraft?.flowId === flowId;

  const confirm = () =>
    restore.mutate(version, {
      onSuccess: (restored) => {
        setStepDraft((current) => (current?.flowId === flowId ? null : current));
        setDetailsDraft((current) => (current?.flowId === flowId ? null : current));
        onOpenChange(false);
        toast({
          title: t.restored,
          description: t.restoredText(version, restored.version),
          variant: 'success',
        });
        onRestored(restored.version);
      },
    });

  return (
    <Dialog open={open} onOpenChange={(next) => !restore.isPending && onOpenChange(next)}>
      <DialogContent
        title={t.restoreTitle(version)}
        description={t.restoreText(version)}
        closeLabel={toasts.close}
        data-testid="restore-dialog"
      >
        {openStepEdits || openDetailsEdits ? (
          <p
            className="mb-4 flex items-start gap-2 rounded-lg bg-amber-50 p-3 text-sm text-amber-800"
            data-testid="restore-unsaved-edits"
          >
            <TriangleAlert className="mt-0.5 h-4 w-4 shrink-0" />
            {t.unsavedEdits}
          </p>
        ) : null}
        <div className="flex justify-end gap-2">
          <DialogClose asChild>
            <Button variant="outline" disabled={restore.isPending} data-testid="restore-cancel">
              {t.cancel}
            </Button>
          </DialogClose>
          <Button onClick={confirm} disabled={restore.isPending} data-testid="restore-confirm">
            {restore.isPending ? t.restoring : t.confirmRestore}
          </Button>
        </div>
      </DialogContent>
    </Dialog>
  );
}
