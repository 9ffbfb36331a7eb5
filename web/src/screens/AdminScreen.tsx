import { Screen } from './Screen.tsx';

export function AdminScreen() {
  return <Screen title="Admin Console" />;
}
