import { useEffect } from 'react';
import { currentPage, signInUrl } from '@/lib/sign-in';
import { app } from '@/lib/strings';

/**
 * A page that needs sign-in, opened signed out (a bookmark, a shared link): the sign-in page, which comes
 * back here once signed in.
 */
export function SignInToContinue() {
  useEffect(() => {
    window.location.replace(signInUrl(currentPage()));
  }, []);
  return (
    <div className="flex justify-center py-24 text-slate-500" data-testid="sign-in-to-continue">
      {app.signInToContinue}
    </div>
  );
}
