/**
 * The app's one listing: a table of rows under column headers, with what shows instead of rows (the
 * service's failure, the wait, or why there is nothing to list) and, for a list read a page at a time, the
 * "Load more" row under it (which can also load by itself as the end scrolls near).
 */
import { useEffect, useRef, type ReactNode } from "react";
import { QueryState } from "./QueryState.js";

/** One column of a listing. */
export interface ListingColumn<Row> {
  /** The header; read by screen readers only when `hideHeader` (a column of actions). */
  header: string;
  hideHeader?: boolean;
  /** The row's cell. */
  cell: (row: Row) => ReactNode;
  /** The class of the column's cells. */
  className?: string;
  /** A cell's tooltip. */
  title?: (row: Row) => string | undefined;
}

/** A list read a page at a time (TanStack's infinite query gives these). */
export interface ListingPages {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => unknown;
}

/** The listing of `rows`; `empty` shows once the query answered with none. */
export function Listing<Row>({
  query,
  rows,
  rowKey,
  columns,
  empty,
  className,
  rowClassName,
  pages,
}: {
  /** The query the rows come from: its failure and its wait show instead of rows. Absent: the page shows them. */
  query?: { isError: boolean; error: Error | null; isPending: boolean };
  rows: readonly Row[];
  rowKey: (row: Row) => string;
  columns: readonly ListingColumn<Row>[];
  /** Why there is nothing to list (null: say nothing). */
  empty: string | null;
  /** More classes of the table (its look on one page). */
  className?: string;
  rowClassName?: (row: Row) => string | undefined;
  /** Paging: a "Load more" row under the table, with a status (`summary`) and loading as the end comes near (`auto`). */
  pages?: ListingPages & { summary?: ReactNode; auto?: boolean; className?: string };
}) {
  const answered = query === undefined || (!query.isPending && !query.isError);
  return (
    <>
      {query ? <QueryState query={query} empty={answered && rows.length === 0 ? empty : null} /> : null}
      {rows.length > 0 ? (
        <table className={className ? `listing ${className}` : "listing"}>
          <thead>
            <tr>
              {columns.map((column) => (
                <th key={column.header} scope="col">
                  {column.hideHeader ? <span className="visually-hidden">{column.header}</span> : column.header}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={rowKey(row)} className={rowClassName?.(row)}>
                {columns.map((column) => (
                  <td key={column.header} className={column.className} title={column.title?.(row)}>
                    {column.cell(row)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {pages ? <LoadMore {...pages} /> : null}
    </>
  );
}

/** The paging row: the status, and "Load more" while there is more (also loading by itself near the end when `auto`). */
function LoadMore({ hasNextPage, isFetchingNextPage, fetchNextPage, summary, auto = false, className = "load-more" }: ListingPages & { summary?: ReactNode; auto?: boolean; className?: string }) {
  const end = useRef<HTMLDivElement>(null);
  // Scrolling near the end loads the next page (the button stays, for keyboards).
  useEffect(() => {
    const element = end.current;
    if (!auto || !element || !hasNextPage) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting) && !isFetchingNextPage) void fetchNextPage();
      },
      { rootMargin: "400px" },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [auto, hasNextPage, isFetchingNextPage, fetchNextPage]);
  return (
    <div ref={end} className={className}>
      {summary}
      {hasNextPage ? (
        <button type="button" disabled={isFetchingNextPage} onClick={() => void fetchNextPage()}>
          {isFetchingNextPage ? "Loading…" : "Load more"}
        </button>
      ) : null}
    </div>
  );
}
