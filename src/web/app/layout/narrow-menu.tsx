import { LogOut, Menu } from 'lucide-react';
import { useLocation } from 'wouter';
import { Button } from '@/components/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { displayNameOf, type User } from '@/features/auth/api/get-user';
import { signOutStarted } from '@/lib/session-ended';
import { nav } from '@/lib/strings';
import { isActive, PAGES } from './navigation-pages';

/**
 * Below lg the pages (but those for large screens only), the user's name and sign-out sit in one menu: nothing
 * is clipped or overlaps.
 */
export function NarrowMenu({ user }: { user: User }) {
  const [location, navigate] = useLocation();
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="outline" size="sm" className="ml-auto lg:hidden" data-testid="nav-menu-button">
          <Menu className="h-4 w-4" />
          {nav.menu}
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent className="min-w-56" data-testid="nav-menu">
        <p className="truncate px-2 py-1.5 text-xs text-slate-500" data-testid="nav-menu-user">
          {displayNameOf(user, nav.userFallback)}
        </p>
        {PAGES.filter((page) => !page.largeOnly).map((page) => (
          <DropdownMenuItem
            key={page.href}
            onSelect={() => navigate(page.href)}
            className={isActive(page.href, location) ? 'font-semibold text-indigo-700' : undefined}
            data-testid="nav-menu-link"
          >
            {page.label}
          </DropdownMenuItem>
        ))}
        <DropdownMenuItem asChild>
          <a href="/api/logout" onClick={signOutStarted} data-testid="nav-menu-logout">
            <LogOut className="h-4 w-4" />
            {nav.logout}
          </a>
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
