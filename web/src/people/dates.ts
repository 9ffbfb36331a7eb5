/** Dates of the people screens, in the reader's locale. No DOM or React here. */

const dateOnly = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

function format(formatter: Intl.DateTimeFormat, iso: string | null | undefined): string {
  if (!iso) return '';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : formatter.format(date);
}

/** A stored date for people: 'Mar 3, 2025'; '' when missing or invalid. */
export const formatDate = (iso: string | null | undefined) => format(dateOnly, iso);
/** A stored instant for people: 'Mar 3, 2025, 14:05'; '' when missing or invalid. */
export const formatDateTime = (iso: string | null | undefined) => format(dateTime, iso);
