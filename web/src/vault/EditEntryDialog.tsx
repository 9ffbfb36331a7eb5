import { useEffect, useId, useReducer, useRef, useState } from 'react';
import type { FormEvent } from 'react';
import { photoOf } from '../api/client.ts';
import { deleteBeverage } from '../api/entries.ts';
import type { Beverage } from '../api/types.ts';
import { messageOf, useNotes } from '../notes/notes.tsx';
import { KEPT_ON_DEVICE, sendOrQueue } from '../offline/send-or-queue.ts';
import { SharingPanel } from '../sharing/SharingPanel.tsx';
import { Dialog } from '../ui/Dialog.tsx';
import { CheckIcon, ClockIcon, TrashIcon } from '../ui/icons.tsx';
import { draftOf, entryReducer, updateFormData, validateDraft } from './entry-form.ts';
import { EntryFields } from './EntryFields.tsx';
import { PhotoInput } from './PhotoInput.tsx';
import { useVault } from './VaultProvider.tsx';
import { useCurrentUser } from '../session/session.tsx';
import { VisibilityField } from './VisibilityField.tsx';
import { withVisibility, type VisibilitySetting } from './visibility.ts';
import './entry-dialogs.css';

export const BEVERAGE_UPDATED = 'Beverage updated';
export const DELETE_FAILED = 'Failed to delete beverage';

/**
 * The edit dialog: every field as in the 'Log a new beverage' form (with the same rules), the
 * photo replaced or removed, 'Mark as tried' / 'Move to to-try', and Delete after a confirmation.
 */
export function EditEntryDialog({ entry, onClose }: { entry: Beverage; onClose: () => void }) {
  const { publish, changeStatus, subscribe } = useVault();
  const { notifySuccess, notifyError } = useNotes();
  // The latest copy the server gave back (a status change inside the dialog updates it).
  const [saved, setSaved] = useState(entry);
  const [draft, dispatch] = useReducer(entryReducer, entry, draftOf);
  const [photo, setPhoto] = useState<File | null>(null);
  const [removePhoto, setRemovePhoto] = useState(false);
  // `federated` is the owner's setting, given to the owner only (an admin editing someone
  // else's entry is not offered the choice, so the value is never sent).
  const base: VisibilitySetting = {
    visibility: entry.visibility,
    federated: entry.federated ?? false,
  };
  const [setting, setSetting] = useState<VisibilitySetting>(base);
  // The fediverse choice is the owner's, when they federate.
  const offersFediverse = useCurrentUser().activityPubEnabled && entry.isOwner;
  const [nameError, setNameError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const nameRef = useRef<HTMLInputElement>(null);
  const confirmRef = useRef<HTMLButtonElement>(null);
  const formId = useId();
  const toTry = saved.status === 'TO_TRY';

  // The entry deleted by some other part of the page: nothing is left to edit.
  const onCloseRef = useRef(onClose);
  useEffect(() => {
    onCloseRef.current = onClose;
  });
  useEffect(
    () =>
      subscribe((change) => {
        if (change.kind === 'deleted' && change.id === entry.id) onCloseRef.current();
      }),
    [subscribe, entry.id],
  );

  useEffect(() => {
    if (confirming) confirmRef.current?.focus();
  }, [confirming]);

  const save = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const invalid = validateDraft(draft);
    setNameError(invalid);
    setError(null);
    if (invalid) {
      nameRef.current?.focus();
      return;
    }
    setBusy(true);
    try {
      const form = withVisibility(
        updateFormData(draft, { replace: photo, remove: removePhoto }),
        setting,
        base,
        offersFediverse,
      );
      // Without a connection it is kept and sent later; the card shows it meanwhile.
      const sent = await sendOrQueue(
        'PATCH /beverages/{id}',
        { params: { id: entry.id }, form, trackUpload: photoOf(form) },
        `Change ${draft.name.trim()}`,
      );
      if (!sent.queued) publish({ kind: 'saved', entry: sent.answer.beverage });
      notifySuccess(sent.queued ? KEPT_ON_DEVICE : BEVERAGE_UPDATED);
      onClose();
    } catch (caught) {
      setError(messageOf(caught, 'The beverage could not be saved'));
      setBusy(false);
    }
  };

  const quickStatus = async () => {
    setBusy(true);
    setError(null);
    const updated = await changeStatus(saved, toTry ? 'TRIED' : 'TO_TRY');
    if (updated) {
      setSaved(updated);
      // Keep whatever else was being edited; take the new status with its rating rule.
      dispatch({ kind: 'status', status: updated.status });
    }
    setBusy(false);
  };

  const remove = async () => {
    setBusy(true);
    try {
      await deleteBeverage(entry.id);
      publish({ kind: 'deleted', id: entry.id });
      onClose();
    } catch {
      notifyError(DELETE_FAILED);
      setBusy(false);
      setConfirming(false);
    }
  };

  const footer = confirming ? (
    <>
      <p className="dialog__confirm-text" id={`${formId}-confirm`}>
        Delete “{saved.name}”? This cannot be undone.
      </p>
      <button
        type="button"
        className="button button--secondary"
        onClick={() => setConfirming(false)}
        disabled={busy}
      >
        Cancel
      </button>
      <button
        ref={confirmRef}
        type="button"
        className="button button--danger"
        onClick={remove}
        disabled={busy}
        aria-describedby={`${formId}-confirm`}
      >
        Yes, delete
      </button>
    </>
  ) : (
    <>
      <button
        type="button"
        className="button button--danger-quiet"
        onClick={() => setConfirming(true)}
        disabled={busy}
      >
        <TrashIcon />
        Delete
      </button>
      <span className="dialog__footer-spacer" />
      <button
        type="button"
        className="button button--secondary"
        onClick={quickStatus}
        disabled={busy}
      >
        {toTry ? <CheckIcon /> : <ClockIcon />}
        {toTry ? 'Mark as tried' : 'Move to to-try'}
      </button>
      <button type="submit" form={formId} className="button button--primary" disabled={busy}>
        {busy ? 'Saving…' : 'Save changes'}
      </button>
    </>
  );

  return (
    <Dialog
      title="Edit entry"
      description={entry.isOwner ? undefined : `Logged by ${entry.ownerName}`}
      onClose={onClose}
      size="large"
      initialFocus={nameRef}
      closeOnBackdrop={false}
      footer={footer}
    >
      <form id={formId} onSubmit={save} noValidate className="edit-form">
        <EntryFields
          draft={draft}
          dispatch={(action) => {
            if (action.kind === 'type' || (action.kind === 'text' && action.field === 'name')) {
              setNameError(null);
            }
            dispatch(action);
          }}
          nameError={nameError}
          nameRef={nameRef}
          photo={
            <PhotoInput
              file={photo}
              onFileChange={setPhoto}
              currentPath={saved.photoPath}
              removed={removePhoto}
              onRemovedChange={setRemovePhoto}
            />
          }
        />
        <VisibilityField
          value={setting}
          onChange={setSetting}
          offersFediverse={offersFediverse}
          disabled={busy}
        />
        {error && (
          <p role="alert" className="form-error">
            {error}
          </p>
        )}
      </form>
      <SharingPanel entry={saved} onSaved={setSaved} />
    </Dialog>
  );
}
