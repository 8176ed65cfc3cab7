import { Brain, Check, Library, LogIn, UserCheck, X } from 'lucide-react';
import { buttonClasses } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { SIGN_IN_PATH } from '@/lib/sign-in';
import { landing as t } from '../strings';

const featureIcons = [Brain, UserCheck, Library];

function SignInButton({ label, testId }: { label: string; testId: string }) {
  return (
    <a
      href={SIGN_IN_PATH}
      className={buttonClasses('primary', 'md', 'h-11 px-6 text-base')}
      data-testid={testId}
    >
      <LogIn className="h-4 w-4" />
      {label}
    </a>
  );
}

/** What an anonymous visitor sees: the three ideas, examples, the difference from plain chat, sign-in. */
export function LandingPage() {
  return (
    <div className="mx-auto max-w-6xl px-4 py-12 sm:py-16" data-testid="landing-page">
      <section className="mx-auto max-w-3xl text-center">
        <h1 className="text-3xl font-bold tracking-tight text-slate-900 sm:text-5xl">{t.heroTitle}</h1>
        <p className="mt-5 text-lg text-slate-600">{t.heroSubtitle}</p>
        <div className="mt-8 flex justify-center">
          <SignInButton label={t.signIn} testId="landing-sign-in" />
        </div>
      </section>

      <section className="mt-16">
        <h2 className="text-center text-2xl font-semibold text-slate-900">{t.featuresTitle}</h2>
        <div className="mt-8 grid gap-6 md:grid-cols-3">
          {t.features.map((feature, i) => {
            const Icon = featureIcons[i] ?? Brain;
            return (
              <Card key={feature.title} className="p-6" data-testid="landing-feature-card">
                <span className="flex h-10 w-10 items-center justify-center rounded-lg bg-indigo-50 text-indigo-600">
                  <Icon className="h-5 w-5" />
                </span>
                <h3 className="mt-4 text-lg font-semibold">{feature.title}</h3>
                <p className="mt-2 text-sm text-slate-600">{feature.text}</p>
              </Card>
            );
          })}
        </div>
      </section>

      <section className="mt-16">
        <h2 className="text-center text-2xl font-semibold text-slate-900">{t.useCasesTitle}</h2>
        <div className="mt-8 grid gap-4 md:grid-cols-3">
          {t.useCases.map((useCase) => (
            <div
              key={useCase.title}
              className="rounded-xl border border-slate-200 bg-white p-5"
              data-testid="landing-use-case"
            >
              <h3 className="font-semibold text-slate-900">{useCase.title}</h3>
              <p className="mt-2 text-sm text-slate-600">{useCase.text}</p>
            </div>
          ))}
        </div>
      </section>

      <section className="mt-16">
        <h2 className="text-center text-2xl font-semibold text-slate-900">{t.comparisonTitle}</h2>
        <Card className="mx-auto mt-8 max-w-4xl overflow-x-auto" data-testid="landing-comparison">
          <table className="w-full text-left text-sm">
            <thead className="border-b border-slate-200 bg-slate-50">
              <tr>
                <th className="px-4 py-3 font-medium text-slate-500">
                  <span className="sr-only">{t.comparisonHeaders.aspect}</span>
                </th>
                <th className="px-4 py-3 font-semibold text-slate-700">{t.comparisonHeaders.chat}</th>
                <th className="px-4 py-3 font-semibold text-indigo-700">{t.comparisonHeaders.flow}</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {t.comparisonRows.map((row) => (
                <tr key={row.aspect}>
                  <td className="px-4 py-3 font-medium text-slate-900">{row.aspect}</td>
                  <td className="px-4 py-3 text-slate-600">
                    <X className="mr-1.5 inline h-4 w-4 text-slate-500" />
                    {row.chat}
                  </td>
                  <td className="px-4 py-3 text-slate-800">
                    <Check className="mr-1.5 inline h-4 w-4 text-emerald-600" />
                    {row.flow}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </Card>
      </section>

      <section className="mt-16 rounded-2xl bg-indigo-600 px-6 py-10 text-center text-white">
        <h2 className="text-2xl font-semibold">{t.ctaTitle}</h2>
        <p className="mt-2 text-indigo-100">{t.ctaText}</p>
        <a
          href={SIGN_IN_PATH}
          className={buttonClasses(
            'outline',
            'md',
            'mt-6 h-11 border-transparent px-6 text-base text-indigo-700',
          )}
          data-testid="landing-sign-in-bottom"
        >
          <LogIn className="h-4 w-4" />
          {t.signInShort}
        </a>
      </section>
    </div>
  );
}
