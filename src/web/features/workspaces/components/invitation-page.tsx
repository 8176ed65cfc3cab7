import { MailOpen } from 'lucide-react';
import { Link, useLocation, useParams } from 'wouter';
import { Button, buttonClasses } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { useToast } from '@/components/ui/toast';
import { ApiError, messageOf } from '@/lib/api-client';
import { toasts as common } from '@/lib/strings';
import { useOneAtATime } from '@/lib/use-one-at-a-time';
import { useAcceptInvitation } from '../api/workspaces';
import { roles, invitation as t } from '../strings';

/** 404 (used, expired, for another address) or 400 (not even a token): the link leads nowhere any more. */
const isInvalid = (error: unknown) =>
  error instanceof ApiError && (error.status === 404 || error.status === 400);

/**
 * /invitations/:token: the link an owner passed on. Signed out, the app's sign-in comes back here; signed
 * in, Accept joins the workspace and opens it.
 */
export function InvitationPage() {
  const { token } = useParams<{ token: string }>();
  const [, navigate] = useLocation();
  const accept = useAcceptInvitation();
  const acceptOnce = useOneAtATime(accept);
  const toast = useToast();

  if (isInvalid(accept.error)) {
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

  return (
    <Card className="mx-auto mt-16 max-w-md p-8 text-center" data-testid="invitation-page">
      <MailOpen className="mx-auto h-10 w-10 text-indigo-600" aria-hidden />
      <h1 className="mt-4 text-xl font-semibold text-slate-900">{t.title}</h1>
      <p className="mt-2 text-slate-600">{t.text}</p>
      {accept.error ? (
        <p className="mt-4 text-sm text-red-600" role="alert" data-testid="invitation-failed">
          {messageOf(accept.error, t.failed)}
        </p>
      ) : null}
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
    </Card>
  );
}
