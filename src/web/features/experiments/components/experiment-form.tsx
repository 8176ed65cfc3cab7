import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { FlaskConical, Wand2 } from 'lucide-react';
import { useEffect, useId, useMemo, useRef } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useLocation } from 'wouter';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Field, Input, Select } from '@/components/ui/field';
import { useToast } from '@/components/ui/toast';
import { datasetsPath, type ListedDataset, useDatasets } from '@/features/datasets';
import { modelsQueryOptions } from '@/features/models';
import { messageOf } from '@/lib/api-client';
import { excerptOf } from '@/lib/excerpt';
import { formatDateTime } from '@/lib/format-date';
import { toasts as common } from '@/lib/strings';
import { useOneAtATime } from '@/lib/use-one-at-a-time';
import {
  MAX_CONCURRENCY,
  MAX_REPETITIONS,
  MIN_CONCURRENCY,
  MIN_REPETITIONS,
  REVIEW_MODES,
  type StartExperimentRequest,
} from '../../../../domain/experiment/config';
import {
  type ExperimentSummary,
  useFlowVersionList,
  useFlowVersionView,
  useStartExperiment,
} from '../api/experiments';
import { experiments as list, reviewModes, form as t } from '../strings';
import {
  defaultFormValues,
  type ExperimentFormApi,
  type ExperimentFormValues,
  experimentFormSchema,
  withStepNames,
} from './experiment-form-values';
import { experimentPath } from './paths';
import { ScorersEditor } from './scorers-editor';

const ended = (experiment: ExperimentSummary) =>
  experiment.completedAt !== null || experiment.stoppedAt !== null;

/** The baseline the form starts with: the latest ended experiment of `version` when asked, else the flow's. */
export function defaultBaseline(
  experiments: readonly ExperimentSummary[],
  options: { version?: number | undefined; datasetId?: string | undefined } = {},
): string {
  const endedOnes = experiments.filter(ended);
  if (options.version !== undefined) {
    const ofVersion = endedOnes.filter(
      (e) =>
        e.flowVersion === options.version && (options.datasetId ? e.datasetId === options.datasetId : true),
    );
    return ofVersion[0]?.id ?? '';
  }
  return endedOnes.find((e) => e.isBaseline)?.id ?? '';
}

function FieldProblem({ text, testId }: { text: string | undefined; testId?: string }) {
  return text ? (
    <p className="text-xs text-red-600" data-testid={testId}>
      {text}
    </p>
  ) : null;
}

/** Per step of the chosen version: how its results are approved, and the model that answers it. */
function StepSettings({
  flowId,
  version,
  form,
}: {
  flowId: string;
  version: number | null;
  form: ExperimentFormApi;
}) {
  const view = useFlowVersionView(flowId, version);
  const models = useQuery(modelsQueryOptions());
  const steps = view.data?.steps ?? [];
  const listId = useId();
  if (version === null) return null;
  if (view.isLoading) return <p className="text-sm text-slate-500">{t.stepsLoading}</p>;
  return (
    <div className="flex flex-col gap-3">
      <div className="flex items-center justify-between gap-3">
        <h3 className="text-sm font-semibold text-slate-900">{t.steps}</h3>
        <Button
          variant="outline"
          size="sm"
          onClick={() => {
            for (const step of steps)
              form.setValue(`review.${step.id}`, 'auto', { shouldDirty: true, shouldValidate: false });
          }}
          data-testid="all-auto"
        >
          <Wand2 className="h-4 w-4" />
          {t.allAuto}
        </Button>
      </div>
      <datalist id={listId}>
        {(models.data ?? []).map((model) => (
          <option key={model.id} value={model.id} />
        ))}
      </datalist>
      <div className="overflow-x-auto">
        <table className="w-full border-collapse text-left text-sm" data-testid="experiment-steps">
          <thead>
            <tr className="border-b border-slate-200 text-xs uppercase tracking-wide text-slate-500">
              <th className="px-2 py-2">{t.step}</th>
              <th className="px-2 py-2">{t.reviewMode}</th>
              <th className="px-2 py-2">{t.model}</th>
            </tr>
          </thead>
          <tbody>
            {steps.map((step) => (
              <tr key={step.id} className="border-b border-slate-100 align-top" data-testid="experiment-step">
                <td className="px-2 py-2 font-medium text-slate-800">{step.name}</td>
                <td className="px-2 py-2">
                  <Select
                    aria-label={`${t.reviewMode}: ${step.name}`}
                    {...form.register(`review.${step.id}`)}
                    data-testid="step-review-mode"
                  >
                    {REVIEW_MODES.map((mode) => (
                      <option key={mode} value={mode}>
                        {reviewModes[mode]}
                      </option>
                    ))}
                  </Select>
                </td>
                <td className="px-2 py-2">
                  <Input
                    aria-label={`${t.model}: ${step.name}`}
                    list={listId}
                    placeholder={step.model ?? t.modelDefault}
                    {...form.register(`models.${step.id}`)}
                    data-testid="step-model"
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="text-xs text-slate-500">{t.modelHint}</p>
      <ScorersEditor form={form} steps={steps} modelsListId={listId} />
    </div>
  );
}

const datasetLabel = (dataset: ListedDataset) =>
  `${dataset.name} (${t.datasetVersion(dataset.version, dataset.itemCount)})`;

/**
 * Starts an experiment of the flow: a version, a dataset, each step's review mode and model, the scorers,
 * repetitions and concurrency, and the experiment to compare with. The domain's schema checks it first; what
 * the server still refuses is shown beside the form.
 */
export function ExperimentForm({
  flowId,
  experiments,
  preset,
}: {
  flowId: string;
  experiments: readonly ExperimentSummary[];
  /** From the address: the version to run, and the older one to compare it with. */
  preset: { version?: number | undefined; against?: number | undefined };
}) {
  const versions = useFlowVersionList(flowId);
  const datasets = useDatasets(flowId);
  const start = useStartExperiment();
  const send = useOneAtATime(start);
  const toast = useToast();
  const [, navigate] = useLocation();
  const ids = {
    version: useId(),
    dataset: useId(),
    repetitions: useId(),
    concurrency: useId(),
    baseline: useId(),
  };
  const resolver = useMemo(() => zodResolver(experimentFormSchema(flowId)), [flowId]);
  const form: ExperimentFormApi = useForm<ExperimentFormValues, unknown, StartExperimentRequest>({
    resolver: resolver as never,
    defaultValues: defaultFormValues(),
    // The settings of steps no longer shown (another version chosen) are not sent.
    shouldUnregister: true,
  });

  // Read afresh on opening (a version made since must be offered), not as a cache of an earlier visit had it.
  const newest = versions.isFetchedAfterMount ? versions.data?.at(-1)?.version : undefined;
  const versionText = form.watch('flowVersion');
  const datasetId = form.watch('datasetId');
  const version = versionText ? Number(versionText) : null;
  const versionView = useFlowVersionView(flowId, version);

  // The version to run: the one the address names, else the newest; set once the versions are read.
  useEffect(() => {
    if (form.getValues('flowVersion') || newest === undefined) return;
    form.setValue('flowVersion', String(preset.version ?? newest));
  }, [newest, preset.version, form]);
  // The first dataset, once they are read.
  useEffect(() => {
    const first = datasets.data?.[0];
    if (!form.getValues('datasetId') && first) form.setValue('datasetId', first.id);
  }, [datasets.data, form]);
  // The baseline: of the older version asked (on the dataset chosen), else the flow's own.
  const suggested = defaultBaseline(experiments, {
    version: preset.against,
    datasetId: preset.against === undefined ? undefined : datasetId,
  });
  // Until the user picks one themselves (no baseline included).
  const baselinePicked = useRef(false);
  useEffect(() => {
    if (!baselinePicked.current) form.setValue('baselineId', suggested);
  }, [suggested, form]);

  // Opened to run given versions (from the versions page): the form is what the page is opened for.
  const card = useRef<HTMLDivElement>(null);
  const presetGiven = preset.version !== undefined;
  useEffect(() => {
    if (presetGiven) card.current?.scrollIntoView({ block: 'start' });
  }, [presetGiven]);

  const submit = form.handleSubmit((request) => {
    send(request, {
      onSuccess: (experiment) => {
        toast({ title: common.success, description: t.started, variant: 'success' });
        // The older of two versions run first: its page offers to run the newer against it once it ends.
        const then =
          preset.against !== undefined &&
          preset.version !== undefined &&
          request.flowVersion === preset.against
            ? `?then=${preset.version}`
            : '';
        navigate(`${experimentPath(experiment.id)}${then}`);
      },
    });
  });

  const endedOnes = experiments.filter(ended);
  const datasetName = (id: string) => datasets.data?.find((d) => d.id === id)?.name ?? list.unknownDataset;
  const errors = form.formState.errors;
  const refusal = start.error
    ? withStepNames(messageOf(start.error, t.failed), versionView.data?.steps ?? [])
    : null;
  const against = preset.against;

  return (
    <div ref={card} className="scroll-mt-20" id="run">
      <Card className="p-5" data-testid="experiment-form">
        <h2 className="flex items-center gap-2 text-lg font-semibold text-slate-900">
          <FlaskConical className="h-5 w-5 text-indigo-600" />
          {t.title}
        </h2>
        <p className="mt-1 text-sm text-slate-600">{t.hint}</p>
        {against !== undefined && preset.version !== undefined ? (
          <div
            className="mt-3 rounded-lg border border-indigo-200 bg-indigo-50 p-3 text-sm text-indigo-900"
            data-testid="run-both"
          >
            <p className="font-medium">{t.bothTitle(against, preset.version)}</p>
            <p className="mt-1">
              {suggested ? t.bothHasBaseline(against) : t.bothHint(against, preset.version)}
            </p>
            {suggested ? null : (
              <div className="mt-2 flex flex-wrap gap-2">
                <Button
                  variant="outline"
                  size="sm"
                  onClick={() => {
                    form.setValue('flowVersion', String(against));
                    baselinePicked.current = true;
                    form.setValue('baselineId', '');
                  }}
                  data-testid="run-older-first"
                >
                  {t.runOlderFirst(against)}
                </Button>
                <Button
                  variant="outline"
                  size="sm"
                  onClick={() => form.setValue('flowVersion', String(preset.version))}
                  data-testid="run-newer"
                >
                  {t.runNewer(preset.version)}
                </Button>
              </div>
            )}
          </div>
        ) : null}
        <form onSubmit={submit} className="mt-4 flex flex-col gap-4" noValidate>
          <div className="grid gap-3 sm:grid-cols-2">
            <Field id={ids.version} label={t.flowVersion}>
              <Select
                id={ids.version}
                {...form.register('flowVersion')}
                data-testid="experiment-flow-version"
              >
                {[...(versions.data ?? [])].reverse().map((entry) => (
                  <option key={entry.version} value={String(entry.version)}>
                    {t.versionOption(entry.version, excerptOf(entry.summary, 48))}
                  </option>
                ))}
              </Select>
              <FieldProblem text={errors.flowVersion?.message} />
            </Field>
            <Field id={ids.dataset} label={t.dataset}>
              <Select id={ids.dataset} {...form.register('datasetId')} data-testid="experiment-dataset">
                <option value="">{t.chooseDataset}</option>
                {(datasets.data ?? []).map((dataset) => (
                  <option key={dataset.id} value={dataset.id}>
                    {datasetLabel(dataset)}
                  </option>
                ))}
              </Select>
              <FieldProblem text={errors.datasetId?.message} testId="experiment-dataset-problem" />
              {datasets.data && datasets.data.length === 0 ? (
                <p className="text-xs text-slate-600">
                  {t.noDatasets}{' '}
                  <Link href={datasetsPath(flowId)} className="text-indigo-700 underline">
                    {list.goToDatasets}
                  </Link>
                </p>
              ) : null}
            </Field>
          </div>
          <StepSettings flowId={flowId} version={version} form={form} />
          <div className="grid gap-3 sm:grid-cols-3">
            <Field id={ids.repetitions} label={t.repetitions}>
              <Input
                id={ids.repetitions}
                type="number"
                min={MIN_REPETITIONS}
                max={MAX_REPETITIONS}
                {...form.register('repetitions')}
                data-testid="experiment-repetitions"
              />
              <FieldProblem text={errors.repetitions?.message} />
            </Field>
            <Field id={ids.concurrency} label={t.concurrency}>
              <Input
                id={ids.concurrency}
                type="number"
                min={MIN_CONCURRENCY}
                max={MAX_CONCURRENCY}
                {...form.register('concurrency')}
                data-testid="experiment-concurrency"
              />
              <FieldProblem text={errors.concurrency?.message} />
            </Field>
            <Field id={ids.baseline} label={t.baseline}>
              <Select
                id={ids.baseline}
                {...form.register('baselineId', {
                  onChange: () => {
                    baselinePicked.current = true;
                  },
                })}
                data-testid="experiment-baseline"
              >
                <option value="">{t.noBaseline}</option>
                {endedOnes.map((experiment) => (
                  <option key={experiment.id} value={experiment.id}>
                    {t.baselineOption(
                      experiment.flowVersion,
                      datasetName(experiment.datasetId),
                      formatDateTime(experiment.startedAt),
                      experiment.isBaseline,
                    )}
                  </option>
                ))}
              </Select>
            </Field>
          </div>
          <p className="text-xs text-slate-500">{t.baselineHint}</p>
          {refusal ? (
            <div
              className="rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-800"
              role="alert"
              data-testid="experiment-form-problem"
            >
              <p className="font-medium">{t.serverProblem}</p>
              <p className="mt-1 whitespace-pre-wrap break-words">{refusal}</p>
            </div>
          ) : null}
          <div>
            <Button type="submit" disabled={start.isPending} data-testid="start-experiment">
              <FlaskConical className="h-4 w-4" />
              {start.isPending ? t.submitting : t.submit}
            </Button>
          </div>
        </form>
      </Card>
    </div>
  );
}
