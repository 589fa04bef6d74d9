/**
 * The pipeline editor: the TOML text (CodeMirror) beside its graph, both following the text as it is typed;
 * the service's validation and lint findings as inline markers and a problems panel with quick fixes;
 * stats; format; save (Ctrl/Cmd+S) with a guard against leaving unsaved changes (the document's state is
 * useDocument.ts). `/pipelines/:id` edits a saved pipeline; `/editor` is a scratch pipeline, saved only by
 * "Save as new pipeline". A scratch pipeline can be drafted with AI ("Draft with AI", or an AI draft opened
 * from the new-pipeline page in the route's state): the draft enters the editor only on the user's action,
 * and stays unsaved until saved. The copilot panel (toggled beside the editor, `?copilot=1` or
 * `?copilot_run=<run id>` opens it) sees the editor's text and applies a proposal only on "Apply to editor",
 * as an undoable edit.
 */
import { useQuery } from "@tanstack/react-query";
import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent as ReactKeyboardEvent, type PointerEvent as ReactPointerEvent } from "react";
import { useLocation, useNavigate, useParams, useSearchParams } from "react-router";
import { ApiError } from "../api/errors.js";
import { editedPipelineQuery } from "../api/pipelines.js";
import { useFormatPipeline, type Finding } from "../api/workflow-tooling.js";
import { ConfirmDialog } from "../components/ConfirmDialog.js";
import { ErrorNotice } from "../components/ErrorNotice.js";
import { ModalDialog } from "../components/ModalDialog.js";
import { CopilotPanel } from "../ai/CopilotPanel.js";
import { DescribePanel } from "../ai/DescribePanel.js";
import type { DagEdge, DagNode } from "../dag/drawn-graph.js";
import { PipelineActions } from "../pipelines/PipelineActions.js";
import { completionVocabulary, pipelineCompletion } from "./completion.js";
import { saveStateText, type DraftOrigin } from "./document-state.js";
import { findingRange, quickFixEdit, sortFindings, toDiagnostics } from "./findings.js";
import { usePipelineChecks, type ParsedRule, type PipelineCheck } from "./pipeline-checks.js";
import { ProblemsPanel } from "./ProblemsPanel.js";
import { RuleDetails } from "./RuleDetails.js";
import { StatsPanel } from "./StatsPanel.js";
import { TomlEditor, type TomlEditorHandle } from "./TomlEditor.js";
import { usePipelineDocument, type SavedPipeline } from "./useDocument.js";
import "./editor.css";

// The graph (React Flow and its styles, with its edit mode) loads after the editor is up, so typing can start sooner.
const EditableDagView = lazy(async () => ({ default: (await import("../dag/GraphEditing.js")).EditableDagView }));

const STARTER = `[workflow]
name = "my-pipeline"
version = "0.1.0"
description = "What this pipeline does"
author = "you"

[config]
reads_dir = "reads"

[[sample_groups]]
name = "all"
samples = ["S1", "S2"]

[[rules]]
name = "count_reads"
description = "Count the reads of each sample"
input = ["{config.reads_dir}/{sample}.fq"]
output = ["counts/{sample}.txt"]
log = "logs/count_reads/{sample}.log"
shell = "wc -l < {input} > {output} 2> {log}"

[[rules]]
name = "summary"
description = "Gather the counts"
input = ["counts/S1.txt", "counts/S2.txt"]
output = ["summary.txt"]
log = "logs/summary.log"
shell = "cat {input} > {output} 2> {log}"
`;

/** The editor page: loads a saved pipeline, or starts a scratch one. */
export function EditorPage() {
  const { id } = useParams();
  // An AI draft the user chose to open here (from the new-pipeline page): unsaved until they save it.
  const state = useLocation().state as { draft?: unknown; origin?: unknown } | null;
  const draft = state?.draft;
  const origin = state?.origin === "data" ? "data" : "ai";
  // The editor keeps its own copy of the text: a refetch must not look like someone else's change.
  const pipeline = useQuery({ ...editedPipelineQuery(id ?? ""), enabled: id !== undefined });
  if (id === undefined) return typeof draft === "string" ? <PipelineEditor key="draft" initialText={draft} fromDraft={origin} /> : <PipelineEditor key="scratch" initialText={STARTER} />;
  if (pipeline.isError) {
    return (
      <div className="wide-page editor-page">
        <ErrorNotice error={pipeline.error} />
      </div>
    );
  }
  if (!pipeline.data) {
    return (
      <div className="wide-page editor-page">
        <p className="muted" role="status">
          Loading the pipeline…
        </p>
      </div>
    );
  }
  return <PipelineEditor key={id} saved={pipeline.data} initialText={pipeline.data.toml_content} />;
}

function PipelineEditor({ saved, initialText, fromDraft }: { saved?: SavedPipeline; initialText: string; fromDraft?: DraftOrigin }) {
  const editor = useRef<TomlEditorHandle>(null);
  const navigate = useNavigate();
  const [notice, setNotice] = useState<Error | undefined>();
  const edited = usePipelineDocument({
    saved,
    initialText,
    fromDraft,
    onSaved: (answer) => {
      setNotice(undefined);
      if (!saved) void navigate(`/pipelines/${answer.id}`);
    },
    onSaveFailed: setNotice,
  });
  const { text, dirty } = edited;
  const [selectedRule, setSelectedRule] = useState<string | undefined>();
  const [split, setSplit] = useState(55);
  const [drafting, setDrafting] = useState(false);
  const [searchParams] = useSearchParams();
  const copilotRun = searchParams.get("copilot_run") ?? undefined;
  const [copilotOpen, setCopilotOpen] = useState(searchParams.get("copilot") === "1" || copilotRun !== undefined);
  const copilotToggle = useRef<HTMLButtonElement>(null);
  const closeCopilot = useCallback(() => {
    setCopilotOpen(false);
    requestAnimationFrame(() => copilotToggle.current?.focus());
  }, []);
  // Graph edits keep their undo history under the pipeline's id; an unsaved pipeline uses a key of its own.
  const [scratchKey] = useState(() => `scratch-${crypto.randomUUID?.() ?? `${Date.now()}-${Math.random().toString(36).slice(2)}`}`);
  const graphText = useMemo(() => ({ pipelineId: saved?.id ?? scratchKey, text: () => editor.current?.text() ?? "", replaceText: (next: string) => editor.current?.replaceText(next) }), [saved?.id, scratchKey]);

  const { check: current, checking, refused } = usePipelineChecks(text);
  // The last graph, parse and stats of a text that had them: kept while the text does not parse, so the
  // view does not go blank mid-edit (updated while rendering, as the check arrives).
  const [lastGood, setLastGood] = useState<Pick<PipelineCheck, "dag" | "parse" | "stats">>({});
  const [lastCheck, setLastCheck] = useState<PipelineCheck | undefined>(undefined);
  if (current !== lastCheck) {
    setLastCheck(current);
    if (current) setLastGood((previous) => ({ dag: current.dag ?? previous.dag, parse: current.parse ?? previous.parse, stats: current.stats ?? previous.stats }));
  }
  const findings = useMemo(() => sortFindings(current?.findings ?? []), [current]);

  useEffect(() => {
    if (current) editor.current?.showDiagnostics(current.text, (doc) => toDiagnostics(doc, current.findings));
  }, [current]);

  // Completion reads the vocabulary of the last text that parsed.
  const completion = useMemo(() => {
    const vocabulary = completionVocabulary(lastGood.parse, lastGood.stats);
    return pipelineCompletion(() => vocabulary);
  }, [lastGood]);

  const format = useFormatPipeline({
    onSuccess: (answer, content) => {
      setNotice(undefined);
      // Only if the text is still the one formatted: a keystroke during the request wins over the format.
      if (answer.changed && editor.current?.text() === content) editor.current.replaceText(answer.formatted);
      editor.current?.focus();
    },
    onError: (error) => setNotice(error),
  });

  const { save } = edited;
  const workflowName = lastGood.parse?.workflow.name;
  const saveNow = useCallback(() => save(editor.current?.text() ?? text, workflowName), [save, text, workflowName]);
  const formatNow = useCallback(() => {
    if (!format.isPending) format.mutate(editor.current?.text() ?? text);
  }, [format, text]);

  // Ctrl/Cmd+S anywhere on the page. The editor handles it itself when focused and marks the event handled:
  // saving again here sent a second save of the same revision, which the service refused as a conflict.
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented) return;
      if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === "s") {
        event.preventDefault();
        saveNow();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [saveNow]);

  const jumpTo = useCallback((finding: Pick<Finding, "line" | "column">) => {
    const handle = editor.current;
    if (!handle) return;
    const { from, to } = findingRange(handle.state().doc, finding);
    handle.select(from, to);
  }, []);
  const fixLabel = useCallback((finding: Finding) => (editor.current ? quickFixEdit(editor.current.state().doc, finding)?.label : undefined), []);
  const applyFix = useCallback((finding: Finding) => {
    const handle = editor.current;
    const edit = handle && quickFixEdit(handle.state().doc, finding);
    if (edit) handle.edit(edit.from, edit.to, edit.insert);
  }, []);

  const graph = lastGood.dag;
  const { nodes, edges } = useMemo(() => {
    const dagNodes: DagNode[] = (graph?.nodes ?? []).map((node) => ({
      id: node.id,
      label: node.label,
      detail: `${node.threads} thread${node.threads === 1 ? "" : "s"}${node.memory ? ` · ${node.memory}` : ""} · ${node.environment}`,
    }));
    const dagEdges: DagEdge[] = (graph?.edges ?? []).map((edge) => ({ source: edge.from, target: edge.to }));
    return { nodes: dagNodes, edges: dagEdges };
  }, [graph]);
  // The graph shown is not the text's: it does not parse, has a cycle, or its graph is still on the way.
  const graphStale = current !== undefined && graph !== undefined && (!current.parsed || current.graphProblem !== undefined);
  const parseRules = (lastGood.parse?.rules ?? []) as unknown as ParsedRule[];
  const ruleDetail = selectedRule ? parseRules.find((rule) => rule.name === selectedRule) : undefined;
  const errorCount = findings.filter((finding) => finding.severity === "error").length;
  const warningCount = findings.filter((finding) => finding.severity === "warning").length;
  const title = edited.name ?? lastGood.parse?.workflow.name ?? "New pipeline";

  const onSplitKey = (event: ReactKeyboardEvent<HTMLDivElement>) => {
    if (event.key === "ArrowLeft") setSplit((value) => Math.max(25, value - 5));
    else if (event.key === "ArrowRight") setSplit((value) => Math.min(80, value + 5));
    else return;
    event.preventDefault();
  };
  const onSplitDrag = (event: ReactPointerEvent<HTMLDivElement>) => {
    const area = event.currentTarget.parentElement!.getBoundingClientRect();
    const move = (moveEvent: PointerEvent) => setSplit(Math.min(80, Math.max(25, ((moveEvent.clientX - area.left) / area.width) * 100)));
    const stop = () => {
      window.removeEventListener("pointermove", move);
      window.removeEventListener("pointerup", stop);
    };
    window.addEventListener("pointermove", move);
    window.addEventListener("pointerup", stop);
  };

  return (
    <div className="wide-page editor-page">
      <div className="editor-toolbar" role="toolbar" aria-label="Pipeline">
        <div className="editor-title">
          <h1>{title}</h1>
          <span className={`save-state${dirty ? " save-dirty" : ""}`} role="status">
            {saveStateText({ saving: edited.saving, saved: saved !== undefined, dirty, revision: edited.revision, fromDraft })}
          </span>
        </div>
        <span className={`check-state ${checking ? "check-busy" : errorCount > 0 ? "check-bad" : "check-ok"}`} role="status" aria-live="polite">
          {checking ? "◌ Checking…" : errorCount > 0 ? `✕ ${errorCount} error${errorCount === 1 ? "" : "s"}${warningCount ? `, ${warningCount} warning${warningCount === 1 ? "" : "s"}` : ""}` : `✓ Valid${warningCount ? ` · ${warningCount} warning${warningCount === 1 ? "" : "s"}` : ""}`}
        </span>
        <div className="editor-buttons">
          {!saved ? (
            <button type="button" onClick={() => setDrafting(true)} aria-haspopup="dialog">
              Draft with AI
            </button>
          ) : null}
          <button type="button" ref={copilotToggle} onClick={() => (copilotOpen ? closeCopilot() : setCopilotOpen(true))} aria-expanded={copilotOpen} aria-controls="copilot-panel" title="Ask the copilot about this pipeline">
            Copilot
          </button>
          <button type="button" onClick={formatNow} disabled={format.isPending} aria-keyshortcuts="Shift+Alt+F" title="Format (Shift+Alt+F)">
            {format.isPending ? "Formatting…" : "Format"}
          </button>
          <button type="button" className="primary" onClick={saveNow} disabled={edited.saving || (saved !== undefined && !dirty)} aria-keyshortcuts="Control+S" title="Save (Ctrl+S)">
            {saved ? "Save" : "Save as new pipeline"}
          </button>
          {saved && <PipelineActions pipelineId={saved.id} />}
        </div>
      </div>
      {notice && <ErrorNotice error={notice} />}
      {refused && (
        <p className="check-refused" role="status">
          The service did not check the latest text: {refused.message}
          {refused instanceof ApiError && refused.status === 429 ? " — asking again in a few seconds." : ""}
        </p>
      )}
      <div className={`editor-with-copilot${copilotOpen ? " copilot-open" : ""}`}>
      <div className="editor-split" style={{ gridTemplateColumns: `minmax(0, ${split}fr) 8px minmax(0, ${100 - split}fr)` }}>
        <section className="editor-pane" aria-label="Pipeline text">
          <TomlEditor ref={editor} initialText={initialText} onChange={edited.setText} onSave={saveNow} onFormat={formatNow} completion={completion} label="Pipeline TOML" />
        </section>
        <div
          className="editor-splitter"
          role="separator"
          aria-orientation="vertical"
          aria-label="Resize the editor and the graph"
          aria-valuenow={Math.round(split)}
          aria-valuemin={25}
          aria-valuemax={80}
          tabIndex={0}
          onKeyDown={onSplitKey}
          onPointerDown={onSplitDrag}
        />
        <section className="graph-pane" aria-label="Pipeline graph panel">
          <div className="graph-head">
            <h2>Graph</h2>
            <span className="muted">
              {graph ? `${graph.metrics.nodes} rules · ${graph.metrics.edges} edges · depth ${graph.metrics.max_depth}` : ""}
            </span>
          </div>
          {graphStale && (
            <p className="graph-stale" role="status">
              {current?.parsed ? `No graph for this text (${current.graphProblem ?? "refused"}); showing the last good graph.` : "The text does not parse; showing the last good graph."}
            </p>
          )}
          <div className="graph-canvas">
            {graph ? (
              <Suspense fallback={<p className="panel-empty">Loading the graph view…</p>}>
                <EditableDagView nodes={nodes} edges={edges} selected={selectedRule} onSelect={setSelectedRule} label="Pipeline graph" access={graphText} />
              </Suspense>
            ) : (
              <p className="panel-empty">{checking ? "Drawing the graph…" : "The graph appears once the text parses."}</p>
            )}
          </div>
        </section>
      </div>
      <div id="copilot-panel" hidden={!copilotOpen} className="copilot-slot">
        {copilotOpen ? (
          <CopilotPanel
            onClose={closeCopilot}
            initialRunId={copilotRun}
            context={() => ({ toml_content: editor.current?.text() ?? text, ...(saved ? { pipeline_id: saved.id } : {}) })}
            editorText={() => editor.current?.text() ?? text}
            onApply={(toml) => {
              const handle = editor.current;
              if (!handle) return;
              // One undoable transaction (Ctrl+Z in the editor takes it back), not a new editor state.
              handle.replaceText(toml);
            }}
          />
        ) : null}
      </div>
      </div>
      <div className="editor-bottom">
        <ProblemsPanel findings={findings} checking={checking} onJump={jumpTo} onFix={applyFix} canFix={fixLabel} />
        <div className="editor-side-panels">
          <RuleDetails rule={ruleDetail} onClose={() => setSelectedRule(undefined)} onGoTo={(line) => jumpTo({ line, column: 1 })} />
          <StatsPanel stats={lastGood.stats} />
        </div>
      </div>
      <ModalDialog open={drafting} title="Draft this pipeline with AI" className="ai-dialog" onClose={() => setDrafting(false)}>
        <DescribePanel
          replaces={text.trim() !== ""}
          headingLevel={3}
          onUse={(toml) => {
            setDrafting(false);
            const handle = editor.current;
            if (!handle) return;
            handle.replaceText(toml);
            requestAnimationFrame(() => handle.focus());
          }}
        />
        <div className="modal-actions">
          <button type="button" onClick={() => setDrafting(false)}>
            Close
          </button>
        </div>
      </ModalDialog>
      <ConfirmDialog
        open={edited.blocker.state === "blocked"}
        title="Leave without saving?"
        cancelLabel="Stay and keep editing"
        confirmLabel="Leave and discard changes"
        danger
        onCancel={() => edited.blocker.reset?.()}
        onConfirm={() => edited.blocker.proceed?.()}
      >
        <p>The pipeline has changes that are not saved. They are lost if you leave.</p>
      </ConfirmDialog>
    </div>
  );
}
