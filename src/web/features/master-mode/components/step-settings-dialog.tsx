import { type FormEvent, useId, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Dialog, DialogContent } from '@/components/ui/dialog';
import { Field, Input, Select } from '@/components/ui/field';
import { whyDisabled } from '@/lib/strings';
import {
  MASTER_STEP_TYPES,
  type MasterStep,
  type MasterStepType,
  type UpdateMasterStepInput,
} from '../../../../domain/master-mode/master-session';
import { masterMode as t } from '../strings';

/** The selected row's name, type and whether its input is required. */
export function StepSettingsDialog({
  row,
  open,
  onOpenChange,
  onSave,
  saving,
}: {
  row: MasterStep | undefined;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onSave: (changes: UpdateMasterStepInput) => void;
  saving: boolean;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        title={t.stepSettings}
        description={t.stepSettingsDescription}
        closeLabel={t.close}
        data-testid="master-step-settings"
      >
        {/* The content mounts on each opening, so the form starts from the row as it is then. */}
        {row ? (
          <SettingsForm
            key={row.id}
            row={row}
            onCancel={() => onOpenChange(false)}
            onSave={onSave}
            saving={saving}
          />
        ) : null}
      </DialogContent>
    </Dialog>
  );
}

function SettingsForm({
  row,
  onCancel,
  onSave,
  saving,
}: {
  row: MasterStep;
  onCancel: () => void;
  onSave: (changes: UpdateMasterStepInput) => void;
  saving: boolean;
}) {
  const [stepName, setStepName] = useState(row.stepName);
  const [stepType, setStepType] = useState<MasterStepType>(row.stepType);
  const [isRequired, setIsRequired] = useState(row.isRequired);
  const nameId = useId();
  const typeId = useId();
  const requiredId = useId();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (stepName.trim() === '') return;
    onSave({ stepName: stepName.trim(), stepType, isRequired });
  };

  return (
    <form onSubmit={submit} className="flex flex-col gap-4">
      <Field id={nameId} label={t.stepNameLabel}>
        <Input
          id={nameId}
          value={stepName}
          onChange={(e) => setStepName(e.target.value)}
          maxLength={200}
          required
          data-testid="master-step-name-input"
        />
      </Field>
      <Field id={typeId} label={t.stepType}>
        <Select
          id={typeId}
          value={stepType}
          onChange={(e) => setStepType(e.target.value as MasterStepType)}
          data-testid="master-step-type-select"
        >
          {MASTER_STEP_TYPES.map((type) => (
            <option key={type} value={type}>
              {t.stepTypes[type]}
            </option>
          ))}
        </Select>
        <p className="text-xs text-slate-500">{t.stepTypeHelp[stepType]}</p>
      </Field>
      <div className="flex items-center gap-2">
        <Checkbox
          id={requiredId}
          checked={isRequired}
          onCheckedChange={(checked) => setIsRequired(checked === true)}
          data-testid="master-step-required"
        />
        <label htmlFor={requiredId} className="text-sm text-slate-700">
          {t.isRequired}
        </label>
      </div>
      <div className="flex justify-end gap-2">
        <Button variant="outline" onClick={onCancel}>
          {t.cancel}
        </Button>
        <Button
          type="submit"
          disabled={saving}
          disabledReason={stepName.trim() === '' && whyDisabled.needStepName}
          data-testid="master-step-settings-save"
        >
          {t.save}
        </Button>
      </div>
    </form>
  );
}
