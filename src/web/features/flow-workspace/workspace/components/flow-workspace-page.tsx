import { UserX } from 'lucide-react';
import type { ComponentType } from 'react';
import { Link, useLocation, useParams, useSearch } from 'wouter';
import { buttonClasses } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { useLiveFlow } from '@/features/flow-workspace/api/use-live-flow';
import { ChatMode } from '@/features/flow-workspace/chat/components/chat-mode';
import { EditMode } from '@/features/flow-workspace/edit/components/edit-mode';
import { RunMode, type RunTarget } from '@/features/flow-workspace/run/components/run-mode';
import { workspace as t } from '@/features/flow-workspace/strings';
import { ApiError } from '@/lib/api-client';
import { useFlow } from '@/lib/flow-query';
import { useRemovedFromWorkspace } from '@/lib/removed-from-workspace';
import { useSteps } from '@/lib/steps-query';
import { app } from '@/lib/strings';
import { RecordAccessProvider, useMay } from '@/lib/workspace-roles';
import { WORKSPACE_MODES, WorkspaceHeader, type WorkspaceMode } from './workspace-header';

/** `?mode=` is the mode shown (edit, run, chat or master); anything else means edit. */
export function modeOf(search: string): WorkspaceMode {
  const mode = new URLSearchParams(search).get('mode');
  return mode && mode !== 'edit' && (WORKSPACE_MODES as readonly string[]).includes(mode)
    ? (mode as WorkspaceMode)
    : 'edit';
}

/**
 * `?execution=` and `?step=`: the run screen shows that execution (not the flow's latest) with that step in
 * view; the link a review gives (reviewLink) says so.
 */
export function runTargetOf(search: string): RunTarget {
  const params = new URLSearchParams(search);
  return { executionId: params.get('execution') || null, stepId: params.get('step') || null };
}

/** A flow page while its flow loads. */
export function FlowLoading({ testId }: { testId: string }) {
  return (
    <div className="flex flex-col gap-4" data-testid={testId}>
      <span className="sr-only">{app.loading}</span>
      <Skeleton className="h-8 w-1/3" />
      <Skeleton className="h-24 w-full" />
      <Skeleton className="h-24 w-full" />
    </div>
  );
}

/** 404: missing or not this user's; 400: not even a flow id. Either way there is no such flow. */
export const isMissingFlow = (error: unknown) =>
  error instanceof ApiError && (error.status === 404 || error.status === 400);

export function FlowNotFound() {
  return (
    <Card className="mx-auto mt-10 max-w-md p-8 text-center" data-testid="flow-not-found">
      <h1 className="text-xl font-semibold text-slate-900">{t.notFoundTitle}</h1>
      <p className="mt-2 text-slate-600">{t.notFoundText}</p>
      <Link href="/flows" className={buttonClasses('outline', 'md', 'mt-6')} data-testid="back-to-flows">
        {t.backToFlows}
      </Link>
    </Card>
  );
}

/** The master mode of a flow; another feature's screen, handed in by the app (features do not import each other). */
export type MasterModeOfFlow = ComponentType<{ flowId: string; flowName: string; onBack: () => void }>;

/**
 * The mode lives in the URL: a switch is a new history entry, so a reload keeps the mode and the browser's
 * back and forward move between modes.
 */
function useWorkspaceMode(): [WorkspaceMode, (mode: WorkspaceMode) => void] {
  const search = useSearch();
  const [location, navigate] = useLocation();
  const setMode = (mode: WorkspaceMode) => {
    const params = new URLSearchParams(search);
    params.set('mode', mode);
    navigate(`${location}?${params}`);
  };
  return [modeOf(search), setMode];
}

/** The user was removed from the flow's workspace while the page was open. */
function RemovedFromWorkspace() {
  return (
    <div
      className="flex flex-wrap items-center gap-3 rounded-lg border border-red-200 bg-red-50 p-4 text-sm text-red-900"
      role="alert"
      data-testid="removed-from-workspace"
    >
      <UserX className="h-5 w-5 shrink-0" aria-hidden />
      <div className="min-w-0 flex-1">
        <p className="font-semibold">{t.removedTitle}</p>
        <p>{t.removedText}</p>
      </div>
      <Link href="/workspaces" className={buttonClasses('outline', 'sm')}>
        {t.toWorkspaces}
      </Link>
    </div>
  );
}

function Workspace({ flowId, masterMode }: { flowId: string; masterMode: MasterModeOfFlow }) {
  const flow = useFlow(flowId);
  const removed = useRemovedFromWorkspace(flow.data?.workspaceId);
  // A workspace's flow allows what the user's role there does; the screens below ask with useMay. Once the
  // user is removed from it, no role is left, and every control still shown is turned off.
  return (
    <RecordAccessProvider workspaceId={flow.data?.workspaceId}>
      <div className="flex flex-col gap-4">
        {removed ? <RemovedFromWorkspace /> : null}
        <fieldset
          disabled={removed}
          className="m-0 min-w-0 border-0 p-0"
          data-testid="flow-workspace-controls"
        >
          <WorkspaceModes flowId={flowId} masterMode={masterMode} removed={removed} />
        </fieldset>
      </div>
    </RecordAccessProvider>
  );
}

function WorkspaceModes({
  flowId,
  masterMode: MasterMode,
  removed,
}: {
  flowId: string;
  masterMode: MasterModeOfFlow;
  /** The user left the flow's workspace: what was read stays on screen (the flow now answers 404). */
  removed: boolean;
}) {
  const [asked, setMode] = useWorkspaceMode();
  const search = useSearch();
  const flow = useFlow(flowId);
  const mayRun = useMay('run');
  // Chat and master mode run the flow: one who may not run it sees the run screen, read-only.
  const mode = !mayRun && (asked === 'chat' || asked === 'master') ? 'run' : asked;
  const steps = useSteps(flowId);
  useLiveFlow(flowId);

  if (flow.isLoading) return <FlowLoading testId="workspace-loading" />;
  // Removed from its workspace, the user keeps what was read in view, and the flow's reads now fail.
  const failed = removed && flow.data ? null : flow.error;
  if (isMissingFlow(failed)) return <FlowNotFound />;
  if (failed || !flow.data) {
    return <p className="py-10 text-center text-red-700">{flow.error?.message}</p>;
  }

  const stepList = steps.data ?? [];
  return (
    <div className="flex flex-col gap-6">
      {mode === 'edit' || mode === 'run' ? (
        <WorkspaceHeader flow={flow.data} mode={mode} onModeChange={setMode} />
      ) : null}
      {steps.isLoading ? (
        <Skeleton className="h-40 w-full" />
      ) : mode === 'run' ? (
        <RunMode flow={flow.data} steps={stepList} target={runTargetOf(search)} />
      ) : mode === 'edit' ? (
        <EditMode flow={flow.data} steps={stepList} />
      ) : mode === 'chat' ? (
        <ChatMode flow={flow.data} steps={stepList} onBack={() => setMode('run')} />
      ) : (
        <MasterMode flowId={flowId} flowName={flow.data.name} onBack={() => setMode('run')} />
      )}
    </div>
  );
}

export function FlowWorkspacePage({ masterMode }: { masterMode: MasterModeOfFlow }) {
  const { flowId } = useParams<{ flowId: string }>();
  return (
    <div className="mx-auto max-w-7xl px-4 py-6" data-testid="flow-workspace">
      {/* A different flow is a fresh workspace: mode and local edits do not carry over. */}
      <Workspace key={flowId} flowId={flowId} masterMode={masterMode} />
    </div>
  );
}
