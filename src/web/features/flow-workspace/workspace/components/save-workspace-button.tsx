import { Save } from 'lucide-react';
import type { Flow } from '../../../../../domain/flow';
import { Badge } from '../../../../components/ui/badge';
import { Button } from '../../../../components/ui/button';
import { workspace as t } from '../../../../lib/strings';
import { useSaveWorkspace } from './use-save-workspace';

/** The header's Save, with a badge while the workspace has changes since the last Save. */
export function SaveWorkspaceButton({ flow }: { flow: Flow }) {
  const { save, saving, unsaved } = useSaveWorkspace(flow);
  return (
    <>
      {unsaved ? (
        <Badge tone="amber" className="self-center" data-testid="unsaved-changes">
          {t.unsavedChanges}
        </Badge>
      ) : null}
      <Button variant="outline" size="sm" onClick={save} disabled={saving} data-testid="save-flow">
        <Save className="h-4 w-4" />
        {t.save}
      </Button>
    </>
  );
}
