import { MailOpen } from 'lucide-react';
import { Link, useLocation, useParams } from 'wouter';
import { Button, buttonClasses } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { useToast } from '@/components/ui/toast';
import { ApiError, messageOf } from '@/lib/api-client';
import { formatDateTime } from '@/lib/format-date';
import { toasts as common } from '@/lib/strings';
import { useOneAtATime } from '@/lib/use-one-at-a-time';
import { type InvitationPreview, useAcceptInvitation, useInvitation } from '../api/workspaces';
import { roleHints, roles, invitation as t } from '../strings';

/** 404 (used, expired, for another address) or 400 (not even a token): the link leads nowhere any more. */
const isInvalid = (error: unknown) =>
  error instanceof ApiError && (error.status === 404 || error.status === 400);

/** What the invitation is to, before the user accepts it: the workspace, who invited, the role, the expiry. */
function InvitationDetails({ invitation }: { invitation: InvitationPreview }) {
  return (
    <div className="mt-4 flex flex-col gap-1 text-slate-700" data-testid="invitation-details">
      <p className="font-medium text-slate-900">
        {t.invitedBy(invitation.inviterName || t.someone, invitation.workspaceName)}
      </p>
      <p data-testid="invitation-role">{t.role(roles[invitation.role], roleHints[invitation.role])}</p>
      <p className="text-sm text-slate-500">{t.expires(formatDateTime(invitation.expiresAt))}</p>
    </div>
  );
}

/** An invitation the user accepted already: it says so, and offers no Accept. */
function InvitationUsed({ invitation }: { invitation: InvitationPreview }) {
  return (
    <Card className="mx-auto mt-16 max-w-md p-8 text-center" data-testid="invitation-used">
      <MailOpen className="mx-auto h-10 w-10 text-slate-400" aria-hidden />
      <h1 className="mt-4 text-xl font-semibold text-slate-900">{t.usedTitle}</h1>
      <p className="mt-2 text-slate-600" data-testid="invitation-used-text">
        {t.usedText(invitation.workspaceName)}
      </p>
      <Link href="/workspaces" className={buttonClasses('outline', 'md', 'mt-6')}>
        {t.toWorkspaces}
      </Link>
    </Card>
  );
}

/**
 * /invitations/:token: the link an owner passed on. Signed out, the app's sign-in comes back here; signed
 * in, it names the workspace, who invited and the role, and Accept joins the workspace and opens it. Accept
 * shows once the invitation is read and still open: a link used already says so instead.
 */
export function InvitationPage() {
  const { token } = useParams<{ token: string }>();
  const [, navigate] = useLocation();
  const invitation = useInvitation(token);
  const accept = useAcceptInvitation();
  const acceptOnce = useOneAtATime(accept);
  const toast = useToast();

  if (isInvalid(invitation.error) || isInvalid(accept.error)) {
    return (
      <Card className="mx-auto mt-16 max-w-md p-8 text-center" data-testid="invitation-invalid">
        <h1 className="text-xl font-semibold text-slate-900">{t.invalidTitle}</h1>
        <p className="mt-2 text-slate-600">{t.invalidText}</p>
        <Link href="/workspaces" className={buttonClasses('outline', 'md', 'mt-6')}>
          {t.toWorkspaces}
        </Link>
      </Card>
    );
  }

  if (invitation.data?.accepted) {
    return <InvitationUsed invitation={invitation.data} />;
  }

  return (
    <Card className="mx-auto mt-16 max-w-md p-8 text-center" data-testid="invitation-page">
      <MailOpen className="mx-auto h-10 w-10 text-indigo-600" aria-hidden />
      <h1 className="mt-4 text-xl font-semibold text-slate-900">{t.title}</h1>
      {invitation.data ? (
        <InvitationDetails invitation={invitation.data} />
      ) : invitation.isPending ? (
        <div className="mt-4 flex flex-col items-center gap-2" role="status" aria-label={t.loading}>
          <Skeleton className="h-5 w-3/4" />
          <Skeleton className="h-5 w-1/2" />
        </div>
      ) : (
        <p className="mt-2 text-slate-600">{t.text}</p>
      )}
      {accept.error ? (
        <p className="mt-4 text-sm text-red-600" role="alert" data-testid="invitation-failed">
          {messageOf(accept.error, t.failed)}
        </p>
      ) : null}
      {invitation.isPending ? null : (
        <Button
          className="mt-6"
          disabled={accept.isPending}
          onClick={() =>
            acceptOnce(token, {
              onSuccess: ({ workspaceId, role }) => {
                toast({ title: common.success, description: t.accepted(roles[role]), variant: 'success' });
                navigate(`/workspaces/${workspaceId}`);
              },
            })
          }
          data-testid="invitation-accept"
        >
          {accept.isPending ? t.accepting : t.accept}
        </Button>
      )}
    </Card>
  );
}
