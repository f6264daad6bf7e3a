import type { Key, ReactNode } from 'react';
import styles from './DataTable.module.css';

/** One column: its header and what a row shows in it. */
export interface Column<Row> {
  header: ReactNode;
  cell: (row: Row) => ReactNode;
  /** Figures: right-aligned, digits of one width. */
  numeric?: boolean;
  /** A class for the column's cells (a wrapping text, a muted time). */
  className?: (row: Row) => string | undefined;
}

interface DataTableProps<Row> {
  /** The table's accessible name. */
  label?: string;
  /** Columns left out where a row has nothing to show (`false`: a column only some viewers get). */
  columns: ReadonlyArray<Column<Row> | false>;
  rows: readonly Row[];
  rowKey: (row: Row) => Key;
  /** A page being read again: the rows fade until it arrives. */
  busy?: boolean;
  /** Links in the accent colour (wallet history, subscriptions). */
  accentLinks?: boolean;
  /** A row's test id, where journeys find one row among many. */
  rowTestId?: (row: Row) => string;
  /** Under the table, scrolling with it (a count, Load more). */
  footer?: ReactNode;
}

const classes = (...names: Array<string | false | undefined>) => names.filter(Boolean).join(' ') || undefined;

/** A data table that scrolls sideways on narrow screens (the keyboard scrolls it too). */
export function DataTable<Row>({ label, columns, rows, rowKey, busy = false, accentLinks = false, rowTestId, footer }: DataTableProps<Row>) {
  const shown = columns.filter((column): column is Column<Row> => column !== false);
  return (
    <div className={styles.tableWrap} tabIndex={0}>
      <table className={classes(styles.table, styles.drawn, accentLinks && styles.accentLinks)} aria-label={label} aria-busy={busy || undefined}>
        <thead>
          <tr>
            {shown.map((column, i) => (
              <th key={i} scope="col" className={classes(column.numeric && styles.num)}>
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)} data-testid={rowTestId?.(row)}>
              {shown.map((column, i) => (
                <td key={i} className={classes(column.numeric && styles.num, column.className?.(row))}>
                  {column.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      {footer}
    </div>
  );
}
