import { Suspense } from 'react';
import { Redirect, Route, Switch } from 'wouter';
import { isAdmin } from './session/roles.ts';
import { useCurrentUser } from './session/session.tsx';
import { lazyNamed, ScreenLoading } from './ui/lazy.tsx';

// The first download is the shell (React, the session, the layout, the query cache); every screen
// is fetched on first use (see test/web/initial-bundle.test.ts), and the screen of the address
// the page was opened at is fetched at once, while the session is being checked.
const DashboardScreen = lazyNamed(() => import('./screens/DashboardScreen.tsx'), 'DashboardScreen');
const ActivityScreen = lazyNamed(() => import('./screens/ActivityScreen.tsx'), 'ActivityScreen');
const ArchiveScreen = lazyNamed(() => import('./screens/ArchiveScreen.tsx'), 'ArchiveScreen');
const CellarScreen = lazyNamed(() => import('./screens/CellarScreen.tsx'), 'CellarScreen');
const FollowingScreen = lazyNamed(() => import('./screens/FollowingScreen.tsx'), 'FollowingScreen');
const StatsScreen = lazyNamed(() => import('./screens/StatsScreen.tsx'), 'StatsScreen');
const AdminScreen = lazyNamed(() => import('./screens/AdminScreen.tsx'), 'AdminScreen');
const ProfileScreen = lazyNamed(() => import('./screens/ProfileScreen.tsx'), 'ProfileScreen');
const PublicProfileScreen = lazyNamed(
  () => import('./screens/PublicProfileScreen.tsx'),
  'PublicProfileScreen',
);

/** The screen a path shows, for fetching its code early (any other path shows the dashboard). */
export function screenOf(path: string): { preload: () => void } {
  const [, first = ''] = path.split('/');
  switch (first) {
    case '':
      return DashboardScreen;
    case 'activity':
      return ActivityScreen;
    case 'whiskey':
    case 'wine':
    case 'beer':
      return ArchiveScreen;
    case 'cellar':
      return CellarScreen;
    case 'following':
      return FollowingScreen;
    case 'stats':
      return StatsScreen;
    case 'admin':
      return AdminScreen;
    case 'profile':
      return ProfileScreen;
    case 'users':
      return PublicProfileScreen;
    default:
      return DashboardScreen;
  }
}

/** Starts fetching the screen of the address the page was opened at (called once, at start). */
export function preloadCurrentScreen(): void {
  screenOf(window.location.pathname).preload();
}

/** Only admins see the Admin Console; everyone else is sent to /. */
function AdminOnly() {
  const user = useCurrentUser();
  return isAdmin(user) ? <AdminScreen /> : <Redirect to="/" replace />;
}

/** The signed-in routes. Any other path redirects to /. */
export function AppRoutes() {
  return (
    <Suspense fallback={<ScreenLoading />}>
      <Switch>
        <Route path="/" component={DashboardScreen} />
        <Route path="/profile" component={ProfileScreen} />
        <Route path="/activity" component={ActivityScreen} />
        <Route path="/cellar" component={CellarScreen} />
        <Route path="/whiskey">
          <ArchiveScreen type="WHISKEY" />
        </Route>
        <Route path="/wine">
          <ArchiveScreen type="WINE" />
        </Route>
        <Route path="/beer">
          <ArchiveScreen type="BEER" />
        </Route>
        <Route path="/admin" component={AdminOnly} />
        <Route path="/following" component={FollowingScreen} />
        {/* /stats, and /stats/{year}: a year in review. */}
        <Route path="/stats/:year?">
          {(params) => <StatsScreen key={params.year ?? ''} year={params.year} />}
        </Route>
        {/* /users/ with no username shows 'Username is required'. */}
        <Route path="/users/:username?">
          {(params) => (
            <PublicProfileScreen key={params.username ?? ''} username={params.username ?? ''} />
          )}
        </Route>
        <Route>
          <Redirect to="/" replace />
        </Route>
      </Switch>
    </Suspense>
  );
}
