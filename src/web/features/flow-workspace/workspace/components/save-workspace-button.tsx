import { Save } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { workspace as t } from '@/features/flow-workspace/strings';
import type { Flow } from '@/lib/flow-query';
import { useSaveWorkspace } from './use-save-workspace';

/**
 * The header's Save, with what is and is not saved beside it: 'Có thay đổi' only for edits that are not on
 * the server yet (lost if the tab closes); steps added, deleted or saved with 'Lưu step' are stored at once,
 * so until the next Save (the dirty flag) they are marked as saved.
 */
export function SaveWorkspaceButton({ flow }: { flow: Flow }) {
  const { save, saving, unsaved, stepsChanged } = useSaveWorkspace(flow);
  return (
    <>
      {unsaved ? (
        <Badge
          tone="amber"
          className="self-center"
          title={t.unsavedChangesHint}
          data-testid="unsaved-changes"
        >
          {t.unsavedChanges}
        </Badge>
      ) : stepsChanged ? (
        <Badge tone="neutral" className="self-center" title={t.stepsChangedHint} data-testid="steps-changed">
          {t.stepsChanged}
        </Badge>
      ) : null}
      <Button variant="outline" size="sm" onClick={save} disabled={saving} data-testid="save-flow">
        <Save className="h-4 w-4" />
        {t.save}
      </Button>
    </>
  );
}
