import { Screen } from './Screen.tsx';

export function FollowingScreen() {
  return <Screen title="Following" />;
}
