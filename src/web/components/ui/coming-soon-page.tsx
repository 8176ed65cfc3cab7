import { Construction } from 'lucide-react';
import { Link } from 'wouter';
import { placeholders as t } from '../../lib/strings';
import { buttonClasses } from './button';
import { Card } from './card';

/** A screen whose content comes later: its title and an honest line, so every route resolves. */
export function ComingSoonPage({ title, testId }: { title: string; testId: string }) {
  return (
    <div className="mx-auto max-w-3xl px-4 py-10" data-testid={testId}>
      <h1 className="text-2xl font-bold text-slate-900">{title}</h1>
      <Card className="mt-6 flex items-start gap-4 p-6">
        <Construction className="mt-0.5 h-6 w-6 shrink-0 text-amber-500" />
        <div>
          <p className="text-slate-700">{t.coming}</p>
          <Link href="/flows" className={buttonClasses('outline', 'sm', 'mt-4')}>
            {t.backHome}
          </Link>
        </div>
      </Card>
    </div>
  );
}
