import { Plus, Search, Sparkles, Wand2 } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'wouter';
import { Button, buttonClasses } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { useConfirm } from '@/components/ui/confirm-dialog';
import { Input } from '@/components/ui/field';
import { LoadMore } from '@/components/ui/load-more';
import { Skeleton } from '@/components/ui/skeleton';
import { useToast } from '@/components/ui/toast';
import { useUser } from '@/features/auth';
import { cn } from '@/lib/cn';
import { type FlowListItem, useFlowPages } from '@/lib/flows-query';
import { itemsOf } from '@/lib/paged-list';
import { flowsList as t, toasts, workspaceRoles } from '@/lib/strings';
import { mayDo, mayMakeFlows, type UserWorkspace, useWorkspaces } from '@/lib/workspace-roles';
import { mayChangeReviewRule } from '../../../../domain/step-review';
import { mayTakeBack } from '../../../../domain/workspace/roles';
import { useDeleteFlow } from '../api/delete-flow';
import { useMoveFlow } from '../api/move-flow';
import { flowPlaces } from '../strings';
import { AiCreatorDialog } from './ai-creator-dialog';
import { CreateFlowDialog } from './create-flow-dialog';
import { FirstRunBanner } from './first-run-banner';
import { FlowCard, type MoveTarget } from './flow-card';
import { matchesSearch } from './flow-search';
import { WelcomeBanner } from './welcome-banner';

function FlowsSkeleton() {
  return (
    <div className="flex flex-col gap-4" data-testid="flows-loading">
      {[0, 1, 2].map((i) => (
        <Card key={i} className="p-5">
          <Skeleton className="h-5 w-1/3" />
          <Skeleton className="mt-3 h-4 w-2/3" />
          <Skeleton className="mt-2 h-4 w-1/2" />
        </Card>
      ))}
    </div>
  );
}

/**
 * Whose flows the list shows: "Mine" (the default) or one of the user's workspaces. Shown only to a user
 * in a workspace, so the list of one who is in none is as it always was.
 */
function FlowPlaces({
  workspaces,
  selected,
  onSelect,
}: {
  workspaces: UserWorkspace[];
  selected: string | null;
  onSelect: (workspaceId: string | null) => void;
}) {
  const places = [{ id: null, name: flowPlaces.mine }, ...workspaces];
  return (
    <fieldset
      className="mt-6 inline-flex max-w-full flex-wrap gap-1 rounded-lg bg-slate-100 p-1"
      aria-label={flowPlaces.label}
      data-testid="flow-places"
    >
      {places.map((place) => (
        <button
          key={place.id ?? 'mine'}
          type="button"
          aria-pressed={place.id === selected}
          onClick={() => onSelect(place.id)}
          className={cn(
            'cursor-pointer rounded-md px-3 py-1.5 text-sm font-medium transition-colors',
            place.id === selected
              ? 'bg-white text-slate-900 shadow-sm'
              : 'text-slate-600 hover:text-slate-900',
          )}
          data-testid="flow-place"
          data-workspace-id={place.id ?? ''}
        >
          {place.name}
        </button>
      ))}
    </fieldset>
  );
}

export function FlowsPage() {
  const workspaces = useWorkspaces().data ?? [];
  const [placeId, setPlaceId] = useState<string | null>(null);
  const place = workspaces.find((workspace) => workspace.id === placeId) ?? null;
  const workspaceId = place?.id ?? null;
  // Read page by page as the list scrolls: a page costs the same however many flows there are.
  const pages = useFlowPages(workspaceId);
  const { isLoading } = pages;
  const flows = pages.data ? itemsOf(pages.data) : undefined;
  const moveFlow = useMoveFlow();
  const toast = useToast();
  const { user } = useUser();
  const mayCreate = place === null || mayMakeFlows(place.role);
  // Moves go to a workspace where the user makes flows, or back to their own.
  const moveTargets: MoveTarget[] = [
    ...(place === null ? [] : [{ workspaceId: null, name: flowPlaces.mine }]),
    ...workspaces
      .filter((workspace) => workspace.id !== workspaceId && mayMakeFlows(workspace.role))
      .map((workspace) => ({ workspaceId: workspace.id, name: workspace.name })),
  ];
  // A flow whose steps have review rules leaves a workspace, or is deleted, only by an owner of it.
  const mayLetGo = (flow: FlowListItem) =>
    place === null || !flow.reviewRules || mayChangeReviewRule(place.role);
  // Back to one's own flows only a flow's owner takes it, as the server decides.
  const targetsOf = (flow: FlowListItem) =>
    mayCreate && mayLetGo(flow)
      ? moveTargets.filter(
          (target) => target.workspaceId !== null || (user !== null && mayTakeBack(user.id, flow.userId)),
        )
      : [];
  const move = (flow: FlowListItem, target: MoveTarget) =>
    moveFlow.mutate(
      { flowId: flow.id, workspaceId: target.workspaceId },
      {
        onSuccess: () =>
          toast({
            title: toasts.success,
            description: flowPlaces.moved(flow.name, target.name),
            variant: 'success',
          }),
      },
    );
  const deleteFlow = useDeleteFlow();
  const confirm = useConfirm();
  const [search, setSearch] = useState('');
  const [createOpen, setCreateOpen] = useState(false);
  const [aiCreatorOpen, setAiCreatorOpen] = useState(false);

  const hasFlows = (flows?.length ?? 0) > 0;
  const visible = (flows ?? []).filter((flow) => matchesSearch(flow, search));

  const remove = async (flow: FlowListItem) => {
    if (!(await confirm(t.deleteConfirm))) return;
    deleteFlow.mutate(flow.id, {
      onSuccess: () =>
        toast({ title: toasts.deleteSuccessTitle, description: toasts.flowDeleted, variant: 'success' }),
    });
  };

  return (
    <div className="mx-auto max-w-5xl px-4 py-8" data-testid="flows-page">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
        <h1 className="text-2xl font-bold text-slate-900" data-testid="flows-heading">
          {isLoading || hasFlows || place !== null ? t.heading : t.headingFirst}
        </h1>
        <div className="flex flex-wrap gap-2">
          <Link
            href="/ai-flow-creator"
            className={buttonClasses('outline', 'md')}
            data-testid="ai-flow-creator-link"
          >
            <Wand2 className="h-4 w-4" />
            {t.aiFlowCreator}
          </Link>
          <Button variant="outline" onClick={() => setAiCreatorOpen(true)} data-testid="ai-creator-button">
            <Sparkles className="h-4 w-4" />
            {t.aiCreator}
          </Button>
          {mayCreate ? (
            <Button onClick={() => setCreateOpen(true)} data-testid="create-flow-button">
              <Plus className="h-4 w-4" />
              {t.createManual}
            </Button>
          ) : null}
        </div>
      </div>

      {workspaces.length > 0 ? (
        <FlowPlaces workspaces={workspaces} selected={workspaceId} onSelect={setPlaceId} />
      ) : null}
      {place && !mayCreate ? (
        <p className="mt-2 text-sm text-slate-500" data-testid="flows-read-only">
          {flowPlaces.readOnly(workspaceRoles[place.role])}
        </p>
      ) : null}

      {!isLoading && !hasFlows && place === null ? (
        <div className="mt-6 flex flex-col gap-4">
          <WelcomeBanner />
          <FirstRunBanner />
        </div>
      ) : null}

      <div className="relative mt-6">
        <Search className="pointer-events-none absolute left-3 top-1/2 h-4 w-4 -translate-y-1/2 text-slate-500" />
        <Input
          type="search"
          placeholder={t.search}
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          className="pl-9"
          data-testid="flow-search"
        />
      </div>

      <p className="mt-2 flex flex-wrap gap-3 text-xs text-slate-500" data-testid="flows-other-views">
        {t.otherViews}
        <Link href="/flows-fast" className="text-indigo-600 hover:underline">
          {t.fastList}
        </Link>
        <Link href="/workshop" className="text-indigo-600 hover:underline">
          {t.workshop}
        </Link>
      </p>

      <div className="mt-6">
        {isLoading ? (
          <FlowsSkeleton />
        ) : visible.length > 0 ? (
          <div className="flex flex-col gap-4" data-testid="flow-list">
            {visible.map((flow) => (
              <FlowCard
                key={flow.id}
                flow={flow}
                onDelete={remove}
                mayDelete={place === null || (mayDo(place.role, 'change') && mayLetGo(flow))}
                moveTargets={targetsOf(flow)}
                onMove={move}
              />
            ))}
          </div>
        ) : hasFlows ? (
          // No match among the flows read so far: the pages after are still being read.
          pages.hasNextPage ? null : (
            <p className="py-12 text-center text-slate-500" data-testid="flows-no-match">
              {t.noMatch}
            </p>
          )
        ) : (
          <div className="flex flex-col items-center py-12 text-center" data-testid="flows-empty">
            <p className="text-slate-500">{t.noFlows}</p>
            {mayCreate ? (
              <Button
                className="mt-4"
                onClick={() => setCreateOpen(true)}
                data-testid="create-first-flow-button"
              >
                <Plus className="h-4 w-4" />
                {t.createFirst}
              </Button>
            ) : null}
          </div>
        )}
        {/* A search matches the flows read so far: the pages after are read while the end is in view. */}
        <LoadMore
          hasNextPage={pages.hasNextPage}
          isFetchingNextPage={pages.isFetchingNextPage}
          fetchNextPage={pages.fetchNextPage}
          testId="flows-load-more"
        />
      </div>

      <CreateFlowDialog open={createOpen} onOpenChange={setCreateOpen} workspaceId={workspaceId} />
      <AiCreatorDialog open={aiCreatorOpen} onOpenChange={setAiCreatorOpen} />
    </div>
  );
}
