import type { Beverage } from '../api/types.ts';
import { TypeIcon } from './TypeIcon.tsx';
import { useVault } from './VaultProvider.tsx';
import './entry-card.css';

/** An entry card's thumbnail: its photo (a button that opens it full size) or its type's icon. */
export function EntryThumb({ entry }: { entry: Beverage }) {
  const { openPhoto } = useVault();
  if (!entry.photoPath) {
    return (
      <span
        className={`entry-card__thumb entry-card__thumb--empty type-${entry.type.toLowerCase()}`}
      >
        <TypeIcon type={entry.type} />
      </span>
    );
  }
  return (
    <button
      type="button"
      className="entry-card__thumb"
      onClick={() => openPhoto(entry)}
      aria-label={`View photo of ${entry.name}`}
    >
      <img src={`/${entry.photoPath}`} alt="" loading="lazy" decoding="async" />
    </button>
  );
}
