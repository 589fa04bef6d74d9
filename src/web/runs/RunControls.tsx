/**
 * Pause, Resume, Cancel and Retry, each enabled only in the states that allow it; Cancel asks first in a
 * dialog. A refusal shows the service's message and suggestion; a retry opens the new run.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useNavigate } from "react-router";
import { api, dataOf } from "../api/client.js";
import { ConfirmDialog } from "../components/ConfirmDialog.js";
import { ErrorNotice } from "../components/ErrorNotice.js";
import { allowedControls, runKeys, type RunDetail } from "../api/runs.js";

type Action = "pause" | "resume" | "cancel" | "retry";

export function RunControls({ run }: { run: RunDetail }) {
  const queries = useQueryClient();
  const navigate = useNavigate();
  const [confirming, setConfirming] = useState(false);
  const allowed = allowedControls(run);
  const control = useMutation({
    mutationFn: async (action: Action) => {
      const path = { params: { path: { id: run.id } } };
      if (action === "pause") return dataOf(await api.POST("/api/runs/{id}/pause", path));
      if (action === "resume") return dataOf(await api.POST("/api/runs/{id}/resume", path));
      if (action === "cancel") return dataOf(await api.POST("/api/runs/{id}/cancel", path));
      return dataOf(await api.POST("/api/runs/{id}/retry", path));
    },
    onSuccess: (answer, action) => {
      void queries.invalidateQueries({ queryKey: runKeys.all(run.id) });
      void queries.invalidateQueries({ queryKey: ["runs"] });
      if (action === "retry") void navigate(`/runs/${answer.id}`);
    },
  });
  const busy = control.isPending;
  return (
    <div className="run-controls">
      <div role="group" aria-label="Run controls" className="button-row">
        <button type="button" disabled={!allowed.pause || busy} onClick={() => control.mutate("pause")} title={allowed.pause ? "Let running jobs finish, start no new ones" : "Only a running run can be paused"}>
          Pause
        </button>
        <button type="button" disabled={!allowed.resume || busy} onClick={() => control.mutate("resume")} title={allowed.resume ? "Start new jobs again" : "Only a paused run can be resumed"}>
          Resume
        </button>
        <button type="button" className="run-danger" disabled={!allowed.cancel || busy} onClick={() => setConfirming(true)} title={allowed.cancel ? "Stop the run and its jobs" : "The run has ended"}>
          Cancel…
        </button>
        <button type="button" className={allowed.retry ? "primary" : ""} disabled={!allowed.retry || busy} onClick={() => control.mutate("retry")} title={allowed.retry ? "A new run re-executes the failed jobs and what depends on them" : "Only a failed or cancelled run can be retried"}>
          Retry
        </button>
      </div>
      {control.error ? <ErrorNotice error={control.error} /> : null}
      <ConfirmDialog
        open={confirming}
        title="Cancel this run?"
        cancelLabel="Keep running"
        confirmLabel="Cancel run"
        danger
        onCancel={() => setConfirming(false)}
        onConfirm={() => {
          setConfirming(false);
          control.mutate("cancel");
        }}
      >
        <p>Running jobs are stopped and no new ones start. Completed outputs stay; Retry continues from them.</p>
      </ConfirmDialog>
    </div>
  );
}
