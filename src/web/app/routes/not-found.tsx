import { Link } from 'wouter';
import { buttonClasses } from '@/components/ui/button';
import { notFound as t } from '@/lib/strings';

export function NotFoundPage() {
  return (
    <div
      className="mx-auto flex max-w-md flex-col items-center px-4 py-24 text-center"
      data-testid="not-found"
    >
      <p className="text-5xl font-bold text-indigo-600">404</p>
      <h1 className="mt-4 text-2xl font-semibold text-slate-900">{t.title}</h1>
      <p className="mt-2 text-slate-600">{t.text}</p>
      <Link href="/" className={buttonClasses('outline', 'md', 'mt-6')}>
        {t.home}
      </Link>
    </div>
  );
}
