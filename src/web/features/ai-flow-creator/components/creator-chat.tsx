import { Bot, Info, Loader2, Send, User } from 'lucide-react';
import { type KeyboardEvent, useEffect, useRef, useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Textarea } from '@/components/ui/field';
import { cn } from '@/lib/cn';
import { formatClockTime } from '@/lib/format-date';
import { whyDisabled } from '@/lib/strings';
import { CREATOR_MESSAGE_MAX_LENGTH, type CreatorChatMessage } from '../../../../domain/ai-flow-creator';
import type { AiFlowCreatorPhase } from '../../../../machines/ai-flow-creator';
import { aiFlowCreator as t } from '../strings';

const timeOf = (timestamp: string) => formatClockTime(timestamp);

const ICONS = { system: Info, user: User, ai: Bot };

function MessageView({ message }: { message: CreatorChatMessage }) {
  const Icon = ICONS[message.type];
  const mine = message.type === 'user';
  return (
    <div
      className={cn('flex items-start gap-2', mine && 'flex-row-reverse')}
      data-testid={`creator-message-${message.type}`}
    >
      <span
        className={cn(
          'mt-1 flex h-7 w-7 shrink-0 items-center justify-center rounded-full',
          mine ? 'bg-indigo-100 text-indigo-700' : 'bg-slate-200 text-slate-700',
        )}
      >
        <Icon className="h-4 w-4" />
      </span>
      <div className={cn('flex max-w-[85%] flex-col gap-1', mine && 'items-end')}>
        <span className="text-xs text-slate-500">
          {t.senders[message.type]} · <time dateTime={message.timestamp}>{timeOf(message.timestamp)}</time>
        </span>
        <p
          className={cn(
            'whitespace-pre-wrap rounded-2xl px-4 py-2.5 text-sm shadow-sm',
            mine && 'rounded-tr-sm bg-indigo-600 text-white',
            message.type === 'ai' && 'rounded-tl-sm border border-slate-200 bg-white text-slate-800',
            message.type === 'system' && 'border border-indigo-100 bg-indigo-50/60 text-indigo-900',
          )}
          data-testid="creator-message-content"
        >
          {message.content}
        </p>
      </div>
    </div>
  );
}

/**
 * The creator's chat: the conversation with its times, an "AI is thinking" line while a request is
 * on its way, and the input line (Enter sends; nothing is sent while blank or busy, or once confirmed).
 */
export function CreatorChat({
  messages,
  phase,
  thinking,
  canSend,
  onSend,
}: {
  messages: CreatorChatMessage[];
  phase: AiFlowCreatorPhase;
  /** The AI is writing an improvement or a proposal. */
  thinking: boolean;
  canSend: boolean;
  onSend: (text: string) => void;
}) {
  const [text, setText] = useState('');
  const list = useRef<HTMLDivElement>(null);
  const confirmed = phase === 'confirmed';
  const sendable = canSend && text.trim() !== '';

  // The newest message (or the thinking line) is always in view.
  useEffect(() => {
    const element = list.current;
    if (element && messages.length + Number(thinking) > 0) element.scrollTop = element.scrollHeight;
  }, [messages.length, thinking]);

  const send = () => {
    if (!sendable) return;
    onSend(text);
    setText('');
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    // Enter while an input method is composing a word (Vietnamese Telex, for one) only ends the word.
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    send();
  };

  return (
    <Card className="flex h-[70vh] min-h-[28rem] flex-col" data-testid="creator-chat">
      <div className="flex items-center justify-between gap-2 border-b border-slate-200 px-5 py-3">
        <h2 className="font-semibold text-slate-900">{t.chatTitle}</h2>
        <Badge tone="indigo" data-testid="creator-phase" data-phase={phase}>
          {t.phase[phase]}
        </Badge>
      </div>
      <div
        ref={list}
        className="flex flex-1 flex-col gap-4 overflow-y-auto px-5 py-4"
        data-testid="creator-messages"
      >
        {messages.map((message) => (
          <MessageView key={message.id} message={message} />
        ))}
        {thinking ? (
          <div className="flex items-center gap-2 text-sm text-slate-500" data-testid="creator-thinking">
            <Loader2 className="h-4 w-4 animate-spin" />
            {t.thinking}
          </div>
        ) : null}
      </div>
      <div className="flex items-end gap-2 border-t border-slate-200 px-5 py-3">
        <Textarea
          value={text}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={onKeyDown}
          placeholder={confirmed ? t.placeholderConfirmed : t.placeholder}
          disabled={confirmed}
          maxLength={CREATOR_MESSAGE_MAX_LENGTH}
          rows={2}
          className="min-h-16 flex-1"
          aria-label={t.placeholder}
          data-testid="creator-input"
        />
        <Button
          onClick={send}
          disabled={!sendable}
          disabledReason={
            confirmed ? t.placeholderConfirmed : canSend && text.trim() === '' && whyDisabled.noMessageText
          }
          data-testid="creator-send"
        >
          <Send className="h-4 w-4" />
          {t.send}
        </Button>
      </div>
    </Card>
  );
}
