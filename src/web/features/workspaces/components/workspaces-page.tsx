import { zodResolver } from '@hookform/resolvers/zod';
import { Plus, Users } from 'lucide-react';
import { useId } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'wouter';
import { z } from 'zod';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Field, Input } from '@/components/ui/field';
import { Skeleton } from '@/components/ui/skeleton';
import { useToast } from '@/components/ui/toast';
import { toasts as common } from '@/lib/strings';
import { useOneAtATime } from '@/lib/use-one-at-a-time';
import { useWorkspaces } from '@/lib/workspace-roles';
import { WORKSPACE_NAME_MAX_LENGTH } from '../../../../domain/limits';
import { useCreateWorkspace } from '../api/workspaces';
import { roles, workspacesList as t } from '../strings';

/** A workspace's name as the server takes it: not blank, at most WORKSPACE_NAME_MAX_LENGTH characters. */
const newWorkspaceSchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, t.nameRequired)
    .max(WORKSPACE_NAME_MAX_LENGTH, t.nameTooLong(WORKSPACE_NAME_MAX_LENGTH)),
});

function CreateWorkspaceForm() {
  const form = useForm({
    resolver: zodResolver(newWorkspaceSchema),
    defaultValues: { name: '' },
    mode: 'onChange',
  });
  const createWorkspace = useCreateWorkspace();
  const create = useOneAtATime(createWorkspace);
  const toast = useToast();
  const nameId = useId();
  const error = form.formState.errors.name?.message;

  const submit = form.handleSubmit(({ name }) =>
    create(name, {
      onSuccess: (workspace) => {
        toast({ title: common.success, description: t.created(workspace.name), variant: 'success' });
        form.reset();
      },
    }),
  );

  return (
    <Card className="p-5" data-testid="create-workspace">
      <h2 className="text-lg font-semibold text-slate-900">{t.createTitle}</h2>
      <form onSubmit={submit} className="mt-3 flex flex-col gap-3 sm:flex-row sm:items-end">
        <div className="flex-1">
          <Field id={nameId} label={t.name}>
            <Input
              id={nameId}
              {...form.register('name')}
              placeholder={t.namePlaceholder}
              maxLength={WORKSPACE_NAME_MAX_LENGTH}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? `${nameId}-error` : undefined}
              data-testid="workspace-name-input"
            />
          </Field>
        </div>
        <Button
          type="submit"
          disabled={createWorkspace.isPending}
          disabledReason={!form.formState.isValid && t.nameRequired}
          data-testid="create-workspace-submit"
        >
          <Plus className="h-4 w-4" />
          {createWorkspace.isPending ? t.creating : t.create}
        </Button>
      </form>
      {error && form.formState.isDirty ? (
        <p id={`${nameId}-error`} className="mt-2 text-sm text-red-600">
          {error}
        </p>
      ) : null}
    </Card>
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
