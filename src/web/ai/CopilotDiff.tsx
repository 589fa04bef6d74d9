/**
 * A proposed pipeline against the editor's text: CodeMirror's unified merge view, read-only, the proposal
 * with removed lines shown above the lines that replace them and long unchanged stretches folded. One
 * column, because it lives in the narrow copilot panel. Loaded on first use (it brings the merge view).
 */
import { StreamLanguage } from "@codemirror/language";
import { toml } from "@codemirror/legacy-modes/mode/toml";
import { unifiedMergeView } from "@codemirror/merge";
import { EditorState } from "@codemirror/state";
import { EditorView } from "@codemirror/view";
import { useEffect, useRef } from "react";

const tomlLanguage = StreamLanguage.define(toml);

/** `after` with its changes against `before` marked, in a read-only view named `label`. */
export default function CopilotDiff({ before, after, label }: { before: string; after: string; label: string }) {
  const parent = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!parent.current) return;
    const view = new EditorView({
      parent: parent.current,
      state: EditorState.create({
        doc: after,
        extensions: [
          tomlLanguage,
          EditorState.readOnly.of(true),
          EditorView.editable.of(false),
          EditorView.contentAttributes.of({ "aria-label": label, "aria-readonly": "true", tabindex: "0" }),
          unifiedMergeView({ original: before, mergeControls: false, highlightChanges: true, gutter: true, collapseUnchanged: { margin: 2, minSize: 5 } }),
          EditorView.theme({ "&": { backgroundColor: "var(--bg)", color: "var(--text)", fontSize: "12.5px" }, ".cm-scroller": { fontFamily: 'ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace' } }),
        ],
      }),
    });
    return () => view.destroy();
  }, [before, after, label]);
  return <div ref={parent} className="copilot-diff" />;
}
