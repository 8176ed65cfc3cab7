import { useId } from 'react';
import { Card } from '@/components/ui/card';
import { Field, Input, Select, Textarea } from '@/components/ui/field';
import { editMode as t } from '@/features/flow-workspace/strings';
import { flowsList } from '@/lib/strings';
import {
  createFlowSchema,
  FLOW_DESCRIPTION_MAX_LENGTH,
  FLOW_NAME_MAX_LENGTH,
  FLOW_STATUSES,
  type Flow,
} from '../../../../../domain/flow';
import { type FlowDetails, useFlowDetailsDraft } from './edit-session';

/** What is wrong with the details, field by field, under the rules the server applies to a flow. */
export function flowDetailsProblems({
  name,
  description,
  status,
}: FlowDetails): Partial<Record<keyof FlowDetails, string>> {
  const parsed = createFlowSchema.safeParse({ name, description, status });
  if (parsed.success) return {};
  return Object.fromEntries(parsed.error.issues.map((issue) => [String(issue.path[0]), issue.message]));
}

/** Name, description and status of the flow, edited here and sent by the header's Save. */
export function FlowDetailsCard({ flow }: { flow: Flow }) {
  const { details, change } = useFlowDetailsDraft(flow);
  const problems = flowDetailsProblems(details);
  const nameId = useId();
  const descriptionId = useId();
  const statusId = useId();
  // A status set through the API outside the three the screens know stays choosable as it is.
  const statuses: string[] = FLOW_STATUSES.includes(details.status as (typeof FLOW_STATUSES)[number])
    ? [...FLOW_STATUSES]
    : [...FLOW_STATUSES, details.status];

  return (
    <Card className="flex flex-col gap-3 p-4" data-testid="flow-details">
      <div>
        <h2 className="font-semibold text-slate-900">{t.flowDetails}</h2>
        <p className="text-xs text-slate-500">{t.flowDetailsHint}</p>
      </div>
      <Field id={nameId} label={t.flowName}>
        <Input
          id={nameId}
          value={details.name}
          onChange={(e) => change({ name: e.target.value })}
          maxLength={FLOW_NAME_MAX_LENGTH}
          aria-invalid={problems.name !== undefined}
          data-testid="flow-details-name"
        />
      </Field>
      {problems.name ? <p className="-mt-2 text-xs text-red-700">{problems.name}</p> : null}
      <Field id={descriptionId} label={t.flowDescription}>
        <Textarea
          id={descriptionId}
          value={details.description}
          onChange={(e) => change({ description: e.target.value })}
          maxLength={FLOW_DESCRIPTION_MAX_LENGTH}
          aria-invalid={problems.description !== undefined}
          className="min-h-20"
          data-testid="flow-details-description"
        />
      </Field>
      {problems.description ? <p className="-mt-2 text-xs text-red-700">{problems.description}</p> : null}
      <Field id={statusId} label={t.flowStatus}>
        <Select
          id={statusId}
          value={details.status}
          onChange={(e) => change({ status: e.target.value })}
          data-testid="flow-details-status"
        >
          {statuses.map((status) => (
            <option key={status} value={status}>
              {flowsList.statuses[status as keyof typeof flowsList.statuses] ?? status}
            </option>
          ))}
        </Select>
      </Field>
    </Card>
  );
}
