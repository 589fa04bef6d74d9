/**
 * The editor's graph with an "Edit graph" mode: a toolbar to add, connect, rename and remove rules and to
 * disconnect edges, with undo and redo (the service's history of graph edits); dragging between handles
 * connects, and keys on a focused rule or edge do the same from the keyboard. Every edit replaces the
 * editor's text with the service's answer and leaves it unsaved: the user saves.
 */
import { useId, useMemo, useState, type FormEvent, type KeyboardEvent } from "react";
import { ConfirmDialog } from "../components/ConfirmDialog.js";
import { ErrorNotice } from "../components/ErrorNotice.js";
import { ModalDialog } from "../components/ModalDialog.js";
import { DagView, edgeKey, type DagEditHandlers } from "./DagView.js";
import type { DagEdge, DagNode } from "./drawn-graph.js";
import { useGraphCommands, type GraphTextAccess } from "./useGraphCommands.js";
import "./graph-editing.css";

/** What the service accepts as a rule name. */
const RULE_NAME = /^[A-Za-z0-9_:-]+$/;

/** Why a proposed rule name cannot be used, or undefined when it can. */
function nameProblem(name: string, taken: ReadonlySet<string>): string | undefined {
  if (name === "") return "Give the rule a name.";
  if (!RULE_NAME.test(name)) return "Use only letters, digits, _, - and : (no spaces).";
  if (taken.has(name)) return `A rule named ${name} already exists.`;
  return undefined;
}

/** Paths typed one per line or separated by commas. */
const pathsOf = (text: string) =>
  text
    .split(/[\n,]/)
    .map((path) => path.trim())
    .filter((path) => path !== "");

type Dialog = { kind: "add" } | { kind: "rename"; rule: string } | { kind: "remove"; rule: string } | { kind: "connect"; from: string };

export interface EditableDagViewProps {
  nodes: DagNode[];
  edges: DagEdge[];
  selected?: string;
  onSelect: (id: string | undefined) => void;
  label?: string;
  /** The history key and the editor's text. */
  access: GraphTextAccess;
}

/** The DAG view with its "Edit graph" toggle, toolbar and dialogs. */
export function EditableDagView({ nodes, edges, selected, onSelect, label = "Pipeline graph", access }: EditableDagViewProps) {
  const [editing, setEditing] = useState(false);
  const [dialog, setDialog] = useState<Dialog | undefined>();
  const [chosenEdge, setChosenEdge] = useState<DagEdge | undefined>();
  const commands = useGraphCommands(access);
  const names = useMemo(() => new Set(nodes.map((node) => node.id)), [nodes]);
  const selectedRule = selected !== undefined && names.has(selected) ? selected : undefined;
  const edge = chosenEdge && edges.some((known) => edgeKey(known) === edgeKey(chosenEdge)) ? chosenEdge : undefined;

  const run = async (...args: Parameters<typeof commands.run>) => {
    const outcome = await commands.run(...args);
    if (outcome === undefined) return false;
    // The affected rule stays selected (the graph re-lays out around it); a removed one is not selectable.
    onSelect(outcome.select);
    setChosenEdge(undefined);
    return true;
  };

  const handlers: DagEditHandlers = {
    onConnect: (from, to) => void run({ operation: "connect", payload: { from, to } }, { select: to }),
    onDisconnect: (from, to) => void run({ operation: "disconnect", payload: { from, to } }, { select: to }),
    onRemove: (rule) => setDialog({ kind: "remove", rule }),
    onRename: (rule) => setDialog({ kind: "rename", rule }),
    onConnectFrom: (from) => setDialog({ kind: "connect", from }),
  };

  // Ctrl+Z and Ctrl+Shift+Z (or Ctrl+Y) while the graph panel has the focus: the service's undo and redo.
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (!editing || !(event.ctrlKey || event.metaKey) || dialog) return;
    const key = event.key.toLowerCase();
    if (key === "z" && !event.shiftKey) {
      event.preventDefault();
      if (commands.canUndo) commands.undo();
    } else if ((key === "z" && event.shiftKey) || key === "y") {
      event.preventDefault();
      if (commands.canRedo) commands.redo();
    }
  };

  const dependents = (rule: string) => edges.filter((known) => known.source === rule).map((known) => known.target);

  return (
    <div className="graph-editing" onKeyDown={onKeyDown}>
      <div className="graph-edit-bar" role="toolbar" aria-label="Graph editing">
        <button type="button" aria-pressed={editing} onClick={() => setEditing((value) => !value)} className={editing ? "graph-edit-on" : undefined}>
          {editing ? "✎ Editing graph" : "✎ Edit graph"}
        </button>
        {editing && (
          <>
            <span className="graph-edit-sep" aria-hidden="true" />
            <button type="button" onClick={() => setDialog({ kind: "add" })} aria-haspopup="dialog" disabled={commands.pending}>
              + Add rule
            </button>
            <button type="button" onClick={() => selectedRule && setDialog({ kind: "connect", from: selectedRule })} disabled={!selectedRule || commands.pending} aria-haspopup="dialog" aria-keyshortcuts="C" title="Connect the selected rule to a rule that depends on it (C)">
              Connect to…
            </button>
            <button type="button" onClick={() => selectedRule && setDialog({ kind: "rename", rule: selectedRule })} disabled={!selectedRule || commands.pending} aria-haspopup="dialog" aria-keyshortcuts="F2" title="Rename the selected rule (F2)">
              Rename
            </button>
            <button type="button" onClick={() => selectedRule && setDialog({ kind: "remove", rule: selectedRule })} disabled={!selectedRule || commands.pending} aria-haspopup="dialog" aria-keyshortcuts="Delete" title="Remove the selected rule (Delete)">
              Remove
            </button>
            <button
              type="button"
              onClick={() => edge && handlers.onDisconnect(edge.source, edge.target)}
              disabled={!edge || commands.pending}
              aria-label={edge ? `Disconnect: ${edge.target} no longer depends on ${edge.source}` : "Disconnect (choose an edge first)"}
              title="Remove the chosen edge (Delete)"
            >
              Disconnect
            </button>
            <span className="graph-edit-sep" aria-hidden="true" />
            <button type="button" onClick={commands.undo} disabled={!commands.canUndo} aria-keyshortcuts="Control+Z" title={`Undo the last graph edit (Ctrl+Z)${commands.depths.undo ? ` · ${commands.depths.undo} to undo` : ""}`}>
              ↶ Undo
            </button>
            <button type="button" onClick={commands.redo} disabled={!commands.canRedo} aria-keyshortcuts="Control+Shift+Z" title={`Redo (Ctrl+Shift+Z)${commands.depths.redo ? ` · ${commands.depths.redo} to redo` : ""}`}>
              ↷ Redo
            </button>
            <span className="graph-edit-status muted" role="status" aria-live="polite">
              {commands.pending ? "Applying…" : commands.lastOperation ? describe(commands.lastOperation) : selectedRule ? `Selected: ${selectedRule}` : "Select a rule, or drag from a rule's lower handle to another rule"}
            </span>
          </>
        )}
      </div>
      {editing && commands.error && !dialog && (
        <div className="graph-edit-notice">
          <ErrorNotice error={commands.error} />
          <button type="button" onClick={commands.dismissError} aria-label="Dismiss the error">
            Dismiss
          </button>
        </div>
      )}
      {editing && commands.textMovedOn && (
        <p className="graph-edit-hint muted" role="note">
          The text changed since the last graph edit: graph undo starts again from here (the editor&apos;s own Ctrl+Z still works in the text).
        </p>
      )}
      {editing && commands.problems.length > 0 && (
        <div className="graph-edit-problems" role="region" aria-label="Problems after the edit">
          <p>The edit was applied; the text now has {commands.problems.length === 1 ? "a problem" : `${commands.problems.length} problems`}:</p>
          <ul>
            {commands.problems.slice(0, 5).map((problem, index) => (
              <li key={index}>
                <strong>{problem.code}</strong> {problem.message}
                {problem.suggestion ? <span className="muted"> — {problem.suggestion}</span> : null}
              </li>
            ))}
          </ul>
        </div>
      )}
      <div className="graph-edit-canvas">
        <DagView
          nodes={nodes}
          edges={edges}
          selected={selected}
          onSelect={onSelect}
          label={label}
          editing={editing ? handlers : undefined}
          selectedEdge={edge ? edgeKey(edge) : undefined}
          onSelectEdge={setChosenEdge}
        />
      </div>

      <RuleNameDialog
        open={dialog?.kind === "add"}
        title="Add a rule"
        taken={names}
        withPaths
        submitLabel="Add rule"
        error={dialog?.kind === "add" ? commands.error : null}
        busy={commands.pending}
        onCancel={() => setDialog(undefined)}
        onSubmit={async ({ name, input, output, shell }) => {
          // Fields left empty stay out of the text (no `input = []`, no empty command).
          const rule = { name, ...(input.length > 0 ? { input } : {}), ...(output.length > 0 ? { output } : {}), ...(shell !== "" ? { shell } : {}) };
          if (await run({ operation: "add_rule", payload: { rule } }, { select: name })) setDialog(undefined);
        }}
      />
      <RuleNameDialog
        open={dialog?.kind === "rename"}
        title={dialog?.kind === "rename" ? `Rename ${dialog.rule}` : "Rename"}
        initialName={dialog?.kind === "rename" ? dialog.rule : ""}
        taken={names}
        submitLabel="Rename"
        note="Every reference to it (depends_on, extends, gathers, execution groups) follows."
        error={dialog?.kind === "rename" ? commands.error : null}
        busy={commands.pending}
        onCancel={() => setDialog(undefined)}
        onSubmit={async ({ name }) => {
          if (dialog?.kind !== "rename") return;
          if (await run({ operation: "rename_rule", payload: { from: dialog.rule, to: name } }, { select: name })) setDialog(undefined);
        }}
      />
      <ConnectDialog
        from={dialog?.kind === "connect" ? dialog.from : undefined}
        candidates={nodes.map((node) => node.id).filter((id) => dialog?.kind === "connect" && id !== dialog.from && !edges.some((known) => known.source === dialog.from && known.target === id))}
        error={dialog?.kind === "connect" ? commands.error : null}
        busy={commands.pending}
        onCancel={() => setDialog(undefined)}
        onConnect={async (from, to) => {
          if (await run({ operation: "connect", payload: { from, to } }, { select: to })) setDialog(undefined);
        }}
      />
      <ConfirmDialog
        open={dialog?.kind === "remove"}
        title={dialog?.kind === "remove" ? `Remove rule ${dialog.rule}?` : "Remove rule"}
        confirmLabel={dialog?.kind === "remove" ? `Remove ${dialog.rule}` : "Remove"}
        busy={commands.pending}
        busyLabel="Removing…"
        error={dialog?.kind === "remove" ? commands.error : null}
        danger
        onCancel={() => setDialog(undefined)}
        onConfirm={async () => {
          if (dialog?.kind !== "remove") return;
          if (await run({ operation: "remove_rule", payload: { name: dialog.rule } })) setDialog(undefined);
        }}
      >
        {dialog?.kind === "remove" && (
          <>
            <p>
              The rule <strong>{dialog.rule}</strong> and its table leave the text.
            </p>
            {dependents(dialog.rule).length > 0 ? (
              <p>
                Its dependents lose the edge from it: {dependents(dialog.rule).join(", ")} (their depends_on no longer names it; an input they read from its outputs stays in the text).
              </p>
            ) : (
              <p>No rule depends on it.</p>
            )}
            <p className="muted">Nothing is saved until you save; Undo brings it back.</p>
          </>
        )}
      </ConfirmDialog>
    </div>
  );
}

/** The answer's operation in words, for the status line. */
function describe(operation: string): string {
  const words: Record<string, string> = {
    add_rule: "Rule added",
    remove_rule: "Rule removed",
    connect: "Connected",
    disconnect: "Disconnected",
    rename_rule: "Renamed",
    undo: "Undone",
    redo: "Redone",
  };
  return words[operation] ?? operation;
}

interface RuleFields {
  name: string;
  input: string[];
  output: string[];
  shell: string;
}

/** A form for a rule name (rename) or a new rule (name, input, output and shell), the name checked as typed. */
function RuleNameDialog({
  open,
  title,
  initialName = "",
  taken,
  withPaths = false,
  submitLabel,
  note,
  error,
  busy,
  onCancel,
  onSubmit,
}: {
  open: boolean;
  title: string;
  initialName?: string;
  taken: ReadonlySet<string>;
  withPaths?: boolean;
  submitLabel: string;
  note?: string;
  error: Error | null;
  busy: boolean;
  onCancel: () => void;
  onSubmit: (fields: RuleFields) => Promise<void>;
}) {
  const [name, setName] = useState(initialName);
  const [input, setInput] = useState("");
  const [output, setOutput] = useState("");
  const [shell, setShell] = useState("");
  const [touched, setTouched] = useState(false);
  const ids = useId();
  // Each opening (for a rule, when renaming) starts on empty fields and the given name.
  const opening = open ? initialName : undefined;
  const [openedFor, setOpenedFor] = useState(opening);
  if (openedFor !== opening) {
    setOpenedFor(opening);
    if (opening !== undefined) {
      setName(initialName);
      setInput("");
      setOutput("");
      setShell("");
      setTouched(false);
    }
  }
  const others = useMemo(() => new Set([...taken].filter((known) => known !== initialName)), [taken, initialName]);
  const problem = name === initialName && initialName !== "" ? "Type the new name." : nameProblem(name.trim(), others);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (problem || busy) return;
    void onSubmit({ name: name.trim(), input: pathsOf(input), output: pathsOf(output), shell: shell.trim() });
  };
  return (
    <ModalDialog open={open} title={title} onClose={() => busy || onCancel()}>
      <form className="graph-edit-form" onSubmit={submit} noValidate>
        <label htmlFor={`${ids}-name`}>Rule name</label>
        <input
          id={`${ids}-name`}
          value={name}
          onChange={(event) => {
            setName(event.target.value);
            setTouched(true);
          }}
          aria-invalid={touched && problem !== undefined}
          aria-describedby={`${ids}-name-help`}
          autoComplete="off"
          spellCheck={false}
          data-autofocus
        />
        <p id={`${ids}-name-help`} className={touched && problem ? "graph-edit-invalid" : "muted"} aria-live="polite">
          {touched && problem ? problem : "Letters, digits, _, - and :"}
        </p>
        {withPaths && (
          <>
            <label htmlFor={`${ids}-input`}>Input files</label>
            <textarea id={`${ids}-input`} value={input} onChange={(event) => setInput(event.target.value)} rows={2} placeholder="aligned/{sample}.bam" aria-describedby={`${ids}-paths-help`} spellCheck={false} />
            <label htmlFor={`${ids}-output`}>Output files</label>
            <textarea id={`${ids}-output`} value={output} onChange={(event) => setOutput(event.target.value)} rows={2} placeholder="stats/{sample}.txt" aria-describedby={`${ids}-paths-help`} spellCheck={false} />
            <p id={`${ids}-paths-help`} className="muted">
              One path per line or separated by commas; {"{sample}"} and other wildcards as in the text.
            </p>
            <label htmlFor={`${ids}-shell`}>Shell command</label>
            <textarea id={`${ids}-shell`} value={shell} onChange={(event) => setShell(event.target.value)} rows={3} placeholder="samtools stats {input} > {output}" spellCheck={false} />
          </>
        )}
        {note && <p className="muted">{note}</p>}
        {error ? <ErrorNotice error={error} /> : null}
        <div className="modal-actions">
          <button type="button" onClick={onCancel} disabled={busy}>
            Cancel
          </button>
          <button type="submit" className="modal-primary" disabled={busy} aria-busy={busy}>
            {busy ? "Applying…" : submitLabel}
          </button>
        </div>
      </form>
    </ModalDialog>
  );
}

/** "Connect to…": the rule that is to depend on `from`, picked from a list. */
function ConnectDialog({
  from,
  candidates,
  error,
  busy,
  onCancel,
  onConnect,
}: {
  from: string | undefined;
  candidates: string[];
  error: Error | null;
  busy: boolean;
  onCancel: () => void;
  onConnect: (from: string, to: string) => Promise<void>;
}) {
  const id = useId();
  // A new dialog starts on the first candidate.
  const first = candidates[0] ?? "";
  const [chosen, setChosen] = useState<{ from: string | undefined; first: string; target: string }>({ from, first, target: first });
  const target = chosen.from === from && chosen.first === first ? chosen.target : first;
  const setTarget = (next: string) => setChosen({ from, first, target: next });
  return (
    <ModalDialog open={from !== undefined} title={from ? `Connect ${from} to…` : "Connect"} onClose={() => busy || onCancel()}>
      <form
        className="graph-edit-form"
        onSubmit={(event) => {
          event.preventDefault();
          if (from && target && !busy) void onConnect(from, target);
        }}
      >
        {candidates.length === 0 ? (
          <p>Every other rule already depends on {from}; add a rule first.</p>
        ) : (
          <>
            <label htmlFor={id}>Rule that will depend on {from}</label>
            <select id={id} value={target} onChange={(event) => setTarget(event.target.value)} data-autofocus>
              {candidates.map((candidate) => (
                <option key={candidate} value={candidate}>
                  {candidate}
                </option>
              ))}
            </select>
            <p className="muted">Adds {from} to its depends_on, so it runs after {from}.</p>
          </>
        )}
        {error ? <ErrorNotice error={error} /> : null}
        <div className="modal-actions">
          <button type="button" onClick={onCancel} disabled={busy}>
            Cancel
          </button>
          <button type="submit" className="modal-primary" disabled={busy || candidates.length === 0} aria-busy={busy}>
            {busy ? "Connecting…" : "Connect"}
          </button>
        </div>
      </form>
    </ModalDialog>
  );
}
