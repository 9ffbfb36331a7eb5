import type { QueryClient } from '@tanstack/query-core';
import { QueryClientProvider } from '@tanstack/react-query';
import { Suspense, useEffect, useState } from 'react';
import { createQueryClient } from './api/query-client.ts';
import { SignedInLayout } from './layout/SignedInLayout.tsx';
import { NotesProvider } from './notes/notes.tsx';
import { OfflineBanner } from './pwa/OfflineBanner.tsx';
import { AppRoutes } from './routes.tsx';
import { BootScreen } from './screens/BootScreen.tsx';
import { SessionProvider, useSession } from './session/session.tsx';
import { lazyNamed } from './ui/lazy.tsx';
import { NoteStack } from './ui/NoteStack.tsx';
import { VaultProvider } from './vault/VaultProvider.tsx';

// A signed-in visit never needs the login screen until it signs out: fetched when the session
// check says nobody is signed in, or just after the signed-in layout's first render.
const LoginScreen = lazyNamed(() => import('./screens/LoginScreen.tsx'), 'LoginScreen');
const BootFailedScreen = lazyNamed(
  () => import('./screens/BootFailedScreen.tsx'),
  'BootFailedScreen',
);

/**
 * Everything kept for one signed-in session lives below this component, the server-state cache
 * (one QueryClient) included. It is keyed by the session's epoch, so signing out (or in as
 * someone else) throws all of it away. A session opened offline starts from the device copy.
 */
function SignedInApp({ restore }: { restore?: (client: QueryClient) => void }) {
  const [queryClient] = useState(() => {
    const client = createQueryClient();
    restore?.(client);
    return client;
  });
  useEffect(() => LoginScreen.preload(), []);
  return (
    <QueryClientProvider client={queryClient}>
      <VaultProvider>
        <SignedInLayout>
          <AppRoutes />
        </SignedInLayout>
      </VaultProvider>
    </QueryClientProvider>
  );
}

function SessionGate() {
  const { state } = useSession();
  switch (state.status) {
    case 'loading':
      return <BootScreen />;
    case 'unavailable':
      return <BootFailedScreen message={state.message} />;
    case 'signed-out':
      return <LoginScreen />;
    case 'signed-in':
      return <SignedInApp key={state.epoch} restore={state.restore} />;
  }
}

export function App() {
  return (
    <NotesProvider>
      <SessionProvider>
        <OfflineBanner />
        <Suspense fallback={<BootScreen />}>
          <SessionGate />
        </Suspense>
        <NoteStack />
      </SessionProvider>
    </NotesProvider>
  );
}
