/**
 * The audit log, for administrators: sign-in attempts, refused requests and changes, newest first, filtered
 * by user, action, result, resource and time, a page at a time ("Load more" follows the service's cursor).
 */
import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { usersQuery } from "../api/account.js";
import { auditQuery, type AuditQuery } from "../api/audit.js";
import { Listing } from "../components/Listing.js";
import { AccountOnly } from "./AccountOnly.js";
import { When } from "../components/When.js";
import "./account.css";

type Result = "success" | "failure" | "denied";

interface AuditFilters {
  user: string;
  action: string;
  result: "" | Result;
  resource: string;
  /** `datetime-local` values (the browser's time zone). */
  since: string;
  until: string;
}

const NO_FILTERS: AuditFilters = { user: "", action: "", result: "", resource: "", since: "", until: "" };
const PAGE_SIZE = 50;

/** A `datetime-local` value as an RFC 3339 instant, or nothing when empty or not a time. */
function instant(local: string): string | undefined {
  if (!local) return undefined;
  const time = new Date(local);
  return Number.isNaN(time.getTime()) ? undefined : time.toISOString();
}

export function AuditPage() {
  return (
    <AccountOnly title="Audit log" adminOnly>
      <AuditLog />
    </AccountOnly>
  );
}

/** The filters as the service takes them: trimmed, empty ones left out, times as instants. */
function auditQueryOf(filters: AuditFilters): AuditQuery {
  return {
    user: filters.user.trim() || undefined,
    action: filters.action.trim() || undefined,
    resource: filters.resource.trim() || undefined,
    result: filters.result || undefined,
    since: instant(filters.since),
    until: instant(filters.until),
  };
}

function AuditLog() {
  const [draft, setDraft] = useState<AuditFilters>(NO_FILTERS);
  const [filters, setFilters] = useState<AuditFilters>(NO_FILTERS);
  const entries = useInfiniteQuery(auditQuery(auditQueryOf(filters), PAGE_SIZE));
  // Entries name users by id; the accounts list gives their names (a deleted account keeps its id).
  const users = useQuery(usersQuery());
  const names = new Map((users.data ?? []).map((user) => [user.id, user.username]));
  const rows = entries.data?.pages.flatMap((page) => page.items) ?? [];
  const filtered = Object.values(filters).some((value) => value !== "");
  const field = (name: keyof AuditFilters) => ({ value: draft[name], onChange: (event: { target: { value: string } }) => setDraft({ ...draft, [name]: event.target.value }) });
  const apply = (event: FormEvent) => {
    event.preventDefault();
    setFilters(draft);
  };
  return (
    <section aria-labelledby="audit-title" className="account-page wide-page">
      <div className="page-head">
        <div>
          <h1 id="audit-title">Audit log</h1>
          <p className="muted page-lead">Sign-ins, refused requests and every change, newest first.</p>
        </div>
      </div>
      <form className="panel audit-filters" onSubmit={apply} aria-label="Filter the audit log">
        <label>
          User
          <input placeholder="username or id" {...field("user")} />
        </label>
        <label>
          Action
          <input placeholder="e.g. auth.login" {...field("action")} />
        </label>
        <label>
          Result
          <select {...field("result")}>
            <option value="">any</option>
            <option value="success">success</option>
            <option value="failure">failure</option>
            <option value="denied">denied</option>
          </select>
        </label>
        <label>
          Resource
          <input placeholder="e.g. run/… or user/…" {...field("resource")} />
        </label>
        <label>
          Since
          <input type="datetime-local" {...field("since")} />
        </label>
        <label>
          Until
          <input type="datetime-local" {...field("until")} />
        </label>
        <div className="filter-actions">
          <button type="submit" className="primary">
            Apply filters
          </button>
          <button
            type="button"
            disabled={!filtered && Object.values(draft).every((value) => value === "")}
            onClick={() => {
              setDraft(NO_FILTERS);
              setFilters(NO_FILTERS);
            }}
          >
            Clear
          </button>
        </div>
      </form>
      <Listing
        query={entries}
        rows={rows}
        rowKey={(entry) => entry.id}
        className="audit-table"
        empty={filtered ? "No entries match these filters. Widen the time range or clear a filter." : "The audit log is empty so far."}
        columns={[
          { header: "Time", cell: (entry) => <When iso={entry.time} /> },
          {
            header: "User",
            cell: (entry) =>
              entry.user === null ? (
                <span className="muted">anonymous</span>
              ) : names.has(entry.user) ? (
                <span title={`user id ${entry.user}`}>{names.get(entry.user)}</span>
              ) : (
                <span className="mono" title="an account that no longer exists, or not loaded yet">
                  {entry.user}
                </span>
              ),
          },
          { header: "Action", className: "mono nowrap", cell: (entry) => entry.action },
          { header: "Resource", className: "mono resource-cell", cell: (entry) => (entry.resource === null ? <span className="muted">—</span> : <Resource resource={entry.resource} names={names} />) },
          {
            header: "Result",
            className: "result-cell",
            cell: (entry) => (
              <>
                <span className={`badge badge-result-${entry.result}`} title={`HTTP ${entry.status}`}>
                  {entry.result}
                </span>{" "}
                <span className="muted">{entry.status}</span>
              </>
            ),
          },
          { header: "Address", className: "mono nowrap", title: (entry) => (entry.request_id ? `request ${entry.request_id}` : undefined), cell: (entry) => entry.ip ?? <span className="muted">—</span> },
        ]}
        pages={
          rows.length > 0
            ? {
                hasNextPage: entries.hasNextPage,
                isFetchingNextPage: entries.isFetchingNextPage,
                fetchNextPage: entries.fetchNextPage,
                summary: (
                  <span className="muted" role="status">
                    {rows.length} entr{rows.length === 1 ? "y" : "ies"} shown{entries.hasNextPage ? "" : " — the end of the log"}
                  </span>
                ),
              }
            : undefined
        }
      />
    </section>
  );
}

/** A resource as recorded; an account named by id (`user/<id>`) shows its username, the id on hover. */
function Resource({ resource, names }: { resource: string; names: Map<string, string> }) {
  const id = resource.startsWith("user/") ? resource.slice(5) : null;
  const name = id === null ? undefined : names.get(id);
  return name === undefined ? <>{resource}</> : <span title={resource}>user/{name}</span>;
}
