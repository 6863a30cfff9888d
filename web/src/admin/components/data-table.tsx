import {
  createColumnHelper,
  createSortedRowModel,
  rowSortingFeature,
  sortFn_alphanumeric,
  sortFn_basic,
  sortFn_text,
  tableFeatures,
  useTable,
  type ColumnDef,
  type RowData,
  type SortingState,
} from '@tanstack/react-table';

// Every back-office table: TanStack Table keeps the rows' order, the markup
// is ours (decision 017): a real <table> with its caption, column headers
// with `scope`, a sortable column's header a button with `aria-sort` on its
// cell, and the whole inside a focusable region that scrolls sideways on a
// narrow screen instead of the page (WCAG 1.4.10).

const features = tableFeatures({
  rowSortingFeature,
  sortedRowModel: createSortedRowModel(),
  sortFns: { alphanumeric: sortFn_alphanumeric, text: sortFn_text, basic: sortFn_basic },
});

export type AdminColumn<T extends RowData> = ColumnDef<typeof features, T, unknown>;

/** Column definitions for rows of `T`; a column's `header` is its name, a string. */
export const columnsOf = <T extends RowData>() => createColumnHelper<typeof features, T>();

interface DataTableProps<T extends RowData> {
  /** Says what the rows are; it also names the scroll region. */
  caption: string;
  columns: AdminColumn<T>[];
  rows: T[];
  rowId: (row: T) => string;
  /** Shown instead of an empty table. */
  empty: string;
  initialSort?: SortingState;
}

const ARIA_SORT = { asc: 'ascending', desc: 'descending' } as const;

export function DataTable<T extends RowData>({ caption, columns, rows, rowId, empty, initialSort = [] }: DataTableProps<T>) {
  const table = useTable({
    features,
    columns,
    data: rows,
    getRowId: rowId,
    initialState: { sorting: initialSort },
    enableSortingRemoval: false,
  });
  if (rows.length === 0) return <p className="empty">{empty}</p>;
  return (
    // A region that scrolls must take the keyboard's focus to be scrolled with it.
    // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
    <div className="table-scroll" role="region" aria-label={caption} tabIndex={0}>
      <table>
        <caption>{caption}</caption>
        <thead>
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id}>
              {group.headers.map((header) => {
                const name = String(header.column.columnDef.header ?? '');
                const sorted = header.column.getIsSorted();
                return (
                  <th key={header.id} scope="col" aria-sort={sorted ? ARIA_SORT[sorted] : undefined}>
                    {header.column.getCanSort() ? (
                      <button type="button" className="sort-button" onClick={header.column.getToggleSortingHandler()}>
                        {name}
                        <span aria-hidden="true" className="sort-mark">{sorted === 'asc' ? '▲' : sorted === 'desc' ? '▼' : '↕'}</span>
                      </button>
                    ) : (
                      name
                    )}
                  </th>
                );
              })}
            </tr>
          ))}
        </thead>
        <tbody>
          {table.getRowModel().rows.map((row) => (
            <tr key={row.id}>
              {row.getAllCells().map((cell, index) =>
                index === 0 ? (
                  <th key={cell.id} scope="row">
                    <table.FlexRender cell={cell} />
                  </th>
                ) : (
                  <td key={cell.id}>
                    <table.FlexRender cell={cell} />
                  </td>
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
