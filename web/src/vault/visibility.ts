import type { Visibility } from '../../../contract/enums.ts';
import { VISIBILITIES } from '../../../contract/enums.ts';

export { VISIBILITIES };
export type { Visibility };

/** Who sees an entry, in the words of the forms. */
export const VISIBILITY_LABELS: Record<Visibility, string> = {
  PRIVATE: 'Only me',
  FOLLOWERS: 'My followers',
  MEMBERS: 'Everyone on this vault',
};

/** The line under the choice: what it means. */
export const VISIBILITY_HINTS: Record<Visibility, string> = {
  PRIVATE: 'Only you (and people you share it with) can see it. It never leaves this vault.',
  FOLLOWERS: 'People on this vault who follow you can see it, and those you share it with.',
  MEMBERS: 'Everyone signed in to this vault can see it.',
};

/** An entry's setting as a form edits it. */
export interface VisibilitySetting {
  visibility: Visibility;
  federated: boolean;
}

/**
 * Adds the setting to an entry's form data where it differs from `base` (the user's default for
 * a new entry, the entry's own setting when editing): left out, the server applies the default
 * or keeps what the entry has. `federated` only when the form offered the choice (never for
 * 'Only me').
 */
export function withVisibility(
  form: FormData,
  setting: VisibilitySetting,
  base: VisibilitySetting,
  offersFediverse: boolean,
): FormData {
  if (setting.visibility !== base.visibility) form.set('visibility', setting.visibility);
  if (offersFediverse && setting.visibility !== 'PRIVATE' && setting.federated !== base.federated) {
    form.set('federated', String(setting.federated));
  }
  return form;
}
