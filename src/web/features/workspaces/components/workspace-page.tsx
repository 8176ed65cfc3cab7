import * as Tabs from '@radix-ui/react-tabs';
import { ArrowLeft } from 'lucide-react';
import { Link, useLocation, useParams, useSearch } from 'wouter';
import { Badge } from '@/components/ui/badge';
import { buttonClasses } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { mayDo, useWorkspaces } from '@/lib/workspace-roles';
import { roles, workspacePage as t } from '../strings';
import type { CreateFlowInWorkspaceDialog, ExecutionHistoryDialog } from './handed-in';
import { WorkspaceExecutions } from './workspace-executions';
import { WorkspaceFlows } from './workspace-flows';
import { WorkspaceMembers } from './workspace-members';
import { WorkspaceWebhooks } from './workspace-webhooks';

const SECTIONS = ['flows', 'members', 'executions', 'webhooks'] as const;
/** The sections only a workspace's owners see. */
const OWNERS_ONLY: readonly Section[] = ['webhooks'];
type Section = (typeof SECTIONS)[number];

const triggerClasses =
  'rounded-md px-3 py-1.5 text-sm font-medium text-slate-600 transition-colors data-[state=active]:bg-white data-[state=active]:text-slate-900 data-[state=active]:shadow-sm cursor-pointer';

/** `?tab=` is the section shown, so a reload or a shared link keeps it; Flows by default. */
function useSection(): [Section, (section: Section) => void] {
  const search = useSearch();
  const [location, navigate] = useLocation();
  const asked = new URLSearchParams(search).get('tab');
  const section = (SECTIONS as readonly string[]).includes(asked ?? '') ? (asked as Section) : 'flows';
  const setSection = (next: Section) => {
    const params = new URLSearchParams(search);
    params.set('tab', next);
    navigate(`${location}?${params}`, { replace: true });
  };
  return [section, setSection];
}

function WorkspaceNotFound() {
  return (
    <Card className="mx-auto mt-10 max-w-md p-8 text-center" data-testid="workspace-not-found">
      <h1 className="text-xl font-semibold text-slate-900">{t.notFoundTitle}</h1>
      <p className="mt-2 text-slate-600">{t.notFoundText}</p>
      <Link href="/workspaces" className={buttonClasses('outline', 'md', 'mt-6')}>
        {t.back}
      </Link>
    </Card>
  );
}

/** /workspaces/:id: the workspace's flows, members and executions, as the user's role there allows. */
export function WorkspacePage({
  historyDialog,
  createFlowDialog,
}: {
  historyDialog: ExecutionHistoryDialog;
  createFlowDialog: CreateFlowInWorkspaceDialog;
}) {
  const { id } = useParams<{ id: string }>();
  const { data: workspaces, isLoading } = useWorkspaces();
  const [section, setSection] = useSection();
  const workspace = workspaces?.find((candidate) => candidate.id === id);
  const owner = workspace !== undefined && mayDo(workspace.role, 'manage');
  const sections = SECTIONS.filter((value) => owner || !OWNERS_ONLY.includes(value));
  const shown = sections.includes(section) ? section : 'flows';

  return (
    <div className="mx-auto max-w-5xl px-4 py-8" data-testid="workspace-page">
      {isLoading ? (
        <div className="flex flex-col gap-4">
          <Skeleton className="h-8 w-1/3" />
          <Skeleton className="h-40 w-full" />
        </div>
      ) : !workspace ? (
        <WorkspaceNotFound />
      ) : (
        <>
          <div className="flex items-center gap-3">
            <Link href="/workspaces" className={buttonClasses('ghost', 'icon')} aria-label={t.back}>
              <ArrowLeft className="h-4 w-4" />
            </Link>
            <h1 className="truncate text-2xl font-bold text-slate-900" data-testid="workspace-name">
              {workspace.name}
            </h1>
            <Badge tone="indigo" data-testid="workspace-my-role" data-role={workspace.role}>
              {t.yourRole(roles[workspace.role])}
            </Badge>
          </div>
          <Tabs.Root className="mt-6" value={shown} onValueChange={(value) => setSection(value as Section)}>
            <Tabs.List className="inline-flex rounded-lg bg-slate-100 p-1" aria-label={t.sections}>
              {sections.map((value) => (
                <Tabs.Trigger
                  key={value}
                  value={value}
                  className={triggerClasses}
                  data-testid={`workspace-tab-${value}`}
                >
                  {t.tabs[value]}
                </Tabs.Trigger>
              ))}
            </Tabs.List>
            <div className="mt-4">
              <Tabs.Content value="flows">
                <WorkspaceFlows workspace={workspace} createFlowDialog={createFlowDialog} />
              </Tabs.Content>
              <Tabs.Content value="members">
                <WorkspaceMembers workspace={workspace} />
              </Tabs.Content>
              <Tabs.Content value="executions">
                <WorkspaceExecutions workspace={workspace} historyDialog={historyDialog} />
              </Tabs.Content>
              {owner ? (
                <Tabs.Content value="webhooks">
                  <WorkspaceWebhooks workspace={workspace} />
                </Tabs.Content>
              ) : null}
            </div>
          </Tabs.Root>
        </>
      )}
    </div>
  );
}
