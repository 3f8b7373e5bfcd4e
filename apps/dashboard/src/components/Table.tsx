import type { ComponentChildren } from 'preact';

/** A column: its heading; `hidden` ones (an actions column) are named to assistive technology only. */
export interface Column {
  label: string;
  hidden?: boolean;
}

/** A row: its key, its header cell (the thing the row is about) and one cell per further column. */
export interface Row {
  key: string;
  header: ComponentChildren;
  cells: ComponentChildren[];
}

/**
 * A data table that stays readable on a phone. Wide enough, it is a table; below 40rem (see `.stack` in the styles) each
 * row becomes a card: its header cell on top, then each cell under its column's name (`data-label`, drawn by CSS and
 * kept out of the accessible name), so nothing scrolls sideways and nothing is cut. The markup stays a real table
 * (`<th scope>`, a caption) for assistive technology whatever the width. Its roles are written out too, though they are
 * the elements' own: Safari (the iPhone's) drops a table's semantics when its CSS `display` changes, as the cards do,
 * unless the roles are explicit.
 */
export function Table({
  caption,
  captionHidden = false,
  columns,
  rows,
}: {
  caption: string;
  captionHidden?: boolean;
  columns: Column[];
  rows: Row[];
}) {
  return (
    // biome-ignore lint/a11y/noRedundantRoles: kept for Safari, which drops the semantics with `display` (see above)
    <table class="stack" role="table">
      <caption class={captionHidden ? 'visually-hidden' : undefined}>{caption}</caption>
      {/* biome-ignore lint/a11y/noRedundantRoles: kept for Safari, which drops the semantics with `display` (see above) */}
      <thead role="rowgroup">
        {/* biome-ignore lint/a11y/noRedundantRoles: kept for Safari, which drops the semantics with `display` (see above) */}
        <tr role="row">
          {columns.map((column) => (
            // biome-ignore lint/a11y/noRedundantRoles: kept for Safari, which drops the semantics with `display` (see above)
            <th scope="col" role="columnheader" key={column.label}>
              {column.hidden ? <span class="visually-hidden">{column.label}</span> : column.label}
            </th>
          ))}
        </tr>
      </thead>
      {/* biome-ignore lint/a11y/noRedundantRoles: kept for Safari, which drops the semantics with `display` (see above) */}
      <tbody role="rowgroup">
        {rows.map((row) => (
          // biome-ignore lint/a11y/noRedundantRoles: kept for Safari, which drops the semantics with `display` (see above)
          <tr key={row.key} role="row">
            {/* biome-ignore lint/a11y/noRedundantRoles: kept for Safari, which drops the semantics with `display` (see above) */}
            <th scope="row" role="rowheader">
              {row.header}
            </th>
            {row.cells.map((cell, index) => {
              const column = columns[index + 1];
              return (
                // biome-ignore lint/a11y/noRedundantRoles: kept for Safari, which drops the semantics with `display` (see above)
                <td key={column?.label ?? index} role="cell" data-label={column && !column.hidden ? column.label : ''}>
                  <div class="cell">{cell}</div>
                </td>
              );
            })}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
