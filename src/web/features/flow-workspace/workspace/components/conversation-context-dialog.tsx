import * as Tabs from '@radix-ui/react-tabs';
import { Save } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { Button } from '@/components/ui/button';
import { ConfirmButton } from '@/components/ui/confirm-button';
import { Dialog, DialogContent } from '@/components/ui/dialog';
import { Textarea } from '@/components/ui/field';
import { conversationContext as t } from '@/features/flow-workspace/strings';
import { messageOf } from '@/lib/api-client';
import { formatDateTime } from '@/lib/format-date';
import { toasts, whyDisabled } from '@/lib/strings';
import {
  type ConversationContextView,
  contextSizeKb,
  USER_NOTES_MAX_LENGTH,
} from '../../../../../domain/conversation-context';
import { useClearRejectedIdeas } from '../api/clear-rejected-ideas';
import { useConversationContext } from '../api/get-context';
import { useSaveContextNotes } from '../api/save-context-notes';

const TABS = ['overview', 'conversation', 'rejected', 'notes'] as const;

const triggerClasses =
  'rounded-md px-3 py-1.5 text-sm font-medium text-slate-600 transition-colors data-[state=active]:bg-white data-[state=active]:text-slate-900 data-[state=active]:shadow-sm cursor-pointer';

function Stat({ label, value, testId }: { label: string; value: ReactNode; testId?: string }) {
  return (
    <div className="rounded-lg border border-slate-200 p-3">
      <dt className="text-xs text-slate-500">{label}</dt>
      <dd className="mt-1 text-sm font-semibold text-slate-900" data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}

function ContextText({ text, empty, testId }: { text: string; empty: string; testId: string }) {
  if (text.trim() === '') return <p className="text-sm text-slate-500">{empty}</p>;
  return (
    <pre
      className="max-h-[55vh] overflow-y-auto whitespace-pre-wrap rounded bg-slate-50 p-3 font-mono text-xs text-slate-700"
      data-testid={testId}
    >
      {text}
    </pre>
  );
}

function Overview({ context }: { context: ConversationContextView }) {
  return (
    <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3">
      <Stat label={t.size} value={t.sizeKb(contextSizeKb(context))} testId="context-size" />
      <Stat label={t.conversationChars} value={t.characters(context.conversationHistory.length)} />
      <Stat label={t.rejectedChars} value={t.characters(context.rejectedIdeas.length)} />
      <Stat label={t.notesChars} value={t.characters(context.userNotes.length)} />
      <Stat label={t.version} value={context.version} />
      <Stat
        label={t.lastUpdated}
        value={context.lastUpdated ? formatDateTime(context.lastUpdated) : t.never}
      />
    </dl>
  );
}

function NotesEditor({ flowId, context }: { flowId: string; context: ConversationContextView }) {
  // null: not edited since the last save, so the server's notes are shown as they change.
  const [draft, setDraft] = useState<string | null>(null);
  const save = useSaveContextNotes(flowId, context.id !== null);
  const notes = draft ?? context.userNotes;

  const submit = () => save.mutate(notes, { onSuccess: () => setDraft(null) });

  return (
    <form
      className="flex flex-col gap-2"
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <Textarea
        value={notes}
        onChange={(event) => setDraft(event.target.value)}
        placeholder={t.notesPlaceholder}
        maxLength={USER_NOTES_MAX_LENGTH}
        className="min-h-48"
        aria-label={t.tabs.notes}
        data-testid="context-notes"
      />
      <div className="flex items-center justify-between gap-2">
        <span className="text-xs text-slate-500">{t.notesLength(notes.length, USER_NOTES_MAX_LENGTH)}</span>
        <div className="flex items-center gap-3">
          {save.isSuccess && draft === null ? (
            <span className="text-xs text-emerald-700" data-testid="context-notes-saved">
              {t.saved}
            </span>
          ) : null}
          <Button
            type="submit"
            size="sm"
            disabled={save.isPending}
            disabledReason={(draft === null || draft === context.userNotes) && whyDisabled.noChanges}
            data-testid="save-context-notes"
          >
            <Save className="h-4 w-4" />
            {save.isPending ? t.saving : t.saveNotes}
          </Button>
        </div>
      </div>
    </form>
  );
}

/** The rejected ideas every prompt of the flow is told of, bounded, and the way to clear them. */
function RejectedIdeas({ flowId, text }: { flowId: string; text: string }) {
  const clear = useClearRejectedIdeas(flowId);
  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-xs text-slate-500">{t.rejectedNote}</p>
        <ConfirmButton
          label={t.clearRejected}
          question={t.clearRejectedConfirm}
          onConfirm={() => clear.mutate()}
          disabled={clear.isPending}
          disabledReason={text === '' && whyDisabled.noRejectedIdeas}
          testId="clear-rejected"
        />
      </div>
      <ContextText text={text} empty={t.emptyRejected} testId="context-rejected" />
    </div>
  );
}

/** What the flow carries from run to run: the conversation so far, the rejected ideas and the user's notes. */
export function ConversationContextDialog({
  flowId,
  open,
  onOpenChange,
}: {
  flowId: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const { data: context, isLoading, error } = useConversationContext(flowId, open);
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        title={t.title}
        description={t.description}
        closeLabel={toasts.close}
        className="sm:max-w-3xl"
        data-testid="context-dialog"
      >
        {isLoading ? <p className="text-sm text-slate-500">{t.loading}</p> : null}
        {error ? <p className="text-sm text-red-700">{messageOf(error, t.loadFailed)}</p> : null}
        {context ? (
          <Tabs.Root defaultValue="overview">
            <Tabs.List className="inline-flex flex-wrap rounded-lg bg-slate-100 p-1" aria-label={t.title}>
              {TABS.map((value) => (
                <Tabs.Trigger
                  key={value}
                  value={value}
                  className={triggerClasses}
                  data-testid={`context-tab-${value}`}
                >
                  {t.tabs[value]}
                </Tabs.Trigger>
              ))}
            </Tabs.List>
            <div className="mt-4">
              <Tabs.Content value="overview">
                <Overview context={context} />
              </Tabs.Content>
              <Tabs.Content value="conversation">
                <ContextText
                  text={context.conversationHistory}
                  empty={t.emptyConversation}
                  testId="context-conversation"
                />
              </Tabs.Content>
              <Tabs.Content value="rejected">
                <RejectedIdeas flowId={flowId} text={context.rejectedIdeas} />
              </Tabs.Content>
              <Tabs.Content value="notes">
                <NotesEditor flowId={flowId} context={context} />
              </Tabs.Content>
            </div>
          </Tabs.Root>
        ) : null}
      </DialogContent>
    </Dialog>
  );
}
