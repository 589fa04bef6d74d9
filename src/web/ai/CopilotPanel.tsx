/**
 * The copilot beside the editor: a conversation whose replies stream in as text (code blocks shown as code,
 * never as HTML), the tools the model used, a status line while it works, Stop, and past sessions. A
 * proposed pipeline is a card with its changes against the editor's text and the engine's verdict; it
 * reaches the editor only through "Apply to editor", unsaved, and nothing here saves anything.
 */
import { useQuery } from "@tanstack/react-query";
import { lazy, Suspense, useEffect, useRef, useState, type KeyboardEvent as ReactKeyboardEvent } from "react";
import { useAiConfig } from "../api/ai.js";
import { chatSessionsQuery, useDeleteChatSession } from "../api/chat.js";
import { ConfirmDialog } from "../components/ConfirmDialog.js";
import { AiNotConfigured, AiProblem } from "./AiProblem.js";
import { TomlPreview } from "./TomlPreview.js";
import { useChat, type ChatContext, type ChatToolUse, type ProposedPipeline } from "./useChat.js";
import "./copilot.css";

// The diff brings CodeMirror's merge view: loaded when a proposal first shows.
const CopilotDiff = lazy(() => import("./CopilotDiff.js"));

/** The panel; `context` is read at each send, `editorText` when a proposal is compared, `onApply` puts a proposal in the editor. */
export function CopilotPanel({ onClose, context, editorText, onApply, initialRunId }: { onClose: () => void; context: () => ChatContext; editorText: () => string; onApply: (toml: string) => void; initialRunId?: string }) {
  const chat = useChat();
  const [draft, setDraft] = useState("");
  const [historyOpen, setHistoryOpen] = useState(false);
  const composer = useRef<HTMLTextAreaElement>(null);
  const list = useRef<HTMLOListElement>(null);
  // No provider: say so at once, with the way to the settings, rather than after a first message.
  const config = useAiConfig();
  const off = config.data !== undefined && !config.data.is_configured;

  useEffect(() => composer.current?.focus(), []);
  // Follow the reply as it grows, unless the user scrolled up to read.
  const lastText = chat.entries.at(-1)?.text;
  useEffect(() => {
    const element = list.current;
    if (element && element.scrollHeight - element.scrollTop - element.clientHeight < 120) element.scrollTop = element.scrollHeight;
  }, [lastText, chat.entries.length]);

  const submit = () => {
    const message = draft.trim();
    if (message === "" || chat.sending) return;
    setDraft("");
    void chat.send(message, { ...context(), ...(initialRunId ? { run_id: initialRunId } : {}) });
  };
  const onComposerKey = (event: ReactKeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      submit();
    }
  };
  const announce = chat.finished.count === 0 ? "" : chat.finished.how === "done" ? "The copilot replied." : chat.finished.how === "stopped" ? "The reply was stopped." : "The reply failed.";

  return (
    <aside className="copilot" aria-labelledby="copilot-title" onKeyDown={(event) => event.key === "Escape" && !historyOpen && (event.preventDefault(), onClose())}>
      <div className="copilot-head">
        <h2 id="copilot-title">Copilot</h2>
        <div className="copilot-head-buttons">
          <button type="button" onClick={() => setHistoryOpen((open) => !open)} aria-expanded={historyOpen} aria-controls="copilot-history">
            History
          </button>
          <button
            type="button"
            onClick={() => {
              chat.newChat();
              setHistoryOpen(false);
              composer.current?.focus();
            }}
          >
            New chat
          </button>
          <button type="button" className="copilot-close" onClick={onClose} aria-label="Close the copilot" title="Close (Esc)">
            ✕
          </button>
        </div>
      </div>
      {historyOpen ? (
        <SessionHistory
          current={chat.sessionId}
          onOpen={(id) => {
            setHistoryOpen(false);
            void chat.openSession(id).then(() => composer.current?.focus());
          }}
          onDeleted={chat.forget}
          onClose={() => setHistoryOpen(false)}
        />
      ) : null}
      {initialRunId ? <p className="copilot-context muted">Asking about run <span className="mono">{initialRunId}</span>: the copilot can read its status, diagnosis and job logs.</p> : null}
      {off ? (
        <div className="copilot-off">
          <AiNotConfigured what="answer questions about your pipelines" />
        </div>
      ) : null}
      <ol hidden={off} className="copilot-messages" ref={list} aria-label="Conversation" tabIndex={0}>
        {chat.entries.length === 0 && !chat.problem ? (
          <li className="copilot-empty">
            <p>Ask about this pipeline: what a rule does, why a check fails, which tool to use, or ask for a change. The copilot sees the editor's text; a pipeline it proposes is only applied when you say so.</p>
          </li>
        ) : null}
        {chat.entries.map((entry) => (
          <li key={entry.key} className={`copilot-entry copilot-${entry.role}`}>
            <span className="visually-hidden">{entry.role === "user" ? "You said:" : "Copilot:"}</span>
            {entry.tools.length > 0 ? <ToolUses tools={entry.tools} /> : null}
            {entry.text !== "" ? <MessageText text={entry.text} /> : entry.state === "streaming" ? <p className="copilot-typing muted">…</p> : null}
            {entry.state === "stopped" ? <p className="copilot-cut muted">Stopped: the reply above is as far as it got.</p> : null}
            {entry.state === "failed" && entry.error ? <AiProblem error={entry.error} what="answer questions about pipelines" /> : null}
            {entry.pipeline ? <PipelineCard key={entry.pipeline.toml} pipeline={entry.pipeline} editorText={editorText} onApply={onApply} onDismiss={() => chat.dismissPipeline(entry.key)} /> : null}
          </li>
        ))}
      </ol>
      {chat.problem ? <AiProblem error={chat.problem} what="answer questions about your pipelines" /> : null}
      <p className="visually-hidden" aria-live="polite">
        {announce}
      </p>
      <div className="copilot-status" role="status">
        {chat.sending ? (
          <>
            <span className="copilot-spinner" aria-hidden="true" /> {capitalise(chat.status ?? "working")}…
          </>
        ) : null}
      </div>
      <form
        hidden={off}
        className="copilot-composer"
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <label htmlFor="copilot-message" className="visually-hidden">
          Message the copilot
        </label>
        <textarea id="copilot-message" ref={composer} value={draft} onChange={(event) => setDraft(event.target.value)} onKeyDown={onComposerKey} disabled={chat.sending} rows={3} placeholder="Ask the copilot… (Enter sends, Shift+Enter for a new line)" aria-describedby="copilot-hint" />
        <span id="copilot-hint" className="visually-hidden">
          Enter sends, Shift+Enter starts a new line.
        </span>
        <div className="copilot-composer-buttons">
          {chat.sending ? (
            <button type="button" onClick={chat.stop}>
              Stop
            </button>
          ) : null}
          <button type="submit" className="ai-primary" disabled={chat.sending || draft.trim() === ""}>
            Send
          </button>
        </div>
      </form>
    </aside>
  );
}

/** The tools the model used, one short line each. */
function ToolUses({ tools }: { tools: ChatToolUse[] }) {
  return (
    <ul className="copilot-tools" aria-label="Tools the copilot used">
      {tools.map((tool, index) => (
        <li key={index} className={tool.refused ? "copilot-tool-refused" : undefined} title={tool.summary}>
          <span aria-hidden="true">{tool.refused ? "⊘" : tool.summary === undefined ? "◌" : "✓"}</span> {toolPhrase(tool)}
          {tool.refused ? <strong> — refused</strong> : null}
        </li>
      ))}
    </ul>
  );
}

/** "looked up package bwa": what a tool call did, in words. */
export function toolPhrase(tool: Pick<ChatToolUse, "name" | "args" | "refused">): string {
  const args = (tool.args && typeof tool.args === "object" ? tool.args : {}) as Record<string, unknown>;
  const query = typeof args.query === "string" ? args.query : "";
  if (tool.refused) return `asked for ${tool.name}, which the copilot may not use`;
  switch (tool.name) {
    case "lookup_package":
      return `looked up package ${query}`.trim();
    case "lookup_domain":
      return `looked up ${query || "domain knowledge"}`;
    case "pipeline_graph":
      return "read the pipeline's graph";
    case "validate_pipeline":
      return "checked a pipeline with the engine";
    case "get_run_status":
      return "read the run's status";
    case "get_run_diagnostics":
      return "read the run's diagnosis";
    case "get_job_log":
      return `read the ${typeof args.stream === "string" ? args.stream : "stderr"} of job ${typeof args.job === "string" ? args.job : ""}`.trim();
    default:
      return `used ${tool.name}`;
  }
}

/** A reply's text: paragraphs as text, fenced blocks as code (an unclosed fence is code to the end while it streams). */
function MessageText({ text }: { text: string }) {
  return (
    <div className="copilot-text">
      {splitFences(text).map((part, index) =>
        part.code ? (
          <pre key={index} className="copilot-code" tabIndex={0} aria-label={part.lang ? `${part.lang} code` : "code"}>
            <code>{part.text}</code>
          </pre>
        ) : part.text.trim() !== "" ? (
          <p key={index}>{part.text.trim()}</p>
        ) : null,
      )}
    </div>
  );
}

/** Text and fenced code blocks, in order. */
export function splitFences(text: string): { code: boolean; lang?: string; text: string }[] {
  const parts: { code: boolean; lang?: string; text: string }[] = [];
  const fence = /^```([\w+-]*)[^\n]*\n([\s\S]*?)(?:^```[ \t]*$|(?![\s\S]))/gm;
  let at = 0;
  for (let match = fence.exec(text); match; match = fence.exec(text)) {
    if (match.index > at) parts.push({ code: false, text: text.slice(at, match.index) });
    parts.push({ code: true, lang: match[1] || undefined, text: match[2]!.replace(/\n$/, "") });
    at = match.index + match[0].length;
    if (match[0].length === 0) fence.lastIndex++;
  }
  if (at < text.length) parts.push({ code: false, text: text.slice(at) });
  return parts;
}

/** A proposed pipeline: its changes against the editor, the engine's verdict, Apply and Dismiss. */
function PipelineCard({ pipeline, editorText, onApply, onDismiss }: { pipeline: ProposedPipeline; editorText: () => string; onApply: (toml: string) => void; onDismiss: () => void }) {
  const [before] = useState(editorText);
  const [view, setView] = useState<"changes" | "toml">(before.trim() === "" ? "toml" : "changes");
  const [applied, setApplied] = useState(false);
  const validation = pipeline.validation;
  const errors = validation?.errors ?? [];
  return (
    <section className="copilot-card" aria-label="Proposed pipeline">
      <div className="copilot-card-head">
        <h3>Proposed pipeline</h3>
        {validation ? (
          <span className={validation.valid ? "copilot-valid" : "copilot-invalid"}>{validation.valid ? "✓ The engine accepts it" : `✕ ${errors.length} error${errors.length === 1 ? "" : "s"}`}</span>
        ) : null}
      </div>
      {errors.length > 0 ? (
        <ul className="copilot-card-errors" aria-label="The engine's errors">
          {errors.map((error, index) => (
            <li key={index}>
              <strong>{error.code}</strong>
              {error.line ? ` (line ${error.line})` : ""}: {error.message}
            </li>
          ))}
        </ul>
      ) : null}
      <div className="copilot-card-tabs" role="group" aria-label="Show">
        <button type="button" aria-pressed={view === "changes"} onClick={() => setView("changes")}>
          Changes
        </button>
        <button type="button" aria-pressed={view === "toml"} onClick={() => setView("toml")}>
          Whole TOML
        </button>
      </div>
      {view === "changes" ? (
        <Suspense fallback={<p className="muted">Comparing with the editor…</p>}>
          <CopilotDiff before={before} after={pipeline.toml} label="The proposed pipeline, its changes against the editor marked" />
        </Suspense>
      ) : (
        <TomlPreview text={pipeline.toml} label="The proposed pipeline's TOML (read-only)" />
      )}
      <div className="copilot-card-buttons">
        <button
          type="button"
          className="ai-primary"
          onClick={() => {
            onApply(pipeline.toml);
            setApplied(true);
          }}
        >
          Apply to editor
        </button>
        <button type="button" onClick={onDismiss}>
          Dismiss
        </button>
        {applied ? (
          <span className="muted" role="status">
            Applied: the editor holds it, not saved (Ctrl+Z in the editor undoes it).
          </span>
        ) : null}
      </div>
    </section>
  );
}

/** Past sessions: open one, or delete it after a confirmation. */
function SessionHistory({ current, onOpen, onDeleted, onClose }: { current?: string; onOpen: (id: string) => void; onDeleted: (id: string) => void; onClose: () => void }) {
  const sessions = useQuery(chatSessionsQuery());
  const [deleting, setDeleting] = useState<{ id: string; title: string } | undefined>();
  const remove = useDeleteChatSession({
    onSuccess: (_answer, id) => {
      onDeleted(id);
      setDeleting(undefined);
    },
  });
  const first = useRef<HTMLDivElement>(null);
  useEffect(() => first.current?.focus(), []);
  const items = sessions.data?.items ?? [];
  return (
    <div id="copilot-history" className="copilot-history" ref={first} tabIndex={-1} aria-label="Past conversations" role="region" onKeyDown={(event) => event.key === "Escape" && !deleting && (event.stopPropagation(), onClose())}>
      <h3>Past conversations</h3>
      {sessions.isPending ? <p className="muted">Loading…</p> : null}
      {sessions.isError ? <AiProblem error={sessions.error} /> : null}
      {sessions.isSuccess && items.length === 0 ? <p className="muted">No conversations yet: ask something below and it appears here.</p> : null}
      {items.length > 0 ? (
        <ul>
          {items.map((session) => (
            <li key={session.id} className={session.id === current ? "copilot-history-current" : undefined}>
              <button type="button" className="copilot-history-open" onClick={() => onOpen(session.id)} aria-current={session.id === current ? "true" : undefined}>
                <span className="copilot-history-title">{session.title}</span>
                <span className="muted">
                  <time dateTime={session.updated_at}>{new Date(session.updated_at).toLocaleString()}</time> · {session.message_count} message{session.message_count === 1 ? "" : "s"}
                </span>
              </button>
              <button type="button" className="copilot-history-delete" aria-label={`Delete “${session.title}”`} onClick={() => setDeleting({ id: session.id, title: session.title })}>
                Delete
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <ConfirmDialog
        open={deleting !== undefined}
        title="Delete this conversation?"
        confirmLabel="Delete"
        busyLabel="Deleting…"
        busy={remove.isPending}
        error={remove.error}
        danger
        onCancel={() => {
          remove.reset();
          setDeleting(undefined);
        }}
        onConfirm={() => deleting && remove.mutate(deleting.id)}
      >
        <p>“{deleting?.title}” and its messages are deleted for good.</p>
      </ConfirmDialog>
    </div>
  );
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

