import type { CsvRecord, MapResult } from '../rows.ts';

/** A CSV layout the importer knows: recognized by its columns, mapped row by row. */
export interface CsvFormat {
  id: 'untappd' | 'vivino' | 'cellartracker' | 'generic';
  /** Columns (in lower case) that must all be in the header row. */
  required: readonly string[];
  map(record: CsvRecord): MapResult;
  /**
   * Rows with the same key are one entry (CellarTracker lists a wine once per bottle): the first
   * row's entry takes the bottles of all of them. Null: a row of its own.
   */
  groupKey?(record: CsvRecord): string | null;
}
