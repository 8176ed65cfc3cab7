import { Plus } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'wouter';
import { Button } from '@/components/ui/button';
import { useConfirm } from '@/components/ui/confirm-dialog';
import { useToast } from '@/components/ui/toast';
import { toasts } from '@/lib/strings';
import { type ApiToken, useApiTokens, useRevokeApiToken } from '../api/api-tokens';
import { apiTokens as t } from '../strings';
import { ApiTokenList } from './api-token-list';
import { CreateApiTokenDialog } from './create-api-token-dialog';

/** The tokens screen, beside the API keys page (the navigation's Keys): list, make, revoke. */
export function ApiTokensPage() {
  const tokens = useApiTokens();
  const revokeToken = useRevokeApiToken();
  const toast = useToast();
  const confirm = useConfirm();
  const [createOpen, setCreateOpen] = useState(false);

  const revoke = async (token: ApiToken) => {
    if (!(await confirm(t.revokeConfirm, { confirmLabel: t.revokeConfirmLabel }))) return;
    revokeToken.mutate(token.id, {
      onSuccess: () => toast({ title: toasts.success, description: t.revoked, variant: 'success' }),
    });
  };

  return (
    <div className="mx-auto max-w-4xl px-4 py-8" data-testid="api-tokens-page">
      <KeysAndTokensTabs current="tokens" />
      <div className="mt-4 flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
        <div>
          <h1 className="text-2xl font-bold text-slate-900">{t.title}</h1>
          <p className="mt-1 text-sm text-slate-600">{t.subtitle}</p>
        </div>
        <Button
          onClick={() => setCreateOpen(true)}
          className="shrink-0"
          data-testid="create-api-token-button"
        >
          <Plus className="h-4 w-4" />
          {t.create}
        </Button>
      </div>

      <div className="mt-6 flex flex-col gap-6">
        {tokens.error && !tokens.isLoading ? (
          <p className="text-sm text-red-600" data-testid="api-tokens-load-failed">
            {t.loadFailed}
          </p>
        ) : null}
        <ApiTokenList
          tokens={tokens.data}
          isLoading={tokens.isLoading}
          revoking={revokeToken.isPending}
          onRevoke={revoke}
        />
      </div>

      <CreateApiTokenDialog open={createOpen} onOpenChange={setCreateOpen} />
    </div>
  );
}

/** The two pages of the navigation's Keys: own model API keys, and tokens to call this API with. */
export function KeysAndTokensTabs({ current }: { current: 'keys' | 'tokens' }) {
  const tab = (active: boolean) =>
    `rounded-md px-3 py-1.5 text-sm font-medium ${
      active ? 'bg-indigo-50 text-indigo-700' : 'text-slate-600 hover:bg-slate-100'
    }`;
  return (
    <nav className="flex gap-2" aria-label={`${t.keysLink} / ${t.tokensLink}`}>
      <Link
        href="/api-keys"
        className={tab(current === 'keys')}
        aria-current={current === 'keys' ? 'page' : undefined}
      >
        {t.keysLink}
      </Link>
      <Link
        href="/api-keys/tokens"
        className={tab(current === 'tokens')}
        aria-current={current === 'tokens' ? 'page' : undefined}
        data-testid="api-tokens-link"
      >
        {t.tokensLink}
      </Link>
    </nav>
  );
}
