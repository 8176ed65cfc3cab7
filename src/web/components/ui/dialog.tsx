import * as DialogPrimitive from '@radix-ui/react-dialog';
import { X } from 'lucide-react';
import { type KeyboardEvent, type ReactNode, type RefObject, useRef } from 'react';
import { cn } from '@/lib/cn';

export const Dialog = DialogPrimitive.Root;
export const DialogTrigger = DialogPrimitive.Trigger;
export const DialogClose = DialogPrimitive.Close;

/**
 * A dialog's Escape, given the button that closes it. Radix lets only the layer opened last hear Escape, and a
 * toast (the one after "Copy JSON", say) opens after the dialog: Escape would close the toast and leave the
 * dialog open. A layer opened inside the dialog (a menu, another dialog) that takes Escape marks it handled;
 * otherwise Escape, reaching the dialog unhandled, closes it as its close button does.
 */
export function escapeClicks(close: RefObject<HTMLButtonElement | null>) {
  return (event: KeyboardEvent) => {
    if (event.key !== 'Escape' || event.nativeEvent.defaultPrevented) return;
    // Handled: a dialog this one was opened from stays open.
    event.preventDefault();
    close.current?.click();
  };
}

/** A centred modal with a title, an optional description and a close button in the corner. */
export function DialogContent({
  title,
  description,
  children,
  className,
  closeLabel,
  ...props
}: {
  title: string;
  description?: string;
  children?: ReactNode;
  className?: string;
  closeLabel: string;
  'data-testid'?: string;
}) {
  const close = useRef<HTMLButtonElement>(null);
  const closeOnEscape = escapeClicks(close);
  return (
    <DialogPrimitive.Portal>
      {/* Overlay and content share one layer, so a dialog opened from another one covers it, backdrop
          included: the later portal is painted above the earlier one. */}
      <DialogPrimitive.Overlay className="fixed inset-0 z-50 bg-slate-900/40 backdrop-blur-[1px]" />
      <DialogPrimitive.Content
        className={cn(
          'fixed left-1/2 top-1/2 z-50 w-[calc(100vw-2rem)] -translate-x-1/2 -translate-y-1/2 rounded-xl border border-slate-200 bg-white p-6 shadow-xl focus:outline-none',
          // By default a dialog never outgrows the screen (a phone's included) and scrolls inside instead;
          // a width or height of its own (without a breakpoint) replaces the default one.
          'max-w-lg max-h-[calc(100dvh-2rem)] overflow-y-auto',
          className,
        )}
        // Radix warns about a missing description unless told explicitly that there is none.
        {...(description ? {} : { 'aria-describedby': undefined })}
        onKeyDown={closeOnEscape}
        {...props}
      >
        <DialogPrimitive.Title className="pr-8 text-lg font-semibold text-slate-900">
          {title}
        </DialogPrimitive.Title>
        {description ? (
          <DialogPrimitive.Description className="mt-1 text-sm text-slate-500">
            {description}
          </DialogPrimitive.Description>
        ) : null}
        <div className="mt-4">{children}</div>
        <DialogPrimitive.Close
          ref={close}
          aria-label={closeLabel}
          className="absolute right-4 top-4 rounded-md p-1 text-slate-500 hover:bg-slate-100 hover:text-slate-700"
        >
          <X className="h-4 w-4" />
        </DialogPrimitive.Close>
      </DialogPrimitive.Content>
    </DialogPrimitive.Portal>
  );
}
