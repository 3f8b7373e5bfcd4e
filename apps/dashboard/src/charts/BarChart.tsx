import { FiguresTable, Legend, type LegendItem } from './chart-parts.tsx';

/** One bar of a {@link BarChart}: its label and the values of its stacked parts, in the order of the chart's `series`. */
export interface Bar {
  label: string;
  values: number[];
  /** A marker drawn across the bar at this value (a limit), if any. */
  limit?: number | undefined;
}

/** A part of every bar: its name (in the legend and the table) and its CSS class (the colour). */
export type Series = LegendItem;

const WIDTH = 640;
const ROW = 22;
const LABEL = 180;
const GAP = 6;

/**
 * Horizontal stacked bars as SVG, with a legend and the same figures as a table for assistive technology and for
 * reading exact values (the picture is `aria-hidden`; the table is what a screen reader reads).
 */
export function BarChart({ id, title, bars, series, unit }: { id: string; title: string; bars: Bar[]; series: Series[]; unit: string }) {
  const max = Math.max(
    1,
    ...bars.map((bar) =>
      Math.max(
        bar.limit ?? 0,
        bar.values.reduce((sum, value) => sum + value, 0),
      ),
    ),
  );
  const scale = (WIDTH - LABEL - 40) / max;
  const height = bars.length * (ROW + GAP) + GAP;
  const hasLimit = bars.some((bar) => bar.limit !== undefined);
  return (
    <figure class="chart" aria-labelledby={`${id}-title`}>
      <figcaption id={`${id}-title`}>{title}</figcaption>
      {bars.length === 0 ? (
        <p class="muted">Nothing to show yet.</p>
      ) : (
        <>
          <svg viewBox={`0 0 ${WIDTH} ${height}`} class="chart-svg" aria-hidden="true" focusable="false">
            {bars.map((bar, row) => {
              const y = GAP + row * (ROW + GAP);
              let x = LABEL;
              const total = bar.values.reduce((sum, value) => sum + value, 0);
              return (
                <g key={bar.label}>
                  <text x={LABEL - 8} y={y + ROW * 0.7} text-anchor="end" class="chart-label">
                    {bar.label.length > 24 ? `${bar.label.slice(0, 23)}…` : bar.label}
                  </text>
                  {bar.values.map((value, part) => {
                    const width = value * scale;
                    const rect = <rect key={series[part]?.name} x={x} y={y} width={width} height={ROW} class={series[part]?.className} />;
                    x += width;
                    return rect;
                  })}
                  <text x={x + 6} y={y + ROW * 0.7} class="chart-value">
                    {total}
                  </text>
                  {bar.limit !== undefined && (
                    <line x1={LABEL + bar.limit * scale} x2={LABEL + bar.limit * scale} y1={y - 2} y2={y + ROW + 2} class="chart-limit" />
                  )}
                </g>
              );
            })}
          </svg>
          <Legend items={hasLimit ? [...series, { name: 'limit', className: 'chart-limit-swatch' }] : series} />
          <FiguresTable
            caption={title}
            columns={[unit, ...series.map((each) => each.name), ...(hasLimit ? ['limit'] : [])]}
            rows={bars.map((bar) => ({ label: bar.label, cells: [...bar.values, ...(hasLimit ? [bar.limit ?? '—'] : [])] }))}
          />
        </>
      )}
    </figure>
  );
}
