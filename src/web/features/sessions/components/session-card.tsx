import { Clock, FolderOpen, Workflow } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { DeleteIconButton } from '@/components/ui/delete-icon-button';
import { relativeTimeOf } from '@/lib/relative-time';
import type { UserSession } from '../api/get-user-sessions';
import { sessions as t } from '../strings';

export function SessionCard({
  session,
  now,
  loading,
  busy,
  onLoad,
  onDelete,
}: {
  session: UserSession;
  /** One clock for the whole list, so cards made at the same moment read the same. */
  now: number;
  loading: boolean;
  busy: boolean;
  onLoad: () => void;
  onDelete: () => void;
}) {
  const updated = relativeTimeOf(session.lastActiveAt ?? session.createdAt, now) ?? t.unknownTime;
  const mode = session.sessionData.mode;
  return (
    <Card
      className="flex flex-col gap-4 p-5 sm:flex-row sm:items-start sm:justify-between"
      data-testid="session-card"
    >
      <div className="min-w-0">
        <h3 className="truncate text-lg font-semibold text-slate-900" data-testid="session-name">
          {session.sessionName}
        </h3>
        {session.sessionData.description ? (
          <p className="mt-1 text-sm text-slate-600" data-testid="session-description">
            {session.sessionData.description}
          </p>
        ) : null}
        <div className="mt-3 flex flex-wrap items-center gap-2 text-xs text-slate-500">
          <span className="inline-flex items-center gap-1" data-testid="session-updated">
            <Clock className="h-3.5 w-3.5" />
            {t.updated(updated)}
          </span>
          {/* A long flow name is cut to the card's width rather than widening the page. */}
          <Badge tone={session.flowName ? 'indigo' : 'outline'} className="max-w-full">
            <Workflow className="h-3 w-3 shrink-0" />
            <span className="truncate">{session.flowName ? t.flowOf(session.flowName) : t.noFlow}</span>
          </Badge>
          {session.flowName && mode ? <Badge tone="outline">{t.modeOf(t.modes[mode])}</Badge> : null}
        </div>
      </div>
      <div className="flex shrink-0 gap-2">
        <Button size="sm" onClick={onLoad} disabled={busy} data-testid="load-session">
          <FolderOpen className="h-4 w-4" />
          {loading ? t.loading : t.load}
        </Button>
        <DeleteIconButton label={t.delete} disabled={busy} onClick={onDelete} testId="delete-session" />
      </div>
    </Card>
  );
}
