/** The days of tastings and purchases, 'YYYY-MM-DD', as the forms and lists use them. */

/** Today on the device, 'YYYY-MM-DD' (the day the user sees on their calendar). */
export function today(now = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** '12 March 2026' in the reader's language, from 'YYYY-MM-DD' (the day as written). */
export function dayLabel(day: string): string {
  const date = new Date(`${day}T12:00:00Z`);
  if (Number.isNaN(date.getTime())) return day;
  return date.toLocaleDateString(undefined, { dateStyle: 'long', timeZone: 'UTC' });
}
