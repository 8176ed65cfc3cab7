import { type ClassValue, clsx } from 'clsx';
import { twMerge } from 'tailwind-merge';

/**
 * Joins the class names that apply (falsy entries are conditions that did not hold) and lets a later
 * Tailwind class win over an earlier one for the same property: `cn('h-10 py-2', 'h-auto')` is
 * 'py-2 h-auto', so a component's caller can override its defaults.
 */
export function cn(...inputs: ClassValue[]): string {
  return twMerge(clsx(inputs));
}
