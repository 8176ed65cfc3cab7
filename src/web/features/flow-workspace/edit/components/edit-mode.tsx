import { useQueryClient } from '@tanstack/react-query';
import { atom, useAtom } from 'jotai';
import { Plus } from 'lucide-react';
import { useRef } from 'react';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { useCreateStep } from '@/features/flow-workspace/api/create-step';
import { useLiveExecution } from '@/features/flow-workspace/api/use-live-execution';
import { editMode as t } from '@/features/flow-workspace/strings';
import { useLatestExecution } from '@/lib/execution-query';
import type { Flow } from '@/lib/flow-query';
import type { Step } from '@/lib/steps-query';
import { useMay } from '@/lib/workspace-roles';
import { useDirtyFlag } from './edit-session';
import { ExecutionStatusCard } from './execution-status-card';
import { FlowDetailsCard } from './flow-details-card';
import { StepDetail } from './step-detail';
import { StepTree } from './step-tree';

/** The step chosen in the tree; a step of another flow, or a deleted one, falls back to the first. */
const selectedStepIdAtom = atom<string | null>(null);

/** Edit mode: the flow's structure on the left, the chosen step's settings, test run and results on the right. */
export function EditMode({ flow, steps }: { flow: Flow; steps: Step[] }) {
  const flowId = flow.id;
  const queryClient = useQueryClient();
  const [selectedId, setSelectedId] = useAtom(selectedStepIdAtom);
  const createStep = useCreateStep(flowId);
  const latest = useLatestExecution(flowId, queryClient);
  const { execution } = useLiveExecution(latest.data?.id);
  const { markDirty } = useDirtyFlag(flowId);
  const selected = steps.find((s) => s.id === selectedId) ?? steps[0] ?? null;
  const detailRef = useRef<HTMLDivElement>(null);
  const mayChange = useMay('change');

  // Below lg the detail sits under the tree, often off screen: choosing a step brings it into view.
  const selectStep = (stepId: string) => {
    setSelectedId(stepId);
    if (window.matchMedia('(min-width: 1024px)').matches) return;
    requestAnimationFrame(() => detailRef.current?.scrollIntoView({ behavior: 'smooth', block: 'start' }));
  };

  const addStep = () =>
    createStep.mutate(undefined, {
      onSuccess: (step) => {
        selectStep(step.id);
        markDirty();
      },
    });

  return (
    <div className="grid grid-cols-1 gap-4 lg:grid-cols-3" data-testid="edit-mode">
      <div className="flex flex-col gap-4 self-start">
        {/* One who may not change the flow sees its details, but cannot edit them. */}
        <fieldset disabled={!mayChange} className="contents">
          <FlowDetailsCard flow={flow} />
        </fieldset>
        <Card className="flex flex-col gap-4 p-4">
          <div className="flex items-center justify-between">
            <h2 className="font-semibold text-slate-900">{t.structure}</h2>
            {mayChange ? (
              <Button size="sm" onClick={addStep} disabled={createStep.isPending} data-testid="edit-add-step">
                <Plus className="h-4 w-4" />
                {t.addStep}
              </Button>
            ) : null}
          </div>
          <ExecutionStatusCard execution={execution} loading={latest.isLoading} />
          {steps.length === 0 ? <p className="text-sm text-slate-500">{t.noSteps}</p> : null}
          <StepTree steps={steps} selectedId={selected?.id ?? null} onSelect={selectStep} />
        </Card>
      </div>
      <div ref={detailRef} className="scroll-mt-20 lg:col-span-2">
        {selected ? (
          <StepDetail step={selected} steps={steps} execution={execution} onChanged={markDirty} />
        ) : (
          <Card className="p-10 text-center text-slate-500" data-testid="step-detail-empty">
            {t.selectStep}
          </Card>
        )}
      </div>
    </div>
  );
}
