import { useNotes } from '../notes/notes.tsx';
import '../following/following.css';
import { followRequested } from '../following/remote-api.ts';
import { RemoteLookup } from '../following/RemoteLookup.tsx';
import { Screen } from './Screen.tsx';

/**
 * /users/@name@host: a fediverse account a comment mentions, looked up on its server and shown
 * with 'Follow' (the lookup of '+ Follow', with the handle filled in).
 */
export function FediverseAccountScreen({ handle }: { handle: string }) {
  const { notifySuccess } = useNotes();
  return (
    <Screen title={handle}>
      <RemoteLookup
        initial={handle}
        label="Fediverse account"
        onFollowed={(actor) => notifySuccess(followRequested(actor))}
      />
    </Screen>
  );
}
