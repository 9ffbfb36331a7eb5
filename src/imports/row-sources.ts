import { CSV_FORMATS } from './formats/index.ts';
import { vaultRows } from './formats/vault.ts';
import { groupRows } from './grouped-rows.ts';
import type { MapResult } from './rows.ts';
import type { JobState } from './store.ts';
import type { VaultZip } from './zip-source.ts';

// The ZIP and CSV readers (yauzl, csv-parse) load with the first import that needs them.
const zipSource = () => import('./zip-source.ts');
const csvSource = () => import('./csv-source.ts');

/** The rows of a job's file from the `processed`-th, mapped; the ZIP to read photos from. */
export interface JobRows {
  rows: AsyncIterable<MapResult>;
  zip: VaultZip | null;
}

async function* from(rows: readonly MapResult[], start: number): AsyncGenerator<MapResult> {
  for (let i = start; i < rows.length; i++) yield rows[i]!;
}

/**
 * Opens the rows of a job's file: the vault's own ZIP (entries.json with cellar.json and
 * tastings.json), Vivino's data download (a ZIP of CSV files), or a CSV file. A CSV format that
 * groups rows (CellarTracker's Inventory: a row per bottle) is read whole first, so that the
 * first row of each wine carries all its bottles; other CSV files are read as a stream.
 */
export async function openRows(file: string, job: JobState): Promise<JobRows> {
  if (job.source.endsWith('.zip')) {
    const { openVaultZip } = await zipSource();
    const zip = await openVaultZip(file);
    try {
      if (job.format === 'vivino') {
        const { vivinoZipRows } = await import('./vivino-zip.ts');
        return { zip, rows: from(await vivinoZipRows(zip), job.processed) };
      }
      const { readVaultFiles } = await import('./vault-zip.ts');
      const { data, cellar, tastings } = await readVaultFiles(zip);
      return { zip, rows: from(vaultRows(data.entries, cellar, tastings), job.processed) };
    } catch (error) {
      zip.zip.close();
      throw error;
    }
  }
  const format = CSV_FORMATS.find((f) => f.id === job.format)!;
  const { csvRecords } = await csvSource();
  if (format.groupKey) {
    const all: { key: string | null; result: MapResult }[] = [];
    for await (const record of csvRecords(file, job.csv!, 0)) {
      all.push({ key: format.groupKey(record), result: format.map(record) });
    }
    return { zip: null, rows: from(groupRows(all), job.processed) };
  }
  const records = csvRecords(file, job.csv!, job.processed);
  return {
    zip: null,
    rows: (async function* () {
      for await (const record of records) yield format.map(record);
    })(),
  };
}
