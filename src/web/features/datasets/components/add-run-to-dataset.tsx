import { DatabaseZap } from 'lucide-react';
import { useId, useState } from 'react';
import { Link } from 'wouter';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent } from '@/components/ui/dialog';
import { Field, Select } from '@/components/ui/field';
import { useToast } from '@/components/ui/toast';
import { toasts as common } from '@/lib/strings';
import { useOneAtATime } from '@/lib/use-one-at-a-time';
import { useAddRun, useDatasets } from '../api/datasets';
import { addRun as t } from '../strings';
import { datasetsPath } from './datasets-page';

/**
 * "Add this run to a dataset": the execution's user inputs and approved results become an item of a dataset
 * of its flow, picked in a dialog.
 */
export function AddRunToDataset({ flowId, executionId }: { flowId: string; executionId: string }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="outline" size="sm" onClick={() => setOpen(true)} data-testid="add-run-to-dataset">
        <DatabaseZap className="h-4 w-4" />
        {t.button}
      </Button>
      <Dialog open={open} onOpenChange={setOpen}>
        {open ? (
          <DialogContent title={t.title} description={t.description} closeLabel={t.close}>
            <PickDataset flowId={flowId} executionId={executionId} onDone={() => setOpen(false)} />
          </DialogContent>
        ) : null}
      </Dialog>
    </>
  );
}

function PickDataset({
  flowId,
  executionId,
  onDone,
}: {
  flowId: string;
  executionId: string;
  onDone: () => void;
}) {
  const list = useDatasets(flowId);
  const addRun = useAddRun();
  const add = useOneAtATime(addRun);
  const toast = useToast();
  const selectId = useId();
  const [picked, setPicked] = useState<string>('');
  const datasets = list.data ?? [];
  const datasetId = picked || datasets[0]?.id || '';

  if (list.data && datasets.length === 0)
    return (
      <div className="flex flex-col gap-3">
        <p className="text-sm text-slate-600">{t.noDatasets}</p>
        <Link href={datasetsPath(flowId)} className="text-sm text-indigo-700 hover:underline">
          {t.manage}
        </Link>
      </div>
    );
  return (
    <form
      className="flex flex-col gap-4"
      onSubmit={(event) => {
        event.preventDefault();
        const dataset = datasets.find((each) => each.id === datasetId);
        if (!dataset) return;
        add(
          { datasetId, executionId },
          {
            onSuccess: () => {
              toast({ title: common.success, description: t.added(dataset.name), variant: 'success' });
              onDone();
            },
          },
        );
      }}
    >
      <Field id={selectId} label={t.dataset}>
        <Select
          id={selectId}
          value={datasetId}
          onChange={(event) => setPicked(event.target.value)}
          data-testid="add-run-dataset-select"
        >
          {datasets.map((dataset) => (
            <option key={dataset.id} value={dataset.id}>
              {dataset.name}
            </option>
          ))}
        </Select>
      </Field>
      <div className="flex justify-between gap-3">
        <Link href={datasetsPath(flowId)} className="self-center text-sm text-indigo-700 hover:underline">
          {t.manage}
        </Link>
        <Button type="submit" disabled={!datasetId || addRun.isPending} data-testid="add-run-submit">
          {t.submit}
        </Button>
      </div>
    </form>
  );
}
