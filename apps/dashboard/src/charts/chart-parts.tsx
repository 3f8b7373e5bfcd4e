import { Name } from '../components/text.tsx';

/** One entry of a chart's legend: what it names and the CSS class of its colour. */
export interface LegendItem {
  name: string;
  className: string;
}

/** A chart's legend: a swatch of each colour and what it stands for (the swatches are decoration to assistive technology). */
export function Legend({ items }: { items: LegendItem[] }) {
  return (
    <ul class="legend">
      {items.map((item) => (
        <li key={item.name}>
          <span class={`swatch ${item.className}`} aria-hidden="true" /> {item.name}
        </li>
      ))}
    </ul>
  );
}

/**
 * A chart's figures as a table, behind a disclosure: what a screen reader reads in place of the picture, and where anyone
 * reads the exact values. `columns[0]` heads the row labels.
 */
export function FiguresTable({
  caption,
  columns,
  rows,
}: {
  caption: string;
  columns: string[];
  rows: { label: string; cells: (string | number)[] }[];
}) {
  return (
    <details>
      <summary>The figures as a table</summary>
      <table>
        <caption class="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            {columns.map((column) => (
              <th scope="col" key={column}>
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.label}>
              <th scope="row">
                <Name value={row.label} />
              </th>
              {row.cells.map((cell, index) => (
                <td key={columns[index + 1]}>{cell}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}
