import { Brain, Library, UserCheck } from 'lucide-react';
import { firstRun as t } from '../strings';

const icons = [Brain, UserCheck, Library];

/** The three ideas of the product, shown to users who have no flow yet. */
export function FirstRunBanner() {
  return (
    <section
      className="rounded-xl border border-indigo-100 bg-gradient-to-br from-indigo-50 to-white p-6"
      data-testid="first-run-banner"
    >
      <h2 className="text-base font-semibold text-slate-900">{t.ideasTitle}</h2>
      <div className="mt-4 grid gap-4 md:grid-cols-3">
        {t.ideas.map((idea, i) => {
          const Icon = icons[i] ?? Brain;
          return (
            <div
              key={idea.title}
              className="flex gap-3 rounded-lg bg-white/80 p-4 ring-1 ring-indigo-100"
              data-testid="first-run-idea"
            >
              <Icon className="mt-0.5 h-5 w-5 shrink-0 text-indigo-600" />
              <div>
                <h3 className="text-sm font-semibold text-slate-900">{idea.title}</h3>
                <p className="mt-1 text-sm text-slate-600">{idea.text}</p>
              </div>
            </div>
          );
        })}
      </div>
    </section>
  );
}
