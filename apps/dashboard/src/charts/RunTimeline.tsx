import { FiguresTable, Legend } from './chart-parts.tsx';

/** One day of the timeline: its date (`YYYY-MM-DD`, the reader's time zone) and its finished runs. */
export interface TimelineDay {
  day: string;
  succeeded: number;
  failed: number;
}

const WIDTH = 640;
const HEIGHT = 160;
const BOTTOM = 24;

/**
 * An account's update runs per day over the last days as stacked columns (succeeded below, failed above), with the same
 * figures as a table (the picture is `aria-hidden`).
 */
export function RunTimeline({ id, days }: { id: string; days: TimelineDay[] }) {
  const max = Math.max(1, ...days.map((day) => day.succeeded + day.failed));
  const column = WIDTH / Math.max(1, days.length);
  const scale = (HEIGHT - BOTTOM - 16) / max;
  const total = days.reduce((sum, day) => sum + day.succeeded + day.failed, 0);
  return (
    <figure class="chart" aria-labelledby={`${id}-title`}>
      <figcaption id={`${id}-title`}>
        Update runs of the last {days.length} days: succeeded and failed ({total} in all)
      </figcaption>
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} class="chart-svg" aria-hidden="true" focusable="false">
        <line x1={0} x2={WIDTH} y1={HEIGHT - BOTTOM} y2={HEIGHT - BOTTOM} class="chart-axis" />
        {days.map((day, index) => {
          const x = index * column + column * 0.15;
          const width = column * 0.7;
          const ok = day.succeeded * scale;
          const bad = day.failed * scale;
          return (
            <g key={day.day}>
              <rect x={x} y={HEIGHT - BOTTOM - ok} width={width} height={ok} class="series-ok" />
              <rect x={x} y={HEIGHT - BOTTOM - ok - bad} width={width} height={bad} class="series-failed" />
              {index % 7 === 0 && (
                <text x={x} y={HEIGHT - 6} class="chart-label">
                  {day.day.slice(5)}
                </text>
              )}
            </g>
          );
        })}
      </svg>
      <Legend
        items={[
          { name: 'succeeded', className: 'series-ok' },
          { name: 'failed', className: 'series-failed' },
        ]}
      />
      <FiguresTable
        caption="Update runs per day"
        columns={['Day', 'Succeeded', 'Failed']}
        rows={days.filter((day) => day.succeeded + day.failed > 0).map((day) => ({ label: day.day, cells: [day.succeeded, day.failed] }))}
      />
    </figure>
  );
}
