import { Bot, Briefcase, ChartColumn, Lightbulb, type LucideIcon, Palette, Zap } from 'lucide-react';
import { cn } from '@/lib/cn';

const ICONS: Record<string, LucideIcon> = {
  productivity: Zap,
  automation: Bot,
  analysis: ChartColumn,
  creative: Palette,
  business: Briefcase,
};

const COLOURS: Record<string, string> = {
  productivity: 'bg-amber-50 text-amber-600',
  automation: 'bg-sky-50 text-sky-600',
  analysis: 'bg-emerald-50 text-emerald-600',
  creative: 'bg-pink-50 text-pink-600',
  business: 'bg-indigo-50 text-indigo-600',
};

/** A recommendation's category as an icon; 'other' and anything unknown get a light bulb. */
export function CategoryIcon({ category, className }: { category: string; className?: string }) {
  const Icon = ICONS[category] ?? Lightbulb;
  return (
    <span
      className={cn(
        'flex h-9 w-9 shrink-0 items-center justify-center rounded-lg',
        COLOURS[category] ?? 'bg-slate-100 text-slate-600',
        className,
      )}
      data-category={category}
      data-testid="recommendation-category-icon"
    >
      <Icon className="h-4 w-4" />
    </span>
  );
}
