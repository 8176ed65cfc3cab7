import { Users } from 'lucide-react';
import { Link } from 'wouter';
import { CreateByNameCard } from '@/components/create-by-name-card';
import { Badge } from '@/components/ui/badge';
import { Card } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { useToast } from '@/components/ui/toast';
import { toasts as common } from '@/lib/strings';
import { useOneAtATime } from '@/lib/use-one-at-a-time';
import { useWorkspaces } from '@/lib/workspace-roles';
import { WORKSPACE_NAME_MAX_LENGTH } from '../../../../domain/limits';
import { useCreateWorkspace } from '../api/workspaces';
import { roles, workspacesList as t } from '../strings';

function CreateWorkspaceForm() {
  const createWorkspace = useCreateWorkspace();
  const create = useOneAtATime(createWorkspace);
  const toast = useToast();
  return (
    <CreateByNameCard
      strings={t}
      maxLength={WORKSPACE_NAME_MAX_LENGTH}
      pending={createWorkspace.isPending}
      testId="workspace"
      onCreate={(name, made) =>
        create(name, {
          onSuccess: (workspace) => {
            toast({ title: common.success, description: t.created(workspace.name), variant: 'success' });
            made();
          },
        })
      }
    />
  );
}

/** /workspaces: the user's workspaces with their role in each, and a form to make one. */
export function WorkspacesPage() {
  const { data: workspaces, isLoading, error } = useWorkspaces();
  return (
    <div className="mx-auto max-w-4xl px-4 py-8" data-testid="workspaces-page">
      <h1 className="text-2xl font-bold text-slate-900">{t.title}</h1>
      <p className="mt-1 text-sm text-slate-600">{t.subtitle}</p>

      <div className="mt-6 flex flex-col gap-6">
        <CreateWorkspaceForm />
        {isLoading ? (
          <div className="flex flex-col gap-3">
            <Skeleton className="h-16 w-full" />
            <Skeleton className="h-16 w-full" />
          </div>
        ) : error ? (
          <p className="text-sm text-red-600">{t.loadFailed}</p>
        ) : workspaces && workspaces.length > 0 ? (
          <ul className="flex flex-col gap-3" data-testid="workspace-list">
            {workspaces.map((workspace) => (
              <li key={workspace.id}>
                <Card
                  className="flex items-center justify-between gap-4 p-5 transition-shadow hover:shadow-md"
                  data-testid="workspace-card"
                  data-workspace-id={workspace.id}
                >
                  <div className="flex min-w-0 items-center gap-3">
                    <Users className="h-5 w-5 shrink-0 text-indigo-600" aria-hidden />
                    <Link
                      href={`/workspaces/${workspace.id}`}
                      className="truncate text-lg font-semibold text-slate-900 hover:text-indigo-700 hover:underline"
                      data-testid="workspace-link"
                    >
                      {workspace.name}
                    </Link>
                  </div>
                  <Badge tone="indigo" title={t.yourRole} data-testid="workspace-role">
                    {roles[workspace.role]}
                  </Badge>
                </Card>
              </li>
            ))}
          </ul>
        ) : (
          <p className="py-8 text-center text-slate-500" data-testid="workspaces-empty">
            {t.empty}
          </p>
        )}
      </div>
    </div>
  );
}
