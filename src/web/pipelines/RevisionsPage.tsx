/**
 * A pipeline's revisions, newest first: pick two (by default the one before the current and the current)
 * to see what changed, as the service reads it (`POST /api/pipelines/diff`: rules, config, settings) and
 * line by line side by side; restore an earlier revision after confirmation (the current content stays as
 * a revision, so a rollback is itself undoable).
 */
import { useQuery } from "@tanstack/react-query";
import { lazy, Suspense, useState } from "react";
import { Link, useParams } from "react-router";
import { revisionDiffQuery, revisionQuery, revisionsQuery, semanticChanges, useRollback, type RevisionSummary } from "../api/pipeline-revisions.js";
import { pipelineQuery } from "../api/pipelines.js";
import { ErrorNotice } from "../components/ErrorNotice.js";
import { Listing } from "../components/Listing.js";
import { accessTo, useCurrentUser } from "./access.js";
import { ConfirmDialog } from "../components/ConfirmDialog.js";
import { byteSize, fullTime, relativeTime } from "../components/formatting.js";
import { PipelineActions } from "./PipelineActions.js";
import "./pipelines.css";

const RevisionDiffView = lazy(() => import("./RevisionDiffView.js"));

export function RevisionsPage() {
  const { id = "" } = useParams();
  const [base, setBase] = useState<number | null>(null);
  const [target, setTarget] = useState<number | null>(null);
  const [restoring, setRestoring] = useState<RevisionSummary | null>(null);
  const pipeline = useQuery(pipelineQuery(id));
  const access = accessTo(useCurrentUser(), pipeline.data?.owner);
  const revisions = useQuery(revisionsQuery(id));
  const list = revisions.data ?? [];
  const current = list.find((revision) => revision.current) ?? list[0];
  const newer = target ?? current?.revision;
  const older = base ?? list.find((revision) => revision.revision !== newer)?.revision;
  const rollback = useRollback({
    onSuccess: () => {
      setRestoring(null);
      setBase(null);
      setTarget(null);
    },
  });
  const name = pipeline.data?.name ?? "this pipeline";

  return (
    <section aria-labelledby="revisions-title" className="pl-page wide-page">
      <Link to={`/pipelines/${id}`} className="pl-back">
        ← Back to {pipeline.data ? pipeline.data.name : "the editor"}
      </Link>
      <div className="page-head pl-revisions-head">
        <h1 id="revisions-title">Revisions {pipeline.data ? <span className="count">of {pipeline.data.name}</span> : null}</h1>
        {pipeline.isSuccess ? <PipelineActions pipelineId={id} on="revisions" /> : null}
      </div>
      <p className="muted">Every save keeps the previous content. Pick two revisions to compare; restoring one saves it as a new revision, so nothing is lost.</p>
      {pipeline.isSuccess && !access.write ? <p className="muted">{access.reason}</p> : null}
      <Listing
        query={revisions}
        rows={list}
        rowKey={(revision) => revision.id}
        className="pl-revisions"
        rowClassName={(revision) => (revision.revision === older || revision.revision === newer ? "pl-row-picked" : undefined)}
        empty="This pipeline has no revisions."
        columns={[
          {
            header: "Old side",
            cell: (revision) => (
              <input type="radio" name="base" aria-label={`Revision ${revision.revision} as the old side`} checked={revision.revision === older} disabled={revision.revision === newer} onChange={() => setBase(revision.revision)} />
            ),
          },
          {
            header: "New side",
            cell: (revision) => (
              <input type="radio" name="target" aria-label={`Revision ${revision.revision} as the new side`} checked={revision.revision === newer} disabled={revision.revision === older} onChange={() => setTarget(revision.revision)} />
            ),
          },
          {
            header: "Revision",
            cell: (revision) => (
              <>
                <strong>{revision.revision}</strong> {revision.current ? <span className="pl-chip pl-chip-ok">current</span> : null}
              </>
            ),
          },
          {
            header: "Saved",
            cell: (revision) => (
              <>
                <time dateTime={revision.created_at} title={fullTime(revision.created_at)}>
                  {relativeTime(revision.created_at)}
                </time>
                <div className="muted">{fullTime(revision.created_at)}</div>
              </>
            ),
          },
          { header: "Name", cell: (revision) => revision.name },
          { header: "Size", className: "muted", cell: (revision) => byteSize(revision.size_bytes) },
          {
            header: "Actions",
            hideHeader: true,
            className: "pl-cell-actions",
            cell: (revision) =>
              !revision.current && access.write ? (
                <button
                  type="button"
                  onClick={() => {
                    rollback.reset();
                    setRestoring(revision);
                  }}
                  aria-label={`Restore revision ${revision.revision}`}
                >
                  Restore
                </button>
              ) : null,
          },
        ]}
      />
      {list.length === 1 ? <p className="empty">Only one revision so far. Save a change in the editor, then compare it here.</p> : null}
      {older !== undefined && newer !== undefined ? <RevisionComparison pipelineId={id} older={older} newer={newer} /> : null}
      <ConfirmDialog
        open={restoring !== null}
        title={`Restore revision ${restoring?.revision ?? ""}?`}
        confirmLabel="Restore"
        busyLabel="Restoring…"
        busy={rollback.isPending}
        error={rollback.error}
        onConfirm={() => restoring && rollback.mutate({ id, revision: restoring.revision })}
        onCancel={() => setRestoring(null)}
      >
        <p>
          <q>{name}</q> gets the content and name of revision {restoring?.revision}
          {restoring ? ` (saved ${fullTime(restoring.created_at)})` : ""}, saved as a new revision. The current content stays in the list.
        </p>
      </ConfirmDialog>
    </section>
  );
}

/** What changed between two revisions: the service's semantic changes, then the texts side by side. */
function RevisionComparison({ pipelineId, older, newer }: { pipelineId: string; older: number; newer: number }) {
  const before = useQuery(revisionQuery(pipelineId, older));
  const after = useQuery(revisionQuery(pipelineId, newer));
  const diff = useQuery(revisionDiffQuery(pipelineId, older, newer, { before: before.data?.toml_content, after: after.data?.toml_content }));
  const changes = semanticChanges(diff.data);
  return (
    <section aria-labelledby="comparison-title" className="pl-comparison">
      <h2 id="comparison-title">
        Changes from revision {older} to revision {newer}
      </h2>
      {before.error ? <ErrorNotice error={before.error} /> : null}
      {after.error ? <ErrorNotice error={after.error} /> : null}
      {diff.error ? <ErrorNotice error={diff.error} /> : null}
      {diff.isPending && !before.error && !after.error ? <p className="muted">Comparing…</p> : null}
      {diff.data?.identical ? <p className="empty">The two revisions have the same content.</p> : null}
      {changes.length > 0 ? (
        <ul className="pl-changes" aria-label="Semantic changes">
          {changes.map((change, index) => (
            <li key={index}>
              <span className={`pl-change pl-change-${change.change}`}>{change.change}</span>
              <span className="pl-chip pl-chip-quiet">{change.category}</span>
              <code>{change.path}</code>
              <span>{change.description}</span>
            </li>
          ))}
        </ul>
      ) : diff.data && !diff.data.identical ? (
        <p className="muted">No change in meaning (formatting or comments only).</p>
      ) : null}
      {before.data && after.data && !diff.data?.identical ? (
        <>
          <div className="pl-merge-heads" aria-hidden="true">
            <span>Revision {older}</span>
            <span>Revision {newer}</span>
          </div>
          <Suspense fallback={<p className="muted">Loading the side-by-side view…</p>}>
            <RevisionDiffView before={before.data.toml_content} after={after.data.toml_content} beforeLabel={`Revision ${older}`} afterLabel={`Revision ${newer}`} />
          </Suspense>
        </>
      ) : null}
    </section>
  );
}
