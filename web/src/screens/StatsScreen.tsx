import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { Link } from 'wouter';
import { browserTimeZone, fetchStats, statsKeys, type Stats } from '../stats/api.ts';
import { CellarCharts } from '../stats/cellar.tsx';
import { Chart } from '../stats/charts.tsx';
import {
  Figures,
  LoadError,
  Loading,
  TypeFilter,
  monthsChart,
  rankedChart,
  ratingsChart,
  triedByTypeChart,
  type TypeChoice,
} from '../stats/parts.tsx';
import { typeLabel } from '../stats/format.ts';
import '../stats/stats.css';
import { Screen } from './Screen.tsx';
import { YearInReviewScreen } from './YearInReviewScreen.tsx';

function StatsBody({ stats }: { stats: Stats }) {
  const [type, setType] = useState<TypeChoice>('ALL');
  if (stats.all.total === 0) {
    return (
      <p className="empty-state">
        Nothing logged yet. Your figures appear here once you log a bottle.
      </p>
    );
  }
  const summary = type === 'ALL' ? stats.all : stats.types[type];
  const which = type === 'ALL' ? 'every entry' : typeLabel(type).toLowerCase();
  return (
    <div className="stats">
      <TypeFilter value={type} onChange={setType} />
      <Figures summary={summary} label={`Figures for ${which}`} />
      <div className="stats__charts">
        <Chart
          title="Entries logged in the last 12 months"
          kind="columns"
          data={monthsChart(stats.months, type)}
          categoryHeading="Month"
          empty="Nothing logged in the last 12 months."
        />
        <Chart
          title="Tried and to try by type"
          kind="bars"
          data={triedByTypeChart(stats.types)}
          categoryHeading="Type"
          empty="No entries yet."
        />
        <Chart
          title="Ratings of tried entries"
          kind="columns"
          data={ratingsChart(summary)}
          categoryHeading="Rating"
          empty="Nothing tried yet."
        />
        <Chart
          title="Top subtypes"
          kind="bars"
          data={rankedChart(summary.topSubtypes)}
          categoryHeading="Subtype"
          empty="No entries yet."
        />
        <Chart
          title="Top makers"
          kind="bars"
          data={rankedChart(summary.topMakers)}
          categoryHeading="Maker"
          empty="No maker named yet."
        />
        <CellarCharts cellar={stats.cellar} />
      </div>
      <nav className="panel stats-years" aria-label="Year in review">
        <h2 className="panel__title">Year in review</h2>
        <ul className="stats-years__list">
          {stats.years.map((year) => (
            <li key={year}>
              <Link href={`/stats/${year}`} className="chip-button stats-years__link">
                {year}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
    </div>
  );
}

/**
 * /stats: the user's own figures, per type, with charts and their tables; /stats/{year}: a year
 * in review (one screen module, so that the first download holds one lazy screen, not two).
 */
export function StatsScreen({ year }: { year?: string | undefined }) {
  return year === undefined ? <StatsOverview /> : <YearInReviewScreen year={year} />;
}

function StatsOverview() {
  const timeZone = useMemo(browserTimeZone, []);
  const query = useQuery({
    queryKey: statsKeys.overview(timeZone),
    queryFn: ({ signal }) => fetchStats(timeZone, signal),
  });
  return (
    <Screen title="Stats">
      {query.isPending ? (
        <Loading />
      ) : query.isError ? (
        <LoadError message={query.error.message} retry={() => void query.refetch()} />
      ) : (
        <StatsBody stats={query.data} />
      )}
    </Screen>
  );
}
