import { QueryClientProvider } from '@tanstack/react-query';
import { useState } from 'react';
import { createQueryClient } from './api/query-client.ts';
import { SignedInLayout } from './layout/SignedInLayout.tsx';
import { NotesProvider } from './notes/notes.tsx';
import { NotificationsProvider } from './notifications/notifications.tsx';
import { AppRoutes } from './routes.tsx';
import { BootFailedScreen, BootScreen } from './screens/BootScreen.tsx';
import { LoginScreen } from './screens/LoginScreen.tsx';
import { SessionProvider, useSession } from './session/session.tsx';
import { NoteStack } from './ui/NoteStack.tsx';
import { VaultProvider } from './vault/VaultProvider.tsx';

/**
 * Everything kept for one signed-in session lives below this component, the server-state cache
 * (one QueryClient) included. It is keyed by the session's epoch, so signing out (or in as
 * someone else) throws all of it away.
 */
function SignedInApp() {
  const [queryClient] = useState(createQueryClient);
  return (
    <QueryClientProvider client={queryClient}>
      <NotificationsProvider>
        <VaultProvider>
          <SignedInLayout>
            <AppRoutes />
          </SignedInLayout>
        </VaultProvider>
      </NotificationsProvider>
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
      return <SignedInApp key={state.epoch} />;
  }
}

export function App() {
  return (
    <NotesProvider>
      <SessionProvider>
        <SessionGate />
        <NoteStack />
      </SessionProvider>
    </NotesProvider>
  );
}
