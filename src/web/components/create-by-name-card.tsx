import { zodResolver } from '@hookform/resolvers/zod';
import { Plus } from 'lucide-react';
import { useId, useMemo } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Field, Input } from '@/components/ui/field';

/** The words of a card that makes something from its name alone. */
export interface CreateByNameStrings {
  createTitle: string;
  name: string;
  namePlaceholder: string;
  nameRequired: string;
  nameTooLong: (max: number) => string;
  create: string;
  creating: string;
}

/**
 * A card that makes a record (a workspace, a dataset) from a name: not blank, at most `maxLength` characters,
 * as the server takes it. `onCreate` is given the name and what to call once it is made (the form empties).
 * Its test ids are `create-<testId>`, `<testId>-name-input` and `create-<testId>-submit`.
 */
export function CreateByNameCard({
  strings: t,
  maxLength,
  pending,
  testId,
  onCreate,
}: {
  strings: CreateByNameStrings;
  maxLength: number;
  pending: boolean;
  testId: string;
  onCreate: (name: string, made: () => void) => void;
}) {
  const schema = useMemo(
    () =>
      z.object({ name: z.string().trim().min(1, t.nameRequired).max(maxLength, t.nameTooLong(maxLength)) }),
    [t, maxLength],
  );
  const form = useForm({ resolver: zodResolver(schema), defaultValues: { name: '' }, mode: 'onChange' });
  const nameId = useId();
  const error = form.formState.errors.name?.message;
  const submit = form.handleSubmit(({ name }) => onCreate(name, () => form.reset()));

  return (
    <Card className="p-5" data-testid={`create-${testId}`}>
      <h2 className="text-lg font-semibold text-slate-900">{t.createTitle}</h2>
      <form onSubmit={submit} className="mt-3 flex flex-col gap-3 sm:flex-row sm:items-end">
        <div className="flex-1">
          <Field id={nameId} label={t.name}>
            <Input
              id={nameId}
              {...form.register('name')}
              placeholder={t.namePlaceholder}
              maxLength={maxLength}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? `${nameId}-error` : undefined}
              data-testid={`${testId}-name-input`}
            />
          </Field>
        </div>
        <Button
          type="submit"
          disabled={pending}
          disabledReason={!form.formState.isValid && t.nameRequired}
          data-testid={`create-${testId}-submit`}
        >
          <Plus className="h-4 w-4" />
          {pending ? t.creating : t.create}
        </Button>
      </form>
      {error && form.formState.isDirty ? (
        <p id={`${nameId}-error`} className="mt-2 text-sm text-red-600">
          {error}
        </p>
      ) : null}
    </Card>
  );
}
