import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useId, useRef, useState } from 'react';
import type { SessionMode } from '../../../../domain/user-session';
import { Button } from '../../../components/ui/button';
import { Dialog, DialogContent } from '../../../components/ui/dialog';
import { Field, Input, Select, Textarea } from '../../../components/ui/field';
import { useToast } from '../../../components/ui/toast';
import { flowsQueryOptions } from '../../../lib/flows-query';
import { sessions as t, toasts } from '../../../lib/strings';
import { useCreateUserSession } from '../api/create-user-session';

const MODES = Object.keys(t.modes) as SessionMode[];

/** Name (required), description, and optionally which flow and mode; by default what the user works on now. */
export function CreateSessionDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const [sessionName, setSessionName] = useState('');
  const [description, setDescription] = useState('');
  const [flowId, setFlowId] = useState('');
  const [mode, setMode] = useState<SessionMode | ''>('');
  const [nameMissing, setNameMissing] = useState(false);
  const createSession = useCreateUserSession();
  const flows = useQuery({ ...flowsQueryOptions, enabled: open });
  // isPending only changes on the next render; two clicks in one frame both see it false.
  const submitting = useRef(false);
  const nameId = useId();
  const descriptionId = useId();
  const flowFieldId = useId();
  const modeId = useId();
  const toast = useToast();

  const reset = () => {
    setSessionName('');
    setDescription('');
    setFlowId('');
    setMode('');
    setNameMissing(false);
  };

  const close = () => {
    reset();
    onOpenChange(false);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (submitting.current) return;
    if (sessionName.trim() === '') {
      setNameMissing(true);
      return;
    }
    submitting.current = true;
    createSession.mutate(
      { sessionName: sessionName.trim(), description: description.trim(), flowId, mode: mode || undefined },
      {
        onSuccess: () => {
          toast({ title: toasts.success, description: t.created, variant: 'success' });
          close();
        },
        onSettled: () => {
          submitting.current = false;
        },
      },
    );
  };

  return (
    <Dialog open={open} onOpenChange={(next) => (next ? onOpenChange(true) : close())}>
      <DialogContent
        title={t.dialogTitle}
        description={t.dialogDescription}
        closeLabel={toasts.close}
        data-testid="create-session-dialog"
      >
        <form onSubmit={submit} className="flex flex-col gap-4" noValidate>
          <Field id={nameId} label={t.name}>
            <Input
              id={nameId}
              value={sessionName}
              onChange={(e) => {
                setSessionName(e.target.value);
                if (e.target.value.trim() !== '') setNameMissing(false);
              }}
              placeholder={t.namePlaceholder}
              maxLength={200}
              autoFocus
              aria-invalid={nameMissing}
              data-testid="session-name-input"
            />
            {nameMissing ? (
              <p className="text-sm text-red-600" role="alert" data-testid="session-name-error">
                {t.nameRequired}
              </p>
            ) : null}
          </Field>
          <Field id={descriptionId} label={t.description}>
            <Textarea
              id={descriptionId}
              value={description}
              onChange={(e) => setDescription(e.target.value)}
              placeholder={t.descriptionPlaceholder}
              maxLength={2000}
              className="min-h-20"
              data-testid="session-description-input"
            />
          </Field>
          <div className="grid gap-4 sm:grid-cols-2">
            <Field id={flowFieldId} label={t.flow}>
              <Select
                id={flowFieldId}
                value={flowId}
                onChange={(e) => setFlowId(e.target.value)}
                data-testid="session-flow-select"
              >
                <option value="">{t.currentWork}</option>
                {(flows.data ?? []).map((flow) => (
                  <option key={flow.id} value={flow.id}>
                    {flow.name}
                  </option>
                ))}
              </Select>
            </Field>
            <Field id={modeId} label={t.mode}>
              <Select
                id={modeId}
                value={mode}
                onChange={(e) => setMode(e.target.value as SessionMode | '')}
                data-testid="session-mode-select"
              >
                <option value="">{t.modeAuto}</option>
                {MODES.map((each) => (
                  <option key={each} value={each}>
                    {t.modes[each]}
                  </option>
                ))}
              </Select>
            </Field>
          </div>
          <div className="flex justify-end gap-2">
            <Button variant="outline" onClick={close} data-testid="create-session-cancel">
              {t.cancel}
            </Button>
            <Button type="submit" disabled={createSession.isPending} data-testid="create-session-submit">
              {createSession.isPending ? t.submitting : t.submit}
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}
