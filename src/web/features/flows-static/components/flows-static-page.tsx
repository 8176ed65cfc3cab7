import { ArrowRight, LogIn, Zap } from 'lucide-react';
import { Link } from 'wouter';
import { buttonClasses } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { SIGN_IN_PATH } from '@/lib/sign-in';
import { lightFlows as t } from '@/lib/strings';

/**
 * The optimised target of the redirect screen: a page with no calls of its own, so it shows at once for
 * anyone; a signed-in user picks where to work, a visitor is offered the sign-in.
 */
export function FlowsStaticPage({ signedIn }: { signedIn: boolean }) {
  return (
    <div className="mx-auto max-w-4xl px-4 py-10" data-testid="flows-static-page">
      <h1 className="flex items-center gap-2 text-2xl font-bold text-slate-900">
        <Zap className="h-6 w-6 text-amber-500" />
        {t.heading}
      </h1>
      <p className="mt-1 text-sm text-slate-600">{t.staticSubtitle}</p>
      {signedIn ? (
        <>
          <p className="mt-6 text-sm font-medium text-slate-700">{t.staticSignedIn}</p>
          <div className="mt-3 grid gap-4 sm:grid-cols-2">
            {t.staticLinks.map((entry) => (
              <Link key={entry.href} href={entry.href} data-testid="flows-static-link">
                <Card className="h-full p-5 transition-colors hover:border-indigo-300 hover:bg-indigo-50/40">
                  <h2 className="flex items-center justify-between font-semibold text-slate-900">
                    {entry.title}
                    <ArrowRight className="h-4 w-4 text-indigo-600" />
                  </h2>
                  <p className="mt-1 text-sm text-slate-600">{entry.text}</p>
                </Card>
              </Link>
            ))}
          </div>
        </>
      ) : (
        <Card className="mt-6 p-6">
          <p className="text-slate-700">{t.staticSignedOut}</p>
          <a
            href={SIGN_IN_PATH}
            className={buttonClasses('primary', 'md', 'mt-4')}
            data-testid="flows-static-sign-in"
          >
            <LogIn className="h-4 w-4" />
            {t.signIn}
          </a>
        </Card>
      )}
    </div>
  );
}
