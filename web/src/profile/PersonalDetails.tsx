import { useId, useState } from 'react';
import type { FormEvent } from 'react';
import { setFediverseSharing, updateProfile } from '../api/profile.ts';
import { messageOf, useNotes } from '../notes/notes.tsx';
import { useCurrentUser, useSession } from '../session/session.tsx';
import { Field } from '../ui/Field.tsx';
import { AvatarInput } from './AvatarInput.tsx';
import { Panel, PanelError } from './Panel.tsx';
import { SettingSwitch } from './SettingSwitch.tsx';
import { BIO_MAX_LENGTH, characterCount, clampBio } from './rules.ts';

export const PROFILE_UPDATED = 'Profile updated';

/** 'Share on the fediverse': saved at once; when on, the user's handle is shown. */
function FediverseSwitch() {
  const user = useCurrentUser();
  return (
    <SettingSwitch
      label="Share on the fediverse"
      checked={user.activityPubEnabled}
      save={setFediverseSharing}
      saved={PROFILE_UPDATED}
      failure="Failed to update profile"
      className="fediverse"
      hint={(hintId) => (
        <div id={hintId} className="fediverse__detail">
          {user.activityPubEnabled && user.activityPubHandle ? (
            <p className="fediverse__text">
              People on Mastodon and other fediverse servers can follow you as{' '}
              <strong className="fediverse__handle">{user.activityPubHandle}</strong>. Your new
              entries reach your followers only.
            </p>
          ) : (
            <p className="fediverse__text">
              Off: your vault is invisible outside this server. Turn it on to let people on Mastodon
              and other fediverse servers follow you.
            </p>
          )}
        </div>
      )}
    />
  );
}

/** Full name, email, avatar and bio, saved together; the fediverse switch saves at once. */
export function PersonalDetails() {
  const user = useCurrentUser();
  const { setUser } = useSession();
  const { notifySuccess } = useNotes();
  const [fullName, setFullName] = useState(user.fullName);
  const [email, setEmail] = useState(user.email);
  const [bio, setBio] = useState(user.bio);
  const [avatar, setAvatar] = useState<File | null>(null);
  const [removeAvatar, setRemoveAvatar] = useState(false);
  const [resetKey, setResetKey] = useState(0);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const bioId = useId();
  const counterId = useId();
  const bioCount = characterCount(bio);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      const updated = await updateProfile({ fullName, email, bio, avatar, removeAvatar });
      setUser(updated);
      // Blank fields were not sent: show what is stored.
      setFullName(updated.fullName);
      setEmail(updated.email);
      setBio(updated.bio);
      setAvatar(null);
      setRemoveAvatar(false);
      setResetKey((key) => key + 1);
      notifySuccess(PROFILE_UPDATED);
    } catch (caught) {
      setError(messageOf(caught, 'Failed to update profile'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Panel title="Personal details" className="account-details">
      <form className="account-details__form" onSubmit={submit} noValidate>
        <div className="account-details__fields">
          <Field
            label="Full name"
            name="fullName"
            value={fullName}
            onChange={(event) => setFullName(event.target.value)}
            autoComplete="name"
            maxLength={100}
            hint="Left blank, your name stays as it is."
          />
          <Field
            label="Email"
            name="email"
            type="email"
            value={email}
            onChange={(event) => setEmail(event.target.value)}
            autoComplete="email"
            maxLength={254}
            hint="Left blank, your email stays as it is."
          />
          <div className="field account-details__bio">
            <label className="field__label" htmlFor={bioId}>
              Bio
            </label>
            <textarea
              id={bioId}
              name="bio"
              className="field__input field__textarea"
              value={bio}
              onChange={(event) => setBio(clampBio(event.target.value))}
              rows={4}
              aria-describedby={counterId}
              placeholder="A few words about your taste"
            />
            <p
              id={counterId}
              className={`field__hint char-counter ${bioCount >= BIO_MAX_LENGTH ? 'char-counter--full' : ''}`}
            >
              {bioCount}/{BIO_MAX_LENGTH}
              <span className="visually-hidden"> characters</span>
            </p>
          </div>
        </div>
        <div className="account-details__side">
          <AvatarInput
            user={user}
            file={avatar}
            onFileChange={setAvatar}
            removed={removeAvatar}
            onRemovedChange={setRemoveAvatar}
            resetKey={resetKey}
          />
          <FediverseSwitch />
        </div>
        <div className="account-details__footer">
          <PanelError message={error} />
          <button type="submit" className="button button--primary" disabled={busy}>
            {busy ? 'Saving…' : 'Save details'}
          </button>
        </div>
      </form>
    </Panel>
  );
}
