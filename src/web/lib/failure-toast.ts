import { ApiError, messageOf } from './api-client';
import { toasts } from './strings';

/**
 * What a failed call tells the user. With `messageOr` the failure's own text (`status: message`) is shown,
 * and that text only when there is none; with `description` the screen's text stands whatever the server said.
 * The title is 'Lỗi' unless given.
 */
export type FailureToast = { title?: string } & ({ messageOr: string } | { description: string });

/** A mutation's `meta.errorToast`: its toast, a choice by the failure, or false when it tells the failure itself. */
export type ErrorToastMeta = FailureToast | false | ((error: Error) => FailureToast | false);

declare module '@tanstack/react-query' {
  interface Register {
    mutationMeta: { errorToast?: ErrorToastMeta };
  }
}

/** With no `meta.errorToast` a failure says 'Lỗi' and its own text. */
const DEFAULT_FAILURE_TOAST: FailureToast = { messageOr: '' };

/** The title and text a failed mutation shows, or null when its screen tells the failure itself. */
export function failureToastOf(
  error: Error,
  meta: ErrorToastMeta = DEFAULT_FAILURE_TOAST,
): { title: string; description: string } | null {
  const toast = typeof meta === 'function' ? meta(error) : meta;
  if (toast === false) return null;
  const title = toast.title ?? toasts.error;
  // Past a size limit the server names the limit and the size: nothing a screen says instead is as useful.
  const tooLarge = error instanceof ApiError && error.status === 413;
  return 'description' in toast && !tooLarge
    ? { title, description: toast.description }
    : { title, description: messageOf(error, 'messageOr' in toast ? toast.messageOr : toast.description) };
}
