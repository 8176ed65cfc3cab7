import { AlertTriangle } from 'lucide-react';
import { useId, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { CopyButton } from '@/components/ui/copy-button';
import { Dialog, DialogContent } from '@/components/ui/dialog';
import { Field, Input, Select } from '@/components/ui/field';
import { useToast } from '@/components/ui/toast';
import { toasts } from '@/lib/strings';
import { useOneAtATime } from '@/lib/use-one-at-a-time';
import { useWorkspaces } from '@/lib/workspace-roles';
import {
  API_TOKEN_DEFAULT_DAYS,
  API_TOKEN_NAME_MAX_LENGTH,
  API_TOKEN_SCOPES,
  type ApiTokenScope,
} from '../../../../domain/api-token';
import { type MadeApiToken, useCreateApiToken } from '../api/api-tokens';
import { EXPIRY_CHOICES, apiTokens as t } from '../strings';

/**
 * Makes a token: name, scopes, expiry and, optionally, the one workspace it acts in. Once made, the dialog
 * shows the token this once, with a copy button, until the user closes it.
 */
export function CreateApiTokenDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const [made, setMade] = useState<MadeApiToken | null>(null);
  const close = (next: boolean) => {
    if (!next) setMade(null);
    onOpenChange(next);
  };
  return (
    <Dialog open={open} onOpenChange={close}>
      <DialogContent
        title={made ? t.createdTitle : t.dialogTitle}
        description={made ? t.createdDescription : t.dialogDescription}
        closeLabel={toasts.close}
        data-testid="create-api-token-dialog"
      >
        {made ? (
          <MadeToken token={made.token} onDone={() => close(false)} />
        ) : (
          <TokenForm onMade={setMade} onCancel={() => close(false)} />
        )}
      </DialogContent>
    </Dialog>
  );
}

function TokenForm({ onMade, onCancel }: { onMade: (token: MadeApiToken) => void; onCancel: () => void }) {
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<ApiTokenScope[]>(['read']);
  const [days, setDays] = useState<number>(API_TOKEN_DEFAULT_DAYS);
  const [workspaceId, setWorkspaceId] = useState('');
  const workspaces = useWorkspaces();
  const createToken = useCreateApiToken();
  const create = useOneAtATime(createToken);
  const toast = useToast();
  const nameId = useId();
  const expiryId = useId();
  const workspaceFieldId = useId();
  const scopeIdPrefix = useId();

  const toggle = (scope: ApiTokenScope, on: boolean) =>
    setScopes((current) => (on ? [...current, scope] : current.filter((each) => each !== scope)));

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const problem = name.trim() === '' ? t.nameRequired : scopes.length === 0 ? t.scopesRequired : null;
    if (problem) return toast({ title: toasts.error, description: problem, variant: 'destructive' });
    create(
      { name: name.trim(), scopes, expiresInDays: days, ...(workspaceId ? { workspaceId } : {}) },
      { onSuccess: onMade },
    );
  };

  return (
    <form onSubmit={submit} className="flex flex-col gap-4" noValidate>
      <Field id={nameId} label={t.name}>
        <Input
          id={nameId}
          value={name}
          onChange={(event) => setName(event.target.value)}
          placeholder={t.namePlaceholder}
          maxLength={API_TOKEN_NAME_MAX_LENGTH}
          autoFocus
          data-testid="api-token-name-input"
        />
      </Field>
      <fieldset className="flex flex-col gap-2">
        <legend className="mb-1 text-sm font-medium text-slate-800">{t.scopes}</legend>
        {API_TOKEN_SCOPES.map((scope) => {
          const id = `${scopeIdPrefix}-${scope}`;
          return (
            <div key={scope} className="flex items-start gap-2">
              <Checkbox
                id={id}
                checked={scopes.includes(scope)}
                onCheckedChange={(checked) => toggle(scope, checked === true)}
                data-testid={`api-token-scope-${scope}`}
              />
              <label htmlFor={id} className="text-sm text-slate-800">
                {t.scope(scope)}
                <span className="block text-xs text-slate-500">{t.scopeHints[scope]}</span>
              </label>
            </div>
          );
        })}
      </fieldset>
      <Field id={expiryId} label={t.expiry}>
        <Select
          id={expiryId}
          value={String(days)}
          onChange={(event) => setDays(Number(event.target.value))}
          data-testid="api-token-expiry-select"
        >
          {EXPIRY_CHOICES.map((choice) => (
            <option key={choice} value={choice}>
              {t.days(choice)}
            </option>
          ))}
        </Select>
      </Field>
      <Field id={workspaceFieldId} label={t.workspaceField}>
        <Select
          id={workspaceFieldId}
          value={workspaceId}
          onChange={(event) => setWorkspaceId(event.target.value)}
          data-testid="api-token-workspace-select"
        >
          <option value="">{t.personalOption}</option>
          {(workspaces.data ?? []).map((workspace) => (
            <option key={workspace.id} value={workspace.id}>
              {t.workspaceOption(workspace.name)}
            </option>
          ))}
        </Select>
      </Field>
      <div className="flex justify-end gap-2">
        <Button type="button" variant="outline" onClick={onCancel}>
          {t.cancel}
        </Button>
        <Button type="submit" disabled={createToken.isPending} data-testid="api-token-submit">
          {createToken.isPending ? t.submitting : t.submit}
        </Button>
      </div>
    </form>
  );
}

function MadeToken({ token, onDone }: { token: string; onDone: () => void }) {
  return (
    <div className="flex flex-col gap-4" data-testid="api-token-made">
      <div
        className="flex items-start gap-3 rounded-xl border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900"
        role="alert"
      >
        <AlertTriangle className="mt-0.5 h-5 w-5 shrink-0" />
        <p>{t.createdWarning}</p>
      </div>
      <div className="flex items-center gap-2">
        <code
          className="min-w-0 flex-1 break-all rounded-md bg-slate-100 px-3 py-2 font-mono text-xs text-slate-900"
          data-testid="api-token-value"
        >
          {token}
        </code>
        <CopyButton
          text={token}
          copyLabel={t.copy}
          copiedLabel={t.copied}
          failedTitle={t.copyFailed}
          variant="outline"
          testId="api-token-copy"
        />
      </div>
      <div className="flex justify-end">
        <Button onClick={onDone} data-testid="api-token-done">
          {t.done}
        </Button>
      </div>
    </div>
  );
}
