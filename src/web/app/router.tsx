import { type ComponentType, lazy, Suspense } from 'react';
import { Redirect, Route, Switch, useLocation } from 'wouter';
import { useUser } from '../features/auth/api/get-user';
import { LandingPage } from '../features/landing/components/landing-page';
import { app } from '../lib/strings';
import { NavigationBar } from './layout/navigation-bar';
import { NotFoundPage } from './routes/not-found';
import { SignInToContinue } from './routes/sign-in-to-continue';

/** Signed-in screens load on demand, so the landing page's first load stays small. */
function page<K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K) {
  return lazy(async () => ({ default: (await load())[name] }));
}

const FlowsPage = page(() => import('../features/flows/components/flows-page'), 'FlowsPage');
const FlowWorkspacePage = page(() => import('./routes/flow-workspace-route'), 'FlowWorkspaceRoute');
const FlowVersionsPage = page(
  () => import('../features/flow-workspace/versions/components/flow-versions-page'),
  'FlowVersionsPage',
);
const DatasetsPage = page(() => import('../features/datasets/components/datasets-page'), 'DatasetsPage');
const DatasetPage = page(() => import('../features/datasets/components/dataset-page'), 'DatasetPage');
const ExperimentsPage = page(
  () => import('../features/experiments/components/experiments-page'),
  'ExperimentsPage',
);
const ExperimentPage = page(
  () => import('../features/experiments/components/experiment-page'),
  'ExperimentPage',
);
const ComparePage = page(() => import('../features/experiments/components/compare-page'), 'ComparePage');
const FlowsFastPage = page(
  () => import('../features/flows-fast/components/flows-fast-page'),
  'FlowsFastPage',
);
// Open to anyone, so it is told whether someone is signed in.
const FlowsStaticPage = lazy(async () => ({
  default: (await import('../features/flows-static/components/flows-static-page')).FlowsStaticPage,
}));
const FlowsRedirectPage = page(
  () => import('../features/flows-static/components/flows-redirect-page'),
  'FlowsRedirectPage',
);
const WorkshopPage = page(() => import('../features/workshop/components/workshop-page'), 'WorkshopPage');
const SessionsPage = page(() => import('../features/sessions/components/sessions-page'), 'SessionsPage');
const RecommendationsPage = page(
  () => import('../features/recommendations/components/recommendations-page'),
  'RecommendationsPage',
);
const ApiKeysPage = page(() => import('../features/api-keys/components/api-keys-page'), 'ApiKeysPage');
const ApiTokensPage = page(
  () => import('../features/api-tokens/components/api-tokens-page'),
  'ApiTokensPage',
);
const AiFlowCreatorPage = page(
  () => import('../features/ai-flow-creator/components/ai-flow-creator-page'),
  'AiFlowCreatorPage',
);
const GuidePage = page(() => import('../features/guide/components/guide-page'), 'GuidePage');
const MasterModePage = page(
  () => import('../features/master-mode/components/master-mode-page'),
  'MasterModePage',
);
const WorkspacesPage = page(
  () => import('../features/workspaces/components/workspaces-page'),
  'WorkspacesPage',
);
const WorkspacePage = page(() => import('./routes/workspace-route'), 'WorkspaceRoute');
const InvitationPage = page(
  () => import('../features/workspaces/components/invitation-page'),
  'InvitationPage',
);
const ReviewsPage = page(() => import('../features/reviews/components/reviews-page'), 'ReviewsPage');
const AboutPage = page(() => import('../features/about/components/about-page'), 'AboutPage');

export function FullScreenLoading() {
  return (
    <div className="flex min-h-screen items-center justify-center text-slate-500" data-testid="app-loading">
      {app.loading}
    </div>
  );
}

function PageLoading() {
  return (
    <div className="flex justify-center py-24 text-slate-500" data-testid="page-loading">
      {app.loading}
    </div>
  );
}

/** `/flows/` with no flow id goes to the list; the route matcher would otherwise treat it as `/flows`. */
function FlowsRoute() {
  const [location] = useLocation();
  return location === '/flows' ? <FlowsPage /> : <Redirect to="/flows" replace />;
}

/**
 * The pages for signed-in users, by path. Signed in, each shows its page; signed out, each is the sign-in
 * page, which comes back to it. Any path not here (nor the landing page and the open pages) is 'Page Not
 * Found' either way.
 */
const SIGNED_IN_PAGES: ReadonlyArray<readonly [path: string, page: ComponentType]> = [
  ['/flows', FlowsRoute],
  ['/flows/:flowId', FlowWorkspacePage],
  ['/flows/:flowId/versions', FlowVersionsPage],
  ['/flows/:flowId/datasets', DatasetsPage],
  ['/datasets/:id', DatasetPage],
  ['/flows/:flowId/experiments', ExperimentsPage],
  // Before '/experiments/:id', which would take 'compare' for an id.
  ['/experiments/compare', ComparePage],
  ['/experiments/:id', ExperimentPage],
  ['/flows-fast', FlowsFastPage],
  // The workshop with a flow is that flow's workspace (run or chat mode by ?mode=).
  ['/workshop/:flowId', FlowWorkspacePage],
  ['/workshop', WorkshopPage],
  ['/sessions', SessionsPage],
  ['/recommendations', RecommendationsPage],
  ['/api-keys', ApiKeysPage],
  ['/api-keys/tokens', ApiTokensPage],
  ['/ai-flow-creator', AiFlowCreatorPage],
  ['/guide', GuidePage],
  ['/master-mode', MasterModePage],
  ['/about', AboutPage],
  ['/workspaces', WorkspacesPage],
  ['/reviews', ReviewsPage],
  ['/workspaces/:id', WorkspacePage],
  ['/invitations/:token', InvitationPage],
];

function SignedInRoutes() {
  return (
    <Switch>
      <Route path="/" component={FlowsPage} />
      <Route path="/flows-static">
        <FlowsStaticPage signedIn />
      </Route>
      <Route path="/flows-redirect" component={FlowsRedirectPage} />
      {SIGNED_IN_PAGES.map(([path, page]) => (
        <Route key={path} path={path} component={page} />
      ))}
      <Route component={NotFoundPage} />
    </Switch>
  );
}

function SignedOutRoutes() {
  return (
    <Switch>
      <Route path="/" component={LandingPage} />
      <Route path="/flows-static">
        <FlowsStaticPage signedIn={false} />
      </Route>
      <Route path="/flows-redirect" component={FlowsRedirectPage} />
      {/* A page for signed-in users: sign in, then come back to it. */}
      {SIGNED_IN_PAGES.map(([path]) => (
        <Route key={path} path={path} component={SignInToContinue} />
      ))}
      <Route component={NotFoundPage} />
    </Switch>
  );
}

/** The auth query decides the route set; nothing renders until it has answered. */
export function AppRouter() {
  const { user, isLoading } = useUser();
  if (isLoading) return <FullScreenLoading />;
  return (
    <div className="min-h-screen">
      <NavigationBar user={user} />
      <main>
        <Suspense fallback={<PageLoading />}>{user ? <SignedInRoutes /> : <SignedOutRoutes />}</Suspense>
      </main>
    </div>
  );
}
