/**
 * A pipeline's share links: make one (with a lifetime), copy it, see every link with its state, revoke one
 * after confirmation. The link people open is this app's `/share/<token>` page; the `strand+https://` form
 * is what `POST /api/pipelines/import` and `strand` on another machine take.
 */
import { useQuery } from "@tanstack/react-query";
import { useId, useState } from "react";
import { Link, useParams } from "react-router";
import { sharesQuery, useCreateShare, useRevokeShare, type ShareLink } from "../api/pipeline-shares.js";
import { pipelineQuery } from "../api/pipelines.js";
import { baseUrl } from "../api/service-address.js";
import { ErrorNotice } from "../components/ErrorNotice.js";
import { Listing } from "../components/Listing.js";
import { QueryState } from "../components/QueryState.js";
import { accessTo, useCurrentUser } from "./access.js";
import { ConfirmDialog } from "../components/ConfirmDialog.js";
import { CopyField } from "../components/CopyField.js";
import { fullTime, relativeTime } from "../components/formatting.js";
import { sharePageUrl as sharePageUrlUnder } from "./share-links.js";
import "./pipelines.css";

/** The address of this app's page for a share token. */
const sharePageUrl = (token: string) => sharePageUrlUnder(token, baseUrl);

const LIFETIMES = [
  { days: 1, label: "1 day" },
  { days: 7, label: "7 days" },
  { days: 30, label: "30 days" },
  { days: 90, label: "90 days" },
  { days: 365, label: "1 year" },
];

export function SharingPage() {
  const { id = "" } = useParams();
  const [days, setDays] = useState(30);
  const [made, setMade] = useState<ShareLink | null>(null);
  const [revoking, setRevoking] = useState<ShareLink | null>(null);
  const lifetimeId = useId();
  const pipeline = useQuery(pipelineQuery(id));
  const access = accessTo(useCurrentUser(), pipeline.data?.owner);
  const shares = useQuery(sharesQuery(id, pipeline.isSuccess && access.write));
  const share = useCreateShare({ onSuccess: (link) => setMade(link) });
  // The list is refreshed first, so the dialog closes onto the refreshed rows (its Revoke button is gone by then).
  const revoke = useRevokeShare({
    onSuccess: (link) => {
      if (made?.token === link.token) setMade(null);
      setRevoking(null);
    },
  });
  const name = pipeline.data?.name ?? "pipeline";

  return (
    <section aria-labelledby="sharing-title" className="pl-page pl-narrow">
      <Link to={`/pipelines/${id}`} className="pl-back">
        ← Back to {pipeline.data ? pipeline.data.name : "the editor"}
      </Link>
      <h1 id="sharing-title">Share {pipeline.data ? <q>{pipeline.data.name}</q> : "a pipeline"}</h1>
      <QueryState query={pipeline} empty={null} />
      {pipeline.isSuccess && !access.write ? <p className="error-notice">{access.reason}</p> : null}
      {pipeline.isSuccess && access.write ? (
        <>
          <div className="pl-panel">
            <p>
              Anyone holding a share link can read this pipeline and import a copy, signed in or not, until the link expires or you revoke it. Later changes
              you save are visible through the link.
            </p>
            <div className="pl-inline-form">
              <label htmlFor={lifetimeId}>Expires after</label>
              <select id={lifetimeId} value={days} onChange={(event) => setDays(Number(event.target.value))}>
                {LIFETIMES.map((lifetime) => (
                  <option key={lifetime.days} value={lifetime.days}>
                    {lifetime.label}
                  </option>
                ))}
              </select>
              <button type="button" className="pl-primary" onClick={() => share.mutate({ id, days })} disabled={share.isPending} aria-busy={share.isPending}>
                {share.isPending ? "Creating link…" : "Create share link"}
              </button>
            </div>
            {share.error ? <ErrorNotice error={share.error} /> : null}
            {made ? (
              <div className="pl-made" aria-label="New share link">
                <CopyField label="Share link" value={sharePageUrl(made.token)} />
                <CopyField label="Import link" value={made.share_url} />
                <p className="muted">
                  The share link opens a read-only page with an <em>Import a copy</em> button. The import link is for{" "}
                  <Link to="/pipelines/import">Import</Link> on another strand service.
                  {made.expires_at ? ` It expires ${relativeTime(made.expires_at)}.` : ""}
                </p>
              </div>
            ) : null}
          </div>
          <h2>Links</h2>
          <Listing
            query={shares}
            rows={shares.data ?? []}
            rowKey={(link) => link.token}
            empty="No share links yet. Create one above to give someone a read-only copy."
            columns={[
              {
                header: "Link",
                cell: (link) =>
                  link.state === "active" ? (
                    <a href={sharePageUrl(link.token)} className="mono" target="_blank" rel="noreferrer">
                      …/share/{link.token.slice(0, 10)}…
                    </a>
                  ) : (
                    <span className="mono muted">…/share/{link.token.slice(0, 10)}…</span>
                  ),
              },
              { header: "State", cell: (link) => <span className={`badge badge-share-${link.state}`}>{link.state}</span> },
              {
                header: "Created",
                cell: (link) => (
                  <time dateTime={link.created_at} title={fullTime(link.created_at)}>
                    {relativeTime(link.created_at)}
                  </time>
                ),
              },
              {
                header: "Expires",
                cell: (link) =>
                  link.revoked_at ? (
                    <span className="muted">revoked {relativeTime(link.revoked_at)}</span>
                  ) : link.expires_at ? (
                    <time dateTime={link.expires_at} title={fullTime(link.expires_at)}>
                      {relativeTime(link.expires_at)}
                    </time>
                  ) : (
                    "never"
                  ),
              },
              {
                header: "Actions",
                hideHeader: true,
                className: "pl-cell-actions",
                cell: (link) =>
                  link.state === "active" ? (
                    <>
                      <CopyButton value={sharePageUrl(link.token)} label={`Copy link ${link.token.slice(0, 10)}`} />
                      <button
                        type="button"
                        className="danger-text"
                        aria-label={`Revoke link ${link.token.slice(0, 10)}`}
                        onClick={() => {
                          revoke.reset();
                          setRevoking(link);
                        }}
                      >
                        Revoke
                      </button>
                    </>
                  ) : null,
              },
            ]}
          />
        </>
      ) : null}
      <ConfirmDialog
        open={revoking !== null}
        title="Revoke this share link?"
        confirmLabel="Revoke link"
        busyLabel="Revoking…"
        busy={revoke.isPending}
        error={revoke.error}
        danger
        onConfirm={() => revoking && revoke.mutate({ id, token: revoking.token })}
        onCancel={() => setRevoking(null)}
      >
        <p>
          The link to <q>{name}</q> stops working at once for everyone who has it. Copies already imported stay with their owners.
        </p>
      </ConfirmDialog>
    </section>
  );
}

/** A small Copy button for a row, confirming in its own label. */
function CopyButton({ value, label }: { value: string; label: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <button
      type="button"
      aria-label={label}
      onClick={() =>
        void navigator.clipboard.writeText(value).then(
          () => {
            setCopied(true);
            setTimeout(() => setCopied(false), 3_000);
          },
          () => window.prompt("Copy the link:", value),
        )
      }
    >
      {copied ? "✓ Copied" : "Copy"}
    </button>
  );
}
