import { Suspense } from 'react';
import { Redirect, Route, Switch } from 'wouter';
import { ActivityScreen } from './screens/ActivityScreen.tsx';
import { ArchiveScreen } from './screens/ArchiveScreen.tsx';
import { CellarScreen } from './screens/CellarScreen.tsx';
import { DashboardScreen } from './screens/DashboardScreen.tsx';
import { FollowingScreen } from './screens/FollowingScreen.tsx';
import { isAdmin } from './session/roles.ts';
import { useCurrentUser } from './session/session.tsx';
import { lazyNamed, ScreenLoading } from './ui/lazy.tsx';

// Screens most visits never open are fetched on first use (see test/web/initial-bundle.test.ts).
const AdminScreen = lazyNamed(() => import('./screens/AdminScreen.tsx'), 'AdminScreen');
const ProfileScreen = lazyNamed(() => import('./screens/ProfileScreen.tsx'), 'ProfileScreen');
const PublicProfileScreen = lazyNamed(
  () => import('./screens/PublicProfileScreen.tsx'),
  'PublicProfileScreen',
);

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
