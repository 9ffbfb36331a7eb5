import { useState } from 'react';
import type { Beverage } from '../api/types.ts';
import { BEVERAGE_KINDS } from '../beverages.ts';
import { Dialog } from '../ui/Dialog.tsx';
import './entry-dialogs.css';

/** The full-size photo of an entry. Escape, × or a click beside it closes it. */
export function PhotoPreviewDialog({ entry, onClose }: { entry: Beverage; onClose: () => void }) {
  const [failed, setFailed] = useState(false);
  const kind = BEVERAGE_KINDS[entry.type];
  return (
    <Dialog
      title={entry.name}
      description={[kind.label, entry.subtype, entry.makerName].filter(Boolean).join(' · ')}
      onClose={onClose}
      size="large"
    >
      <figure className="photo-preview">
        {failed ? (
          <p role="alert" className="form-error">
            The photo could not be loaded.
          </p>
        ) : (
          <img
            className="photo-preview__image"
            src={`/${entry.photoPath}`}
            alt={`Photo of ${entry.name}`}
            onError={() => setFailed(true)}
          />
        )}
      </figure>
    </Dialog>
  );
}
