// The entry API under load (issue 3's targets): lists, searches and logging entries one
// request at a time, logging with 8 clients, and 12-megapixel photos with the server's memory.
import { performance } from 'node:perf_hooks';
import sharp from 'sharp';
import { multipart, time, type Client } from './http.ts';
import type { Running } from './processes.ts';
import { ENTRIES, NAMES, rng } from './seed.ts';
import type { Verdict } from './verdict.ts';

export async function benchEntries(vault: Running, client: Client): Promise<Verdict[]> {
  console.log('\nThe entry API:');
  async function get(query: string) {
    const res = await client.send('GET', `/api/beverages${query}`);
    if (res.status !== 200) throw new Error(`GET ${query}: ${res.status}`);
    return JSON.parse(res.body.toString()) as { beverages: unknown[]; nextCursor: string | null };
  }

  const firstPage = await get('?type=WHISKEY&status=TRIED');
  console.log(
    `one type and status: a page of ${firstPage.beverages.length} (of about ${Math.round((ENTRIES * 0.7) / 3)})`,
  );

  const list = await time('GET ?type=WHISKEY&status=TRIED (first page of 100)', 500, () =>
    get('?type=WHISKEY&status=TRIED'),
  );
  let cursor = firstPage.nextCursor;
  for (let i = 0; i < 19 && cursor; i++)
    cursor = (await get(`?type=WHISKEY&status=TRIED&cursor=${cursor}`)).nextCursor;
  const deepPage = await time('GET ?type=WHISKEY&status=TRIED&cursor (21st page)', 300, () =>
    get(`?type=WHISKEY&status=TRIED&cursor=${cursor}`),
  );
  const dash = await time('GET ?type=WINE&status=TO_TRY&limit=4 (a dashboard list)', 500, () =>
    get('?type=WINE&status=TO_TRY&limit=4'),
  );
  const search = await time('GET ?q=<name and number> (few matches)', 500, (i) =>
    get(`?q=${encodeURIComponent(`${NAMES[i % NAMES.length]} ${i % 1000}`)}`),
  );
  const searchWide = await time('GET ?q=smoke%20peat (thousands match)', 300, () =>
    get('?q=smoke%20peat'),
  );
  const searchShort = await time('GET ?q=ok (two letters: LIKE fallback)', 300, () => get('?q=ok'));

  const ENTRY_FIELDS = {
    name: 'Bench pour',
    type: 'BEER',
    subtype: 'IPA',
    rating: '4',
    status: 'TRIED',
    inCellar: 'false',
    notes: 'hazy, juicy',
  };
  const plainEntry = multipart(ENTRY_FIELDS);
  async function post(body: { type: string; data: Buffer }) {
    const res = await client.send('POST', '/api/beverages', body);
    if (res.status !== 201) throw new Error(`POST: ${res.status} ${res.body.toString()}`);
  }
  await time('POST /api/beverages (no photo), one at a time', 1000, () => post(plainEntry));

  /** Throughput with several clients at once, as a server sees real traffic. */
  async function throughput(
    label: string,
    total: number,
    clients: number,
    fn: (i: number) => Promise<unknown>,
  ) {
    let next = 0;
    const start = performance.now();
    await Promise.all(
      Array.from({ length: clients }, async () => {
        while (next < total) await fn(next++);
      }),
    );
    const perSecond = (total / (performance.now() - start)) * 1000;
    console.log(
      `${label.padEnd(58)} n=${String(total).padStart(5)}  ${perSecond.toFixed(0).padStart(6)}/s`,
    );
    return { perSecond };
  }
  const create = await throughput(
    'POST /api/beverages (no photo), 8 clients at once',
    5000,
    8,
    () => post(plainEntry),
  );

  // A 12-megapixel JPEG (4000 × 3000) with camera-like noise, so it compresses like a photo.
  const width = 4000;
  const height = 3000;
  const raw = Buffer.alloc(width * height * 3);
  for (let i = 0; i < raw.length; i++) raw[i] = (i % 251) ^ Math.floor(rng() * 64);
  const photo = await sharp(raw, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 90 })
    .toBuffer();
  console.log(`12 MP JPEG: ${(photo.length / 1024 / 1024).toFixed(1)} MB`);

  const rss = () => vault.rssMb();
  const photoEntry = multipart(ENTRY_FIELDS, { name: 'photo', data: photo });
  await post(photoEntry); // the first photo loads sharp's code: not growth
  const rssBefore = rss();
  let rssPeak = rssBefore;
  const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, rss())), 5);
  const withPhoto = await time('POST /api/beverages (12 MP JPEG photo)', 40, () =>
    post(photoEntry),
  );
  clearInterval(sampler);
  const rssAfter = rss();
  console.log(
    `server resident memory: ${rssBefore.toFixed(0)} MB before the photos, peak ${rssPeak.toFixed(0)} MB (+${(rssPeak - rssBefore).toFixed(0)} MB), ${rssAfter.toFixed(0)} MB after`,
  );

  const worstList = Math.max(list.p99, deepPage.p99, dash.p99);
  const worstSearch = Math.max(search.p99, searchWide.p99, searchShort.p99);
  return [
    {
      target: 'list p99 < 20 ms (one at a time)',
      figure: `${worstList.toFixed(2)} ms worst`,
      met: worstList < 20,
    },
    {
      target: 'search p99 < 20 ms (one at a time)',
      figure: `${worstSearch.toFixed(2)} ms worst`,
      met: worstSearch < 20,
    },
    {
      target: 'create without photo > 1000/s',
      figure: `${create.perSecond.toFixed(0)}/s`,
      met: create.perSecond > 1000,
    },
    {
      target: 'photo median < 400 ms',
      figure: `${withPhoto.p50.toFixed(0)} ms`,
      met: withPhoto.p50 < 400,
    },
    {
      target: 'RSS growth over 40 photos < 150 MB',
      figure: `+${(rssPeak - rssBefore).toFixed(0)} MB at peak`,
      met: rssPeak - rssBefore < 150,
    },
  ];
}
