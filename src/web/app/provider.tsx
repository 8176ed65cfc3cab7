import { QueryClientProvider } from '@tanstack/react-query';
import { lazy, type ReactNode, Suspense, useEffect, useState } from 'react';
import { useToast } from '../components/ui/toast';
import { userQueryOptions } from '../features/auth/api/get-user';
import { createQueryClient } from '../lib/api-client';
import { failureToastOf } from '../lib/failure-toast';
import { onSessionEnded } from '../lib/session-ended';
import { toasts } from '../lib/strings';

/** The question of `useConfirm`: only screens past the landing page ask one, so it loads after the first paint. */
const ConfirmDialog = lazy(async () => ({
  default: (await import('../components/ui/confirm-dialog')).ConfirmDialog,
}));

/** The toast region loads after the first paint: a toast raised before it arrives waits in its atom. */
const Toaster = lazy(async () => ({ default: (await import('../components/ui/toaster')).Toaster }));

export function AppProvider({ children }: { children: ReactNode }) {
  const toast = useToast();
  const [queryClient] = useState(() =>
    createQueryClient({
      onMutationFailure: (error, meta) => {
        const failure = failureToastOf(error, meta?.errorToast);
        if (failure) toast({ ...failure, variant: 'destructive' });
      },
    }),
  );
  // A live socket closed for a session that ended (another tab signed out, or it expired): the user is
  // asked again, and the app shows what a signed-out visitor sees.
  useEffect(
    () =>
      onSessionEnded(() => {
        void queryClient.invalidateQueries({ queryKey: userQueryOptions.queryKey });
      }),
    [queryClient],
  );
  return (
    <QueryClientProvider client={queryClient}>
      {children}
      <Suspense fallback={null}>
        <ConfirmDialog />
        <Toaster closeLabel={toasts.close} />
      </Suspense>
    </QueryClientProvider>
  );
}
