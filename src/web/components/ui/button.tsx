import type { ButtonHTMLAttributes } from 'react';
import { cn } from '@/lib/cn';

type Variant = 'primary' | 'secondary' | 'outline' | 'ghost' | 'destructive';
type Size = 'sm' | 'md' | 'icon';

const variants: Record<Variant, string> = {
  primary: 'bg-indigo-600 text-white hover:bg-indigo-700 shadow-sm',
  secondary: 'bg-slate-100 text-slate-900 hover:bg-slate-200',
  outline: 'border border-slate-300 bg-white text-slate-800 hover:bg-slate-50',
  ghost: 'text-slate-700 hover:bg-slate-100',
  destructive: 'bg-red-600 text-white hover:bg-red-700 shadow-sm',
};

const sizes: Record<Size, string> = {
  sm: 'h-8 px-3 text-sm gap-1.5',
  md: 'h-10 px-4 text-sm gap-2',
  icon: 'h-8 w-8 justify-center',
};

/**
 * Class names of a button, for links that look like one. A disabled button takes no pointer events, unless
 * it is `explained`: then it keeps them, so its tooltip shows.
 */
export function buttonClasses(
  variant: Variant = 'primary',
  size: Size = 'md',
  extra?: string,
  explained = false,
) {
  return cn(
    'inline-flex items-center rounded-lg font-medium transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500 disabled:opacity-50 cursor-pointer',
    explained ? 'disabled:cursor-not-allowed' : 'disabled:pointer-events-none',
    variants[variant],
    sizes[size],
    extra,
  );
}

/**
 * A button. `disabledReason` disables it and says why, `description` says what it does now; either is shown
 * as its tooltip and read as its accessible description (title), so a greyed-out button never leaves the user
 * guessing.
 */
export function Button({
  variant = 'primary',
  size = 'md',
  className,
  type = 'button',
  disabled,
  disabledReason,
  description,
  title,
  ...props
}: ButtonHTMLAttributes<HTMLButtonElement> & {
  variant?: Variant;
  size?: Size;
  /** Why the button cannot be used now; set, the button is disabled. */
  disabledReason?: string | null | false | undefined;
  /** What the button does now, when its label alone does not say it. */
  description?: string | null | undefined;
}) {
  // The reason it is disabled, or what it does now, says more than a title that only repeats its name.
  const said = disabledReason || description || null;
  return (
    <button
      type={type}
      className={buttonClasses(variant, size, className, said !== null)}
      disabled={disabled || Boolean(disabledReason)}
      title={said ?? title}
      data-disabled-reason={disabledReason || undefined}
      {...props}
    />
  );
}
