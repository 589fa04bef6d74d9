/**
 * "Describe your analysis": a sentence (and, optionally, what the data looks like) becomes a pipeline the
 * engine has already checked. Each step shows as it happens (writing, checking, the engine's errors sent
 * back for a correction, another provider taking over); then the draft: its TOML, what each rule does and
 * why, the confidence, the warnings and which provider wrote it. The draft goes nowhere by itself: only the
 * user's "Open in editor" (or "Replace editor text", after a confirmation) hands it on, and it is saved only
 * when the user saves it there.
 */
import { lazy, Suspense, useId, useState, type FormEvent, type KeyboardEvent } from "react";
import { useAiConfig } from "../api/ai.js";
import { ConfirmDialog } from "../components/ConfirmDialog.js";
import { AiNotConfigured, AiProblem } from "./AiProblem.js";
import { useDraftStream, type Draft, type DraftProgress, type DraftState } from "./useDraftStream.js";
import "./ai.css";

// The highlighter (CodeMirror's TOML grammar) loads with the first draft, not with the page.
const TomlPreview = lazy(async () => ({ default: (await import("./TomlPreview.js")).TomlPreview }));

/** Correction rounds the service allows after the first draft (its MAX_CORRECTIONS). */
const MAX_CORRECTIONS = 3;

export function DescribePanel({
  onUse,
  replaces = false,
  headingLevel = 2,
}: {
  /** Hands the draft's TOML on (to the editor); called only on the user's click. */
  onUse: (toml: string, draft: Draft) => void;
  /** The editor already holds text: the button says "Replace editor text" and asks first. */
  replaces?: boolean;
  headingLevel?: 2 | 3;
}) {
  const config = useAiConfig();
  const { state, start, cancel, reset } = useDraftStream();
  const [intent, setIntent] = useState("");
  const [about, setAbout] = useState("");
  const [tried, setTried] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const ids = { intent: useId(), about: useId(), hint: useId(), error: useId(), title: useId() };
  const Heading = `h${headingLevel}` as const;
  const drafting = state.phase === "drafting";

  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    setTried(true);
    if (!intent.trim() || drafting) return;
    void start({ intent: intent.trim(), ...(about.trim() ? { data: { description: about.trim() } } : {}) });
  };
  const onKey = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) submit();
  };

  if (config.data && !config.data.is_configured) {
    return (
      <section className="ai-describe" aria-labelledby={ids.title}>
        <Heading id={ids.title}>Describe your analysis</Heading>
        <AiNotConfigured />
      </section>
    );
  }

  const use = (draft: Draft) => {
    if (replaces) setConfirming(true);
    else onUse(draft.toml_content, draft);
  };

  return (
    <section className="ai-describe" aria-labelledby={ids.title}>
      <Heading id={ids.title}>Describe your analysis</Heading>
      <p className="muted ai-lead">
        Say what the pipeline should do, in a sentence or two. The AI writes it, the engine checks it (errors go back to the AI to correct), and you decide whether to use it. Nothing is saved until you save.
      </p>
      <form className="ai-describe-form" onSubmit={submit} noValidate>
        <label htmlFor={ids.intent}>What should the pipeline do?</label>
        <textarea
          id={ids.intent}
          rows={3}
          maxLength={4000}
          value={intent}
          placeholder="e.g. Quality-check paired-end RNA-seq reads with fastp, quantify them with salmon against a transcriptome, and summarise with MultiQC"
          aria-invalid={tried && !intent.trim()}
          aria-describedby={tried && !intent.trim() ? ids.error : ids.hint}
          onChange={(event) => setIntent(event.target.value)}
          onKeyDown={onKey}
        />
        {tried && !intent.trim() ? (
          <span id={ids.error} className="ai-field-error">
            Describe the analysis first.
          </span>
        ) : (
          <span id={ids.hint} className="muted">
            Ctrl+Enter drafts.
          </span>
        )}
        <label htmlFor={ids.about}>
          About the data <span className="muted">(optional)</span>
        </label>
        <input id={ids.about} value={about} maxLength={1000} placeholder="e.g. gzipped FASTQ, paired-end, 6 samples, human (GRCh38)" onChange={(event) => setAbout(event.target.value)} />
        <div className="ai-actions">
          <button type="submit" className="ai-primary" disabled={drafting} aria-busy={drafting}>
            {drafting ? "Drafting…" : state.phase === "idle" ? "Draft" : "Draft again"}
          </button>
          {drafting ? (
            <button type="button" onClick={cancel}>
              Cancel
            </button>
          ) : null}
          {config.data?.provider ? (
            <span className="muted">
              Asks {config.data.provider} ({config.data.model})
            </span>
          ) : null}
        </div>
      </form>
      <DraftProgressList state={state} />
      {state.phase === "failed" ? <AiProblem error={state.error} /> : null}
      {state.phase === "cancelled" ? (
        <p className="muted" role="status">
          Cancelled: nothing was drafted.
        </p>
      ) : null}
      {state.phase === "done" ? (
        <DraftView
          draft={state.draft}
          useLabel={replaces ? "Replace editor text" : "Open in editor"}
          onUse={() => use(state.draft)}
          onDiscard={reset}
          headingLevel={headingLevel === 2 ? 3 : 4}
        />
      ) : null}
      <ConfirmDialog
        open={confirming}
        title="Replace the editor's text?"
        confirmLabel="Replace editor text"
        cancelLabel="Keep my text"
        danger
        onCancel={() => setConfirming(false)}
        onConfirm={() => {
          setConfirming(false);
          if (state.phase === "done") onUse(state.draft.toml_content, state.draft);
        }}
      >
        <p>The draft takes the place of the text in the editor. Undo (Ctrl+Z) in the editor brings your text back; nothing is saved until you save.</p>
      </ConfirmDialog>
    </section>
  );
}

interface ProgressRow {
  key: string;
  text: string;
  tone: "done" | "active" | "problem" | "switch";
  details?: string[];
}

/** The stream's events as the steps a person follows (the engine's errors and the correction on one line). */
export function progressRows(progress: DraftProgress[], phase: DraftState["phase"]): ProgressRow[] {
  const rows: ProgressRow[] = [];
  progress.forEach((event, index) => {
    const key = `${index}-${event.step}`;
    switch (event.step) {
      case "intent":
        rows.push({ key, text: "Read your request", tone: "done" });
        break;
      case "match":
        rows.push({ key, text: `Offered ${event.templates_count ?? "the"} templates to the AI as examples`, tone: "done" });
        break;
      case "generate":
        rows.push({
          key,
          text: (event.round ?? 0) === 0 ? `Writing the pipeline${event.provider ? ` with ${event.provider}` : ""}` : `Rewriting the pipeline with the engine's errors (round ${event.round} of ${MAX_CORRECTIONS})`,
          tone: "done",
        });
        break;
      case "validate": {
        if (event.valid) {
          rows.push({ key, text: "The engine checked the pipeline: no errors", tone: "done" });
          break;
        }
        const count = event.errors?.length ?? 0;
        const next = progress[index + 1];
        const correcting = next?.step === "correct" ? ` — correcting (round ${next.round ?? (event.round ?? 0) + 1} of ${MAX_CORRECTIONS})` : "";
        rows.push({ key, text: `The engine found ${count} error${count === 1 ? "" : "s"}${correcting}`, tone: "problem", details: event.errors?.map((error) => `${error.code}: ${error.message}`) });
        break;
      }
      case "correct":
        break; // shown with the errors it answers
      case "fallback":
        rows.push({ key, text: `Switched provider: ${event.message}`, tone: "switch" });
        break;
      case "done":
        rows.push({ key, text: "The draft is ready", tone: "done" });
        break;
    }
  });
  const last = rows[rows.length - 1];
  if (phase === "drafting" && last && last.tone === "done") last.tone = "active";
  if (phase === "drafting" && rows.length === 0) rows.push({ key: "start", text: "Sending your request", tone: "active" });
  return rows;
}

const MARKS: Record<ProgressRow["tone"], string> = { done: "✓", active: "◌", problem: "!", switch: "↪" };

function DraftProgressList({ state }: { state: DraftState }) {
  if (state.phase === "idle") return null;
  const rows = progressRows(state.progress, state.phase);
  if (rows.length === 0) return null;
  return (
    <ol className="ai-steps" aria-label="Drafting steps" aria-live="polite">
      {rows.map((row) => (
        <li key={row.key} className={`ai-step ai-step-${row.tone}`}>
          <span className="ai-step-mark" aria-hidden="true">
            {MARKS[row.tone]}
          </span>
          <span>
            {row.text}
            {row.tone === "active" ? <span className="visually-hidden"> (in progress)</span> : null}
            {row.details && row.details.length > 0 ? (
              <ul className="ai-step-details">
                {row.details.slice(0, 5).map((detail, at) => (
                  <li key={at} className="mono">
                    {detail}
                  </li>
                ))}
              </ul>
            ) : null}
          </span>
        </li>
      ))}
    </ol>
  );
}

/** The draft as the user judges it before taking it. */
export function DraftView({ draft, useLabel, onUse, onDiscard, headingLevel }: { draft: Draft; useLabel: string; onUse: () => void; onDiscard: () => void; headingLevel: 3 | 4 }) {
  const Heading = `h${headingLevel}` as const;
  const titleId = useId();
  const percent = Math.round(draft.confidence * 100);
  const level = draft.confidence >= 0.8 ? "high" : draft.confidence >= 0.6 ? "medium" : "low";
  return (
    <section className="ai-draft" aria-labelledby={titleId}>
      <div className="ai-draft-head">
        <Heading id={titleId}>The draft</Heading>
        <span className="ai-chip" title="The provider and model that wrote the draft">
          written by {draft.provider.provider} · {draft.provider.model}
        </span>
        <span className="ai-confidence">
          <label htmlFor={`${titleId}-confidence`}>Confidence</label>
          <meter id={`${titleId}-confidence`} min={0} max={1} low={0.6} high={0.8} optimum={1} value={draft.confidence}>
            {percent}%
          </meter>
          <span>
            {percent}% ({level})
          </span>
        </span>
        <span className="muted">
          {draft.rounds <= 1 ? "valid at the first try" : `valid after ${draft.rounds - 1} correction${draft.rounds === 2 ? "" : "s"}`}
          {draft.cached ? " · the same request was answered before; this is that draft" : ""}
        </span>
      </div>
      <p className="ai-summary">{draft.explanation.summary}</p>
      {draft.validation.warnings.length > 0 ? (
        <div className="ai-warnings" role="note" aria-label="Warnings">
          <strong>
            {draft.validation.warnings.length} warning{draft.validation.warnings.length === 1 ? "" : "s"} from the engine
          </strong>
          <ul>
            {draft.validation.warnings.map((warning, index) => (
              <li key={index}>
                <span className="mono">{warning.code}</span> {warning.message}
                {warning.suggestion ? <span className="muted"> — {warning.suggestion}</span> : null}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <div className="ai-draft-body">
        <Suspense fallback={<pre className="ai-toml">{draft.toml_content}</pre>}>
          <TomlPreview text={draft.toml_content} label="The draft's TOML (read-only)" />
        </Suspense>
        {draft.explanation.steps.length > 0 ? (
          <div className="ai-table-wrap">
            <table className="ai-steps-table">
              <caption>What each rule does</caption>
              <thead>
                <tr>
                  <th scope="col">Rule</th>
                  <th scope="col">Tool</th>
                  <th scope="col">Purpose</th>
                  <th scope="col">Key settings</th>
                  <th scope="col">Why this tool</th>
                </tr>
              </thead>
              <tbody>
                {draft.explanation.steps.map((step) => (
                  <tr key={step.rule}>
                    <th scope="row" className="mono">
                      {step.rule}
                    </th>
                    <td className="mono">{step.tool}</td>
                    <td>{step.purpose || <span className="muted">—</span>}</td>
                    <td>{step.key_params || <span className="muted">—</span>}</td>
                    <td>
                      {step.why_chosen}
                      {otherTools(draft, step.rule)}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : null}
      </div>
      <div className="ai-actions">
        <button type="button" className="ai-primary" onClick={onUse}>
          {useLabel}
        </button>
        <button type="button" onClick={onDiscard}>
          Discard the draft
        </button>
        <span className="muted">Not saved: you save it from the editor.</span>
      </div>
    </section>
  );
}

/** The other tools strand knows for a rule's step, as a note under why this one was chosen. */
function otherTools(draft: Draft, rule: string) {
  const others = draft.alternatives.filter((entry) => entry.rule === rule && entry.alternatives.length > 0);
  if (others.length === 0) return null;
  return (
    <div className="muted">
      Other options: {others.flatMap((entry) => entry.alternatives).join(", ")}
    </div>
  );
}
