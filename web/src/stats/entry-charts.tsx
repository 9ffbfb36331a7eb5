// The entries' charts in the statistics (GET /stats and GET /stats/years/{year}): entries per
// month, tried and to try by type, ratings, and the top subtypes and makers. The cellar's are in
// cellar.tsx.
import type { BeverageType } from '../api/types.ts';
import type { MonthCount, Ranked, StatsSummary } from './api.ts';
import { Chart, type ChartData, type Series } from './charts.tsx';
import { TYPES, monthLong, monthShort, ratingLabel, typeLabel } from './format.ts';
import type { TypeChoice } from './parts.tsx';

const TONE = { WHISKEY: 'whiskey', WINE: 'wine', BEER: 'beer' } as const;

/** Entries per month, one series per type shown. */
function monthsChart(months: MonthCount[], type: TypeChoice, longNames: boolean): ChartData {
  const shown = type === 'ALL' ? TYPES : [type];
  const series: Series[] = shown.map((t) => ({
    label: typeLabel(t),
    tone: TONE[t],
    values: months.map((m) => m.counts[t]),
  }));
  return {
    categories: months.map((m) => monthShort(m.month)),
    names: months.map((m) => (longNames ? monthLong(m.month) : monthShort(m.month))),
    series,
  };
}

function rankedChart(ranked: Ranked[]): ChartData {
  return {
    categories: ranked.map((r) => r.name),
    series: [{ label: 'Entries', tone: 'single', values: ranked.map((r) => r.count) }],
  };
}

/**
 * Entries per month, one column per month, one colour per type shown (every type unless `type`
 * names one). Months are named in full ('August 2025') in the table unless `longNames` is false.
 */
export function MonthsChart({
  title,
  months,
  type = 'ALL',
  longNames = true,
  empty,
}: {
  title: string;
  months: MonthCount[];
  type?: TypeChoice;
  longNames?: boolean;
  empty: string;
}) {
  return (
    <Chart
      title={title}
      kind="columns"
      data={monthsChart(months, type, longNames)}
      categoryHeading="Month"
      empty={empty}
    />
  );
}

/** Tried and to try, one bar per type. */
export function TriedByTypeChart({ types }: { types: Record<BeverageType, StatsSummary> }) {
  const data: ChartData = {
    categories: TYPES.map(typeLabel),
    series: [
      { label: 'Tried', tone: 'tried', values: TYPES.map((t) => types[t].tried) },
      { label: 'To try', tone: 'to-try', values: TYPES.map((t) => types[t].toTry) },
    ],
  };
  return (
    <Chart
      title="Tried and to try by type"
      kind="bars"
      data={data}
      categoryHeading="Type"
      empty="No entries yet."
    />
  );
}

/** How many tried entries have each rating. */
export function RatingsChart({ summary }: { summary: StatsSummary }) {
  const data: ChartData = {
    categories: summary.ratings.map((_, rating) => String(rating)),
    names: summary.ratings.map((_, rating) => ratingLabel(rating)),
    series: [{ label: 'Tried entries', tone: 'single', values: summary.ratings }],
  };
  return (
    <Chart
      title="Ratings of tried entries"
      kind="columns"
      data={data}
      categoryHeading="Rating"
      empty="Nothing tried yet."
    />
  );
}

/** The subtypes and the makers with the most entries, each with its text for none. */
export function TopCharts({
  summary,
  noSubtype,
  noMaker,
}: {
  summary: Pick<StatsSummary, 'topSubtypes' | 'topMakers'>;
  noSubtype: string;
  noMaker: string;
}) {
  const charts = [
    { title: 'Top subtypes', heading: 'Subtype', ranked: summary.topSubtypes, empty: noSubtype },
    { title: 'Top makers', heading: 'Maker', ranked: summary.topMakers, empty: noMaker },
  ];
  return charts.map(({ title, heading, ranked, empty }) => (
    <Chart
      key={title}
      title={title}
      kind="bars"
      data={rankedChart(ranked)}
      categoryHeading={heading}
      empty={empty}
    />
  ));
}
