import { useState } from 'react';
import '../profile/profile.css';
import { AccessTokens } from '../profile/AccessTokens.tsx';
import { AuthenticatorApp } from '../profile/AuthenticatorApp.tsx';
import { ChangePassword } from '../profile/ChangePassword.tsx';
import { PrivacySettings } from '../profile/PrivacySettings.tsx';
import { BlockedPanel } from '../blocks/BlockedPanel.tsx';
import { ExportVault } from '../profile/ExportVault.tsx';
import { ImportEntries } from '../imports/ImportEntries.tsx';
import { PersonalDetails } from '../profile/PersonalDetails.tsx';
import { SecurityKeys } from '../profile/SecurityKeys.tsx';
import { SessionInfo } from '../profile/SessionInfo.tsx';
import { formatDate } from '../people/dates.ts';
import { ROLE_LABELS } from '../session/roles.ts';
import { useCurrentUser } from '../session/session.tsx';
import { Avatar } from '../ui/Avatar.tsx';
import { Screen } from './Screen.tsx';

/** Who is signed in, at a glance. */
function AccountSummary() {
  const user = useCurrentUser();
  return (
    <div className="account-summary">
      <Avatar user={user} size="large" />
      <div className="account-summary__text">
        <p className="account-summary__name">{user.fullName || user.username}</p>
        <p className="account-summary__meta">
          <span>@{user.username}</span>
          <span>{ROLE_LABELS[user.role]}</span>
          <span>Member since {formatDate(user.createdAt)}</span>
        </p>
      </div>
    </div>
  );
}

/** Beside the password and second-factor controls: tokens are revoked only by hand. */
export const TOKENS_STAY =
  'Changing your password or second factor does not revoke access tokens: revoke them in Access tokens below.';

/**
 * /profile: personal details, change password, session info, the second factor (security
 * keys or the authenticator app: only one at a time) and access tokens.
 */
export function ProfileScreen() {
  // Bumped when a password change has ended the other sessions.
  const [sessionsVersion, setSessionsVersion] = useState(0);
  return (
    <Screen title="Profile">
      <div className="account">
        <AccountSummary />
        <PersonalDetails />
        <div className="account__grid">
          <ChangePassword onChanged={() => setSessionsVersion((version) => version + 1)} />
          <SessionInfo version={sessionsVersion} />
        </div>
        <div className="account__section-heading">
          <h2 className="account__section-title">Second factor</h2>
          <p className="account__section-text">
            Ask for more than the password at sign-in: a security key or an authenticator app. Only
            one can be on at a time.
          </p>
          <p className="account__section-text">{TOKENS_STAY}</p>
        </div>
        <div className="account__grid">
          <SecurityKeys />
          <AuthenticatorApp />
        </div>
        <AccessTokens />
        <PrivacySettings />
        <BlockedPanel />
        <ExportVault />
        <ImportEntries />
      </div>
    </Screen>
  );
}
