import { Link } from 'wouter';
import { useCellarSummary } from './useCellar.ts';
import { PAST_WINDOW_HREF } from './view-state.ts';
import './past-window.css';

/** On the dashboard: '3 bottles past their window', leading to them, only when there are some. */
export function PastWindowNotice() {
  const past = useCellarSummary().data?.windows.PAST ?? 0;
  if (past === 0) return null;
  return (
    <p className="past-window">
      <Link href={PAST_WINDOW_HREF} className="past-window__link">
        {past === 1 ? '1 bottle past its window' : `${past} bottles past their window`}
      </Link>
    </p>
  );
}
