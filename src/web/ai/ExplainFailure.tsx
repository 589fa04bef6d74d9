/**
 * "Explain with AI" on a failed run, beside the deterministic diagnosis: the model's explanation of the
 * failed job, grounded in its stderr tail, exit code and command. The explanation is shown as text (the
 * model's Markdown read for paragraphs, lists, quotes and code, never as HTML); the evidence it really quotes
 * (found by the service by matching, not taken from the model's word) is highlighted as quotes; then the fix
 * to try and which provider answered. It can be cancelled while it works.
 */
import { useQuery } from "@tanstack/react-query";
import { useEffect, useId, useRef, useState, type ReactNode } from "react";
import type { components } from "../../client/api-types.js";
import { explainFailure, useAiConfig } from "../api/ai.js";
import { diagnosticsQuery } from "../api/runs.js";
import { AiNotConfigured, AiProblem } from "./AiProblem.js";
import "./ai.css";

type Explanation = components["schemas"]["ExplainResult"];
type Citation = Explanation["citations"][number];

type ExplainState = { phase: "idle" } | { phase: "working"; job?: string } | { phase: "done"; result: Explanation } | { phase: "failed"; error: Error } | { phase: "cancelled" };

export function ExplainFailure({ runId }: { runId: string }) {
  const [state, setState] = useState<ExplainState>({ phase: "idle" });
  const [job, setJob] = useState("");
  const current = useRef<AbortController | null>(null);
  const jobId = useId();
  // The same answer the diagnostics above show (one request): the failed jobs to choose from.
  const diagnostics = useQuery(diagnosticsQuery(runId));
  const jobs = [...new Set((diagnostics.data?.failures ?? []).map((failure) => failure.job).filter((name): name is string => Boolean(name)))];

  // Leaving the page, or another run, stops the request (and the model call behind it) and starts afresh.
  useEffect(
    () => () => {
      const abort = current.current;
      current.current = null;
      abort?.abort();
    },
    [runId],
  );
  const [explaining, setExplaining] = useState(runId);
  if (explaining !== runId) {
    setExplaining(runId);
    setState({ phase: "idle" });
  }

  const run = async () => {
    current.current?.abort();
    const abort = new AbortController();
    current.current = abort;
    setState({ phase: "working", job: job || undefined });
    try {
      const result = await explainFailure({ run_id: runId, ...(job ? { job } : {}) }, abort.signal);
      if (current.current === abort) setState({ phase: "done", result });
    } catch (error) {
      if (current.current !== abort) return;
      setState(abort.signal.aborted ? { phase: "cancelled" } : { phase: "failed", error: error instanceof Error ? error : new Error(String(error)) });
    }
  };
  const working = state.phase === "working";
  // Without a provider there is nothing to ask: say how to set one up instead of offering the button.
  const config = useAiConfig();
  if (config.data && !config.data.is_configured) {
    return (
      <section className="ai-explain" aria-labelledby="ai-explain-title">
        <h3 id="ai-explain-title">Explanation by AI</h3>
        <AiNotConfigured what="explain failed runs" />
      </section>
    );
  }

  return (
    <section className="ai-explain" aria-labelledby="ai-explain-title" aria-busy={working}>
      <div className="ai-explain-head">
        <h3 id="ai-explain-title">Explanation by AI</h3>
        {jobs.length > 1 ? (
          <label htmlFor={jobId} className="muted">
            Job{" "}
            <select id={jobId} value={job} onChange={(event) => setJob(event.target.value)} disabled={working}>
              <option value="">the first failure ({jobs[0]})</option>
              {jobs.map((name) => (
                <option key={name} value={name}>
                  {name}
                </option>
              ))}
            </select>
          </label>
        ) : null}
        <button type="button" className="ai-primary" onClick={() => void run()} disabled={working} aria-busy={working}>
          {working ? "Explaining…" : state.phase === "done" ? "Explain again" : "Explain with AI"}
        </button>
        {working ? (
          <button type="button" onClick={() => current.current?.abort()}>
            Cancel
          </button>
        ) : null}
        {state.phase === "idle" ? <span className="muted">An AI reads the failed job's error output, exit code and command, and explains what went wrong.</span> : null}
      </div>
      <div aria-live="polite">
        {working ? (
          <p className="muted" role="status">
            <span className="ai-spinner" aria-hidden="true">
              ◌
            </span>{" "}
            Reading the error output of {state.job ?? jobs[0] ?? "the failed job"} and asking the AI…
          </p>
        ) : null}
        {state.phase === "cancelled" ? (
          <p className="muted" role="status">
            Cancelled.
          </p>
        ) : null}
      </div>
      {state.phase === "failed" ? <AiProblem error={state.error} what="explain failed runs" /> : null}
      {state.phase === "done" ? <ExplanationView result={state.result} /> : null}
    </section>
  );
}

const KINDS: Record<Citation["kind"], string> = { stderr: "error output", exit_code: "exit code", command: "command" };

function ExplanationView({ result }: { result: Explanation }) {
  const cited = new Set(result.citations.map((citation) => citation.text.trim()));
  return (
    <div className="ai-explanation">
      <p className="muted">
        {result.job ? (
          <>
            About job <span className="mono">{result.job}</span> ·{" "}
          </>
        ) : null}
        answered by {result.provider.provider} · {result.provider.model} · an AI's reading: check it against the log
      </p>
      <div className="ai-explain-text">
        <TextBlocks text={result.summary} cited={cited} />
      </div>
      {result.citations.length > 0 ? (
        <div>
          <h4 className="ai-subtitle">What it quotes from the job</h4>
          <ul className="ai-citations" aria-label="Quoted evidence">
            {result.citations.map((citation, index) => (
              <li key={index}>
                <blockquote className="ai-citation">
                  <span className="ai-citation-kind">
                    {KINDS[citation.kind]}
                    {citation.job ? ` of ${citation.job}` : ""}
                  </span>
                  {citation.kind === "command" ? <code>{citation.text}</code> : <q>{citation.text}</q>}
                </blockquote>
              </li>
            ))}
          </ul>
        </div>
      ) : (
        <p className="muted">The explanation quotes none of the job's output: weigh it against the log below.</p>
      )}
      {result.fix_suggestion ? (
        <div className="ai-fix">
          <h4>What to try</h4>
          <p>{result.fix_suggestion.action}</p>
          <p className="muted">
            {result.fix_suggestion.estimated_impact ? `${result.fix_suggestion.estimated_impact} · ` : ""}strand does not change anything for you: make the change, then retry the run.
          </p>
        </div>
      ) : null}
    </div>
  );
}

/**
 * The model's Markdown as React text: headings, paragraphs, `-`/`1.` lists, `>` quotes (a quote of a cited line is
 * marked), `code` and **bold**. Nothing is ever inserted as HTML.
 */
export function TextBlocks({ text, cited }: { text: string; cited: Set<string> }) {
  const blocks: ReactNode[] = [];
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  let at = 0;
  while (at < lines.length) {
    const line = lines[at]!;
    if (line.trim() === "") {
      at++;
      continue;
    }
    if (/^\s*```/.test(line)) {
      const body: string[] = [];
      at++;
      while (at < lines.length && !/^\s*```/.test(lines[at]!)) body.push(lines[at++]!);
      at++;
      blocks.push(
        <pre key={blocks.length} className="ai-code">
          {body.join("\n")}
        </pre>,
      );
      continue;
    }
    if (/^\s*>/.test(line)) {
      const quoted: string[] = [];
      while (at < lines.length && /^\s*>/.test(lines[at]!)) quoted.push(lines[at++]!.replace(/^\s*>\s?/, ""));
      blocks.push(
        <blockquote key={blocks.length} className={quoted.some((entry) => cited.has(entry.trim())) ? "ai-quote ai-quote-cited" : "ai-quote"}>
          {quoted.map((entry, index) => (
            <span key={index} className="ai-quote-line">
              {cited.has(entry.trim()) ? <mark>{entry}</mark> : inline(entry)}
            </span>
          ))}
        </blockquote>,
      );
      continue;
    }
    if (/^#{1,6}\s+/.test(line)) {
      blocks.push(
        <p key={blocks.length} className="ai-explain-heading">
          <strong>{inline(line.replace(/^#{1,6}\s+/, ""))}</strong>
        </p>,
      );
      at++;
      continue;
    }
    const listItem = /^\s*(?:[-*•]|\d+[.)])\s+/;
    if (listItem.test(line)) {
      const ordered = /^\s*\d/.test(line);
      const items: string[] = [];
      while (at < lines.length && listItem.test(lines[at]!)) items.push(lines[at++]!.replace(listItem, ""));
      const List = ordered ? "ol" : "ul";
      blocks.push(
        <List key={blocks.length}>
          {items.map((item, index) => (
            <li key={index}>{inline(item)}</li>
          ))}
        </List>,
      );
      continue;
    }
    const paragraph: string[] = [];
    while (at < lines.length && lines[at]!.trim() !== "" && !/^\s*(>|```|#{1,6}\s)/.test(lines[at]!) && !listItem.test(lines[at]!)) paragraph.push(lines[at++]!);
    blocks.push(<p key={blocks.length}>{inline(paragraph.join(" "))}</p>);
  }
  return <>{blocks}</>;
}

/** `code` and **bold** within a line, as elements around plain text. */
function inline(text: string): ReactNode[] {
  const parts: ReactNode[] = [];
  const pattern = /`([^`]+)`|\*\*([^*]+)\*\*/g;
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    if (match.index > last) parts.push(text.slice(last, match.index));
    parts.push(match[1] !== undefined ? <code key={match.index}>{match[1]}</code> : <strong key={match.index}>{match[2]}</strong>);
    last = match.index + match[0].length;
  }
  if (last < text.length) parts.push(text.slice(last));
  return parts;
}
