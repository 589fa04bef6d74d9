/**
 * A saved pipeline's actions beside its editor: run, fork, share, revisions, download its saved TOML and
 * delete (after a confirmation naming it). What the caller may not do is left out, with the reason shown.
 */
import { useMutation, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Link, useNavigate } from "react-router";
import { editedPipelineQuery, fetchPipeline, useDeletePipeline, useForkPipeline } from "../api/pipelines.js";
import { ErrorNotice } from "../components/ErrorNotice.js";
import { accessTo, useCurrentUser } from "./access.js";
import { ConfirmDialog } from "../components/ConfirmDialog.js";
import { downloadText } from "./download.js";
import { tomlFilename } from "./format.js";
import "./pipelines.css";

/** `on`: the page showing the actions, whose own link is left out (the editor shows them all). */
export function PipelineActions({ pipelineId, on }: { pipelineId: string; on?: "revisions" }) {
  const navigate = useNavigate();
  const [deleting, setDeleting] = useState(false);
  // The editor's query of the same pipeline (it updates it on save), never refetched from here.
  const pipeline = useQuery(editedPipelineQuery(pipelineId));
  const access = accessTo(useCurrentUser(), pipeline.data?.owner);
  const name = pipeline.data?.name ?? "this pipeline";
  const fork = useForkPipeline({ onSuccess: (copy) => void navigate(`/pipelines/${copy.id}`) });
  const download = useMutation({
    // The saved text, read fresh: the editor may hold unsaved changes, and the list has no text.
    mutationFn: () => fetchPipeline(pipelineId),
    onSuccess: (saved) => downloadText(tomlFilename(saved.name), saved.toml_content),
  });
  const remove = useDeletePipeline({
    onSuccess: () => {
      setDeleting(false);
      void navigate("/pipelines");
    },
  });
  return (
    <div className="pl-actions" role="group" aria-label="Pipeline actions">
      {access.create ? (
        <Link className="pl-button pl-primary" to={`/pipelines/${pipelineId}/run`}>
          ▶ Run
        </Link>
      ) : null}
      {access.create ? (
        <button type="button" onClick={() => fork.mutate(pipelineId)} disabled={fork.isPending} aria-busy={fork.isPending} title="Copy into a private pipeline you own">
          {fork.isPending ? "Forking…" : "Fork"}
        </button>
      ) : null}
      {access.write ? (
        <Link className="pl-button" to={`/pipelines/${pipelineId}/sharing`}>
          Share
        </Link>
      ) : null}
      {on !== "revisions" ? (
        <Link className="pl-button" to={`/pipelines/${pipelineId}/revisions`}>
          Revisions
        </Link>
      ) : null}
      <button type="button" onClick={() => download.mutate()} disabled={download.isPending} title="The saved version, as a .toml file">
        Download TOML
      </button>
      {access.write ? (
        <button
          type="button"
          className="danger-text"
          onClick={() => {
            remove.reset();
            setDeleting(true);
          }}
        >
          Delete
        </button>
      ) : null}
      {access.reason ? <span className="muted pl-actions-reason">{access.reason}</span> : null}
      {fork.error ? <ErrorNotice error={fork.error} /> : null}
      {download.error ? <ErrorNotice error={download.error} /> : null}
      <ConfirmDialog
        open={deleting}
        title={`Delete ${name}?`}
        confirmLabel="Delete pipeline"
        busyLabel="Deleting…"
        busy={remove.isPending}
        error={remove.error}
        danger
        onConfirm={() => remove.mutate(pipelineId)}
        onCancel={() => setDeleting(false)}
      >
        <p>
          <q>{name}</q> is deleted with all its revisions and share links. Its runs stay. This cannot be undone; download its TOML first if you may want it back.
        </p>
      </ConfirmDialog>
    </div>
  );
}
