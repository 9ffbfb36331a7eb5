import { Suspense, useState } from 'react';
import '../following/following.css';
import { FollowersPanel, FollowingPanel } from '../following/PeoplePanels.tsx';
import { DialogLoading, lazyNamed } from '../ui/lazy.tsx';
import { Screen } from './Screen.tsx';

// The search dialog is fetched when '+ Follow' is first pressed (or hovered).
const FollowDialog = lazyNamed(() => import('../following/FollowDialog.tsx'), 'FollowDialog');

/** /following: the people the user follows, their followers, and '+ Follow'. */
export function FollowingScreen() {
  const [searching, setSearching] = useState(false);
  return (
    <Screen title="Following">
      <div className="following">
        <div className="following__actions">
          <button
            type="button"
            className="button button--primary"
            onClick={() => setSearching(true)}
            onPointerEnter={FollowDialog.preload}
            onFocus={FollowDialog.preload}
            aria-haspopup="dialog"
          >
            + Follow
          </button>
        </div>
        <div className="following__panels">
          <FollowingPanel />
          <FollowersPanel />
        </div>
      </div>
      <Suspense fallback={<DialogLoading />}>
        {searching && <FollowDialog onClose={() => setSearching(false)} />}
      </Suspense>
    </Screen>
  );
}
