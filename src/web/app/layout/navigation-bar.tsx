import { LogIn, LogOut, Menu, Workflow } from 'lucide-react';
import { lazy, Suspense } from 'react';
import { Link, useLocation } from 'wouter';
import { Button, buttonClasses } from '@/components/ui/button';
import { displayNameOf, type User } from '@/features/auth/api/get-user';
import { cn } from '@/lib/cn';
import { signOutStarted } from '@/lib/session-ended';
import { SIGN_IN_PATH } from '@/lib/sign-in';
import { app, nav } from '@/lib/strings';
import { isActive, PAGES } from './navigation-pages';

function NavLink({ href, children, className }: { href: string; children: string; className?: string }) {
  const [location] = useLocation();
  const active = isActive(href, location);
  return (
    <Link
      href={href}
      className={cn(
        'shrink-0 whitespace-nowrap rounded-md px-2 py-1.5 text-sm font-medium transition-colors sm:px-3',
        active ? 'bg-indigo-50 text-indigo-700' : 'text-slate-600 hover:bg-slate-100 hover:text-slate-900',
        className,
      )}
    >
      {children}
      {href === '/reviews' ? (
        <Suspense fallback={null}>
          <PendingReviews />
        </Suspense>
      ) : null}
    </Link>
  );
}

/** Signed in only, with the live count's parts: it loads beside the first signed-in page. */
const PendingReviews = lazy(async () => ({ default: (await import('./pending-reviews')).PendingReviews }));

/** Signed in only, with the menu's parts: it loads beside the first signed-in page, not on the landing page. */
const NarrowMenu = lazy(async () => ({ default: (await import('./narrow-menu')).NarrowMenu }));

/** Holds the menu button's place while the menu loads. */
function NarrowMenuPlaceholder() {
  return (
    <Button variant="outline" size="sm" className="ml-auto lg:hidden" disabled>
      <Menu className="h-4 w-4" />
      {nav.menu}
    </Button>
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
            <Suspense fallback={<NarrowMenuPlaceholder />}>
              <NarrowMenu user={user} />
            </Suspense>
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
              <a
                href="/api/logout"
                onClick={signOutStarted}
                className={buttonClasses('outline', 'sm')}
                data-testid="logout-button"
              >
                <LogOut className="h-4 w-4" />
                <span className="sr-only sm:not-sr-only">{nav.logout}</span>
              </a>
            </div>
          </>
        ) : (
          <a
            href={SIGN_IN_PATH}
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
