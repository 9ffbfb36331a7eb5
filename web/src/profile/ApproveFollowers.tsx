import { useQueryClient } from '@tanstack/react-query';
import { setApproveFollowers } from '../api/privacy.ts';
import { queryKeys } from '../api/query-keys.ts';
import { useCurrentUser } from '../session/session.tsx';
import { SettingSwitch } from './SettingSwitch.tsx';

export const APPROVE_FOLLOWERS_SAVED = 'Follower approval saved';

/**
 * 'Approve followers' in the Privacy panel, saved at once. On: a follow (from this vault or
 * the fediverse) waits in Alerts until accepted. Turning it off accepts every request that
 * waits, so the followers list and the alerts are read again.
 */
export function ApproveFollowers() {
  const user = useCurrentUser();
  const queryClient = useQueryClient();
  return (
    <SettingSwitch
      label="Approve followers"
      checked={user.approveFollowers}
      save={setApproveFollowers}
      saved={APPROVE_FOLLOWERS_SAVED}
      failure="The setting could not be saved"
      afterSave={() => {
        void queryClient.invalidateQueries({ queryKey: queryKeys.followers });
        void queryClient.invalidateQueries({ queryKey: queryKeys.notifications });
      }}
      hint={(hintId) => (
        <p id={hintId} className="field__hint">
          {user.approveFollowers
            ? 'Someone who follows you waits in Alerts until you accept, and sees your followers-only entries only then.'
            : 'Anyone can follow you at once. Turning this off accepts the requests that wait.'}
        </p>
      )}
    />
  );
}
