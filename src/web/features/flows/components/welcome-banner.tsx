import { Sparkles } from 'lucide-react';
import { firstRun as t } from '../strings';

/** Greets a user who has no flow yet and says what a workflow is. */
export function WelcomeBanner() {
  return (
    <section
      className="flex gap-4 rounded-xl bg-gradient-to-r from-indigo-600 to-violet-600 p-6 text-white shadow-sm"
      data-testid="welcome-banner"
    >
      <Sparkles className="mt-0.5 h-6 w-6 shrink-0" />
      <div>
        <h2 className="text-lg font-semibold">{t.welcomeTitle}</h2>
        <p className="mt-1 text-sm text-indigo-50">{t.welcomeText}</p>
      </div>
    </section>
  );
}
