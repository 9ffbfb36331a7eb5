/**
 * The statistics' charts: plain SVG, no library. Each chart is a figure named by its heading;
 * the SVG is one image (role="img") whose label reads out every figure, and 'Show as table'
 * swaps it for a table with a caption holding the same numbers.
 */
import { useId, useState } from 'react';

/** One coloured part of every bar (a type, or tried / to try). */
export interface Series {
  label: string;
  /** chart__seg--whiskey, --wine, --beer, --tried, --to-try or --single (stats.css). */
  tone: 'whiskey' | 'wine' | 'beer' | 'tried' | 'to-try' | 'single';
  /** One value per category. */
  values: number[];
}

export interface ChartData {
  /** What the axis shows ('Aug'). */
  categories: string[];
  /** The full names, for the table and the spoken label ('August 2025'); categories if absent. */
  names?: string[];
  series: Series[];
}

interface ChartProps {
  title: string;
  kind: 'columns' | 'bars';
  data: ChartData;
  /** The table's first column heading ('Month', 'Rating', 'Maker'). */
  categoryHeading: string;
  /** Shown instead of the chart when every value is 0. */
  empty: string;
}

const W = 320;

const totalsOf = (data: ChartData) =>
  data.categories.map((_, i) => data.series.reduce((sum, s) => sum + (s.values[i] ?? 0), 0));

/** A round top for the value axis: 1, 2, 5, 10, 20, 50 … at least `max`. */
function niceMax(max: number): number {
  if (max <= 1) return 1;
  const step = 10 ** Math.floor(Math.log10(max));
  for (const m of [1, 2, 5, 10]) if (m * step >= max) return m * step;
  return 10 * step;
}

function spoken(title: string, data: ChartData, totals: number[]): string {
  const names = data.names ?? data.categories;
  const parts = names.map((name, i) => {
    if (data.series.length === 1) return `${name}: ${totals[i]}`;
    const split = data.series.map((s) => `${s.label} ${s.values[i] ?? 0}`).join(', ');
    return `${name}: ${totals[i]} (${split})`;
  });
  return `${title}. ${parts.join('; ')}.`;
}

const clip = (text: string, max: number) =>
  text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text;

function Columns({ data, totals, label }: { data: ChartData; totals: number[]; label: string }) {
  const H = 190;
  const left = 30;
  const top = 14;
  const bottom = 22;
  const plotH = H - top - bottom;
  const max = niceMax(Math.max(...totals));
  const band = (W - left - 4) / data.categories.length;
  const barW = Math.max(4, Math.min(36, band * 0.68));
  const y = (v: number) => top + plotH - (v / max) * plotH;
  const names = data.names ?? data.categories;
  return (
    <svg className="chart__svg" viewBox={`0 0 ${W} ${H}`} role="img" aria-label={label}>
      {[0, max / 2, max].map((tick) => (
        <g key={tick} className="chart__grid">
          <line x1={left} x2={W} y1={y(tick)} y2={y(tick)} />
          <text x={left - 6} y={y(tick) + 3.5} textAnchor="end">
            {Number.isInteger(tick) ? tick : ''}
          </text>
        </g>
      ))}
      {data.categories.map((category, i) => {
        const x = left + band * i + (band - barW) / 2;
        let base = 0;
        return (
          <g key={category + i}>
            <title>{`${names[i]}: ${totals[i]}`}</title>
            {data.series.map((s) => {
              const v = s.values[i] ?? 0;
              if (v === 0) return null;
              const rect = (
                <rect
                  key={s.label}
                  className={`chart__seg chart__seg--${s.tone}`}
                  x={x}
                  y={y(base + v)}
                  width={barW}
                  height={y(base) - y(base + v)}
                />
              );
              base += v;
              return rect;
            })}
            {totals[i]! > 0 && (
              <text
                className="chart__value"
                x={x + barW / 2}
                y={y(totals[i]!) - 3}
                textAnchor="middle"
              >
                {totals[i]}
              </text>
            )}
            <text className="chart__axis" x={x + barW / 2} y={H - 6} textAnchor="middle">
              {category}
            </text>
          </g>
        );
      })}
    </svg>
  );
}

function Bars({ data, totals, label }: { data: ChartData; totals: number[]; label: string }) {
  const row = 34;
  const H = row * data.categories.length + 4;
  const valueSpace = 44;
  const max = Math.max(1, ...totals);
  const width = (v: number) => (v / max) * (W - valueSpace);
  return (
    <svg className="chart__svg" viewBox={`0 0 ${W} ${H}`} role="img" aria-label={label}>
      {data.categories.map((category, i) => {
        const top = row * i;
        let base = 0;
        return (
          <g key={category + i}>
            <title>{`${(data.names ?? data.categories)[i]}: ${totals[i]}`}</title>
            <text className="chart__label" x={0} y={top + 13}>
              {clip(category, 44)}
            </text>
            <rect
              className="chart__track"
              x={0}
              y={top + 18}
              width={W - valueSpace}
              height={10}
              rx={3}
            />
            {data.series.map((s) => {
              const v = s.values[i] ?? 0;
              if (v === 0) return null;
              const rect = (
                <rect
                  key={s.label}
                  className={`chart__seg chart__seg--${s.tone}`}
                  x={width(base)}
                  y={top + 18}
                  width={width(v)}
                  height={10}
                />
              );
              base += v;
              return rect;
            })}
            <text className="chart__value" x={width(totals[i]!) + 6} y={top + 27}>
              {totals[i]}
            </text>
          </g>
        );
      })}
    </svg>
  );
}

function Legend({ series }: { series: Series[] }) {
  if (series.length < 2) return null;
  return (
    <ul className="chart__legend">
      {series.map((s) => (
        <li key={s.label}>
          <span className={`chart__swatch chart__swatch--${s.tone}`} aria-hidden="true" />
          {s.label}
        </li>
      ))}
    </ul>
  );
}

function ChartTable({
  id,
  caption,
  data,
  totals,
  categoryHeading,
  hidden,
}: {
  id: string;
  caption: string;
  data: ChartData;
  totals: number[];
  categoryHeading: string;
  hidden: boolean;
}) {
  const several = data.series.length > 1;
  return (
    <div className="chart__table-wrap" id={id} hidden={hidden}>
      <table className="chart__table">
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{categoryHeading}</th>
            {several &&
              data.series.map((s) => (
                <th key={s.label} scope="col">
                  {s.label}
                </th>
              ))}
            <th scope="col">{several ? 'Total' : data.series[0]?.label}</th>
          </tr>
        </thead>
        <tbody>
          {(data.names ?? data.categories).map((name, i) => (
            <tr key={name + i}>
              <th scope="row">{name}</th>
              {several && data.series.map((s) => <td key={s.label}>{s.values[i] ?? 0}</td>)}
              <td>{totals[i]}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** A chart with its heading, its legend and its table alternative. */
export function Chart({ title, kind, data, categoryHeading, empty }: ChartProps) {
  const [asTable, setAsTable] = useState(false);
  const titleId = useId();
  const tableId = useId();
  const totals = totalsOf(data);
  const nothing = totals.every((t) => t === 0);
  const label = spoken(title, data, totals);
  return (
    <figure className="panel chart" aria-labelledby={titleId}>
      <div className="chart__header">
        <h2 id={titleId} className="panel__title chart__title">
          {title}
        </h2>
        {!nothing && (
          <button
            type="button"
            className="chip-button chart__toggle"
            aria-expanded={asTable}
            aria-controls={tableId}
            onClick={() => setAsTable((shown) => !shown)}
          >
            {asTable ? 'Show as chart' : 'Show as table'}
          </button>
        )}
      </div>
      {nothing ? (
        <p className="chart__empty">{empty}</p>
      ) : (
        <>
          {!asTable && (
            <>
              {kind === 'columns' ? (
                <Columns data={data} totals={totals} label={label} />
              ) : (
                <Bars data={data} totals={totals} label={label} />
              )}
              <Legend series={data.series} />
            </>
          )}
          <ChartTable
            id={tableId}
            caption={title}
            data={data}
            totals={totals}
            categoryHeading={categoryHeading}
            hidden={!asTable}
          />
        </>
      )}
    </figure>
  );
}
