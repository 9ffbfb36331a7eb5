// The cellar in the statistics: bottles opened per month, the cellar's size at each month's end,
// and what the bottles in it cost per type (GET /stats's `cellar`).
import { useId } from 'react';
import type { CellarStats, TypeValue } from './api.ts';
import { Chart, type ChartData } from './charts.tsx';
import { monthLong, monthShort, typeLabel } from './format.ts';

function perMonth(months: CellarStats['opened'], label: string): ChartData {
  return {
    categories: months.map((m) => monthShort(m.month)),
    names: months.map((m) => monthLong(m.month)),
    series: [{ label, tone: 'single', values: months.map((m) => m.bottles) }],
  };
}

/** '€1,234.50' in the currency's own way; the code itself when the browser does not know it. */
function amountOf({ amount, currency }: Pick<TypeValue, 'amount' | 'currency'>): string {
  try {
    return new Intl.NumberFormat('en-GB', { style: 'currency', currency }).format(amount);
  } catch {
    return `${amount.toFixed(2)} ${currency}`;
  }
}

function ValueByType({ values }: { values: TypeValue[] }) {
  const titleId = useId();
  return (
    <figure className="panel chart" aria-labelledby={titleId}>
      <div className="chart__header">
        <h2 id={titleId} className="panel__title chart__title">
          Cellar value by type
        </h2>
      </div>
      {values.length === 0 ? (
        <p className="chart__empty">No bottle in the cellar has a price.</p>
      ) : (
        <div className="chart__table-wrap">
          <table className="chart__table">
            <caption>What the bottles in the cellar cost, per type and currency</caption>
            <thead>
              <tr>
                <th scope="col">Type</th>
                <th scope="col">Currency</th>
                <th scope="col">Value</th>
              </tr>
            </thead>
            <tbody>
              {values.map((value) => (
                <tr key={`${value.type} ${value.currency}`}>
                  <th scope="row">{typeLabel(value.type)}</th>
                  <td>{value.currency}</td>
                  <td>{amountOf(value)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </figure>
  );
}

/** The cellar's charts, beside the entries' ones. */
export function CellarCharts({ cellar }: { cellar: CellarStats }) {
  return (
    <>
      <Chart
        title="Bottles opened in the last 12 months"
        kind="columns"
        data={perMonth(cellar.opened, 'Bottles opened')}
        categoryHeading="Month"
        empty="No bottle opened in the last 12 months."
      />
      <Chart
        title="Bottles in the cellar at each month's end"
        kind="columns"
        data={perMonth(cellar.size, 'Bottles')}
        categoryHeading="Month"
        empty="No bottles in the cellar in the last 12 months."
      />
      <ValueByType values={cellar.valueByType} />
    </>
  );
}
