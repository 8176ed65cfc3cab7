import { Loader2 } from 'lucide-react';
import { useEffect } from 'react';
import { lightFlows as t } from '@/lib/strings';

/** Long enough to read where the browser is going; short enough not to feel like a wait. */
export const REDIRECT_AFTER_MS = 800;

/** The redirect screen: says it is moving on, then sends the browser (a full load) to /flows-static. */
export function FlowsRedirectPage() {
  useEffect(() => {
    const timer = window.setTimeout(() => window.location.replace('/flows-static'), REDIRECT_AFTER_MS);
    return () => window.clearTimeout(timer);
  }, []);
  return (
    <div
      className="flex min-h-[60vh] flex-col items-center justify-center gap-3 text-slate-600"
      role="status"
      data-testid="flows-redirect"
    >
      <Loader2 className="h-8 w-8 animate-spin text-indigo-600" />
      <p>{t.redirecting}</p>
    </div>
  );
}
