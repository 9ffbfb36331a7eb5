import { useEffect, useId, useRef, useState } from 'react';
import { deleteBeverage } from '../api/entries.ts';
import type { Beverage } from '../api/types.ts';
import { useNotes } from '../notes/notes.tsx';
import { SharingPanel } from '../sharing/SharingPanel.tsx';
import { Dialog } from '../ui/Dialog.tsx';
import { CheckIcon, ClockIcon, TrashIcon } from '../ui/icons.tsx';
import { draftOf, updateFormData } from './entry-form.ts';
import { EntryFields } from './EntryFields.tsx';
import { PhotoInput } from './PhotoInput.tsx';
import { useVault } from './VaultProvider.tsx';
import { useCurrentUser } from '../session/session.tsx';
import { useEntryForm } from './useEntryForm.ts';
import { VisibilityField } from './VisibilityField.tsx';
import './entry-dialogs.css';

export const BEVERAGE_UPDATED = 'Beverage updated';
export const DELETE_FAILED = 'Failed to delete beverage';

/**
 * The edit dialog: every field as in the 'Log a new beverage' form (with the same rules), the
 * photo replaced or removed, 'Mark as tried' / 'Move to to-try', and Delete after a confirmation.
 */
export function EditEntryDialog({ entry, onClose }: { entry: Beverage; onClose: () => void }) {
  const { publish, changeStatus, subscribe } = useVault();
  const { notifyError } = useNotes();
  // The latest copy the server gave back (a status change inside the dialog updates it).
  const [saved, setSaved] = useState(entry);
  const [removePhoto, setRemovePhoto] = useState(false);
  // The fediverse choice is the owner's, when they federate.
  const offersFediverse = useCurrentUser().activityPubEnabled && entry.isOwner;
  // Without a connection it is kept and sent later; the card shows it meanwhile.
  const form = useEntryForm({
    entryId: entry.id,
    initial: () => draftOf(entry),
    // `federated` is the owner's setting, given to the owner only (an admin editing someone
    // else's entry is not offered the choice, so the value is never sent).
    visibility: { visibility: entry.visibility, federated: entry.federated ?? false },
    offersFediverse,
    formData: (draft) => updateFormData(draft, { replace: form.photo, remove: removePhoto }),
    saved: BEVERAGE_UPDATED,
    failed: 'The beverage could not be saved',
    done: onClose,
  });
  const { busy, setBusy } = form;
  const [confirming, setConfirming] = useState(false);
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

  const quickStatus = async () => {
    setBusy(true);
    form.setError(null);
    const updated = await changeStatus(saved, toTry ? 'TRIED' : 'TO_TRY');
    if (updated) {
      setSaved(updated);
      // Keep whatever else was being edited; take the new status with its rating rule.
      form.dispatch({ kind: 'status', status: updated.status });
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
      initialFocus={form.nameRef}
      closeOnBackdrop={false}
      footer={footer}
    >
      <form id={formId} onSubmit={form.submit} noValidate className="edit-form">
        <EntryFields
          draft={form.draft}
          dispatch={form.edit}
          nameError={form.nameError}
          nameRef={form.nameRef}
          photo={
            <PhotoInput
              file={form.photo}
              onFileChange={form.setPhoto}
              currentPath={saved.photoPath}
              removed={removePhoto}
              onRemovedChange={setRemovePhoto}
            />
          }
        />
        <VisibilityField
          value={form.setting}
          onChange={form.setSetting}
          offersFediverse={offersFediverse}
          disabled={busy}
        />
        {form.error && (
          <p role="alert" className="form-error">
            {form.error}
          </p>
        )}
      </form>
      <SharingPanel entry={saved} onSaved={setSaved} />
    </Dialog>
  );
}
