import { type FormEvent, useId, useRef, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Dialog, DialogContent } from '../../../components/ui/dialog';
import { Field, Input, Textarea } from '../../../components/ui/field';
import { useToast } from '../../../components/ui/toast';
import { createFlow as t, toasts } from '../../../lib/strings';
import { useCreateFlow } from '../api/create-flow';

export function CreateFlowDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const createFlow = useCreateFlow();
  // isPending only changes on the next render; two clicks in one frame both see it false.
  const submitting = useRef(false);
  const nameId = useId();
  const descriptionId = useId();
  const toast = useToast();
  const valid = name.trim() !== '' && description.trim() !== '';

  const submit = (event: FormEvent) => {
    event.preventDefault();
    // A second click while the first request is on its way would create the flow twice.
    if (!valid || submitting.current) return;
    submitting.current = true;
    createFlow.mutate(
      // Spec §7 sends the status with the new flow; a new flow is a draft.
      { name: name.trim(), description: description.trim(), status: 'draft' },
      {
        onSuccess: (flow) => {
          toast({ title: toasts.success, description: toasts.flowCreated(flow.name), variant: 'success' });
          setName('');
          setDescription('');
          onOpenChange(false);
        },
        onSettled: () => {
          submitting.current = false;
        },
      },
    );
  };

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
              value={name}
              onChange={(e) => setName(e.target.value)}
              required
              maxLength={200}
              autoFocus
              data-testid="flow-name-input"
            />
          </Field>
          <Field id={descriptionId} label={t.summary}>
            <Textarea
              id={descriptionId}
              value={description}
              onChange={(e) => setDescription(e.target.value)}
              required
              maxLength={2000}
              data-testid="flow-description-input"
            />
          </Field>
          <div className="flex justify-end gap-2">
            <Button variant="outline" onClick={() => onOpenChange(false)} data-testid="create-flow-cancel">
              {t.cancel}
            </Button>
            <Button type="submit" disabled={!valid || createFlow.isPending} data-testid="create-flow-submit">
              {createFlow.isPending ? t.submitting : t.submit}
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}
