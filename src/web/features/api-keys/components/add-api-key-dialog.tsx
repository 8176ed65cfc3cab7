import { type FormEvent, useId, useRef, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Dialog, DialogContent } from '../../../components/ui/dialog';
import { Field, Input } from '../../../components/ui/field';
import { useToast } from '../../../components/ui/toast';
import { apiKeys as t, toasts } from '../../../lib/strings';
import { useAddApiKey } from '../api/add-api-key';
import { useSignedOutRedirect } from './use-signed-out-redirect';

export function AddApiKeyDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const [keyName, setKeyName] = useState('');
  const [apiKey, setApiKey] = useState('');
  const addApiKey = useAddApiKey();
  // isPending only changes on the next render; two clicks in one frame both see it false.
  const submitting = useRef(false);
  const nameId = useId();
  const keyId = useId();
  const toast = useToast();
  const redirectIfSignedOut = useSignedOutRedirect();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (submitting.current) return;
    if (keyName.trim() === '' || apiKey.trim() === '') {
      toast({ title: toasts.error, description: t.fillInEverything, variant: 'destructive' });
      return;
    }
    submitting.current = true;
    addApiKey.mutate(
      { keyName: keyName.trim(), apiKey: apiKey.trim() },
      {
        onSuccess: () => {
          toast({ title: toasts.success, description: t.added, variant: 'success' });
          setKeyName('');
          setApiKey('');
          onOpenChange(false);
        },
        onError: redirectIfSignedOut,
        onSettled: () => {
          submitting.current = false;
        },
      },
    );
  };

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
              value={keyName}
              onChange={(e) => setKeyName(e.target.value)}
              placeholder={t.keyNamePlaceholder}
              maxLength={200}
              autoFocus
              data-testid="api-key-name-input"
            />
          </Field>
          <Field id={keyId} label={t.apiKey}>
            <Input
              id={keyId}
              type="password"
              value={apiKey}
              onChange={(e) => setApiKey(e.target.value)}
              placeholder={t.apiKeyPlaceholder}
              maxLength={1000}
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
