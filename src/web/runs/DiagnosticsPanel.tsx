/**
 * Why did this run fail? One card per failed job from the service's diagnosis: the rule and job, the exit
 * code, the likely cause, what to try, and the end of the job's log, with a button that opens the full log.
 */
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { diagnosticsQuery } from "../api/runs.js";
import { ErrorNotice } from "../components/ErrorNotice.js";

/** Diagnoses shown at first: a run with thousands of failures stays readable. */
const FIRST = 3;

export function DiagnosticsPanel({ runId, onOpenLog }: { runId: string; onOpenLog: (job: string) => void }) {
  const [all, setAll] = useState(false);
  const diagnostics = useQuery(diagnosticsQuery(runId));
  if (diagnostics.error) return <ErrorNotice error={diagnostics.error} />;
  if (!diagnostics.data) return <p className="muted">Looking at the failures…</p>;
  const { failures } = diagnostics.data;
  if (failures.length === 0) return <p className="muted">No job failed; the engine log below says why the run stopped.</p>;
  const shown = all ? failures : failures.slice(0, FIRST);
  return (
    <>
      <ol className="diagnoses">
        {shown.map((failure, index) => (
          <li key={`${failure.job ?? ""}-${index}`} className="diagnosis">
            <div className="diagnosis-head">
              <strong className="mono">{failure.job ?? failure.rule ?? "the run"}</strong>
              {failure.rule ? <span className="muted"> rule {failure.rule}</span> : null}
              {failure.exit_code != null ? <span className="badge badge-failed">exit {failure.exit_code}</span> : null}
              <span className="muted">{failure.category.replace(/_/g, " ")}</span>
            </div>
            <p className="likely-cause">
              <span className="muted">Likely cause: </span>
              {failure.likely_cause}
            </p>
            {failure.suggestions.length > 0 ? (
              <div>
                <span className="muted">Try:</span>
                <ul className="suggestions">
                  {failure.suggestions.map((suggestion, at) => (
                    <li key={at}>{suggestion}</li>
                  ))}
                </ul>
              </div>
            ) : null}
            {failure.log_excerpt.length > 0 ? (
              <pre className="log-lines excerpt" tabIndex={0} aria-label={`The end of ${failure.job ?? "the"} log`}>
                {failure.log_excerpt.join("\n")}
              </pre>
            ) : null}
            {failure.job ? (
              <button type="button" onClick={() => onOpenLog(failure.job!)}>
                Open the full log of {failure.job}
              </button>
            ) : null}
          </li>
        ))}
      </ol>
      {failures.length > FIRST ? (
        <button type="button" className="show-all" aria-expanded={all} onClick={() => setAll(!all)}>
          {all ? `Show the first ${FIRST}` : `Show all ${failures.length} diagnoses`}
        </button>
      ) : null}
    </>
  );
}
