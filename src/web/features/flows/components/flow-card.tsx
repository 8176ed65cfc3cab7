import {
  Download,
  FolderInput,
  Loader2,
  MessageSquare,
  MoreVertical,
  Pencil,
  Play,
  Trash2,
} from 'lucide-react';
import { useState } from 'react';
import { Link } from 'wouter';
import { Badge } from '@/components/ui/badge';
import { buttonClasses } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import type { FlowExport } from '@/features/flows/api/export-flow';
import { flowStatusBadge, flowStatusTone } from '@/lib/flow-status';
import type { FlowListItem } from '@/lib/flows-query';
import { formatDateTime } from '@/lib/format-date';
import { flowsList as t } from '@/lib/strings';
import { useOneAtATime } from '@/lib/use-one-at-a-time';
import { useExportFlow } from '../api/export-flow';
import { flowPlaces } from '../strings';
import { ExportFlowDialog } from './export-flow-dialog';

/** Where a flow may be moved: a workspace (its id) or back to the user's own flows (null). */
export interface MoveTarget {
  workspaceId: string | null;
  name: string;
}

export function FlowCard({
  flow,
  onDelete,
  mayDelete = true,
  moveTargets = [],
  onMove,
}: {
  flow: FlowListItem;
  onDelete: (flow: FlowListItem) => void;
  /** Whether the user may delete it (a workspace's flow: owners and editors). */
  mayDelete?: boolean;
  /** Where the "Move to…" entries may take it; none: no such entries. */
  moveTargets?: MoveTarget[];
  onMove?: (flow: FlowListItem, target: MoveTarget) => void;
}) {
  const [menuOpen, setMenuOpen] = useState(false);
  const [exported, setExported] = useState<FlowExport['workflow'] | null>(null);
  const exportFlow = useExportFlow();
  const startOneExport = useOneAtATime(exportFlow);
  const status = flowStatusBadge(flow.status);

  const startExport = (event: Event) => {
    // The menu stays open while the export loads, so that its entry can say so.
    event.preventDefault();
    startOneExport(flow.id, {
      onSuccess: ({ workflow }) => {
        setMenuOpen(false);
        setExported(workflow);
      },
      onError: () => setMenuOpen(false),
    });
  };

  return (
    <Card className="p-5 transition-shadow hover:shadow-md" data-testid="flow-card" data-flow-id={flow.id}>
      <div className="flex flex-col gap-4 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0 flex-1">
          <div className="flex flex-wrap items-center gap-2">
            <h2 className="truncate text-lg font-semibold text-slate-900" data-testid="flow-card-name">
              {flow.name}
            </h2>
            <Badge tone="indigo" data-testid="flow-card-step-count">
              {t.stepCount(flow.stepCount)}
            </Badge>
            <Badge tone={flowStatusTone[status]} data-testid="flow-card-status">
              {t.statuses[status]}
            </Badge>
          </div>
          <p className="mt-1 line-clamp-2 text-sm text-slate-600" data-testid="flow-card-description">
            {flow.description}
          </p>
          {flow.lastRun ? (
            <p className="mt-2 text-xs text-slate-500" data-testid="flow-card-last-run">
              {t.lastRun(formatDateTime(flow.lastRun))}
            </p>
          ) : null}
        </div>
        <div className="flex shrink-0 items-center gap-2">
          <Link
            href={`/workshop/${flow.id}?mode=run`}
            className={buttonClasses('primary', 'sm')}
            data-testid="flow-card-run"
          >
            <Play className="h-4 w-4" />
            {t.run}
          </Link>
          <Link
            href={`/workshop/${flow.id}?mode=chat`}
            className={buttonClasses('outline', 'sm')}
            data-testid="flow-card-chat"
          >
            <MessageSquare className="h-4 w-4" />
            {t.chat}
          </Link>
          <Link
            href={`/workshop/${flow.id}`}
            className={buttonClasses('outline', 'sm')}
            data-testid="flow-card-edit"
          >
            <Pencil className="h-4 w-4" />
            {t.edit}
          </Link>
          <DropdownMenu open={menuOpen} onOpenChange={setMenuOpen}>
            <DropdownMenuTrigger
              className={buttonClasses('ghost', 'icon')}
              aria-label={t.menu}
              data-testid="flow-menu"
            >
              <MoreVertical className="h-4 w-4" />
            </DropdownMenuTrigger>
            <DropdownMenuContent>
              <DropdownMenuItem
                onSelect={startExport}
                aria-disabled={exportFlow.isPending}
                data-testid="flow-export"
              >
                {exportFlow.isPending ? (
                  <Loader2 className="h-4 w-4 animate-spin" />
                ) : (
                  <Download className="h-4 w-4" />
                )}
                {exportFlow.isPending ? t.exporting : t.exportJson}
              </DropdownMenuItem>
              {moveTargets.length > 0 && onMove ? (
                <>
                  <DropdownMenuSeparator />
                  <DropdownMenuLabel>{flowPlaces.moveTo}</DropdownMenuLabel>
                  {moveTargets.map((target) => (
                    <DropdownMenuItem
                      key={target.workspaceId ?? 'mine'}
                      onSelect={() => onMove(flow, target)}
                      data-testid="flow-move"
                      data-workspace-id={target.workspaceId ?? ''}
                    >
                      <FolderInput className="h-4 w-4" />
                      {target.name}
                    </DropdownMenuItem>
                  ))}
                  <DropdownMenuSeparator />
                </>
              ) : null}
              {mayDelete ? (
                <DropdownMenuItem destructive onSelect={() => onDelete(flow)} data-testid="flow-delete">
                  <Trash2 className="h-4 w-4" />
                  {t.delete}
                </DropdownMenuItem>
              ) : null}
            </DropdownMenuContent>
          </DropdownMenu>
        </div>
      </div>
      <ExportFlowDialog flowName={flow.name} workflow={exported} onClose={() => setExported(null)} />
    </Card>
  );
}
