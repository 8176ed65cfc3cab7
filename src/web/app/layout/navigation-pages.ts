import { reviewNav } from '@/features/reviews/strings';
import { sessions } from '@/features/sessions/strings';
import { nav } from '@/lib/strings';

/**
 * The app's pages, in the bar on a wide screen and in the menu on a narrow one; a page `largeOnly` is linked
 * from the bar only (the keys page: the navigation has its Keys link on large screens only).
 */
export const PAGES: ReadonlyArray<{ href: string; label: string; largeOnly?: true }> = [
  { href: '/flows', label: nav.flows },
  { href: '/workspaces', label: nav.workspaces },
  { href: '/reviews', label: reviewNav.label },
  { href: '/master-mode', label: nav.masterMode },
  { href: '/guide', label: nav.guide },
  { href: '/sessions', label: sessions.navLink },
  { href: '/recommendations', label: nav.recommendations },
  { href: '/api-keys', label: nav.keys, largeOnly: true },
];

/** The flows list is also the home page, and a flow's workspace belongs to it. */
export function isActive(href: string, location: string) {
  return href === '/flows' ? location === '/' || location.startsWith('/flows') : location.startsWith(href);
}
