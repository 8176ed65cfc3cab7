import {
  Activity,
  ArrowRight,
  Bot,
  Brain,
  Cpu,
  Eye,
  FileText,
  Layers,
  Library,
  ListOrdered,
  MessageSquare,
  PenTool,
  Play,
  Radio,
  Recycle,
  Rocket,
  Settings,
  ShieldCheck,
  TrendingUp,
  UserCheck,
  Workflow,
  Zap,
} from 'lucide-react';
import { Link } from 'wouter';
import { buttonClasses } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { about as t } from '../strings';

const howIcons = [PenTool, Settings, Play, TrendingUp];
const featureIcons = [Brain, UserCheck, Library, Layers, Zap, MessageSquare, Bot, FileText, Radio];
const principleIcons = [ShieldCheck, Eye, ListOrdered, Recycle];
const caseIcons = [PenTool, MessageSquare, Activity];

/** What the product is, how it works, what it has, who it helped, what it stands for. */
export function AboutPage() {
  return (
    <div data-testid="about-page">
      <section className="bg-gradient-to-b from-indigo-50 to-white px-4 py-16 text-center">
        <span className="mx-auto flex h-14 w-14 items-center justify-center rounded-2xl bg-indigo-600 text-white">
          <Workflow className="h-7 w-7" />
        </span>
        <h1 className="mx-auto mt-6 max-w-3xl text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">
          {t.heroTitle}
        </h1>
        <p className="mx-auto mt-4 max-w-2xl text-lg text-slate-600">{t.heroText}</p>
      </section>

      <div className="mx-auto max-w-6xl px-4">
        <section className="mt-12" data-testid="about-how">
          <h2 className="text-center text-2xl font-semibold text-slate-900">{t.howTitle}</h2>
          <ol className="mt-8 grid gap-6 md:grid-cols-4">
            {t.howSteps.map((step, i) => {
              const Icon = howIcons[i] ?? Cpu;
              return (
                <li key={step.title} className="text-center" data-testid="about-how-step">
                  <span className="mx-auto flex h-12 w-12 items-center justify-center rounded-full bg-indigo-600 text-white">
                    <Icon className="h-5 w-5" />
                  </span>
                  <h3 className="mt-3 font-semibold text-slate-900">
                    {i + 1}. {step.title}
                  </h3>
                  <p className="mt-1 text-sm text-slate-600">{step.text}</p>
                </li>
              );
            })}
          </ol>
        </section>

        <section className="mt-16" data-testid="about-features">
          <h2 className="text-center text-2xl font-semibold text-slate-900">{t.featuresTitle}</h2>
          <div className="mt-8 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
            {t.features.map((feature, i) => {
              const Icon = featureIcons[i] ?? Cpu;
              return (
                <Card key={feature.title} className="p-5" data-testid="about-feature-card">
                  <span className="flex h-10 w-10 items-center justify-center rounded-lg bg-indigo-50 text-indigo-600">
                    <Icon className="h-5 w-5" />
                  </span>
                  <h3 className="mt-3 font-semibold text-slate-900">{feature.title}</h3>
                  <p className="mt-1 text-sm text-slate-600">{feature.text}</p>
                </Card>
              );
            })}
          </div>
        </section>

        <section className="mt-16" data-testid="about-cases">
          <h2 className="text-center text-2xl font-semibold text-slate-900">{t.casesTitle}</h2>
          <div className="mt-8 grid gap-6 lg:grid-cols-3">
            {t.cases.map((story, i) => {
              const Icon = caseIcons[i] ?? Cpu;
              return (
                <Card key={story.title} className="flex flex-col gap-3 p-6" data-testid="about-case">
                  <h3 className="flex items-center gap-2 text-lg font-semibold text-slate-900">
                    <Icon className="h-5 w-5 text-indigo-600" />
                    {story.title}
                  </h3>
                  <dl className="flex flex-col gap-3 text-sm">
                    <div>
                      <dt className="font-medium text-red-700">{t.problem}</dt>
                      <dd className="mt-0.5 text-slate-600">{story.problem}</dd>
                    </div>
                    <div>
                      <dt className="font-medium text-indigo-700">{t.solution}</dt>
                      <dd className="mt-0.5 text-slate-600">{story.solution}</dd>
                    </div>
                    <div>
                      <dt className="font-medium text-emerald-700">{t.results}</dt>
                      <dd className="mt-0.5 text-slate-600">{story.results}</dd>
                    </div>
                  </dl>
                </Card>
              );
            })}
          </div>
        </section>

        <section className="mt-16" data-testid="about-principles">
          <h2 className="text-center text-2xl font-semibold text-slate-900">{t.principlesTitle}</h2>
          <div className="mt-8 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
            {t.principles.map((principle, i) => {
              const Icon = principleIcons[i] ?? Cpu;
              return (
                <div
                  key={principle.title}
                  className="rounded-xl border border-slate-200 bg-slate-50 p-5"
                  data-testid="about-principle"
                >
                  <Icon className="h-5 w-5 text-indigo-600" />
                  <h3 className="mt-2 font-semibold text-slate-900">{principle.title}</h3>
                  <p className="mt-1 text-sm text-slate-600">{principle.text}</p>
                </div>
              );
            })}
          </div>
        </section>

        <section className="mt-16 rounded-2xl bg-indigo-600 px-6 py-10 text-center text-white">
          <Rocket className="mx-auto h-8 w-8" />
          <h2 className="mt-3 text-2xl font-semibold">{t.ctaTitle}</h2>
          <p className="mt-2 text-indigo-100">{t.ctaText}</p>
          <Link
            href="/"
            className={buttonClasses(
              'outline',
              'md',
              'mt-6 h-11 border-transparent px-6 text-base text-indigo-700',
            )}
            data-testid="about-cta"
          >
            {t.ctaButton}
            <ArrowRight className="h-4 w-4" />
          </Link>
        </section>
      </div>

      {/* Documentation, API, help and legal have no pages: they stay plain text, not dead links. */}
      <footer className="mt-16 border-t border-slate-200 bg-slate-50" data-testid="about-footer">
        <div className="mx-auto flex max-w-6xl flex-col gap-4 px-4 py-8 text-sm text-slate-600 sm:flex-row sm:items-center sm:justify-between">
          <nav className="flex flex-wrap items-center gap-x-5 gap-y-2" aria-label={t.footerNav}>
            <Link
              href="/"
              className="font-medium text-slate-800 hover:text-indigo-700"
              data-testid="footer-home"
            >
              {t.footerHome}
            </Link>
            <Link
              href="/about"
              className="font-medium text-slate-800 hover:text-indigo-700"
              data-testid="footer-about"
            >
              {t.footerAbout}
            </Link>
            {t.footerInert.map((entry) => (
              <span key={entry} className="text-slate-500" data-testid="footer-inert">
                {entry}
              </span>
            ))}
          </nav>
          <span className="text-slate-500">{t.copyright}</span>
        </div>
      </footer>
    </div>
  );
}
