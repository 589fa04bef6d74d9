/**
 * Pause, Resume, Cancel and Retry, each enabled only in the states that allow it; Cancel asks first in a
 * dialog. A refusal shows the service's message and suggestion; a retry opens the new run.
 */
import { useState } from "react";
import { useNavigate } from "react-router";
import { allowedControls, useRunControl, type RunControl, type RunDetail } from "../api/runs.js";
import { ConfirmDialog } from "../components/ConfirmDialog.js";
import { ErrorNotice } from "../components/ErrorNotice.js";

export function RunControls({ run }: { run: RunDetail }) {
  const navigate = useNavigate();
  const [confirming, setConfirming] = useState(false);
  const allowed = allowedControls(run);
  const control = useRunControl({
    onSuccess: (answer, { control: action }) => {
      if (action === "retry") void navigate(`/runs/${answer.id}`);
    },
  });
  const act = (action: RunControl) => control.mutate({ id: run.id, control: action });
  const busy = control.isPending;
  return (
    <div className="run-controls">
      <div role="group" aria-label="Run controls" className="button-row">
        <button type="button" disabled={!allowed.pause || busy} onClick={() => act("pause")} title={allowed.pause ? "Let running jobs finish, start no new ones" : "Only a running run can be paused"}>
          Pause
        </button>
        <button type="button" disabled={!allowed.resume || busy} onClick={() => act("resume")} title={allowed.resume ? "Start new jobs again" : "Only a paused run can be resumed"}>
          Resume
        </button>
        <button type="button" className="run-danger" disabled={!allowed.cancel || busy} onClick={() => setConfirming(true)} title={allowed.cancel ? "Stop the run and its jobs" : "The run has ended"}>
          Cancel…
        </button>
        <button type="button" className={allowed.retry ? "primary" : ""} disabled={!allowed.retry || busy} onClick={() => act("retry")} title={allowed.retry ? "A new run re-executes the failed jobs and what depends on them" : "Only a failed or cancelled run can be retried"}>
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
          act("cancel");
        }}
      >
        <p>Running jobs are stopped and no new ones start. Completed outputs stay; Retry continues from them.</p>
      </ConfirmDialog>
    </div>
  );
}
