import { AlertTriangle, Plus } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Button } from '@/components/ui/button';
import { useConfirm } from '@/components/ui/confirm-dialog';
import { useToast } from '@/components/ui/toast';
import { KeysAndTokensTabs } from '@/features/api-tokens';
import { toasts } from '@/lib/strings';
import { useDeleteApiKey } from '../api/delete-api-key';
import { type ApiKey, useApiKeys } from '../api/get-api-keys';
import { useUsage } from '../api/get-usage';
import { apiKeys as t } from '../strings';
import { AddApiKeyDialog } from './add-api-key-dialog';
import { ApiKeyGuide } from './api-key-guide';
import { ApiKeyList } from './api-key-list';
import { UsageCard } from './usage-card';
import { useSignedOutRedirect } from './use-signed-out-redirect';

export function ApiKeysPage() {
  const keys = useApiKeys();
  const usage = useUsage();
  const deleteApiKey = useDeleteApiKey();
  const toast = useToast();
  const confirm = useConfirm();
  const redirectIfSignedOut = useSignedOutRedirect();
  const [addOpen, setAddOpen] = useState(false);

  const readError = keys.error ?? usage.error;
  useEffect(() => {
    if (readError) redirectIfSignedOut(readError);
  }, [readError, redirectIfSignedOut]);

  const hasActiveKey = (keys.data ?? []).some((key) => key.isActive);

  const remove = async (key: ApiKey) => {
    if (!(await confirm(t.deleteConfirm))) return;
    deleteApiKey.mutate(key.id, {
      onSuccess: () => toast({ title: toasts.success, description: t.deleted, variant: 'success' }),
      onError: redirectIfSignedOut,
    });
  };

  return (
    <div className="mx-auto max-w-4xl px-4 py-8" data-testid="api-keys-page">
      <KeysAndTokensTabs current="keys" />
      <div className="mt-4 flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
        <div>
          <h1 className="text-2xl font-bold text-slate-900">{t.title}</h1>
          <p className="mt-1 text-sm text-slate-600">{t.subtitle}</p>
        </div>
        <Button onClick={() => setAddOpen(true)} className="shrink-0" data-testid="add-api-key-button">
          <Plus className="h-4 w-4" />
          {t.addKey}
        </Button>
      </div>

      <div className="mt-6 flex flex-col gap-6">
        <UsageCard usage={usage.data} isLoading={usage.isLoading} />

        {keys.isSuccess && !hasActiveKey ? (
          <div
            className="flex items-start gap-3 rounded-xl border border-amber-200 bg-amber-50 p-4 text-amber-900"
            role="alert"
            data-testid="no-active-key-warning"
          >
            <AlertTriangle className="mt-0.5 h-5 w-5 shrink-0" />
            <div>
              <p className="font-semibold">{t.noActiveKeyTitle}</p>
              <p className="mt-1 text-sm">{t.noActiveKeyText}</p>
            </div>
          </div>
        ) : null}

        {readError && !keys.isLoading ? (
          <p className="text-sm text-red-600" data-testid="api-keys-load-failed">
            {t.loadFailed}
          </p>
        ) : null}

        <ApiKeyList
          keys={keys.data}
          isLoading={keys.isLoading}
          deleting={deleteApiKey.isPending}
          onDelete={remove}
        />

        <ApiKeyGuide />
      </div>

      <AddApiKeyDialog open={addOpen} onOpenChange={setAddOpen} />
    </div>
  );
}
