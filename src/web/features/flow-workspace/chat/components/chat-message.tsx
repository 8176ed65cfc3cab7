import { Bot, Loader2, User } from 'lucide-react';
import { MarkdownBlock } from '@/components/ui/markdown';
import { chatMode as t } from '@/features/flow-workspace/strings';
import type { ChatMessage } from './chat-transcript';
import { CopyMessageButton } from './copy-message-button';

/** What the user sent, on the right. */
function UserMessage({ content }: { content: string }) {
  return (
    <div className="flex justify-end" data-testid="chat-message-user">
      <div className="flex max-w-[85%] items-start gap-2">
        <p className="whitespace-pre-wrap rounded-2xl rounded-tr-sm bg-indigo-600 px-4 py-2.5 text-sm text-white shadow-sm">
          {content}
        </p>
        <span
          className="mt-1 flex h-7 w-7 shrink-0 items-center justify-center rounded-full bg-indigo-100 text-indigo-700"
          title={t.you}
        >
          <User className="h-4 w-4" />
        </span>
      </div>
    </div>
  );
}

/** A step at work; the model's words appear in it as they are written. */
export function ProgressMessage({
  title,
  streamedText,
}: {
  title: string;
  streamedText?: string | undefined;
}) {
  return (
    <div
      className="rounded-xl border border-indigo-100 bg-indigo-50/60 px-4 py-3"
      data-testid="chat-message-system"
    >
      <div className="flex items-center gap-2 text-sm font-medium text-indigo-700">
        <Loader2 className="h-4 w-4 animate-spin" />
        {title}
      </div>
      {streamedText ? (
        <pre
          className="mt-2 whitespace-pre-wrap font-sans text-sm text-slate-800"
          data-testid="chat-streaming-text"
        >
          {streamedText}
        </pre>
      ) : null}
    </div>
  );
}

/** A step's answer, rendered as markdown like a result card, with a copy button. */
function AssistantMessage({
  title,
  label,
  content,
  resultId,
}: {
  title: string;
  label: string | null;
  content: string;
  resultId: string;
}) {
  return (
    <div className="flex items-start gap-2" data-testid="chat-message-assistant" data-result-id={resultId}>
      <span className="mt-1 flex h-7 w-7 shrink-0 items-center justify-center rounded-full bg-slate-200 text-slate-700">
        <Bot className="h-4 w-4" />
      </span>
      <div className="min-w-0 flex-1 rounded-2xl rounded-tl-sm border border-slate-200 bg-white px-4 py-3 shadow-sm">
        <div className="mb-2 flex items-center gap-2">
          <span className="text-xs font-medium text-slate-500">
            {title}
            {label ? ` · ${label}` : ''}
          </span>
          <div className="ml-auto">
            <CopyMessageButton text={content} />
          </div>
        </div>
        <MarkdownBlock text={content} />
      </div>
    </div>
  );
}

export function ChatMessageView({
  message,
  stepName,
  streamedText,
}: {
  message: ChatMessage;
  /** The step's current name; the one it had when the message was made if it is gone. */
  stepName: string | undefined;
  streamedText: string | undefined;
}) {
  switch (message.role) {
    case 'user':
      return <UserMessage content={message.content} />;
    case 'system':
      return (
        <ProgressMessage
          title={t.inProgress(message.stepOrder, stepName ?? message.stepName)}
          streamedText={streamedText}
        />
      );
    case 'assistant':
      return (
        <AssistantMessage
          title={t.stepTitle(message.stepOrder, stepName ?? '')}
          label={message.label}
          content={message.content}
          resultId={message.resultId}
        />
      );
  }
}
