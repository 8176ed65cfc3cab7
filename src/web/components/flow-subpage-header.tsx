import { ArrowLeft } from 'lucide-react';
import { Link } from 'wouter';
import { buttonClasses } from '@/components/ui/button';

/** The head of a page of one flow's (its datasets, its experiments): back to the flow, the title, the flow named. */
export function FlowSubpageHeader({
  flowId,
  back,
  title,
  subtitle,
}: {
  flowId: string;
  back: string;
  title: string;
  /** null until the flow is read. */
  subtitle: string | null;
}) {
  return (
    <>
      <Link href={`/flows/${flowId}`} className={buttonClasses('ghost', 'sm')}>
        <ArrowLeft className="h-4 w-4" />
        {back}
      </Link>
      <div className="mt-4">
        <h1 className="text-2xl font-bold text-slate-900">{title}</h1>
        {subtitle !== null ? <p className="mt-1 text-sm text-slate-600">{subtitle}</p> : null}
      </div>
    </>
  );
}
