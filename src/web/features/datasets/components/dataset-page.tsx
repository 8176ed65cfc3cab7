import { Archive, ArchiveRestore, ArrowLeft, Plus, Upload } from 'lucide-react';
import { type ChangeEvent, useId, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useLocation, useParams, useSearch } from 'wouter';
import { Badge } from '@/components/ui/badge';
import { Button, buttonClasses } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Field, Input, Select, Textarea } from '@/components/ui/field';
import { Skeleton } from '@/components/ui/skeleton';
import { useToast } from '@/components/ui/toast';
import { useFlow } from '@/lib/flow-query';
import { type Step, useSteps } from '@/lib/steps-query';
import { toasts as common } from '@/lib/strings';
import { useOneAtATime } from '@/lib/use-one-at-a-time';
import { useRecordAccess } from '@/lib/workspace-roles';
import { DATASET_CSV_MAX_BYTES, DATASET_TEXT_MAX_CHARS } from '../../../../domain/limits';
import { type DatasetItem, useAddItems, useDataset, useSetArchived, useUploadCsv } from '../api/datasets';
import { datasets as list, datasetPage as t } from '../strings';
import { datasetsPath } from './datasets-page';

/** The version asked for in the address (`?version=`), or none: the latest. */
function versionAsked(search: string): number | undefined {
  const value = Number(new URLSearchParams(search).get('version'));
  return Number.isInteger(value) && value > 0 ? value : undefined;
}

/** A step's name by its id; a key that is no step of the flow now, said so. */
const stepNameOf = (steps: Step[]) => (key: string) =>
  steps.find((step) => step.id === key)?.name ?? t.unknownStep(key);

function Texts({ texts, nameOf }: { texts: Record<string, string>; nameOf: (key: string) => string }) {
  const entries = Object.entries(texts);
  if (entries.length === 0) return <span className="text-slate-400">—</span>;
  return (
    <dl className="flex flex-col gap-1">
      {entries.map(([key, text]) => (
        <div key={key}>
          <dt className="text-xs font-medium text-slate-500">{nameOf(key)}</dt>
          <dd className="whitespace-pre-wrap break-words text-sm text-slate-800">{text}</dd>
        </div>
      ))}
    </dl>
  );
}

function ItemsTable({
  items,
  nameOf,
  mayChange,
  datasetId,
}: {
  items: DatasetItem[];
  nameOf: (key: string) => string;
  mayChange: boolean;
  datasetId: string;
}) {
  const setArchived = useSetArchived(datasetId);
  const toggle = useOneAtATime(setArchived);
  if (items.length === 0)
    return (
      <p className="text-sm text-slate-600" data-testid="dataset-items-empty">
        {t.noItems}
      </p>
    );
  return (
    <div className="overflow-x-auto">
      <table className="w-full border-collapse text-left text-sm" data-testid="dataset-items">
        <thead>
          <tr className="border-b border-slate-200 text-xs uppercase tracking-wide text-slate-500">
            <th className="px-2 py-2">#</th>
            <th className="px-2 py-2">{t.inputs}</th>
            <th className="px-2 py-2">{t.expected}</th>
            <th className="px-2 py-2">{t.tags}</th>
            <th className="px-2 py-2">{t.source}</th>
            {mayChange ? (
              <th className="px-2 py-2">
                <span className="sr-only">{t.actions}</span>
              </th>
            ) : null}
          </tr>
        </thead>
        <tbody>
          {items.map((item, index) => (
            <tr
              key={item.id}
              className={`border-b border-slate-100 align-top ${item.archived ? 'bg-slate-50 text-slate-500' : ''}`}
              data-testid="dataset-item"
              data-archived={item.archived}
            >
              <td className="px-2 py-2 text-xs text-slate-500">{index + 1}</td>
              <td className="px-2 py-2">
                <Texts texts={item.inputs} nameOf={nameOf} />
              </td>
              <td className="px-2 py-2">
                <Texts texts={item.expected} nameOf={nameOf} />
              </td>
              <td className="px-2 py-2">
                <div className="flex flex-wrap gap-1">
                  {item.tags.map((tag) => (
                    <Badge key={tag} tone="outline">
                      {tag}
                    </Badge>
                  ))}
                  {item.archived ? <Badge tone="amber">{t.archived}</Badge> : null}
                </div>
              </td>
              <td className="px-2 py-2 text-xs">{t.sources[item.source] ?? item.source}</td>
              {mayChange ? (
                <td className="px-2 py-2">
                  <Button
                    variant="ghost"
                    size="sm"
                    disabled={setArchived.isPending}
                    onClick={() => toggle({ itemId: item.id, archived: !item.archived })}
                    data-testid={item.archived ? 'restore-item' : 'archive-item'}
                  >
                    {item.archived ? <ArchiveRestore className="h-4 w-4" /> : <Archive className="h-4 w-4" />}
                    {item.archived ? t.restore : t.archive}
                  </Button>
                </td>
              ) : null}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

type ItemForm = { inputs: Record<string, string>; expected: Record<string, string>; tags: string };

/** One item typed in: an input and an expected text per step, and tags. */
function AddItemForm({ datasetId, steps }: { datasetId: string; steps: Step[] }) {
  const form = useForm<ItemForm>({ defaultValues: { inputs: {}, expected: {}, tags: '' } });
  const addItems = useAddItems(datasetId);
  const add = useOneAtATime(addItems);
  const toast = useToast();
  const tagsId = useId();
  const [problem, setProblem] = useState<string | null>(null);

  const submit = form.handleSubmit((values) => {
    const filled = (texts: Record<string, string>) =>
      Object.fromEntries(Object.entries(texts ?? {}).filter(([, text]) => text.trim() !== ''));
    const inputs = filled(values.inputs);
    const expected = filled(values.expected);
    if (Object.keys(inputs).length === 0 && Object.keys(expected).length === 0) {
      setProblem(t.nothingFilled);
      return;
    }
    setProblem(null);
    const tags = values.tags
      .split(';')
      .map((tag) => tag.trim())
      .filter((tag) => tag !== '');
    add(
      { items: [{ inputs, expected, tags }] },
      {
        onSuccess: (added) => {
          toast({ title: common.success, description: t.added(added.itemIds.length), variant: 'success' });
          form.reset();
        },
      },
    );
  });

  return (
    <Card className="p-5" data-testid="add-dataset-item">
      <h2 className="text-lg font-semibold text-slate-900">{t.addTitle}</h2>
      <p className="mt-1 text-sm text-slate-600">{t.addHint}</p>
      <form onSubmit={submit} className="mt-3 flex flex-col gap-3">
        {steps.map((step) => (
          <div key={step.id} className="grid gap-3 sm:grid-cols-2">
            <Field id={`input-${step.id}`} label={t.inputFor(step.name)}>
              <Textarea
                id={`input-${step.id}`}
                maxLength={DATASET_TEXT_MAX_CHARS}
                {...form.register(`inputs.${step.id}`)}
                data-testid="item-input"
              />
            </Field>
            <Field id={`expected-${step.id}`} label={t.expectedFor(step.name)}>
              <Textarea
                id={`expected-${step.id}`}
                maxLength={DATASET_TEXT_MAX_CHARS}
                {...form.register(`expected.${step.id}`)}
                data-testid="item-expected"
              />
            </Field>
          </div>
        ))}
        <Field id={tagsId} label={t.tagsField}>
          <Input id={tagsId} {...form.register('tags')} data-testid="item-tags" />
        </Field>
        {problem ? <p className="text-sm text-red-600">{problem}</p> : null}
        <div>
          <Button type="submit" disabled={addItems.isPending} data-testid="add-item-submit">
            <Plus className="h-4 w-4" />
            {addItems.isPending ? t.adding : t.add}
          </Button>
        </div>
      </form>
    </Card>
  );
}

/** A CSV file's rows as items: the file's text is sent as it is, the server reads and checks it. */
function CsvUpload({ datasetId }: { datasetId: string }) {
  const upload = useUploadCsv(datasetId);
  const send = useOneAtATime(upload);
  const toast = useToast();
  const fileId = useId();
  const input = useRef<HTMLInputElement>(null);

  const chosen = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    if (!file) return;
    if (file.size > DATASET_CSV_MAX_BYTES) {
      toast({ title: common.error, description: t.csvTooLarge, variant: 'destructive' });
      return;
    }
    const text = await file.text();
    send(text, {
      onSuccess: (added) => {
        const unknown = added.unknownKeys.length > 0 ? ` ${t.unknownColumns(added.unknownKeys)}` : '';
        toast({
          title: common.success,
          description: `${t.added(added.itemIds.length)}.${unknown}`,
          variant: 'success',
        });
      },
      onSettled: () => {
        if (input.current) input.current.value = '';
      },
    });
  };

  return (
    <Card className="p-5" data-testid="dataset-csv-upload">
      <h2 className="text-lg font-semibold text-slate-900">{t.csvTitle}</h2>
      <p className="mt-1 text-sm text-slate-600">{t.csvHint}</p>
      <div className="mt-3 flex items-center gap-3">
        <label htmlFor={fileId} className={buttonClasses('outline', 'sm', 'cursor-pointer')}>
          <Upload className="h-4 w-4" />
          {upload.isPending ? t.csvUploading : t.csvChoose}
        </label>
        <input
          ref={input}
          id={fileId}
          type="file"
          accept=".csv,text/csv"
          className="sr-only"
          onChange={chosen}
          disabled={upload.isPending}
          data-testid="dataset-csv-input"
        />
      </div>
    </Card>
  );
}

/** A dataset: its items (archived ones on demand), the version shown, and for editors adding and archiving. */
export function DatasetPage() {
  const { id = '' } = useParams<{ id: string }>();
  const search = useSearch();
  const [, navigate] = useLocation();
  const asked = versionAsked(search);
  const latest = useDataset(id);
  const shown = useDataset(id, asked);
  const dataset = asked === undefined ? latest.data : shown.data;
  const flowId = latest.data?.flowId ?? '';
  const flow = useFlow(flowId);
  const steps = useSteps(flowId);
  const may = useRecordAccess(flow.data?.workspaceId);
  const [showArchived, setShowArchived] = useState(false);
  const versionId = useId();
  const archivedId = useId();

  if (latest.isLoading) return <Skeleton className="mx-auto mt-8 h-40 max-w-5xl" />;
  if (latest.error || !latest.data)
    return (
      <p className="mx-auto mt-8 max-w-5xl px-4 text-sm text-red-600" data-testid="dataset-load-failed">
        {t.loadFailed}
      </p>
    );
  const current = latest.data.version;
  const older = dataset !== undefined && dataset.version < current;
  const mayChange = Boolean(flow.data) && may('change') && !older;
  const items = (dataset?.items ?? []).filter((item) => showArchived || !item.archived);
  const nameOf = stepNameOf(steps.data ?? []);

  return (
    <div className="mx-auto max-w-5xl px-4 py-8" data-testid="dataset-page">
      <Link href={datasetsPath(flowId)} className={buttonClasses('ghost', 'sm')}>
        <ArrowLeft className="h-4 w-4" />
        {list.backToDatasets}
      </Link>
      <div className="mt-4 flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <h1 className="text-2xl font-bold text-slate-900" data-testid="dataset-name">
            {latest.data.name}
          </h1>
          <p className="mt-1 text-sm text-slate-600" data-testid="dataset-version">
            {t.versionLabel} {dataset?.version ?? current}
          </p>
        </div>
        <div className="w-56">
          <Field id={versionId} label={t.versionLabel}>
            <Select
              id={versionId}
              value={asked ?? current}
              onChange={(event) => {
                const version = Number(event.target.value);
                navigate(version === current ? `/datasets/${id}` : `/datasets/${id}?version=${version}`);
              }}
              data-testid="dataset-version-select"
            >
              {Array.from({ length: current }, (_, i) => current - i).map((version) => (
                <option key={version} value={version}>
                  {version === current ? t.latest(version) : version}
                </option>
              ))}
            </Select>
          </Field>
        </div>
      </div>
      {older ? <p className="mt-2 text-sm text-amber-700">{t.olderVersion}</p> : null}

      <div className="mt-6 flex flex-col gap-6">
        <Card className="p-5">
          <div className="flex items-center justify-between gap-3">
            <h2 className="text-lg font-semibold text-slate-900">
              {t.itemsTitle} ({dataset?.itemCount ?? 0})
            </h2>
            <label htmlFor={archivedId} className="flex items-center gap-2 text-sm text-slate-700">
              <input
                id={archivedId}
                type="checkbox"
                checked={showArchived}
                onChange={(event) => setShowArchived(event.target.checked)}
                data-testid="show-archived"
              />
              {t.showArchived}
            </label>
          </div>
          <div className="mt-3">
            {shown.isLoading ? (
              <Skeleton className="h-24" />
            ) : (
              <ItemsTable items={items} nameOf={nameOf} mayChange={mayChange} datasetId={id} />
            )}
          </div>
        </Card>
        {mayChange ? (
          <>
            <CsvUpload datasetId={id} />
            <AddItemForm datasetId={id} steps={steps.data ?? []} />
          </>
        ) : null}
      </div>
    </div>
  );
}
