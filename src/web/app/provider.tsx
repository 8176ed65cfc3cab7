import { QueryClientProvider } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { Toaster } from '../components/ui/toast';
import { createQueryClient } from '../lib/api-client';
import { toasts } from '../lib/strings';

export function AppProvider({ children }: { children: ReactNode }) {
  const [queryClient] = useState(createQueryClient);
  return (
    <QueryClientProvider client={queryClient}>
      {children}
      <Toaster closeLabel={toasts.close} />
    </QueryClientProvider>
  );
}
