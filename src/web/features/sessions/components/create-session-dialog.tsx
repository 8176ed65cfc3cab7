import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent } from '@/components/ui/dialog';
import { Field, Input, Select, Textarea } from '@/components/ui/field';
import { useToast } from '@/components/ui/toast';
import { flowsQueryOptions } from '@/lib/flows-query';
import { toasts } from '@/lib/strings';
import { useOneAtATime } from '@/lib/use-one-at-a-time';
import {
  SESSION_DESCRIPTION_MAX_LENGTH,
  SESSION_MODES,
  SESSION_NAME_MAX_LENGTH,
  sessionNamingSchema,
} from '../../../../domain/user-session';
import { useCreateUserSession } from '../api/create-user-session';
import { sessions as t } from '../strings';

const sessionFormSchema = sessionNamingSchema.extend({
  /** Empty: the flow the user works on now. */
  flowId: z.string(),
  /** Empty: run when there is an execution, else edit. */
  mode: z.enum(SESSION_MODES).or(z.literal('')),
});

const EMPTY_FORM = { sessionName: '', description: '', flowId: '', mode: '' } as const;

/** Name (required), description, and optionally which flow and mode; by default what the user works on now. */
export function CreateSessionDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const form = useForm({ resolver: zodResolver(sessionFormSchema), defaultValues: EMPTY_FORM });
  const createSession = useCreateUserSession();
  const create = useOneAtATime(createSession);
  const flows = useQuery({ ...flowsQueryOptions, enabled: open });
  const nameId = useId();
  const descriptionId = useId();
  const flowFieldId = useId();
  const modeId = useId();
  const toast = useToast();
  const nameMissing = form.formState.errors.sessionName !== undefined;

  const close = () => {
    form.reset();
    onOpenChange(false);
  };

  const submit = form.handleSubmit(({ sessionName, description, flowId, mode }) =>
    create(
      { sessionName: sessionName.trim(), description: description.trim(), flowId, mode: mode || undefined },
      {
        onSuccess: () => {
          toast({ title: toasts.success, description: t.created, variant: 'success' });
          close();
        },
      },
    ),
  );

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
              {...form.register('sessionName')}
              placeholder={t.namePlaceholder}
              maxLength={SESSION_NAME_MAX_LENGTH}
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
              {...form.register('description')}
              placeholder={t.descriptionPlaceholder}
              maxLength={SESSION_DESCRIPTION_MAX_LENGTH}
              className="min-h-20"
              data-testid="session-description-input"
            />
          </Field>
          <div className="grid gap-4 sm:grid-cols-2">
            <Field id={flowFieldId} label={t.flow}>
              <Select id={flowFieldId} {...form.register('flowId')} data-testid="session-flow-select">
                <option value="">{t.currentWork}</option>
                {(flows.data ?? []).map((flow) => (
                  <option key={flow.id} value={flow.id}>
                    {flow.name}
                  </option>
                ))}
              </Select>
            </Field>
            <Field id={modeId} label={t.mode}>
              <Select id={modeId} {...form.register('mode')} data-testid="session-mode-select">
                <option value="">{t.modeAuto}</option>
                {SESSION_MODES.map((each) => (
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
