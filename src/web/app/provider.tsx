import { QueryClientProvider } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { Toaster, useToast } from '../components/ui/toast';
import { createQueryClient } from '../lib/api-client';
import { failureToastOf } from '../lib/failure-toast';
import { toasts } from '../lib/strings';

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
  return (
    <QueryClientProvider client={queryClient}>
      {children}
      <Toaster closeLabel={toasts.close} />
    </QueryClientProvider>
  );
}
