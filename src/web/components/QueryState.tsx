/** What a listing shows besides its rows: the failure, the wait, or why there is nothing to list. */
import { ErrorNotice } from "./ErrorNotice.js";

export function QueryState({ query, empty }: { query: { isError: boolean; error: Error | null; isPending: boolean }; empty: string | null }) {
  if (query.isError && query.error) return <ErrorNotice error={query.error} />;
  if (query.isPending) return <p className="muted">Loading…</p>;
  return empty === null ? null : <p className="empty">{empty}</p>;
}
