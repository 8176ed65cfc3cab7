import { zodResolver } from '@hookform/resolvers/zod';
import { useId } from 'react';
import { useForm } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent } from '@/components/ui/dialog';
import { Field, Input, Textarea } from '@/components/ui/field';
import { useToast } from '@/components/ui/toast';
import { toasts, whyDisabled } from '@/lib/strings';
import { useOneAtATime } from '@/lib/use-one-at-a-time';
import { createFlowSchema, FLOW_DESCRIPTION_MAX_LENGTH, FLOW_NAME_MAX_LENGTH } from '../../../../domain/flow';
import { useCreateFlow } from '../api/create-flow';
import { createFlow as t } from '../strings';

/** The fields the dialog asks for, under the rules the server applies to a new flow. */
const newFlowSchema = createFlowSchema.pick({ name: true, description: true });

/** Makes a flow among the user's own, or in `workspaceId` when given. */
export function CreateFlowDialog({
  open,
  onOpenChange,
  workspaceId,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  workspaceId?: string | null;
}) {
  const form = useForm({
    resolver: zodResolver(newFlowSchema),
    defaultValues: { name: '', description: '' },
    mode: 'onChange',
  });
  const createFlow = useCreateFlow();
  const create = useOneAtATime(createFlow);
  const nameId = useId();
  const descriptionId = useId();
  const toast = useToast();

  const submit = form.handleSubmit(({ name, description }) =>
    create(
      // The status is sent with the new flow; a new flow is a draft.
      { name, description, status: 'draft', ...(workspaceId ? { workspaceId } : {}) },
      {
        onSuccess: (flow) => {
          toast({ title: toasts.success, description: toasts.flowCreated(flow.name), variant: 'success' });
          form.reset();
          onOpenChange(false);
        },
      },
    ),
  );

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        title={t.title}
        description={t.description}
        closeLabel={toasts.close}
        data-testid="create-flow-dialog"
      >
        <form onSubmit={submit} className="flex flex-col gap-4">
          <Field id={nameId} label={t.name}>
            <Input
              id={nameId}
              {...form.register('name')}
              required
              maxLength={FLOW_NAME_MAX_LENGTH}
              autoFocus
              data-testid="flow-name-input"
            />
          </Field>
          <Field id={descriptionId} label={t.summary}>
            <Textarea
              id={descriptionId}
              {...form.register('description')}
              required
              maxLength={FLOW_DESCRIPTION_MAX_LENGTH}
              data-testid="flow-description-input"
            />
          </Field>
          <div className="flex justify-end gap-2">
            <Button variant="outline" onClick={() => onOpenChange(false)} data-testid="create-flow-cancel">
              {t.cancel}
            </Button>
            <Button
              type="submit"
              disabled={createFlow.isPending}
              disabledReason={!form.formState.isValid && whyDisabled.flowFormIncomplete}
              data-testid="create-flow-submit"
            >
              {createFlow.isPending ? t.submitting : t.submit}
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}
