import { classNames } from '../../lib/class-names';

export function Skeleton({ className }: { className?: string }) {
  return <div className={classNames('animate-pulse rounded-md bg-slate-200', className)} />;
}
