import { LogIn, LogOut, Workflow } from 'lucide-react';
import { Link, useLocation } from 'wouter';
import { buttonClasses } from '../../components/ui/button';
import { displayNameOf, type User } from '../../features/auth/api/get-user';
import { classNames } from '../../lib/class-names';
import { app, nav, sessions } from '../../lib/strings';

function NavLink({ href, children, className }: { href: string; children: string; className?: string }) {
  const [location] = useLocation();
  // The flows list is also the home page, and a flow's workspace belongs to it.
  const active =
    href === '/flows' ? location === '/' || location.startsWith('/flows') : location.startsWith(href);
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

/** Sign-in and sign-out are the server's: plain full-page links, never client routes. */
export function NavigationBar({ user }: { user: User | null }) {
  return (
    <header
      className="sticky top-0 z-30 border-b border-slate-200 bg-white/90 backdrop-blur"
      data-testid="navigation-bar"
    >
      <nav className="mx-auto flex h-14 max-w-7xl items-center gap-2 px-4">
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
            {/* On a narrow screen the links scroll sideways instead of pushing the page wider. */}
            <div className="flex min-w-0 flex-1 items-center gap-1 overflow-x-auto [mask-image:linear-gradient(to_right,black_calc(100%_-_1.5rem),transparent)] [scrollbar-width:none] lg:[mask-image:none]">
              <NavLink href="/flows">{nav.flows}</NavLink>
              <NavLink href="/master-mode">{nav.masterMode}</NavLink>
              <NavLink href="/guide">{nav.guide}</NavLink>
              <NavLink href="/sessions">{sessions.navLink}</NavLink>
              <NavLink href="/recommendations">{nav.recommendations}</NavLink>
              <NavLink href="/api-keys" className="hidden lg:inline-flex">
                {nav.keys}
              </NavLink>
            </div>
            <div className="flex shrink-0 items-center gap-2 sm:gap-3">
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
