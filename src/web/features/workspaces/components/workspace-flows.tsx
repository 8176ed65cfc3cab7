import { Plus } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'wouter';
import { Badge } from '@/components/ui/badge';
import { Button, buttonClasses } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { formatDateTime } from '@/lib/format-date';
import { mayMakeFlows, type UserWorkspace } from '@/lib/workspace-roles';
import { useWorkspaceFlows } from '../api/workspaces';
import { workspaceFlows as t } from '../strings';
import type { CreateFlowInWorkspaceDialog } from './handed-in';

/** The workspace's flows, each opening the flow's screen; owners and editors make new ones here. */
export function WorkspaceFlows({
  workspace,
  createFlowDialog: CreateFlowDialog,
}: {
  workspace: UserWorkspace;
  createFlowDialog: CreateFlowInWorkspaceDialog;
}) {
  const { data: flows, isLoading, error } = useWorkspaceFlows(workspace.id);
  const [createOpen, setCreateOpen] = useState(false);
  const mayCreate = mayMakeFlows(workspace.role);

  return (
    <div className="flex flex-col gap-4" data-testid="workspace-flows">
      <div className="flex flex-wrap items-center justify-between gap-3">
        {mayCreate ? (
          <span />
        ) : (
          <p className="text-sm text-slate-500" data-testid="workspace-flows-read-only">
            {t.readOnly}
          </p>
        )}
        {mayCreate ? (
          <Button onClick={() => setCreateOpen(true)} data-testid="workspace-create-flow">
            <Plus className="h-4 w-4" />
            {t.create}
          </Button>
        ) : null}
      </div>
      {isLoading ? (
        <Skeleton className="h-24 w-full" />
      ) : error ? (
        <p className="text-sm text-red-600">{error.message}</p>
      ) : flows && flows.length > 0 ? (
        <ul className="flex flex-col gap-3">
          {flows.map((flow) => (
            <li key={flow.id}>
              <Card
                className="flex flex-col gap-3 p-5 sm:flex-row sm:items-center sm:justify-between"
                data-testid="workspace-flow"
                data-flow-id={flow.id}
              >
                <div className="min-w-0">
                  <div className="flex flex-wrap items-center gap-2">
                    <h2 className="truncate text-lg font-semibold text-slate-900">{flow.name}</h2>
                    <Badge tone="indigo">{t.stepCount(flow.stepCount)}</Badge>
                  </div>
                  <p className="mt-1 line-clamp-2 text-sm text-slate-600">{flow.description}</p>
                  <p className="mt-1 text-xs text-slate-500">{formatDateTime(flow.updatedAt)}</p>
                </div>
                <Link
                  href={`/flows/${flow.id}`}
                  className={buttonClasses('outline', 'sm')}
                  aria-label={`${t.open} ${flow.name}`}
                  data-testid="workspace-flow-open"
                >
                  {t.open}
                </Link>
              </Card>
            </li>
          ))}
        </ul>
      ) : (
        <p className="py-8 text-center text-slate-500" data-testid="workspace-flows-empty">
          {t.empty}
        </p>
      )}
      {mayCreate ? (
        <CreateFlowDialog open={createOpen} onOpenChange={setCreateOpen} workspaceId={workspace.id} />
      ) : null}
    </div>
  );
}
