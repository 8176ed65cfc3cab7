import * as AlertDialogPrimitive from '@radix-ui/react-alert-dialog';
import { atom, useAtom, useSetAtom } from 'jotai';
import { useCallback, useRef } from 'react';
import { confirmations } from '@/lib/strings';
import { buttonClasses } from './button';
import { escapeClicks } from './dialog';

export interface ConfirmOptions {
  /** The button that goes ahead; 'Xóa' unless told. */
  confirmLabel?: string;
  /** Whether going ahead cannot be taken back (a red button); true unless told. */
  destructive?: boolean;
}

interface PendingConfirmation extends ConfirmOptions {
  question: string;
  key: number;
  answer: (confirmed: boolean) => void;
}

/** The question being asked, if any: one at a time. */
const pendingConfirmationAtom = atom<PendingConfirmation | null>(null);

let nextKey = 1;

/**
 * Asks before something is done: `await confirm(question)` is true when the user goes ahead, false when they
 * cancel (the button, Escape). A question asked while another is open answers that one false.
 */
export function useConfirm() {
  const setPending = useSetAtom(pendingConfirmationAtom);
  return useCallback(
    (question: string, options: ConfirmOptions = {}) =>
      new Promise<boolean>((resolve) => {
        setPending((current) => {
          current?.answer(false);
          return { ...options, question, key: nextKey++, answer: resolve };
        });
      }),
    [setPending],
  );
}

/**
 * The one confirmation dialog, mounted once by the app. Its question's first paragraph is its title, the rest
 * (after a blank line) its description.
 */
export function ConfirmDialog() {
  const [pending, setPending] = useAtom(pendingConfirmationAtom);
  const cancel = useRef<HTMLButtonElement>(null);
  const answer = (confirmed: boolean) => {
    if (!pending) return;
    pending.answer(confirmed);
    setPending((current) => (current?.key === pending.key ? null : current));
  };
  const [title, ...rest] = (pending?.question ?? '').split('\n\n');
  const description = rest.join('\n\n');
  const destructive = pending?.destructive ?? true;
  return (
    <AlertDialogPrimitive.Root
      open={pending !== null}
      onOpenChange={(open) => {
        if (!open) answer(false);
      }}
    >
      {pending ? (
        <AlertDialogPrimitive.Portal>
          <AlertDialogPrimitive.Overlay className="fixed inset-0 z-50 bg-slate-900/40 backdrop-blur-[1px]" />
          <AlertDialogPrimitive.Content
            key={pending.key}
            className="fixed left-1/2 top-1/2 z-50 max-h-[calc(100dvh-2rem)] w-[calc(100vw-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-xl border border-slate-200 bg-white p-6 shadow-xl focus:outline-none"
            // Radix warns about a missing description unless told explicitly that there is none.
            {...(description ? {} : { 'aria-describedby': undefined })}
            // Escape cancels, also under a toast opened after the question.
            onKeyDown={escapeClicks(cancel)}
            data-testid="confirm-dialog"
          >
            <div data-testid="confirm-dialog-question">
              <AlertDialogPrimitive.Title className="text-lg font-semibold text-slate-900">
                {title}
              </AlertDialogPrimitive.Title>
              {description ? (
                <AlertDialogPrimitive.Description className="mt-2 whitespace-pre-line text-sm text-slate-600">
                  {description}
                </AlertDialogPrimitive.Description>
              ) : null}
            </div>
            <div className="mt-6 flex flex-wrap justify-end gap-2">
              <AlertDialogPrimitive.Cancel
                ref={cancel}
                className={buttonClasses('ghost', 'sm')}
                data-testid="confirm-dialog-cancel"
              >
                {confirmations.cancel}
              </AlertDialogPrimitive.Cancel>
              <AlertDialogPrimitive.Action
                className={buttonClasses(destructive ? 'destructive' : 'primary', 'sm')}
                onClick={() => answer(true)}
                data-testid="confirm-dialog-confirm"
              >
                {pending.confirmLabel ?? confirmations.confirm}
              </AlertDialogPrimitive.Action>
            </div>
          </AlertDialogPrimitive.Content>
        </AlertDialogPrimitive.Portal>
      ) : null}
    </AlertDialogPrimitive.Root>
  );
}
