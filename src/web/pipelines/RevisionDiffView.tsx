/**
 * Two revisions side by side: CodeMirror's merge view, read-only, TOML highlighted, changed lines marked
 * and long unchanged stretches folded. Loaded on first use (it brings CodeMirror) by the revisions page.
 */
import { HighlightStyle, StreamLanguage, syntaxHighlighting } from "@codemirror/language";
import { toml } from "@codemirror/legacy-modes/mode/toml";
import { MergeView } from "@codemirror/merge";
import { EditorState, type Extension } from "@codemirror/state";
import { EditorView, lineNumbers } from "@codemirror/view";
import { tags } from "@lezer/highlight";
import { useEffect, useRef } from "react";

const tomlLanguage = StreamLanguage.define(toml);

// Colours from the app's theme variables, so both themes keep their contrast.
const tomlColours = HighlightStyle.define([
  { tag: tags.comment, color: "var(--muted)", fontStyle: "italic" },
  { tag: tags.propertyName, color: "var(--info)" },
  { tag: tags.string, color: "var(--ok)" },
  { tag: [tags.number, tags.atom, tags.bool], color: "var(--warn)" },
]);

function sideExtensions(label: string): Extension[] {
  return [
    lineNumbers(),
    tomlLanguage,
    syntaxHighlighting(tomlColours),
    EditorState.readOnly.of(true),
    EditorView.contentAttributes.of({ "aria-label": label, "aria-readonly": "true" }),
    EditorView.theme({ "&": { backgroundColor: "var(--panel)", color: "var(--text)" }, ".cm-gutters": { backgroundColor: "var(--bg)", color: "var(--muted)", borderRight: "1px solid var(--line)" } }),
  ];
}

export default function RevisionDiffView({ before, after, beforeLabel, afterLabel }: { before: string; after: string; beforeLabel: string; afterLabel: string }) {
  const parent = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!parent.current) return;
    const view = new MergeView({
      a: { doc: before, extensions: sideExtensions(beforeLabel) },
      b: { doc: after, extensions: sideExtensions(afterLabel) },
      parent: parent.current,
      gutter: true,
      highlightChanges: true,
      collapseUnchanged: { margin: 3, minSize: 6 },
    });
    return () => view.destroy();
  }, [before, after, beforeLabel, afterLabel]);
  return <div ref={parent} className="pl-merge" />;
}
