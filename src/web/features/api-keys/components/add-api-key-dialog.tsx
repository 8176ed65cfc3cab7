import { zodResolver } from '@hookform/resolvers/zod';
import { useId } from 'react';
import { useForm } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent } from '@/components/ui/dialog';
import { Field, Input } from '@/components/ui/field';
import { useToast } from '@/components/ui/toast';
import { toasts } from '@/lib/strings';
import { useOneAtATime } from '@/lib/use-one-at-a-time';
import { API_KEY_MAX_LENGTH, API_KEY_NAME_MAX_LENGTH, newApiKeySchema } from '../../../../domain/api-key';
import { useAddApiKey } from '../api/add-api-key';
import { apiKeys as t } from '../strings';
import { useSignedOutRedirect } from './use-signed-out-redirect';

export function AddApiKeyDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const form = useForm({
    resolver: zodResolver(newApiKeySchema),
    defaultValues: { keyName: '', apiKey: '' },
  });
  const addApiKey = useAddApiKey();
  const add = useOneAtATime(addApiKey);
  const nameId = useId();
  const keyId = useId();
  const toast = useToast();
  const redirectIfSignedOut = useSignedOutRedirect();

  const submit = form.handleSubmit(
    ({ keyName, apiKey }) =>
      add(
        { keyName, apiKey },
        {
          onSuccess: ({ check }) => {
            // Saved without a check (Gemini could not be asked): the user is told so.
            toast(
              check.outcome === 'accepted'
                ? { title: toasts.success, description: t.added, variant: 'success' }
                : { title: t.addedUnchecked, description: check.message ?? undefined },
            );
            form.reset();
            onOpenChange(false);
          },
          onError: redirectIfSignedOut,
        },
      ),
    // One message for any blank field, in a toast.
    () => toast({ title: toasts.error, description: t.fillInEverything, variant: 'destructive' }),
  );

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        title={t.dialogTitle}
        description={t.dialogDescription}
        closeLabel={toasts.close}
        data-testid="add-api-key-dialog"
      >
        <form onSubmit={submit} className="flex flex-col gap-4" noValidate>
          <Field id={nameId} label={t.keyName}>
            <Input
              id={nameId}
              {...form.register('keyName')}
              placeholder={t.keyNamePlaceholder}
              maxLength={API_KEY_NAME_MAX_LENGTH}
              autoFocus
              data-testid="api-key-name-input"
            />
          </Field>
          <Field id={keyId} label={t.apiKey}>
            <Input
              id={keyId}
              type="password"
              {...form.register('apiKey')}
              placeholder={t.apiKeyPlaceholder}
              maxLength={API_KEY_MAX_LENGTH}
              autoComplete="off"
              spellCheck={false}
              data-testid="api-key-value-input"
            />
          </Field>
          <div className="flex justify-end gap-2">
            <Button variant="outline" onClick={() => onOpenChange(false)} data-testid="add-api-key-cancel">
              {t.cancel}
            </Button>
            <Button type="submit" disabled={addApiKey.isPending} data-testid="add-api-key-submit">
              {addApiKey.isPending ? t.submitting : t.submit}
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}
