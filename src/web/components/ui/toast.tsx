import { atom, useSetAtom } from 'jotai';
import { useCallback } from 'react';

export interface ToastMessage {
  title: string;
  description?: string;
  variant?: 'success' | 'destructive';
}

/** One toast at a time; a new one replaces the current one. */
export const currentToastAtom = atom<(ToastMessage & { key: number; open: boolean }) | null>(null);

let nextKey = 1;

export function useToast() {
  const setToast = useSetAtom(currentToastAtom);
  return useCallback(
    (message: ToastMessage) => setToast({ ...message, key: nextKey++, open: true }),
    [setToast],
  );
}
