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
        'rounded-md px-3 py-1.5 text-sm font-medium transition-colors',
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
          className="mr-4 flex items-center gap-2 font-semibold text-slate-900"
          data-testid="nav-logo"
        >
          <span className="flex h-8 w-8 items-center justify-center rounded-lg bg-indigo-600 text-white">
            <Workflow className="h-4 w-4" />
          </span>
          <span className="hidden sm:inline">{app.name}</span>
        </Link>
        {user ? (
          <>
            <NavLink href="/flows">{nav.flows}</NavLink>
            <NavLink href="/master-mode">{nav.masterMode}</NavLink>
            <NavLink href="/guide">{nav.guide}</NavLink>
            <NavLink href="/sessions" className="hidden md:inline-flex">
              {sessions.navLink}
            </NavLink>
            <NavLink href="/recommendations" className="hidden md:inline-flex">
              {nav.recommendations}
            </NavLink>
            <NavLink href="/api-keys" className="hidden lg:inline-flex">
              {nav.keys}
            </NavLink>
            <div className="ml-auto flex items-center gap-3">
              <span className="max-w-40 truncate text-sm text-slate-700" data-testid="user-name">
                {displayNameOf(user, nav.userFallback)}
              </span>
              <a href="/api/logout" className={buttonClasses('outline', 'sm')} data-testid="logout-button">
                <LogOut className="h-4 w-4" />
                {nav.logout}
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
