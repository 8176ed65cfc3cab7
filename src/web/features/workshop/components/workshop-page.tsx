import { Hammer, MessageSquare, Pencil, Play } from 'lucide-react';
import { Link } from 'wouter';
import { Badge } from '@/components/ui/badge';
import { buttonClasses } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { useFlows } from '@/lib/flows-query';
import { workshop as t } from '../strings';

/** The workshop without a flow: pick one, and in which mode to open its workspace. */
export function WorkshopPage() {
  const flows = useFlows();
  const list = flows.data ?? [];
  return (
    <div className="mx-auto max-w-4xl px-4 py-8" data-testid="workshop-page">
      <h1 className="flex items-center gap-2 text-2xl font-bold text-slate-900">
        <Hammer className="h-6 w-6 text-indigo-600" />
        {t.title}
      </h1>
      <p className="mt-1 text-sm text-slate-600">{t.subtitle}</p>
      <div className="mt-6 flex flex-col gap-3">
        {flows.isLoading ? (
          [0, 1, 2].map((i) => <Skeleton key={i} className="h-20 w-full" />)
        ) : flows.error ? (
          <p className="py-8 text-center text-sm text-red-600">{t.loadFailed}</p>
        ) : list.length === 0 ? (
          <Card className="p-8 text-center" data-testid="workshop-empty">
            <p className="text-sm text-slate-600">{t.empty}</p>
            <Link href="/flows" className={buttonClasses('primary', 'sm', 'mt-4')}>
              {t.createFirst}
            </Link>
          </Card>
        ) : (
          list.map((flow) => (
            <Card
              key={flow.id}
              className="flex flex-col gap-3 p-4 sm:flex-row sm:items-center sm:justify-between"
              data-testid="workshop-flow"
            >
              <div className="min-w-0">
                <div className="flex items-center gap-2">
                  <span className="truncate font-semibold text-slate-900">{flow.name}</span>
                  <Badge tone="outline">{t.stepCount(flow.stepCount)}</Badge>
                </div>
                <p className="mt-1 line-clamp-1 text-sm text-slate-600">{flow.description}</p>
              </div>
              <div className="flex shrink-0 gap-2">
                <Link href={`/workshop/${flow.id}`} className={buttonClasses('outline', 'sm')}>
                  <Pencil className="h-4 w-4" />
                  {t.modes.edit}
                </Link>
                <Link
                  href={`/workshop/${flow.id}?mode=run`}
                  className={buttonClasses('primary', 'sm')}
                  data-testid="workshop-run"
                >
                  <Play className="h-4 w-4" />
                  {t.modes.run}
                </Link>
                <Link href={`/workshop/${flow.id}?mode=chat`} className={buttonClasses('outline', 'sm')}>
                  <MessageSquare className="h-4 w-4" />
                  {t.modes.chat}
                </Link>
              </div>
            </Card>
          ))
        )}
      </div>
    </div>
  );
}
