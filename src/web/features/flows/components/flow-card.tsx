import { Download, MessageSquare, MoreVertical, Pencil, Play, Trash2 } from 'lucide-react';
import { Link } from 'wouter';
import { Badge } from '../../../components/ui/badge';
import { buttonClasses } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
} from '../../../components/ui/dropdown-menu';
import { dates, flowsList as t } from '../../../lib/strings';
import type { FlowListItem } from '../api/get-flows';

const statusTone = (status: string) =>
  status === 'active' ? 'green' : status === 'draft' ? 'amber' : 'neutral';

export function FlowCard({ flow, onDelete }: { flow: FlowListItem; onDelete: (flow: FlowListItem) => void }) {
  return (
    <Card className="p-5 transition-shadow hover:shadow-md" data-testid="flow-card" data-flow-id={flow.id}>
      <div className="flex flex-col gap-4 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0 flex-1">
          <div className="flex flex-wrap items-center gap-2">
            <h3 className="truncate text-lg font-semibold text-slate-900" data-testid="flow-card-name">
              {flow.name}
            </h3>
            <Badge tone="indigo" data-testid="flow-card-step-count">
              {t.stepCount(flow.stepCount)}
            </Badge>
            <Badge tone={statusTone(flow.status)} data-testid="flow-card-status">
              {t.status(flow.status)}
            </Badge>
          </div>
          <p className="mt-1 line-clamp-2 text-sm text-slate-600" data-testid="flow-card-description">
            {flow.description}
          </p>
          {flow.lastRun ? (
            <p className="mt-2 text-xs text-slate-500" data-testid="flow-card-last-run">
              {t.lastRun(new Date(flow.lastRun).toLocaleString(dates.locale))}
            </p>
          ) : null}
        </div>
        <div className="flex shrink-0 items-center gap-2">
          <Link
            href={`/flows/${flow.id}?mode=run`}
            className={buttonClasses('primary', 'sm')}
            data-testid="flow-card-run"
          >
            <Play className="h-4 w-4" />
            {t.run}
          </Link>
          <Link
            href={`/flows/${flow.id}?mode=chat`}
            className={buttonClasses('outline', 'sm')}
            data-testid="flow-card-chat"
          >
            <MessageSquare className="h-4 w-4" />
            {t.chat}
          </Link>
          <Link
            href={`/flows/${flow.id}`}
            className={buttonClasses('outline', 'sm')}
            data-testid="flow-card-edit"
          >
            <Pencil className="h-4 w-4" />
            {t.edit}
          </Link>
          <DropdownMenu>
            <DropdownMenuTrigger
              className={buttonClasses('ghost', 'icon')}
              aria-label={t.menu}
              data-testid="flow-menu"
            >
              <MoreVertical className="h-4 w-4" />
            </DropdownMenuTrigger>
            <DropdownMenuContent>
              {/* Export comes with the export dialog; until then the entry says so instead of doing nothing. */}
              <DropdownMenuItem disabled data-testid="flow-export">
                <Download className="h-4 w-4" />
                {t.exportJson}
                <span className="ml-auto text-xs text-slate-400">{t.exportComing}</span>
              </DropdownMenuItem>
              <DropdownMenuItem destructive onSelect={() => onDelete(flow)} data-testid="flow-delete">
                <Trash2 className="h-4 w-4" />
                {t.delete}
              </DropdownMenuItem>
            </DropdownMenuContent>
          </DropdownMenu>
        </div>
      </div>
    </Card>
  );
}
