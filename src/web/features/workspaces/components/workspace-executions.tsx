import { type ReactNode, useId, useState } from 'react';
import { Link } from 'wouter';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Input, Select } from '@/components/ui/field';
import { Skeleton } from '@/components/ui/skeleton';
import { formatDateTime } from '@/lib/format-date';
import type { UserWorkspace } from '@/lib/workspace-roles';
import {
  type ExecutionFilters,
  useMembers,
  useWorkspaceExecutions,
  useWorkspaceFlows,
  type WorkspaceExecution,
} from '../api/workspaces';
import { executions as t } from '../strings';
import type { ExecutionHistoryDialog } from './handed-in';

const STATUSES = ['running', 'waiting', 'stopped', 'completed', 'failed'] as const;

const statusTone = {
  running: 'indigo',
  waiting: 'amber',
  stopped: 'neutral',
  completed: 'green',
  failed: 'red',
} as const;

/** A day picked in the date field, as the start of that day (from) or of the next (to), in local time. */
function dayBound(day: string, next: boolean): string | undefined {
  if (!day) return undefined;
  const date = new Date(`${day}T00:00:00`);
  if (Number.isNaN(date.getTime())) return undefined;
  if (next) date.setDate(date.getDate() + 1);
  return date.toISOString();
}

function FilterField({ label, children }: { label: string; children: (id: string) => ReactNode }) {
  const id = useId();
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-medium text-slate-700">
        {label}
      </label>
      {children(id)}
    </div>
  );
}

/**
 * The auditor's screen: the workspace's executions, newest first, filtered by flow, person, status and
 * day; each opens its history read-only.
 */
export function WorkspaceExecutions({
  workspace,
  historyDialog: HistoryDialog,
}: {
  workspace: UserWorkspace;
  historyDialog: ExecutionHistoryDialog;
}) {
  const flows = useWorkspaceFlows(workspace.id);
  const people = useMembers(workspace.id);
  const [flowId, setFlowId] = useState('');
  const [userId, setUserId] = useState('');
  const [status, setStatus] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [opened, setOpened] = useState<WorkspaceExecution | null>(null);

  const filters: ExecutionFilters = {
    ...(flowId ? { flowId } : {}),
    ...(userId ? { userId } : {}),
    ...(status ? { status: status as ExecutionFilters['status'] } : {}),
    ...(from ? { from: dayBound(from, false) } : {}),
    ...(to ? { to: dayBound(to, true) } : {}),
  };
  const list = useWorkspaceExecutions(workspace.id, filters);
  const rows = list.data?.pages.flatMap((page) => page.items) ?? [];

  return (
    <div className="flex flex-col gap-4" data-testid="workspace-executions">
      <Card className="p-5">
        <fieldset>
          <legend className="text-lg font-semibold text-slate-900">{t.filters}</legend>
          <div className="mt-3 grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-5">
            <FilterField label={t.flow}>
              {(id) => (
                <Select
                  id={id}
                  value={flowId}
                  onChange={(e) => setFlowId(e.target.value)}
                  data-testid="filter-flow"
                >
                  <option value="">{t.any}</option>
                  {(flows.data ?? []).map((flow) => (
                    <option key={flow.id} value={flow.id}>
                      {flow.name}
                    </option>
                  ))}
                </Select>
              )}
            </FilterField>
            <FilterField label={t.person}>
              {(id) => (
                <Select
                  id={id}
                  value={userId}
                  onChange={(e) => setUserId(e.target.value)}
                  data-testid="filter-person"
                >
                  <option value="">{t.any}</option>
                  {(people.data ?? []).map((member) => (
                    <option key={member.userId} value={member.userId}>
                      {member.name}
                    </option>
                  ))}
                </Select>
              )}
            </FilterField>
            <FilterField label={t.status}>
              {(id) => (
                <Select
                  id={id}
                  value={status}
                  onChange={(e) => setStatus(e.target.value)}
                  data-testid="filter-status"
                >
                  <option value="">{t.any}</option>
                  {STATUSES.map((value) => (
                    <option key={value} value={value}>
                      {t.statuses[value]}
                    </option>
                  ))}
                </Select>
              )}
            </FilterField>
            <FilterField label={t.from}>
              {(id) => (
                <Input
                  id={id}
                  type="date"
                  value={from}
                  onChange={(e) => setFrom(e.target.value)}
                  data-testid="filter-from"
                />
              )}
            </FilterField>
            <FilterField label={t.to}>
              {(id) => (
                <Input
                  id={id}
                  type="date"
                  value={to}
                  onChange={(e) => setTo(e.target.value)}
                  data-testid="filter-to"
                />
              )}
            </FilterField>
          </div>
        </fieldset>
      </Card>

      <Card className="p-5">
        <h2 className="text-lg font-semibold text-slate-900">{t.title}</h2>
        {list.isLoading ? (
          <Skeleton className="mt-3 h-24 w-full" />
        ) : list.error ? (
          <p className="mt-3 text-sm text-red-600">{list.error.message || t.loadFailed}</p>
        ) : rows.length === 0 ? (
          <p className="mt-3 text-sm text-slate-500" data-testid="executions-empty">
            {t.empty}
          </p>
        ) : (
          <div className="mt-3 overflow-x-auto">
            <table className="w-full text-left text-sm" data-testid="execution-list">
              <thead className="text-xs uppercase text-slate-500">
                <tr>
                  <th className="pb-2 pr-3 font-medium">{t.flow}</th>
                  <th className="pb-2 pr-3 font-medium">{t.person}</th>
                  <th className="pb-2 pr-3 font-medium">{t.status}</th>
                  <th className="pb-2 pr-3 font-medium">{t.startedAt}</th>
                  <th className="pb-2 pr-3 font-medium">{t.completedAt}</th>
                  <th className="pb-2 font-medium">
                    <span className="sr-only">{t.open}</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {rows.map((execution) => {
                  const started = formatDateTime(execution.startedAt);
                  const flowName = execution.flowName || t.deletedFlow;
                  return (
                    <tr
                      key={execution.id}
                      className="border-t border-slate-100"
                      data-testid="execution-row"
                      data-execution-id={execution.id}
                    >
                      <td className="py-3 pr-3 font-medium text-slate-900">
                        {execution.flowName ? (
                          <Link
                            href={`/flows/${execution.flowId}?mode=run`}
                            className="text-indigo-700 hover:underline"
                            data-testid="execution-flow-link"
                          >
                            {flowName}
                          </Link>
                        ) : (
                          flowName
                        )}
                      </td>
                      <td className="py-3 pr-3 text-slate-600">{execution.userName}</td>
                      <td className="py-3 pr-3">
                        <Badge tone={statusTone[execution.status]}>{t.statuses[execution.status]}</Badge>
                      </td>
                      <td className="py-3 pr-3 text-slate-600">{started}</td>
                      <td className="py-3 pr-3 text-slate-600">
                        {execution.completedAt ? formatDateTime(execution.completedAt) : '—'}
                      </td>
                      <td className="py-3 text-right">
                        <Button
                          variant="outline"
                          size="sm"
                          onClick={() => setOpened(execution)}
                          aria-label={t.openOf(flowName, started)}
                          data-testid="execution-open"
                        >
                          {t.open}
                        </Button>
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        )}
        {list.hasNextPage ? (
          <div className="mt-4 flex justify-center">
            <Button
              variant="outline"
              onClick={() => list.fetchNextPage()}
              disabled={list.isFetchingNextPage}
              data-testid="executions-load-more"
            >
              {list.isFetchingNextPage ? t.loadingMore : t.loadMore}
            </Button>
          </div>
        ) : null}
      </Card>
      {opened ? (
        <HistoryDialog
          key={opened.id}
          flowId={opened.flowId}
          executionId={opened.id}
          open
          onOpenChange={(open) => {
            if (!open) setOpened(null);
          }}
        />
      ) : null}
    </div>
  );
}
