import * as ToastPrimitive from '@radix-ui/react-toast';
import { useAtom } from 'jotai';
import { X } from 'lucide-react';
import { cn } from '@/lib/cn';
import { currentToastAtom } from './toast';

/** A dismissed toast is removed this long after it closed (unless a newer one took its place). */
export const TOAST_REMOVE_DELAY_MS = 1_000_000;

/**
 * The toast region. Radix's defaults are the ones wanted: 5000 ms display, swipe right 50 px, hotkey F8.
 */
export function Toaster({ closeLabel }: { closeLabel: string }) {
  const [toast, setToast] = useAtom(currentToastAtom);
  return (
    <ToastPrimitive.Provider duration={5000} swipeDirection="right" swipeThreshold={50}>
      {toast ? (
        <ToastPrimitive.Root
          key={toast.key}
          open={toast.open}
          onOpenChange={(open) => {
            setToast((current) => (current?.key === toast.key ? { ...current, open } : current));
            if (!open) {
              setTimeout(
                () => setToast((current) => (current?.key === toast.key ? null : current)),
                TOAST_REMOVE_DELAY_MS,
              );
            }
          }}
          data-testid="toast"
          data-variant={toast.variant ?? 'default'}
          className={cn(
            'group relative flex w-full items-start gap-3 rounded-xl border p-4 pr-10 shadow-lg',
            'data-[swipe=move]:translate-x-[var(--radix-toast-swipe-move-x)] data-[swipe=end]:translate-x-full data-[state=closed]:opacity-0 transition-opacity',
            toast.variant === 'destructive'
              ? 'border-red-200 bg-red-600 text-white'
              : toast.variant === 'success'
                ? 'border-emerald-200 bg-emerald-50 text-emerald-900'
                : 'border-slate-200 bg-white text-slate-900',
          )}
        >
          <div className="grid gap-1">
            <ToastPrimitive.Title className="text-sm font-semibold">{toast.title}</ToastPrimitive.Title>
            {toast.description ? (
              <ToastPrimitive.Description className="text-sm opacity-90">
                {toast.description}
              </ToastPrimitive.Description>
            ) : null}
          </div>
          <ToastPrimitive.Close
            aria-label={closeLabel}
            className="absolute right-3 top-3 rounded-md p-1 opacity-70 hover:opacity-100"
          >
            <X className="h-4 w-4" />
          </ToastPrimitive.Close>
        </ToastPrimitive.Root>
      ) : null}
      {/* Actions sit at the right of cards, dialogs and panels here, and at the bottom of a phone's screen:
          the toast goes on top on a phone, bottom left elsewhere, above a screen's own bottom bar (marked
          data-bottom-bar). */}
      <ToastPrimitive.Viewport className="fixed top-0 right-0 z-[100] flex w-full max-w-sm flex-col gap-2 p-4 outline-none sm:top-auto sm:right-auto sm:bottom-0 sm:left-0 sm:[body:has([data-bottom-bar])_&]:bottom-32" />
    </ToastPrimitive.Provider>
  );
}
