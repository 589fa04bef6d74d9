/**
 * A read-only, highlighted view of TOML (a draft before the user takes it): the editor's own TOML grammar
 * and colours, without an editor, so nothing here can be typed into or mistaken for the pipeline's text.
 */
import { StreamLanguage } from "@codemirror/language";
import { toml } from "@codemirror/legacy-modes/mode/toml";
import { highlightCode, tagHighlighter, tags } from "@lezer/highlight";
import { useMemo, type ReactNode } from "react";
import "./ai.css";

const tomlLanguage = StreamLanguage.define(toml);
const classes = tagHighlighter([
  { tag: tags.comment, class: "tok-comment" },
  { tag: tags.string, class: "tok-string" },
  { tag: tags.propertyName, class: "tok-key" },
  { tag: tags.atom, class: "tok-table" },
  { tag: tags.number, class: "tok-number" },
  { tag: tags.bool, class: "tok-number" },
  { tag: tags.bracket, class: "tok-bracket" },
]);

/** The text, coloured like the editor, in a scrollable region named `label`. */
export function TomlPreview({ text, label }: { text: string; label: string }) {
  const lines = useMemo(() => highlightLines(text), [text]);
  return (
    <pre className="ai-toml" tabIndex={0} aria-label={label}>
      <code>
        {lines.map((line, index) => (
          <span key={index} className="ai-toml-line">
            {line.length > 0 ? line : " "}
            {"\n"}
          </span>
        ))}
      </code>
    </pre>
  );
}

function highlightLines(text: string): ReactNode[][] {
  const lines: ReactNode[][] = [[]];
  const tree = tomlLanguage.parser.parse(text);
  highlightCode(
    text,
    tree,
    classes,
    (piece, pieceClasses) => {
      const line = lines[lines.length - 1]!;
      line.push(pieceClasses ? (
        <span key={line.length} className={pieceClasses}>
          {piece}
        </span>
      ) : piece);
    },
    () => lines.push([]),
  );
  if (lines.length > 1 && lines[lines.length - 1]!.length === 0 && text.endsWith("\n")) lines.pop();
  return lines;
}
