import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { Link } from 'wouter';
import { browserTimeZone, fetchStats, statsKeys, type Stats } from '../stats/api.ts';
import { CellarCharts } from '../stats/cellar.tsx';
import { MonthsChart, RatingsChart, TopCharts, TriedByTypeChart } from '../stats/entry-charts.tsx';
import { Counted, Figures, TypeFilter, type TypeChoice } from '../stats/parts.tsx';
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
        <MonthsChart
          title="Entries logged in the last 12 months"
          months={stats.months}
          type={type}
          empty="Nothing logged in the last 12 months."
        />
        <TriedByTypeChart types={stats.types} />
        <RatingsChart summary={summary} />
        <TopCharts summary={summary} noSubtype="No entries yet." noMaker="No maker named yet." />
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
      <Counted query={query}>{(stats) => <StatsBody stats={stats} />}</Counted>
    </Screen>
  );
}
