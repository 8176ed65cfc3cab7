import {
  ArrowLeft,
  ArrowRight,
  GitBranch,
  Info,
  Lightbulb,
  ListChecks,
  MessageSquare,
  Pencil,
  Play,
  Repeat,
  Split,
  SquareStack,
  Type,
} from 'lucide-react';
import { Link } from 'wouter';
import { buttonClasses } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { guide as t } from '../strings';

const stepTypeIcons = [Type, SquareStack, Split, Repeat];
const modeIcons = [Pencil, Play, MessageSquare];

function SectionTitle({ icon: Icon, children }: { icon: typeof Info; children: string }) {
  return (
    <h2 className="flex items-center gap-2 text-xl font-semibold text-slate-900">
      <Icon className="h-5 w-5 text-indigo-600" />
      {children}
    </h2>
  );
}

/** How to use the product: step types, building a flow, the workshop's modes, tips. */
export function GuidePage() {
  return (
    <div className="mx-auto max-w-5xl px-4 py-8" data-testid="guide-page">
      <Link href="/" className={buttonClasses('ghost', 'sm', '-ml-3')} data-testid="guide-back">
        <ArrowLeft className="h-4 w-4" />
        {t.back}
      </Link>
      <h1 className="mt-4 text-3xl font-bold text-slate-900">{t.title}</h1>
      <p className="mt-2 text-slate-600">{t.subtitle}</p>

      <section className="mt-10" data-testid="guide-step-types">
        <SectionTitle icon={GitBranch}>{t.stepTypesTitle}</SectionTitle>
        <div className="mt-4 grid gap-4 sm:grid-cols-2">
          {t.stepTypes.map((type, i) => {
            const Icon = stepTypeIcons[i] ?? Type;
            return (
              <Card key={type.title} className="p-5" data-testid="guide-step-type">
                <h3 className="flex items-center gap-2 font-semibold text-slate-900">
                  <Icon className="h-4 w-4 text-indigo-600" />
                  {type.title}
                </h3>
                <p className="mt-2 text-sm text-slate-600">{type.text}</p>
                <p className="mt-2 text-xs text-slate-500 italic">{type.example}</p>
              </Card>
            );
          })}
        </div>
      </section>

      <section className="mt-10" data-testid="guide-create-steps">
        <SectionTitle icon={ListChecks}>{t.createTitle}</SectionTitle>
        <ol className="mt-4 grid gap-4 md:grid-cols-4">
          {t.createSteps.map((step, i) => (
            <li key={step.title} className="rounded-xl border border-slate-200 bg-white p-5">
              <span className="flex h-8 w-8 items-center justify-center rounded-full bg-indigo-600 text-sm font-semibold text-white">
                {i + 1}
              </span>
              <h3 className="mt-3 font-semibold text-slate-900">{step.title}</h3>
              <p className="mt-1 text-sm text-slate-600">{step.text}</p>
            </li>
          ))}
        </ol>
      </section>

      <section className="mt-10" data-testid="guide-modes">
        <SectionTitle icon={Play}>{t.modesTitle}</SectionTitle>
        <div className="mt-4 grid gap-4 md:grid-cols-3">
          {t.modes.map((mode, i) => {
            const Icon = modeIcons[i] ?? Play;
            return (
              <Card key={mode.title} className="p-5" data-testid="guide-mode">
                <h3 className="flex items-center gap-2 font-semibold text-slate-900">
                  <Icon className="h-4 w-4 text-indigo-600" />
                  {mode.title}
                </h3>
                <p className="mt-2 text-sm text-slate-600">{mode.text}</p>
              </Card>
            );
          })}
        </div>
      </section>

      <section className="mt-10 rounded-xl border border-amber-200 bg-amber-50 p-6" data-testid="guide-tips">
        <SectionTitle icon={Lightbulb}>{t.tipsTitle}</SectionTitle>
        <ul className="mt-3 list-disc space-y-1.5 pl-6 text-sm text-amber-950">
          {t.tips.map((tip) => (
            <li key={tip}>{tip}</li>
          ))}
        </ul>
      </section>

      <div className="mt-10 flex flex-wrap items-center gap-3">
        <Link href="/" className={buttonClasses('primary', 'md')} data-testid="guide-start">
          {t.start}
          <ArrowRight className="h-4 w-4" />
        </Link>
        <Link href="/about" className={buttonClasses('outline', 'md')} data-testid="guide-about">
          <Info className="h-4 w-4" />
          {t.about}
        </Link>
      </div>
    </div>
  );
}
