import { Database } from 'lucide-react';
import { Link, useParams } from 'wouter';
import { CreateByNameCard } from '@/components/create-by-name-card';
import { FlowSubpageHeader } from '@/components/flow-subpage-header';
import { Badge } from '@/components/ui/badge';
import { Card } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { useToast } from '@/components/ui/toast';
import { useFlow } from '@/lib/flow-query';
import { formatDateTime } from '@/lib/format-date';
import { toasts as common } from '@/lib/strings';
import { useOneAtATime } from '@/lib/use-one-at-a-time';
import { useRecordAccess } from '@/lib/workspace-roles';
import { DATASET_NAME_MAX_LENGTH } from '../../../../domain/limits';
import { useCreateDataset, useDatasets } from '../api/datasets';
import { datasets as t } from '../strings';

/** Where a flow's datasets are listed. */
export const datasetsPath = (flowId: string) => `/flows/${flowId}/datasets`;
/** Where a dataset's items are shown. */
export const datasetPath = (datasetId: string) => `/datasets/${datasetId}`;

function CreateDatasetForm({ flowId }: { flowId: string }) {
  const createDataset = useCreateDataset();
  const create = useOneAtATime(createDataset);
  const toast = useToast();
  return (
    <CreateByNameCard
      strings={t}
      maxLength={DATASET_NAME_MAX_LENGTH}
      pending={createDataset.isPending}
      testId="dataset"
      onCreate={(name, made) =>
        create(
          { name, flowId },
          {
            onSuccess: (dataset) => {
              toast({ title: common.success, description: t.created(dataset.name), variant: 'success' });
              made();
            },
          },
        )
      }
    />
  );
}

/** A flow's datasets: the list, and a form to make one for whoever may change the flow. */
export function DatasetsPage() {
  const { flowId = '' } = useParams<{ flowId: string }>();
  const flow = useFlow(flowId);
  const list = useDatasets(flowId);
  const may = useRecordAccess(flow.data?.workspaceId);

  return (
    <div className="mx-auto max-w-4xl px-4 py-8" data-testid="datasets-page">
      <FlowSubpageHeader
        flowId={flowId}
        back={t.backToFlow}
        title={t.title}
        subtitle={flow.data ? t.subtitle(flow.data.name) : null}
      />
      <div className="mt-6 flex flex-col gap-6">
        {flow.data && may('change') ? <CreateDatasetForm flowId={flowId} /> : null}
        {list.error && !list.isLoading ? (
          <p className="text-sm text-red-600" data-testid="datasets-load-failed">
            {t.loadFailed}
          </p>
        ) : null}
        {list.isLoading ? <Skeleton className="h-24" /> : null}
        {list.data && list.data.length === 0 ? (
          <p className="text-sm text-slate-600" data-testid="datasets-empty">
            {t.empty}
          </p>
        ) : null}
        <ul className="flex flex-col gap-3" data-testid="datasets-list">
          {list.data?.map((dataset) => (
            <li key={dataset.id}>
              <Card className="flex items-center justify-between gap-4 p-4" data-testid="dataset-row">
                <div className="min-w-0">
                  <Link
                    href={datasetPath(dataset.id)}
                    className="flex items-center gap-2 font-medium text-slate-900 hover:underline"
                  >
                    <Database className="h-4 w-4 text-indigo-600" />
                    {dataset.name}
                  </Link>
                  <p className="mt-1 text-xs text-slate-500">
                    {t.items(dataset.itemCount, dataset.archivedCount)} · {formatDateTime(dataset.updatedAt)}
                  </p>
                </div>
                <Badge tone="indigo">{t.version(dataset.version)}</Badge>
              </Card>
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}
