import { MessageSquare, Pencil, Play } from 'lucide-react';
import { Link } from 'wouter';
import { Badge } from '@/components/ui/badge';
import { buttonClasses } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { flowStatusBadge } from '@/lib/flow-status';
import { type FlowListItem, useFlows } from '@/lib/flows-query';
import { lightFlows as t } from '@/lib/strings';

function FastFlowRow({ flow }: { flow: FlowListItem }) {
  return (
    <li
      className="flex flex-col gap-3 py-4 sm:flex-row sm:items-center sm:justify-between"
      data-testid="fast-flow"
    >
      <div className="min-w-0">
        <div className="flex flex-wrap items-center gap-2">
          <Link
            href={`/flows/${flow.id}`}
            className="truncate font-semibold text-slate-900 hover:text-indigo-700"
            data-testid="fast-flow-name"
          >
            {flow.name}
          </Link>
          <Badge tone="outline">{t.stepCount(flow.stepCount)}</Badge>
          <Badge tone={flow.status === 'active' ? 'green' : 'neutral'}>
            {t.statuses[flowStatusBadge(flow.status)]}
          </Badge>
        </div>
        <p className="mt-1 line-clamp-2 text-sm text-slate-600">{flow.description}</p>
      </div>
      <div className="flex shrink-0 gap-2">
        <Link href={`/flows/${flow.id}?mode=run`} className={buttonClasses('primary', 'sm')}>
          <Play className="h-4 w-4" />
          {t.run}
        </Link>
        <Link href={`/flows/${flow.id}?mode=chat`} className={buttonClasses('outline', 'sm')}>
          <MessageSquare className="h-4 w-4" />
          {t.chat}
        </Link>
        <Link href={`/flows/${flow.id}`} className={buttonClasses('ghost', 'sm')}>
          <Pencil className="h-4 w-4" />
          {t.edit}
        </Link>
      </div>
    </li>
  );
}

/** The flows list without its dialogs, search and banners: one call, plain rows, links into each flow. */
export function FlowsFastPage() {
  const flows = useFlows();
  return (
    <div className="mx-auto max-w-4xl px-4 py-8" data-testid="flows-fast-page">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-2xl font-bold text-slate-900">{t.heading}</h1>
          <p className="mt-1 text-sm text-slate-600">{t.fastSubtitle}</p>
        </div>
        <div className="flex flex-wrap gap-2">
          <Link href="/flows" className={buttonClasses('outline', 'sm')}>
            {t.fullList}
          </Link>
          <Link href="/workshop" className={buttonClasses('ghost', 'sm')}>
            {t.workshop}
          </Link>
          {/* The redirect screen, then the static page. */}
          <Link
            href="/flows-redirect"
            className={buttonClasses('ghost', 'sm')}
            data-testid="optimized-version"
          >
            {t.optimizedVersion}
          </Link>
        </div>
      </div>
      <div className="mt-6 rounded-xl border border-slate-200 bg-white px-5">
        {flows.isLoading ? (
          <div className="flex flex-col gap-3 py-4">
            <Skeleton className="h-14 w-full" />
            <Skeleton className="h-14 w-full" />
            <Skeleton className="h-14 w-full" />
          </div>
        ) : flows.error ? (
          <p className="py-8 text-center text-sm text-red-600">{t.loadFailed}</p>
        ) : (flows.data ?? []).length === 0 ? (
          <div className="py-8 text-center" data-testid="fast-flows-empty">
            <p className="text-sm text-slate-600">{t.empty}</p>
            <Link href="/flows" className={buttonClasses('primary', 'sm', 'mt-4')}>
              {t.createFirst}
            </Link>
          </div>
        ) : (
          <ul className="divide-y divide-slate-100">
            {(flows.data ?? []).map((flow) => (
              <FastFlowRow key={flow.id} flow={flow} />
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}
