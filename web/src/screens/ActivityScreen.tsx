import { Screen } from './Screen.tsx';

export function ActivityScreen() {
  return <Screen title="Activity" />;
}
