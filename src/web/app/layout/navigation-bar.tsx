import { LogIn, LogOut, Menu, Workflow } from 'lucide-react';
import { Link, useLocation } from 'wouter';
import { Button, buttonClasses } from '../../components/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
} from '../../components/ui/dropdown-menu';
import { displayNameOf, type User } from '../../features/auth/api/get-user';
import { classNames } from '../../lib/class-names';
import { app, nav, sessions } from '../../lib/strings';

/** The app's pages, in the bar on a wide screen and in the menu on a narrow one. */
const PAGES = [
  { href: '/flows', label: nav.flows },
  { href: '/master-mode', label: nav.masterMode },
  { href: '/guide', label: nav.guide },
  { href: '/sessions', label: sessions.navLink },
  { href: '/recommendations', label: nav.recommendations },
  { href: '/api-keys', label: nav.keys },
];

/** The flows list is also the home page, and a flow's workspace belongs to it. */
function isActive(href: string, location: string) {
  return href === '/flows' ? location === '/' || location.startsWith('/flows') : location.startsWith(href);
}

function NavLink({ href, children, className }: { href: string; children: string; className?: string }) {
  const [location] = useLocation();
  const active = isActive(href, location);
  return (
    <Link
      href={href}
      className={classNames(
        'shrink-0 whitespace-nowrap rounded-md px-2 py-1.5 text-sm font-medium transition-colors sm:px-3',
        active ? 'bg-indigo-50 text-indigo-700' : 'text-slate-600 hover:bg-slate-100 hover:text-slate-900',
        className,
      )}
    >
      {children}
    </Link>
  );
}

/** Below lg every page, the user's name and sign-out sit in one menu: nothing is clipped or overlaps. */
function NarrowMenu({ user }: { user: User }) {
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
        {PAGES.map((page) => (
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
          <a href="/api/logout" data-testid="nav-menu-logout">
            <LogOut className="h-4 w-4" />
            {nav.logout}
          </a>
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}

/** Sign-in and sign-out are the server's: plain full-page links, never client routes. */
export function NavigationBar({ user }: { user: User | null }) {
  return (
    <header
      className="sticky top-0 z-30 border-b border-slate-200 bg-white/90 backdrop-blur"
      data-testid="navigation-bar"
    >
      <nav className="mx-auto flex h-14 max-w-7xl items-center gap-2 px-4" aria-label={nav.main}>
        <Link
          href="/"
          className="mr-1 flex shrink-0 items-center gap-2 font-semibold text-slate-900 sm:mr-4"
          data-testid="nav-logo"
        >
          <span className="flex h-8 w-8 items-center justify-center rounded-lg bg-indigo-600 text-white">
            <Workflow className="h-4 w-4" />
          </span>
          <span className="hidden sm:inline">{app.name}</span>
        </Link>
        {user ? (
          <>
            <NarrowMenu user={user} />
            <div className="hidden min-w-0 flex-1 items-center gap-1 overflow-x-auto [mask-image:linear-gradient(to_right,black_calc(100%_-_1.5rem),transparent)] [scrollbar-width:none] lg:flex lg:[mask-image:none]">
              {PAGES.map((page) => (
                <NavLink key={page.href} href={page.href}>
                  {page.label}
                </NavLink>
              ))}
            </div>
            <div className="hidden shrink-0 items-center gap-2 sm:gap-3 lg:flex">
              <span className="max-w-20 truncate text-sm text-slate-700 sm:max-w-40" data-testid="user-name">
                {displayNameOf(user, nav.userFallback)}
              </span>
              <a href="/api/logout" className={buttonClasses('outline', 'sm')} data-testid="logout-button">
                <LogOut className="h-4 w-4" />
                <span className="sr-only sm:not-sr-only">{nav.logout}</span>
              </a>
            </div>
          </>
        ) : (
          <a
            href="/api/login"
            className={buttonClasses('primary', 'sm', 'ml-auto')}
            data-testid="login-button"
          >
            <LogIn className="h-4 w-4" />
            {nav.login}
          </a>
        )}
      </nav>
    </header>
  );
}
