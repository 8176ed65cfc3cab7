import { ArrowLeft, Play, PlayCircle, Plus, RotateCcw, Settings, Square, Trash2 } from 'lucide-react';
import { useRef, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { useConfirm } from '@/components/ui/confirm-dialog';
import { useToast } from '@/components/ui/toast';
import type { MasterStep } from '@/features/master-mode/api/get-master-session';
import { cn } from '@/lib/cn';
import { whyDisabled } from '@/lib/strings';
import type { MasterEvent } from '../../../../domain/master-mode/events';

type ExecuteAllEnd = Extract<MasterEvent, { type: 'MasterExecuteAllEnded' }>['data'];

import { useMasterSession } from '../api/get-master-session';
import {
  useCreateMasterStep,
  useDeleteMasterStep,
  useExecuteMasterStep,
  useUpdateMasterStep,
} from '../api/master-steps';
import { useExecuteAll, useResetSession, useStopSession } from '../api/session-controls';
import { useLiveMasterSession } from '../api/use-live-master-session';
import { masterMode as t } from '../strings';
import { MasterRow, sheetColumns } from './master-row';
import {
  type EditableField,
  type RowEdits,
  shownRow,
  unsavedEdits,
  withEdit,
  withoutSavedEdit,
} from './row-edits';
import { StepSettingsDialog } from './step-settings-dialog';

/**
 * The master mode sheet 'Master Mode - {sessionName}': one row per step with its input, result and
 * prompt, and the bottom bar acting on the selected row or the whole session.
 */
export function MasterModeScreen({ sessionId, onBack }: { sessionId: string; onBack?: () => void }) {
  // Set on Execute All; cleared when it ends (completed, stopped or failed), when it is refused, or on Stop.
  const [executing, setExecuting] = useState(false);
  // The Execute All this tab started, and the ends seen while its answer was on its way (its rows may all run
  // first): kept only then, and emptied when the answer comes.
  const started = useRef<string | null>(null);
  const awaitingAnswer = useRef(false);
  const endedEarly = useRef(new Map<string, ExecuteAllEnd>());
  const toast = useToast();
  const ended = (end: ExecuteAllEnd) => {
    started.current = null;
    setExecuting(false);
    toast(
      end.outcome === 'failed'
        ? { title: t.executeAllFailed, description: end.message ?? undefined, variant: 'destructive' }
        : {
            title: end.outcome === 'completed' ? t.executeAllDone : t.executeAllStopped,
            variant: 'success',
          },
    );
  };
  const session = useMasterSession(sessionId);
  const streaming = useLiveMasterSession(sessionId, session.data?.version, (event) => {
    if (event.type !== 'MasterExecuteAllEnded') return;
    if (event.data.runAllId === started.current) ended(event.data);
    else if (awaitingAnswer.current) endedEarly.current.set(event.data.runAllId, event.data);
  });
  const [edits, setEdits] = useState<RowEdits>({});
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const saves = useRef(new Map<string, Promise<unknown>>());
  const confirm = useConfirm();

  const createStep = useCreateMasterStep(sessionId);
  const updateStep = useUpdateMasterStep(sessionId);
  const deleteStep = useDeleteMasterStep(sessionId);
  const executeStep = useExecuteMasterStep(sessionId);
  const executeAll = useExecuteAll();
  const stop = useStopSession();
  const reset = useResetSession();

  const serverRows = session.data?.steps ?? [];
  const rows = serverRows.map((row) => shownRow(row, edits));
  const selected = rows.find((row) => row.id === selectedId) ?? rows[0];

  /** Keeps a save under way until it ends, so a run awaits it (flushEdits). */
  const tracked = (key: string, change: Promise<unknown>) => {
    const saving = change
      // The mutation cache's toast tells the failure.
      .catch(() => undefined)
      .finally(() => {
        if (saves.current.get(key) === saving) saves.current.delete(key);
      });
    saves.current.set(key, saving);
    return saving;
  };

  const save = (rowId: string, field: EditableField, value: string) =>
    tracked(
      `${rowId}:${field}`,
      updateStep
        .mutateAsync({ stepId: rowId, changes: { [field]: value } })
        // A failed save leaves the edit to be saved again.
        .then(() => setEdits((current) => withoutSavedEdit(current, rowId, field, value))),
    );

  /** A row's model is saved as soon as it is picked; a run started meanwhile waits for it. */
  const pickModel = (rowId: string, model: string | null) =>
    void tracked(`${rowId}:model`, updateStep.mutateAsync({ stepId: rowId, changes: { model } }));

  const saveOnBlur = (row: MasterStep, field: EditableField) => {
    const value = edits[row.id]?.[field];
    const server = serverRows.find((r) => r.id === row.id);
    if (value === undefined || !server) return;
    if (value === server[field]) {
      setEdits((current) => withoutSavedEdit(current, row.id, field, value));
      return;
    }
    void save(row.id, field, value);
  };

  /** Runs see what the user typed: unsaved edits are saved (and saves on their way awaited) first. */
  const flushEdits = async () => {
    for (const { rowId, field, value } of unsavedEdits(serverRows, edits)) {
      if (!saves.current.has(`${rowId}:${field}`)) void save(rowId, field, value);
    }
    await Promise.all(saves.current.values());
  };

  const runSelected = async () => {
    if (!selected) return;
    await flushEdits();
    executeStep.mutate(selected.id);
  };

  const runAll = async () => {
    setExecuting(true);
    await flushEdits();
    awaitingAnswer.current = true;
    executeAll.mutate(sessionId, {
      onSuccess: ({ runAllId }) => {
        started.current = runAllId;
        const end = endedEarly.current.get(runAllId);
        if (end) ended(end);
      },
      onError: () => setExecuting(false),
      onSettled: () => {
        awaitingAnswer.current = false;
        endedEarly.current.clear();
      },
    });
  };

  const stopAll = () =>
    stop.mutate(sessionId, {
      onSuccess: () => setExecuting(false),
    });

  const addRow = () => {
    const order = Math.max(0, ...serverRows.map((row) => row.order)) + 1;
    createStep.mutate(
      {
        sessionId,
        order,
        stepName: t.newStepName(serverRows.length + 1),
        userInput: '',
        result: '',
        systemPrompt: '',
        stepType: 'ai',
        isRequired: false,
      },
      { onSuccess: (row) => setSelectedId(row.id) },
    );
  };

  const removeSelected = async () => {
    if (!selected || !(await confirm(t.deleteConfirm))) return;
    const index = rows.findIndex((row) => row.id === selected.id);
    deleteStep.mutate(selected.id, {
      onSuccess: () => setSelectedId(rows[index + 1]?.id ?? rows[index - 1]?.id ?? null),
    });
  };

  if (session.isLoading) {
    return (
      <p className="py-16 text-center text-slate-500" data-testid="master-mode-loading">
        {t.loading}
      </p>
    );
  }
  if (!session.data) {
    return (
      <Card className="mx-auto mt-10 max-w-md p-8 text-center" data-testid="master-mode-not-found">
        <p className="text-slate-700">{t.notFound}</p>
        {onBack ? (
          <Button variant="outline" className="mt-6" onClick={onBack}>
            <ArrowLeft className="h-4 w-4" />
            {t.back}
          </Button>
        ) : null}
      </Card>
    );
  }

  // An Execute All runs on the server: started in another tab, or before this page was opened, it shows too.
  const running = executing || Boolean(session.data.executeAll && !session.data.executeAll.stopRequested);
  const busy = running || executeStep.isPending;
  return (
    <div className="flex flex-col gap-4 pb-32 sm:pb-24" data-testid="master-mode-screen">
      <div className="flex items-center gap-3">
        {onBack ? (
          <Button variant="ghost" size="sm" onClick={onBack} data-testid="master-mode-back">
            <ArrowLeft className="h-4 w-4" />
            {t.back}
          </Button>
        ) : null}
        <h1 className="text-xl font-semibold text-slate-900" data-testid="master-mode-title">
          {t.title(session.data.sessionName)}
        </h1>
      </div>

      <Card className="overflow-x-auto p-0">
        <div className="lg:min-w-[56rem]">
          {/* Stacked rows name each field themselves. */}
          <div
            className={cn(
              sheetColumns,
              'max-lg:hidden border-b border-slate-200 bg-slate-50 px-2 py-2 text-xs font-semibold text-slate-600',
            )}
          >
            <span>{t.columns.step}</span>
            <span>{t.columns.input}</span>
            <span>{t.columns.result}</span>
            <span>{t.columns.prompt}</span>
          </div>
          {rows.length === 0 ? (
            <p className="p-8 text-center text-sm text-slate-500" data-testid="master-mode-no-rows">
              {t.noRows}
            </p>
          ) : (
            rows.map((row, index) => (
              <MasterRow
                key={row.id}
                row={row}
                position={index + 1}
                rowCount={rows.length}
                selected={row.id === selected?.id}
                running={
                  (executeStep.isPending && executeStep.variables === row.id) ||
                  session.data.runningStepIds.includes(row.id)
                }
                streamingText={streaming[row.id]}
                onSelect={() => setSelectedId(row.id)}
                onEdit={(field, value) => setEdits((current) => withEdit(current, row.id, field, value))}
                onSave={(field) => saveOnBlur(row, field)}
                onPickModel={(model) => pickModel(row.id, model)}
                savingModel={
                  updateStep.isPending &&
                  updateStep.variables?.stepId === row.id &&
                  updateStep.variables.changes.model !== undefined
                }
              />
            ))
          )}
        </div>
      </Card>

      <div
        className="fixed inset-x-0 bottom-0 z-30 border-t border-slate-200 bg-white/95 backdrop-blur"
        data-testid="master-mode-bar"
        data-bottom-bar
      >
        <div className="mx-auto flex max-w-7xl flex-wrap items-center gap-2 px-4 py-3">
          <Button
            variant="outline"
            size="sm"
            onClick={removeSelected}
            disabled={busy || deleteStep.isPending}
            disabledReason={!selected && whyDisabled.noRowSelected}
            data-testid="master-delete-step"
          >
            <Trash2 className="h-4 w-4" />
            {t.deleteStep}
          </Button>
          <Button
            variant="outline"
            size="sm"
            onClick={addRow}
            disabled={createStep.isPending}
            data-testid="master-new-step"
          >
            <Plus className="h-4 w-4" />
            {t.newStep}
          </Button>
          <Button
            variant="secondary"
            size="sm"
            onClick={() => void runSelected()}
            disabled={busy}
            disabledReason={!selected && whyDisabled.noRowSelected}
            data-testid="master-execute"
          >
            <Play className="h-4 w-4" />
            {t.execute}
          </Button>
          <Button
            size="sm"
            onClick={() => void runAll()}
            disabled={busy}
            disabledReason={rows.length === 0 && whyDisabled.noRows}
            data-testid="master-execute-all"
          >
            <PlayCircle className="h-4 w-4" />
            {t.executeAll}
          </Button>
          {running ? (
            <Button
              variant="destructive"
              size="sm"
              onClick={stopAll}
              disabled={stop.isPending}
              data-testid="master-stop"
            >
              <Square className="h-4 w-4" />
              {t.stop}
            </Button>
          ) : null}
          <Button
            variant="outline"
            size="sm"
            onClick={() => reset.mutate(sessionId)}
            disabled={busy || reset.isPending}
            data-testid="master-reset"
          >
            <RotateCcw className="h-4 w-4" />
            {t.reset}
          </Button>
          <Button
            variant="ghost"
            size="sm"
            className="ml-auto"
            onClick={() => setSettingsOpen(true)}
            disabledReason={!selected && whyDisabled.noRowSelected}
            data-testid="master-step-settings-open"
          >
            <Settings className="h-4 w-4" />
            {t.stepSettings}
          </Button>
        </div>
      </div>

      <StepSettingsDialog
        row={selected}
        open={settingsOpen}
        onOpenChange={setSettingsOpen}
        saving={updateStep.isPending}
        onSave={(changes) => {
          if (!selected) return;
          updateStep.mutate({ stepId: selected.id, changes }, { onSuccess: () => setSettingsOpen(false) });
        }}
      />
    </div>
  );
}
