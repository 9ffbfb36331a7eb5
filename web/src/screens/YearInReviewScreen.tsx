import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { Link } from 'wouter';
import { ArrowLeftIcon, ArrowRightIcon } from '../ui/icons/features.tsx';
import {
  browserTimeZone,
  fetchYearReview,
  statsKeys,
  type ReviewEntry,
  type YearReview,
} from '../stats/api.ts';
import { MonthsChart, TopCharts } from '../stats/entry-charts.tsx';
import { dayOf, ratingLabel, TYPES, typeLabel } from '../stats/format.ts';
import { Counted, Figures } from '../stats/parts.tsx';
import '../stats/stats.css';
import './archive.css';
import { Screen } from './Screen.tsx';

function describe(entry: ReviewEntry): string {
  return [typeLabel(entry.type), entry.subtype, entry.makerName].filter(Boolean).join(' · ');
}

function Moment({
  title,
  entry,
  timeZone,
}: {
  title: string;
  entry: ReviewEntry;
  timeZone: string;
}) {
  return (
    <div className="stats-moment">
      <dt>{title}</dt>
      <dd>
        <span className="stats-moment__name">{entry.name}</span>
        <span className="stats-moment__meta">
          {describe(entry)}, {dayOf(entry.createdAt, timeZone)}
        </span>
      </dd>
    </div>
  );
}

function ReviewBody({ review }: { review: YearReview }) {
  const { year, all } = review;
  if (all.total === 0) {
    return <p className="empty-state">Nothing was logged in {year}.</p>;
  }
  return (
    <div className="stats">
      <Figures summary={all} label={`Figures for ${year}`} />
      <p className="stats-types">
        {TYPES.map((type) => `${typeLabel(type)} ${review.types[type].total}`).join(' · ')}
      </p>
      <div className="stats__charts">
        <section className="panel stats-favourites" aria-labelledby="stats-favourites-title">
          <h2 id="stats-favourites-title" className="panel__title">
            Favourites
          </h2>
          {review.favourites.length === 0 ? (
            <p className="chart__empty">Nothing tried in {year}.</p>
          ) : (
            <ol className="stats-favourites__list">
              {review.favourites.map((entry) => (
                <li key={entry.id}>
                  <span className="stats-moment__name">{entry.name}</span>
                  <span className="stats-moment__meta">
                    {describe(entry)} · {ratingLabel(entry.rating)}
                  </span>
                </li>
              ))}
            </ol>
          )}
        </section>
        {review.first && review.last && (
          <section className="panel" aria-labelledby="stats-moments-title">
            <h2 id="stats-moments-title" className="panel__title">
              First and last of the year
            </h2>
            <dl className="stats-moments">
              <Moment title="First entry" entry={review.first} timeZone={review.timeZone} />
              <Moment title="Last entry" entry={review.last} timeZone={review.timeZone} />
            </dl>
          </section>
        )}
        <MonthsChart
          title="Month by month"
          months={review.months}
          longNames={false}
          empty={`Nothing logged in ${year}.`}
        />
        <TopCharts summary={all} noSubtype="No entries." noMaker="No maker named." />
      </div>
    </div>
  );
}

function YearLinks({ year, years }: { year: number; years: number[] }) {
  const newer = years.filter((y) => y > year).at(-1);
  const older = years.find((y) => y < year);
  return (
    <div className="screen__links">
      <Link href="/stats" className="back-link">
        <ArrowLeftIcon />
        Back to stats
      </Link>
      <span className="stats-year-links">
        {older !== undefined && (
          <Link href={`/stats/${older}`} className="back-link">
            <ArrowLeftIcon />
            {older}
          </Link>
        )}
        {newer !== undefined && (
          <Link href={`/stats/${newer}`} className="back-link back-link--next">
            {newer}
            <ArrowRightIcon />
          </Link>
        )}
      </span>
    </div>
  );
}

/** /stats/{year}: a year in review, for the current year (so far) or any year before it. */
export function YearInReviewScreen({ year }: { year: string }) {
  const timeZone = useMemo(browserTimeZone, []);
  const query = useQuery({
    queryKey: statsKeys.year(year, timeZone),
    queryFn: ({ signal }) => fetchYearReview(year, timeZone, signal),
  });
  const links = query.data ? (
    <YearLinks year={query.data.year} years={query.data.years} />
  ) : (
    <div className="screen__links">
      <Link href="/stats" className="back-link">
        <ArrowLeftIcon />
        Back to stats
      </Link>
    </div>
  );
  return (
    <Screen title={`${year} in review`} before={links}>
      <Counted query={query}>{(review) => <ReviewBody review={review} />}</Counted>
    </Screen>
  );
}
