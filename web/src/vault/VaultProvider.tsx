import {
  createContext,
  Suspense,
  use,
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import type { ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { setBeverageStatus } from '../api/shell-calls.ts';
import type { Beverage, BeverageStatus } from '../api/types.ts';
import { useNotes } from '../notes/notes.tsx';
import { isAdmin } from '../session/roles.ts';
import { useCurrentUser } from '../session/session.tsx';
import { DialogLoading, lazyNamed } from '../ui/lazy.tsx';
import type { ListChange } from './list-state.ts';

// Fetched when an entry is first edited or its photo first opened.
const EditEntryDialog = lazyNamed(() => import('./EditEntryDialog.tsx'), 'EditEntryDialog');
const PhotoPreviewDialog = lazyNamed(
  () => import('./PhotoPreviewDialog.tsx'),
  'PhotoPreviewDialog',
);

/** How the cached lists follow a change (list-cache.ts): code of the lists, not of the shell. */
const loadListCache = () => import('./list-cache.ts');

export const MARKED_AS_TRIED = 'Marked as tried';
export const MOVED_TO_TRY = 'Moved to try list';

type Listener = (change: ListChange) => void;

interface VaultContextValue {
  /** What shows an entry outside the lists (the edit dialog, the photo) follows changes here. */
  subscribe: (listener: Listener) => () => void;
  /**
   * Tells the app an entry was saved or deleted: every list of entries in the query cache
   * follows (list-cache.ts), then every listener.
   */
  publish: (change: ListChange) => void;
  /** The owner or an admin may edit, delete and change the status. */
  canEdit: (entry: Beverage) => boolean;
  openEditor: (entry: Beverage) => void;
  openPhoto: (entry: Beverage) => void;
  /** 'Mark as tried' / 'Move to to-try': a status-only update, then its note. */
  changeStatus: (entry: Beverage, status: BeverageStatus) => Promise<Beverage | null>;
}

const VaultContext = createContext<VaultContextValue | null>(null);

/**
 * What every screen showing entries shares during one session: the change feed that keeps the
 * cached lists up to date, the edit dialog and the full-size photo preview.
 */
export function VaultProvider({ children }: { children: ReactNode }) {
  const user = useCurrentUser();
  const queryClient = useQueryClient();
  const notes = useNotes();
  const notesRef = useRef(notes);
  useEffect(() => {
    notesRef.current = notes;
  });
  // Off the first render's path, but here before anyone clicks Edit or a photo.
  useEffect(() => {
    EditEntryDialog.preload();
    PhotoPreviewDialog.preload();
  }, []);
  const listeners = useRef(new Set<Listener>());
  const [editing, setEditing] = useState<Beverage | null>(null);
  const [previewing, setPreviewing] = useState<Beverage | null>(null);
  const admin = isAdmin(user);

  const subscribe = useCallback((listener: Listener) => {
    listeners.current.add(listener);
    return () => {
      listeners.current.delete(listener);
    };
  }, []);

  const viewerId = user.id;
  const publish = useCallback(
    (change: ListChange) => {
      // Here long before: whatever shows a list has fetched the lists' code already.
      void loadListCache().then(({ applyChangeToCachedLists }) =>
        applyChangeToCachedLists(queryClient, change, viewerId),
      );
      for (const listener of [...listeners.current]) listener(change);
    },
    [queryClient, viewerId],
  );

  const canEdit = useCallback((entry: Beverage) => entry.isOwner || admin, [admin]);

  const changeStatus = useCallback(
    async (entry: Beverage, status: BeverageStatus) => {
      try {
        const saved = await setBeverageStatus(entry.id, status);
        publish({ kind: 'saved', entry: saved });
        notesRef.current.notifySuccess(status === 'TRIED' ? MARKED_AS_TRIED : MOVED_TO_TRY);
        return saved;
      } catch (caught) {
        notesRef.current.notifyFailure(caught, 'Failed to update beverage');
        return null;
      }
    },
    [publish],
  );

  const value = useMemo<VaultContextValue>(
    () => ({
      subscribe,
      publish,
      canEdit,
      openEditor: setEditing,
      openPhoto: setPreviewing,
      changeStatus,
    }),
    [subscribe, publish, canEdit, changeStatus],
  );

  // An entry deleted or changed while its photo is shown: follow it.
  useEffect(
    () =>
      subscribe((change) => {
        setPreviewing((current) => {
          if (!current) return current;
          if (change.kind === 'deleted') return change.id === current.id ? null : current;
          if (change.entry.id !== current.id) return current;
          return change.entry.photoPath ? change.entry : null;
        });
      }),
    [subscribe],
  );

  return (
    <VaultContext value={value}>
      {children}
      <Suspense fallback={<DialogLoading />}>
        {editing && (
          <EditEntryDialog key={editing.id} entry={editing} onClose={() => setEditing(null)} />
        )}
        {previewing?.photoPath && (
          <PhotoPreviewDialog entry={previewing} onClose={() => setPreviewing(null)} />
        )}
      </Suspense>
    </VaultContext>
  );
}

export function useVault(): VaultContextValue {
  const value = use(VaultContext);
  if (!value) throw new Error('useVault must be used inside <VaultProvider>');
  return value;
}
