/**
 * The pipeline text editor: CodeMirror 6 with TOML highlighting, `{placeholder}` marks, line numbers, lint
 * markers and completion, themed with the app's CSS variables (light and dark). Tab moves focus out of the
 * editor (keyboard users are never trapped); indent with the selection commands instead.
 */
import { autocompletion, closeBrackets, closeBracketsKeymap, completionKeymap, type CompletionSource } from "@codemirror/autocomplete";
import { defaultKeymap, history, historyKeymap } from "@codemirror/commands";
import { bracketMatching, foldGutter, foldKeymap, HighlightStyle, indentOnInput, StreamLanguage, syntaxHighlighting } from "@codemirror/language";
import { toml } from "@codemirror/legacy-modes/mode/toml";
import { lintGutter, lintKeymap, setDiagnostics, type Diagnostic } from "@codemirror/lint";
import { EditorSelection, EditorState } from "@codemirror/state";
import {
  Decoration,
  drawSelection,
  EditorView,
  highlightActiveLine,
  highlightActiveLineGutter,
  highlightSpecialChars,
  keymap,
  lineNumbers,
  MatchDecorator,
  ViewPlugin,
  type DecorationSet,
  type ViewUpdate,
} from "@codemirror/view";
import { tags } from "@lezer/highlight";
import { forwardRef, useEffect, useImperativeHandle, useRef } from "react";

const tomlLanguage = StreamLanguage.define(toml);

const highlighting = HighlightStyle.define([
  { tag: tags.comment, color: "var(--cm-comment)", fontStyle: "italic" },
  { tag: tags.string, color: "var(--cm-string)" },
  { tag: tags.propertyName, color: "var(--cm-key)" },
  { tag: tags.atom, color: "var(--cm-table)", fontWeight: "600" },
  { tag: tags.number, color: "var(--cm-number)" },
  { tag: tags.bracket, color: "var(--muted)" },
]);

const theme = EditorView.theme({
  "&": { height: "100%", fontSize: "13.5px", backgroundColor: "var(--cm-bg)", color: "var(--text)" },
  ".cm-scroller": { fontFamily: 'ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace', lineHeight: "1.55" },
  ".cm-content": { caretColor: "var(--accent)" },
  ".cm-cursor, .cm-dropCursor": { borderLeftColor: "var(--accent)", borderLeftWidth: "2px" },
  "&.cm-focused": { outline: "none" },
  "&.cm-focused .cm-selectionBackground, .cm-selectionBackground, .cm-content ::selection": { backgroundColor: "var(--cm-selection) !important" },
  ".cm-gutters": { backgroundColor: "var(--cm-gutter)", color: "var(--muted)", borderRight: "1px solid var(--line)" },
  ".cm-activeLine": { backgroundColor: "var(--cm-active-line)" },
  ".cm-activeLineGutter": { backgroundColor: "var(--cm-active-line)", color: "var(--text)" },
  ".cm-placeholder-mark": { color: "var(--cm-placeholder)", fontWeight: "600" },
  ".cm-tooltip": { backgroundColor: "var(--panel)", color: "var(--text)", border: "1px solid var(--line)", borderRadius: "6px", boxShadow: "0 4px 14px rgb(0 0 0 / 0.18)" },
  ".cm-tooltip-autocomplete > ul > li[aria-selected]": { backgroundColor: "var(--accent)", color: "var(--panel)" },
  ".cm-completionDetail": { color: "var(--muted)", marginLeft: "0.8em", fontStyle: "normal" },
  ".cm-tooltip-lint": { padding: "0" },
  ".cm-diagnostic": { padding: "0.35rem 0.6rem", borderLeftWidth: "4px" },
  ".cm-diagnostic-error": { borderLeftColor: "var(--bad)" },
  ".cm-diagnostic-warning": { borderLeftColor: "var(--warn)" },
  ".cm-diagnostic-info": { borderLeftColor: "var(--info)" },
  ".cm-diagnosticSource": { color: "var(--muted)" },
  ".cm-diagnosticAction": { backgroundColor: "var(--accent)", color: "var(--panel)", borderRadius: "4px", padding: "0.1rem 0.5rem" },
  ".cm-lintRange-error": { backgroundImage: "none", textDecoration: "underline wavy var(--bad)", textUnderlineOffset: "3px" },
  ".cm-lintRange-warning": { backgroundImage: "none", textDecoration: "underline wavy var(--warn)", textUnderlineOffset: "3px" },
  ".cm-lintRange-info": { backgroundImage: "none", textDecoration: "underline dotted var(--info)", textUnderlineOffset: "3px" },
  ".cm-foldPlaceholder": { backgroundColor: "var(--line)", border: "none", color: "var(--text)" },
});

// `{sample}`, `{config.ref}`, `{input[0]}`: what the engine fills in, marked so it stands out inside strings.
const placeholderMarks = ViewPlugin.fromClass(
  class {
    decorations: DecorationSet;
    private readonly matcher = new MatchDecorator({ regexp: /\{[A-Za-z_][\w.]*(?:\[\d+\])?\}/g, decoration: Decoration.mark({ class: "cm-placeholder-mark" }) });
    constructor(view: EditorView) {
      this.decorations = this.matcher.createDeco(view);
    }
    update(update: ViewUpdate) {
      this.decorations = this.matcher.updateDeco(update, this.decorations);
    }
  },
  { decorations: (plugin) => plugin.decorations },
);

/** What the page can do with the editor. */
export interface TomlEditorHandle {
  /** The current text. */
  text(): string;
  /** Replaces the text with as small an edit as possible, so the cursor stays where it was in unchanged parts. */
  replaceText(next: string): void;
  /** Places the cursor at a range, scrolls it into view and focuses the editor. */
  select(from: number, to?: number): void;
  /** Replaces a range (a quick fix from the problems panel). */
  edit(from: number, to: number, insert: string): void;
  /** Shows diagnostics, if the text is still the one they were found in. */
  showDiagnostics(forText: string, make: (doc: EditorState["doc"]) => Diagnostic[]): void;
  /** The editor state (document, selection). */
  state(): EditorState;
  focus(): void;
}

interface TomlEditorProps {
  initialText: string;
  onChange: (text: string) => void;
  onSave: () => void;
  onFormat: () => void;
  completion: CompletionSource;
  label: string;
}

/** The CodeMirror editor; the initial text is read once (later changes go through the handle). */
export const TomlEditor = forwardRef<TomlEditorHandle, TomlEditorProps>(function TomlEditor({ initialText, onChange, onSave, onFormat, completion, label }, ref) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | undefined>(undefined);
  // The callbacks change on every render of the page; the editor reads the latest through this ref.
  const latest = useRef({ onChange, onSave, onFormat, completion });
  latest.current = { onChange, onSave, onFormat, completion };

  useEffect(() => {
    const editor = new EditorView({
      parent: host.current!,
      state: EditorState.create({
        doc: initialText,
        extensions: [
          lineNumbers(),
          highlightActiveLineGutter(),
          foldGutter(),
          lintGutter(),
          highlightSpecialChars(),
          history(),
          drawSelection(),
          indentOnInput(),
          bracketMatching(),
          closeBrackets(),
          highlightActiveLine(),
          tomlLanguage,
          syntaxHighlighting(highlighting),
          placeholderMarks,
          autocompletion({ override: [(context) => latest.current.completion(context)], icons: false }),
          keymap.of([
            { key: "Mod-s", preventDefault: true, run: () => (latest.current.onSave(), true) },
            { key: "Shift-Alt-f", preventDefault: true, run: () => (latest.current.onFormat(), true) },
            ...closeBracketsKeymap,
            ...defaultKeymap,
            ...historyKeymap,
            ...foldKeymap,
            ...completionKeymap,
            ...lintKeymap,
          ]),
          theme,
          // tabindex: the text is in the tab order anyway (contenteditable); saying so lets checkers see the
          // scrolling area is reachable from the keyboard.
          EditorView.contentAttributes.of({ "aria-label": label, "aria-multiline": "true", tabindex: "0" }),
          EditorView.updateListener.of((update) => {
            if (update.docChanged) latest.current.onChange(update.state.doc.toString());
          }),
        ],
      }),
    });
    view.current = editor;
    return () => {
      editor.destroy();
      view.current = undefined;
    };
    // The editor is made once per mount; initialText is only its first content, the label its first name.
    // eslint-disable-next-line react-hooks/exhaustive-deps -- made once: later props reach it through `latest` or the handle
  }, []);

  useImperativeHandle(
    ref,
    () => ({
      text: () => view.current?.state.doc.toString() ?? "",
      replaceText(next) {
        const editor = view.current;
        if (!editor) return;
        const current = editor.state.doc.toString();
        if (current === next) return;
        let start = 0;
        while (start < current.length && start < next.length && current[start] === next[start]) start++;
        let endCurrent = current.length;
        let endNext = next.length;
        while (endCurrent > start && endNext > start && current[endCurrent - 1] === next[endNext - 1]) {
          endCurrent--;
          endNext--;
        }
        editor.dispatch({ changes: { from: start, to: endCurrent, insert: next.slice(start, endNext) }, userEvent: "input.format" });
      },
      select(from, to = from) {
        const editor = view.current;
        if (!editor) return;
        const length = editor.state.doc.length;
        editor.dispatch({ selection: EditorSelection.range(Math.min(from, length), Math.min(to, length)), scrollIntoView: true, effects: EditorView.scrollIntoView(Math.min(from, length), { y: "center" }) });
        editor.focus();
      },
      edit(from, to, insert) {
        view.current?.dispatch({ changes: { from, to, insert }, selection: { anchor: from + insert.length }, userEvent: "input" });
        view.current?.focus();
      },
      showDiagnostics(forText, make) {
        const editor = view.current;
        if (!editor || editor.state.doc.toString() !== forText) return;
        editor.dispatch(setDiagnostics(editor.state, make(editor.state.doc)));
      },
      state: () => view.current!.state,
      focus: () => view.current?.focus(),
    }),
    [],
  );

  return <div className="toml-editor" ref={host} />;
});
