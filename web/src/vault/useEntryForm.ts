import { useReducer, useRef, useState } from 'react';
import type { FormEvent } from 'react';
import { photoOf } from '../api/client.ts';
import type { Beverage } from '../api/types.ts';
import { messageOf, useNotes } from '../notes/notes.tsx';
import { KEPT_ON_DEVICE, sendOrQueue } from '../offline/send-or-queue.ts';
import { entryReducer, validateDraft, type EntryAction, type EntryDraft } from './entry-form.ts';
import { useVault } from './VaultProvider.tsx';
import { withVisibility, type VisibilitySetting } from './visibility.ts';

/** What a form of an entry writes, and what it tells the person. */
export interface EntryFormSetup {
  /** The entry the form changes (PATCH /beverages/{id}); a new entry (POST) when left out. */
  entryId?: number;
  /** The draft the form starts from. */
  initial: () => EntryDraft;
  /** The visibility the form starts from, which the server keeps (or applies) when not sent. */
  visibility: VisibilitySetting;
  /** Whether the form offers the fediverse choice. */
  offersFediverse: boolean;
  /** The draft's form data with its photo (entry-form.ts: createFormData, updateFormData). */
  formData: (draft: EntryDraft) => FormData;
  /** What the person is told once it is saved, and when it is refused without a message. */
  saved: string;
  failed: string;
  /** After it was saved or kept on the device. */
  done: () => void;
}

/**
 * The state and the submit path of the 'Log a new beverage' form and the edit dialog: the draft
 * (with entry-form.ts's rules), the photo chosen, the visibility, the name's error and the
 * form's, and whether it is sending. `submit` checks the draft and sends it with the photo and
 * the visibility, at once or, without a connection, kept on the device and sent later; the
 * saved entry goes to every list showing it (the vault's `publish`).
 */
export function useEntryForm(setup: EntryFormSetup) {
  const { publish } = useVault();
  const { notifySuccess } = useNotes();
  const [draft, dispatch] = useReducer(entryReducer, undefined, setup.initial);
  const [photo, setPhoto] = useState<File | null>(null);
  const [setting, setSetting] = useState<VisibilitySetting>(setup.visibility);
  const [nameError, setNameError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const nameRef = useRef<HTMLInputElement>(null);

  /** EntryFields' dispatch: a new type or name takes the name's error away. */
  const edit = (action: EntryAction) => {
    if (action.kind === 'type' || (action.kind === 'text' && action.field === 'name')) {
      setNameError(null);
    }
    dispatch(action);
  };

  const send = (form: FormData, name: string): Promise<{ entry?: Beverage }> => {
    const trackUpload = photoOf(form);
    const { entryId } = setup;
    const sent =
      entryId === undefined
        ? sendOrQueue('POST /beverages', { form, trackUpload }, `Log ${name}`)
        : sendOrQueue(
            'PATCH /beverages/{id}',
            { params: { id: entryId }, form, trackUpload },
            `Change ${name}`,
          );
    return sent.then((result) => (result.queued ? {} : { entry: result.answer.beverage }));
  };

  const submit = async (event: FormEvent) => {
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
        setup.formData(draft),
        setting,
        setup.visibility,
        setup.offersFediverse,
      );
      const { entry } = await send(form, draft.name.trim());
      if (entry) publish({ kind: 'saved', entry });
      notifySuccess(entry ? setup.saved : KEPT_ON_DEVICE);
      setBusy(false);
      setup.done();
    } catch (caught) {
      setError(messageOf(caught, setup.failed));
      setBusy(false);
    }
  };

  return {
    draft,
    dispatch,
    edit,
    photo,
    setPhoto,
    setting,
    setSetting,
    nameError,
    error,
    busy,
    setBusy,
    setError,
    nameRef,
    submit,
  };
}
