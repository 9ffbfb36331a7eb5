/** The content codings the vault sends, best first. */
export type ContentCoding = 'br' | 'gzip';

/**
 * The best coding among `available` (in the order given) that an Accept-Encoding header accepts,
 * or undefined for the body as it is. A coding is accepted when it is listed with a q-value above
 * 0, or when `*` is (q above 0) and the coding is not listed itself; `gzip;q=0` or `br;q=0`
 * refuses it. Server preference decides between accepted codings, whatever their q-values:
 * Brotli is smaller for every client that takes it.
 */
export function chooseCoding(
  header: string | undefined,
  available: readonly ContentCoding[],
): ContentCoding | undefined {
  if (!header || available.length === 0) return undefined;
  const quality = new Map<string, number>();
  for (const part of header.split(',')) {
    const [rawName, ...params] = part.split(';');
    const name = rawName!.trim().toLowerCase();
    if (!name) continue;
    let q = 1;
    for (const param of params) {
      const [key, value] = param.split('=');
      if (key?.trim().toLowerCase() === 'q') q = Number(value?.trim() ?? '');
    }
    quality.set(name === 'x-gzip' ? 'gzip' : name, Number.isFinite(q) ? q : 0);
  }
  const wildcard = quality.get('*');
  return available.find((coding) => (quality.get(coding) ?? wildcard ?? 0) > 0);
}
