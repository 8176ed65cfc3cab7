import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { Ban, Trash2, UserPlus } from 'lucide-react';
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { useConfirm } from '@/components/ui/confirm-dialog';
import { CopyButton } from '@/components/ui/copy-button';
import { Field, Input, Select } from '@/components/ui/field';
import { Skeleton } from '@/components/ui/skeleton';
import { useToast } from '@/components/ui/toast';
import { formatDateTime } from '@/lib/format-date';
import { toasts as common } from '@/lib/strings';
import { useOneAtATime } from '@/lib/use-one-at-a-time';
import { mayDo, type UserWorkspace, WORKSPACE_ROLES, type WorkspaceRole } from '@/lib/workspace-roles';
import {
  type Invitation,
  type PendingInvitation,
  useChangeRole,
  useInvite,
  useMembers,
  usePendingInvitations,
  useRemoveMember,
  useRevokeInvitation,
  type WorkspaceMember,
} from '../api/workspaces';
import { pendingInvitations as p, roleHints, roles, members as t } from '../strings';

const inviteSchema = z.object({
  email: z.string().trim().email(t.emailInvalid).max(254, t.emailInvalid),
  role: z.enum(['owner', 'editor', 'reviewer', 'auditor']),
});

/** The link to pass on to the invitee, to copy, and until when it works. */
function InvitationLink({ invitation }: { invitation: Invitation }) {
  const linkId = useId();
  return (
    <div className="mt-4 rounded-lg bg-indigo-50 p-4" data-testid="invitation-result">
      <label htmlFor={linkId} className="text-sm font-medium text-slate-800">
        {t.inviteLink(invitation.email)}
      </label>
      <div className="mt-2 flex gap-2">
        <Input
          id={linkId}
          readOnly
          value={invitation.acceptUrl}
          onFocus={(event) => event.currentTarget.select()}
          data-testid="invitation-accept-url"
        />
        <CopyButton
          text={invitation.acceptUrl}
          copyLabel={t.copy}
          copiedLabel={t.copied}
          failedTitle={t.copyFailed}
          showLabel
          variant="outline"
          testId="invitation-copy"
        />
      </div>
      <p className="mt-2 text-xs text-slate-600" data-testid="invitation-expires">
        {t.expires(formatDateTime(invitation.expiresAt))}
      </p>
    </div>
  );
}

function InviteForm({ workspaceId }: { workspaceId: string }) {
  const form = useForm({
    resolver: zodResolver(inviteSchema),
    defaultValues: { email: '', role: 'editor' as WorkspaceRole },
    mode: 'onChange',
  });
  const invite = useInvite(workspaceId);
  const send = useOneAtATime(invite);
  const [invitation, setInvitation] = useState<Invitation | null>(null);
  const emailId = useId();
  const roleId = useId();
  const role = form.watch('role');
  const emailError = form.formState.errors.email?.message;

  const submit = form.handleSubmit((body) =>
    send(body, {
      onSuccess: (created) => {
        setInvitation(created);
        form.reset({ email: '', role: body.role });
      },
    }),
  );

  return (
    <Card className="p-5" data-testid="invite-form">
      <h2 className="text-lg font-semibold text-slate-900">{t.inviteTitle}</h2>
      <p className="mt-1 text-sm text-slate-600">{t.inviteText}</p>
      <form
        onSubmit={submit}
        className="mt-3 grid grid-cols-1 gap-3 sm:grid-cols-[minmax(0,1fr)_12rem_auto] sm:items-end"
      >
        <Field id={emailId} label={t.inviteEmail}>
          <Input
            id={emailId}
            type="email"
            autoComplete="off"
            {...form.register('email')}
            aria-invalid={emailError ? true : undefined}
            data-testid="invite-email"
          />
        </Field>
        <Field id={roleId} label={t.inviteRole}>
          <Select id={roleId} {...form.register('role')} data-testid="invite-role">
            {WORKSPACE_ROLES.map((value) => (
              <option key={value} value={value}>
                {roles[value]}
              </option>
            ))}
          </Select>
        </Field>
        <Button
          type="submit"
          disabled={invite.isPending}
          disabledReason={!form.formState.isValid && t.emailInvalid}
          data-testid="invite-submit"
        >
          <UserPlus className="h-4 w-4" />
          {invite.isPending ? t.inviting : t.invite}
        </Button>
      </form>
      <p className="mt-2 text-xs text-slate-500" data-testid="invite-role-hint">
        {roles[role]}: {roleHints[role]}
      </p>
      {emailError && form.formState.dirtyFields.email ? (
        <p className="mt-1 text-sm text-red-600">{emailError}</p>
      ) : null}
      {invitation ? <InvitationLink invitation={invitation} /> : null}
    </Card>
  );
}

function PendingInvitationRow({
  invitation,
  workspaceId,
}: {
  invitation: PendingInvitation;
  workspaceId: string;
}) {
  const revokeInvitation = useRevokeInvitation(workspaceId);
  const confirm = useConfirm();
  const toast = useToast();

  const revoke = async () => {
    if (!(await confirm(p.revokeConfirm(invitation.email), { confirmLabel: p.revokeLabel }))) return;
    revokeInvitation.mutate(invitation.id, {
      onSuccess: () =>
        toast({ title: common.success, description: p.revoked(invitation.email), variant: 'success' }),
    });
  };

  return (
    <tr
      className="border-t border-slate-100"
      data-testid="pending-invitation"
      data-invitation-id={invitation.id}
    >
      <td className="py-3 pr-3">
        <span className="break-all font-medium text-slate-900" data-testid="pending-invitation-email">
          {invitation.email}
        </span>
        {/* On a phone the columns of who invited and until when are lines under the address. */}
        <span className="mt-1 block text-xs text-slate-500 sm:hidden">
          {p.invitedBy}: {invitation.invitedBy.name}
        </span>
        <span className="block text-xs text-slate-500 sm:hidden">
          {p.expiresAt}: {formatDateTime(invitation.expiresAt)}
        </span>
      </td>
      <td className="py-3 pr-3">
        <Badge tone="indigo">{roles[invitation.role]}</Badge>
      </td>
      <td className="hidden py-3 pr-3 text-slate-600 sm:table-cell">{invitation.invitedBy.name}</td>
      <td className="hidden py-3 pr-3 text-slate-600 sm:table-cell">
        {formatDateTime(invitation.expiresAt)}
      </td>
      <td className="py-3 text-right">
        <Button
          variant="ghost"
          size="sm"
          onClick={revoke}
          disabled={revokeInvitation.isPending}
          aria-label={p.revokeOf(invitation.email)}
          data-testid="pending-invitation-revoke"
        >
          <Ban className="h-4 w-4" />
          <span className="sr-only sm:not-sr-only">{p.revoke}</span>
        </Button>
      </td>
    </tr>
  );
}

/** The invitations not yet used, to an owner, each of which they may revoke. */
function PendingInvitations({ workspaceId }: { workspaceId: string }) {
  const { data, isLoading, error, hasNextPage, fetchNextPage, isFetchingNextPage } =
    usePendingInvitations(workspaceId);
  const invitations = data?.pages.flatMap((page) => page.items) ?? [];

  return (
    <Card className="p-5" data-testid="pending-invitations">
      <h2 className="text-lg font-semibold text-slate-900">{p.title}</h2>
      <p className="mt-1 text-sm text-slate-600">{p.text}</p>
      {isLoading ? (
        <Skeleton className="mt-3 h-12 w-full" />
      ) : error ? (
        <p className="mt-3 text-sm text-red-600">{error.message}</p>
      ) : invitations.length > 0 ? (
        <div className="relative mt-3 overflow-x-auto">
          <table className="w-full text-left text-sm" data-testid="pending-invitation-list">
            <thead className="text-xs uppercase text-slate-500">
              <tr>
                <th className="pb-2 pr-3 font-medium">{p.email}</th>
                <th className="pb-2 pr-3 font-medium">{p.role}</th>
                <th className="hidden pb-2 pr-3 font-medium sm:table-cell">{p.invitedBy}</th>
                <th className="hidden pb-2 pr-3 font-medium sm:table-cell">{p.expiresAt}</th>
                <th className="pb-2 text-right font-medium">
                  <span className="sr-only">{p.actions}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {invitations.map((invitation) => (
                <PendingInvitationRow key={invitation.id} invitation={invitation} workspaceId={workspaceId} />
              ))}
            </tbody>
          </table>
          {hasNextPage ? (
            <Button
              variant="outline"
              size="sm"
              className="mt-3"
              onClick={() => fetchNextPage()}
              disabled={isFetchingNextPage}
              data-testid="pending-invitations-more"
            >
              {isFetchingNextPage ? p.loadingMore : p.loadMore}
            </Button>
          ) : null}
        </div>
      ) : (
        <p className="mt-3 text-sm text-slate-500" data-testid="pending-invitations-empty">
          {p.empty}
        </p>
      )}
    </Card>
  );
}

function MemberRow({
  member,
  workspaceId,
  manage,
  isMe,
}: {
  member: WorkspaceMember;
  workspaceId: string;
  manage: boolean;
  isMe: boolean;
}) {
  const changeRole = useChangeRole(workspaceId);
  const removeMember = useRemoveMember(workspaceId);
  const confirm = useConfirm();
  const toast = useToast();
  const roleId = useId();

  const remove = async () => {
    if (!(await confirm(t.removeConfirm(member.name)))) return;
    removeMember.mutate(member.userId, {
      onSuccess: () =>
        toast({ title: common.success, description: t.removed(member.name), variant: 'success' }),
    });
  };

  return (
    <tr className="border-t border-slate-100" data-testid="member-row" data-user-id={member.userId}>
      <td className="py-3 pr-3 font-medium text-slate-900">
        {member.name} {isMe ? <span className="font-normal text-slate-500">{t.you}</span> : null}
        {/* On a phone the address is a line under the name, not a column of its own. */}
        <span className="mt-0.5 block break-all text-xs font-normal text-slate-500 sm:hidden">
          {member.email}
        </span>
      </td>
      <td className="hidden break-all py-3 pr-3 text-slate-600 sm:table-cell">{member.email}</td>
      <td className="py-3 pr-3">
        {manage ? (
          <>
            <label htmlFor={roleId} className="sr-only">
              {t.roleOf(member.name)}
            </label>
            <Select
              id={roleId}
              className="h-9 w-28 sm:w-36"
              value={member.role}
              disabled={changeRole.isPending}
              onChange={(event) => {
                const role = event.target.value as WorkspaceRole;
                changeRole.mutate(
                  { userId: member.userId, role },
                  {
                    onSuccess: () =>
                      toast({
                        title: common.success,
                        description: t.roleChanged(member.name, roles[role]),
                        variant: 'success',
                      }),
                  },
                );
              }}
              data-testid="member-role-select"
            >
              {WORKSPACE_ROLES.map((value) => (
                <option key={value} value={value}>
                  {roles[value]}
                </option>
              ))}
            </Select>
          </>
        ) : (
          <Badge tone="indigo" data-testid="member-role">
            {roles[member.role]}
          </Badge>
        )}
      </td>
      {manage ? (
        <td className="py-3 text-right">
          <Button
            variant="ghost"
            size="sm"
            onClick={remove}
            disabled={removeMember.isPending}
            aria-label={t.removeOf(member.name)}
            data-testid="member-remove"
          >
            <Trash2 className="h-4 w-4" />
            <span className="sr-only sm:not-sr-only">{t.remove}</span>
          </Button>
        </td>
      ) : null}
    </tr>
  );
}

/**
 * The members with their roles; the owners also invite, see and revoke pending invitations, change roles and
 * remove. On a phone the tables keep to its width: an address goes under the name, the buttons show their icons.
 */
export function WorkspaceMembers({ workspace }: { workspace: UserWorkspace }) {
  const { data: list, isLoading, error } = useMembers(workspace.id);
  // Who is signed in is known before any signed-in page shows (the app's router waits for it).
  const user = useQueryClient().getQueryData<{ id: string } | null>(['/api/auth/user']);
  const manage = mayDo(workspace.role, 'manage');

  return (
    <div className="flex flex-col gap-4" data-testid="workspace-members">
      {manage ? <InviteForm workspaceId={workspace.id} /> : null}
      {manage ? <PendingInvitations workspaceId={workspace.id} /> : null}
      <Card className="p-5">
        <h2 className="text-lg font-semibold text-slate-900">{t.title}</h2>
        {isLoading ? (
          <Skeleton className="mt-3 h-20 w-full" />
        ) : error ? (
          <p className="mt-3 text-sm text-red-600">{error.message}</p>
        ) : list && list.length > 0 ? (
          <div className="relative mt-3 overflow-x-auto">
            <table className="w-full text-left text-sm" data-testid="member-list">
              <thead className="text-xs uppercase text-slate-500">
                <tr>
                  <th className="pb-2 pr-3 font-medium">{t.name}</th>
                  <th className="hidden pb-2 pr-3 font-medium sm:table-cell">{t.email}</th>
                  <th className="pb-2 pr-3 font-medium">{t.role}</th>
                  {manage ? (
                    <th className="pb-2 text-right font-medium">
                      <span className="sr-only">{t.actions}</span>
                    </th>
                  ) : null}
                </tr>
              </thead>
              <tbody>
                {list.map((member) => (
                  <MemberRow
                    key={member.userId}
                    member={member}
                    workspaceId={workspace.id}
                    manage={manage}
                    isMe={member.userId === user?.id}
                  />
                ))}
              </tbody>
            </table>
          </div>
        ) : (
          <p className="mt-3 text-sm text-slate-500">{t.empty}</p>
        )}
      </Card>
    </div>
  );
}
