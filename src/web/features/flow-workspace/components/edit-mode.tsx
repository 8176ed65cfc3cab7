import { atom, useAtom } from 'jotai';
import { Plus } from 'lucide-react';
import type { Step } from '../../../../domain/flow';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { classNames } from '../../../lib/class-names';
import { editMode as t } from '../../../lib/strings';
import { useCreateStep } from '../api/create-step';

/** The step chosen in the tree; a step of another flow simply falls back to the first one. */
const selectedStepIdAtom = atom<string | null>(null);

const modeBadge = (step: Step) => (step.outputMode === 'multiple' ? t.multipleOutput : t.singleOutput);

/** The flow's structure and a read-only view of a step; the full step editor comes later. */
export function EditMode({ flowId, steps }: { flowId: string; steps: Step[] }) {
  const [selectedId, setSelectedId] = useAtom(selectedStepIdAtom);
  const createStep = useCreateStep(flowId);
  const selected = steps.find((s) => s.id === selectedId) ?? steps[0] ?? null;

  const addStep = () => createStep.mutate(undefined, { onSuccess: (step) => setSelectedId(step.id) });

  return (
    <div className="grid gap-4 lg:grid-cols-3" data-testid="edit-mode">
      <Card className="p-4">
        <div className="flex items-center justify-between">
          <h2 className="font-semibold text-slate-900">{t.structure}</h2>
          <Button size="sm" onClick={addStep} disabled={createStep.isPending} data-testid="edit-add-step">
            <Plus className="h-4 w-4" />
            {t.addStep}
          </Button>
        </div>
        {steps.length === 0 ? <p className="mt-4 text-sm text-slate-500">{t.noSteps}</p> : null}
        <ul className="mt-4 flex flex-col gap-1" data-testid="step-tree">
          {steps.map((step) => (
            <li key={step.id}>
              <button
                type="button"
                onClick={() => setSelectedId(step.id)}
                className={classNames(
                  'w-full rounded-md px-3 py-2 text-left text-sm',
                  selected?.id === step.id
                    ? 'bg-indigo-50 font-medium text-indigo-700'
                    : 'text-slate-700 hover:bg-slate-50',
                )}
                data-testid={`step-tree-item-${step.order}`}
              >
                {t.stepTitle(step.order, step.name)}
              </button>
            </li>
          ))}
        </ul>
      </Card>
      <Card className="p-5 lg:col-span-2" data-testid="step-detail">
        {selected ? (
          <>
            <div className="flex flex-wrap items-center gap-2">
              <h2 className="text-lg font-semibold text-slate-900">
                {t.stepTitle(selected.order, selected.name)}
              </h2>
              <Badge tone="indigo">{modeBadge(selected)}</Badge>
            </div>
            <h3 className="mt-4 text-sm font-medium text-slate-700">{t.systemPrompt}</h3>
            <pre className="mt-2 whitespace-pre-wrap rounded-lg border border-slate-200 bg-slate-50 p-3 font-mono text-xs text-slate-700">
              {selected.systemPrompt}
            </pre>
            <p className="mt-4 text-sm text-slate-500">{t.editorComing}</p>
          </>
        ) : (
          <p className="py-10 text-center text-slate-500">{t.selectStep}</p>
        )}
      </Card>
    </div>
  );
}
