import { CloudUpIcon } from '../ui/icons.tsx';
import { WAITING_MARK } from './waiting.ts';

/** The mark of an item kept on the device until it is sent: 'Waiting to sync'. */
export function WaitingMark() {
  return (
    <span className="tag tag--waiting">
      <CloudUpIcon />
      {WAITING_MARK}
    </span>
  );
}
