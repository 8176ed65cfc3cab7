import { useCallback } from 'react';
import { useToast } from '@/components/ui/toast';
import { currentPage, signInUrl } from '@/lib/sign-in';
import { isUnauthorized } from '../api/unauthorized';
import { apiKeys as t } from '../strings';

/** The sign-in page opens 500 ms after a 401, so the toast is seen first. */
const REDIRECT_AFTER_401_MS = 500;

/** Handles a signed-out failure (toast, then the sign-in page); answers whether it was one. */
export function useSignedOutRedirect() {
  const toast = useToast();
  return useCallback(
    (error: unknown) => {
      if (!isUnauthorized(error)) return false;
      toast({ title: t.signedOutTitle, description: t.signedOutText, variant: 'destructive' });
      setTimeout(() => {
        window.location.href = signInUrl(currentPage());
      }, REDIRECT_AFTER_401_MS);
      return true;
    },
    [toast],
  );
}
