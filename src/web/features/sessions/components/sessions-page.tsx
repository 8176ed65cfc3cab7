import { Bookmark, Plus } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { useConfirm } from '@/components/ui/confirm-dialog';
import { LoadMore } from '@/components/ui/load-more';
import { Skeleton } from '@/components/ui/skeleton';
import { useToast } from '@/components/ui/toast';
import { itemsOf } from '@/lib/paged-list';
import { toasts } from '@/lib/strings';
import { useDeleteUserSession } from '../api/delete-user-session';
import { type UserSession, useUserSessions } from '../api/get-user-sessions';
import { useLoadUserSession } from '../api/load-user-session';
import { sessions as t } from '../strings';
import { CreateSessionDialog } from './create-session-dialog';
import { SessionCard } from './session-card';

/** Long enough to read 'Session đã được tải' before the page reloads into the session. */
export const RELOAD_AFTER_LOAD_MS = 600;

function SessionsSkeleton() {
  return (
    <div className="flex flex-col gap-4" data-testid="sessions-loading">
      {[0, 1, 2].map((i) => (
        <Card key={i} className="flex flex-col gap-3 p-5">
          <Skeleton className="h-5 w-1/3" />
          <Skeleton className="h-4 w-2/3" />
          <Skeleton className="h-3 w-1/4" />
        </Card>
      ))}
    </div>
  );
}

export function SessionsPage() {
  const sessions = useUserSessions();
  const deleteSession = useDeleteUserSession();
  const loadSession = useLoadUserSession();
  const toast = useToast();
  const confirm = useConfirm();
  const [createOpen, setCreateOpen] = useState(false);
  const [loadingId, setLoadingId] = useState<string | null>(null);

  const load = (session: UserSession) => {
    setLoadingId(session.id);
    loadSession.mutate(session.id, {
      onSuccess: ({ url }) => {
        toast({ title: toasts.success, description: t.loaded, variant: 'success' });
        // A full reload: the session's flow and execution are read afresh, with nothing kept from here.
        window.setTimeout(() => window.location.assign(url), RELOAD_AFTER_LOAD_MS);
      },
      onError: () => setLoadingId(null),
    });
  };

  const remove = async (session: UserSession) => {
    if (!(await confirm(t.deleteConfirm))) return;
    deleteSession.mutate(session.id, {
      onSuccess: () => toast({ title: toasts.success, description: t.deleted, variant: 'success' }),
    });
  };

  const list = itemsOf(sessions.data);
  const now = Date.now();
  return (
    <div className="mx-auto max-w-4xl px-4 py-8" data-testid="sessions-page">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
        <div>
          <h1 className="text-2xl font-bold text-slate-900">{t.title}</h1>
          <p className="mt-1 text-sm text-slate-600">{t.subtitle}</p>
        </div>
        <Button onClick={() => setCreateOpen(true)} data-testid="create-session-button">
          <Plus className="h-4 w-4" />
          {t.create}
        </Button>
      </div>

      <div className="mt-6">
        {sessions.isLoading ? (
          <SessionsSkeleton />
        ) : sessions.error ? (
          <p className="py-10 text-center text-sm text-red-600" data-testid="sessions-load-failed">
            {t.loadFailedList}
          </p>
        ) : list.length === 0 ? (
          <Card className="flex flex-col items-center p-10 text-center" data-testid="sessions-empty">
            <span className="flex h-12 w-12 items-center justify-center rounded-full bg-indigo-50 text-indigo-600">
              <Bookmark className="h-6 w-6" />
            </span>
            <h2 className="mt-4 text-lg font-semibold text-slate-900">{t.emptyTitle}</h2>
            <p className="mt-1 max-w-md text-sm text-slate-600">{t.emptyText}</p>
            <Button className="mt-6" onClick={() => setCreateOpen(true)} data-testid="create-first-session">
              <Plus className="h-4 w-4" />
              {t.createFirst}
            </Button>
          </Card>
        ) : (
          <div className="flex flex-col gap-4" data-testid="session-list">
            {list.map((session) => (
              <SessionCard
                key={session.id}
                session={session}
                now={now}
                loading={loadingId === session.id}
                busy={loadingId !== null || deleteSession.isPending}
                onLoad={() => load(session)}
                onDelete={() => remove(session)}
              />
            ))}
          </div>
        )}
        <LoadMore
          hasNextPage={sessions.hasNextPage}
          isFetchingNextPage={sessions.isFetchingNextPage}
          fetchNextPage={sessions.fetchNextPage}
          testId="sessions-load-more"
        />
      </div>

      <CreateSessionDialog open={createOpen} onOpenChange={setCreateOpen} />
    </div>
  );
}
