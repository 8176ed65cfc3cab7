import { Layers, Plus, Trash2 } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { useConfirm } from '@/components/ui/confirm-dialog';
import { Field, Input, Select } from '@/components/ui/field';
import { LoadMore } from '@/components/ui/load-more';
import { Skeleton } from '@/components/ui/skeleton';
import { useToast } from '@/components/ui/toast';
import { useFlows } from '@/lib/flows-query';
import { formatDateTime } from '@/lib/format-date';
import { itemsOf } from '@/lib/paged-list';
import { useOneAtATime } from '@/lib/use-one-at-a-time';
import { useCreateMasterSession } from '../api/create-master-session';
import { useDeleteMasterSession, useMasterSessions } from '../api/get-master-sessions';
import { masterMode as t } from '../strings';

/** The user's sessions, the one changed last first: each opens or is deleted from here. */
function YourSessions({ onOpen }: { onOpen: (sessionId: string) => void }) {
  const sessions = useMasterSessions();
  const flows = useFlows();
  const remove = useDeleteMasterSession();
  const toast = useToast();
  const confirm = useConfirm();
  const flowName = (flowId: string | null) => flows.data?.find((f) => f.id === flowId)?.name;
  const list = itemsOf(sessions.data);

  return (
    <section className="flex flex-col gap-3" aria-labelledby="master-your-sessions">
      <h2 id="master-your-sessions" className="text-lg font-semibold text-slate-900">
        {t.yourSessions}
      </h2>
      {sessions.isLoading ? (
        <Skeleton className="h-20 w-full" />
      ) : list.length === 0 ? (
        <p className="text-sm text-slate-500">{t.noSessions}</p>
      ) : (
        list.map((session) => {
          const name = flowName(session.flowId);
          return (
            <Card
              key={session.id}
              className="flex flex-wrap items-center justify-between gap-4 p-4"
              data-testid="master-session-item"
              data-session-id={session.id}
            >
              <div className="min-w-0">
                <p className="truncate font-medium text-slate-900" data-testid="master-session-item-name">
                  {session.sessionName}
                </p>
                <p className="truncate text-sm text-slate-500">
                  {name ? t.ofFlow(name) : t.withoutFlow} · {t.updatedAt(formatDateTime(session.updatedAt))}
                </p>
              </div>
              <div className="flex shrink-0 items-center gap-2">
                <Badge tone="outline" data-testid="master-session-item-rows">
                  {t.rowCount(session.stepCount)}
                </Badge>
                <Button size="sm" onClick={() => onOpen(session.id)} data-testid="master-session-open">
                  {t.openSession}
                </Button>
                <Button
                  variant="ghost"
                  size="icon"
                  aria-label={t.deleteSessionLabel(session.sessionName)}
                  title={t.deleteSession}
                  disabled={remove.isPending}
                  onClick={async () => {
                    if (!(await confirm(t.deleteSessionConfirm(session.sessionName)))) return;
                    remove.mutate(session.id, {
                      onSuccess: () => toast({ title: t.sessionDeleted, variant: 'success' }),
                    });
                  }}
                  data-testid="master-session-delete"
                >
                  <Trash2 className="h-4 w-4 text-red-600" />
                </Button>
              </div>
            </Card>
          );
        })
      )}
      <LoadMore
        hasNextPage={sessions.hasNextPage}
        isFetchingNextPage={sessions.isFetchingNextPage}
        fetchNextPage={sessions.fetchNextPage}
        testId="master-sessions-load-more"
      />
    </section>
  );
}

/** The start page: a session from a name and, optionally, one of the user's flows; the user's sessions. */
export function MasterModeStart({ onOpen }: { onOpen: (sessionId: string) => void }) {
  const [name, setName] = useState('');
  const [flowId, setFlowId] = useState('');
  const workflows = useFlows();
  const create = useCreateMasterSession();
  const createOnce = useOneAtATime(create);
  const toast = useToast();
  const nameId = useId();
  const flowSelectId = useId();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (name.trim() === '') {
      toast({ title: t.nameRequired, variant: 'destructive' });
      return;
    }
    createOnce(
      { name: name.trim(), ...(flowId ? { flowId } : {}) },
      { onSuccess: (session) => onOpen(session.id) },
    );
  };

  const flows = workflows.data ?? [];
  return (
    <div className="mx-auto flex max-w-4xl flex-col gap-6 px-4 py-8" data-testid="master-mode-start">
      <div>
        <h1 className="flex items-center gap-2 text-2xl font-semibold text-slate-900">
          <Layers className="h-6 w-6 text-indigo-600" />
          {t.startTitle}
        </h1>
        <p className="mt-1 text-slate-600">{t.startDescription}</p>
      </div>

      <Card className="p-6">
        <h2 className="text-lg font-semibold text-slate-900">{t.newSession}</h2>
        <form onSubmit={submit} className="mt-4 flex flex-col gap-4" noValidate>
          <Field id={nameId} label={t.sessionName}>
            <Input
              id={nameId}
              value={name}
              onChange={(e) => setName(e.target.value)}
              placeholder={t.sessionNamePlaceholder}
              maxLength={200}
              data-testid="master-session-name"
            />
          </Field>
          <Field id={flowSelectId} label={t.flow}>
            <Select
              id={flowSelectId}
              value={flowId}
              onChange={(e) => setFlowId(e.target.value)}
              data-testid="master-flow-select"
            >
              <option value="">{t.noFlow}</option>
              {flows.map((flow) => (
                <option key={flow.id} value={flow.id}>
                  {t.flowOption(flow.name, flow.stepCount)}
                </option>
              ))}
            </Select>
          </Field>
          <div>
            <Button type="submit" disabled={create.isPending} data-testid="master-create-session">
              <Plus className="h-4 w-4" />
              {create.isPending ? t.creating : t.create}
            </Button>
          </div>
        </form>
      </Card>

      <YourSessions onOpen={onOpen} />

      <section className="flex flex-col gap-3">
        <h2 className="text-lg font-semibold text-slate-900">{t.availableWorkflows}</h2>
        {workflows.isLoading ? (
          <Skeleton className="h-20 w-full" />
        ) : flows.length === 0 ? (
          <p className="text-sm text-slate-500">{t.noWorkflows}</p>
        ) : (
          flows.map((flow) => (
            <Card
              key={flow.id}
              className="flex items-center justify-between gap-4 p-4"
              data-testid="master-available-workflow"
            >
              <div className="min-w-0">
                <p className="truncate font-medium text-slate-900">{flow.name}</p>
                <p className="truncate text-sm text-slate-500">{flow.description}</p>
              </div>
              <div className="flex shrink-0 items-center gap-3">
                <Badge tone="outline">{t.stepCount(flow.stepCount)}</Badge>
                <Button
                  variant={flow.id === flowId ? 'primary' : 'outline'}
                  size="sm"
                  onClick={() => {
                    setFlowId(flow.id);
                    setName(t.sessionNameFor(flow.name));
                  }}
                  data-testid="master-select-workflow"
                >
                  {t.select}
                </Button>
              </div>
            </Card>
          ))
        )}
      </section>
    </div>
  );
}
