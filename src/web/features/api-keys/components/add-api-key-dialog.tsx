import { zodResolver } from '@hookform/resolvers/zod';
import { useId } from 'react';
import { useForm } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent } from '@/components/ui/dialog';
import { Field, Input, Select } from '@/components/ui/field';
import { useToast } from '@/components/ui/toast';
import { toasts } from '@/lib/strings';
import { useOneAtATime } from '@/lib/use-one-at-a-time';
import {
  API_KEY_BASE_URL_MAX_LENGTH,
  API_KEY_MAX_LENGTH,
  API_KEY_NAME_MAX_LENGTH,
  API_KEY_TYPES,
  newApiKeyForm,
} from '../../../../domain/api-key';
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
    resolver: zodResolver(newApiKeyForm),
    defaultValues: { keyName: '', apiKey: '', keyType: 'gemini', baseUrl: '' },
    // The base URL field leaves the form with its value when another provider is picked.
    shouldUnregister: true,
  });
  // Only an openai-compatible key names its endpoint; the others go where the server sends their models.
  const keyType = form.watch('keyType');
  const needsBaseUrl = keyType === 'openai-compatible';
  const addApiKey = useAddApiKey();
  const add = useOneAtATime(addApiKey);
  const nameId = useId();
  const typeId = useId();
  const keyId = useId();
  const baseUrlId = useId();
  const baseUrlHintId = useId();
  const toast = useToast();
  const redirectIfSignedOut = useSignedOutRedirect();

  const submit = form.handleSubmit(
    ({ keyName, apiKey, keyType, baseUrl }) =>
      add(
        { keyName, apiKey, keyType, ...(baseUrl === null ? {} : { baseUrl }) },
        {
          onSuccess: ({ check }) => {
            // Saved without a check (its provider could not be asked): the user is told so.
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
    // One message for any blank field, in a toast; a missing (or misplaced) base URL says so instead.
    (errors) =>
      toast({
        title: toasts.error,
        description: errors.baseUrl?.message ?? t.fillInEverything,
        variant: 'destructive',
      }),
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
          <Field id={typeId} label={t.provider}>
            <Select id={typeId} {...form.register('keyType')} data-testid="api-key-type-select">
              {API_KEY_TYPES.map((type) => (
                <option key={type} value={type}>
                  {t.keyType(type)}
                </option>
              ))}
            </Select>
            <p className="text-xs text-slate-500">{t.providerHint}</p>
          </Field>
          {needsBaseUrl ? (
            <Field id={baseUrlId} label={t.baseUrl}>
              <Input
                id={baseUrlId}
                type="url"
                {...form.register('baseUrl')}
                placeholder={t.baseUrlPlaceholder}
                maxLength={API_KEY_BASE_URL_MAX_LENGTH}
                autoComplete="off"
                spellCheck={false}
                aria-describedby={baseUrlHintId}
                data-testid="api-key-base-url-input"
              />
              <p id={baseUrlHintId} className="text-xs text-slate-500">
                {t.baseUrlHint}
              </p>
            </Field>
          ) : null}
          <Field id={keyId} label={t.apiKey}>
            <Input
              id={keyId}
              type="password"
              {...form.register('apiKey')}
              placeholder={keyType === 'gemini' ? t.apiKeyPlaceholder : t.otherApiKeyPlaceholder}
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
