/**
 * `format`: the canonical layout of a pipeline file *as written*
 * (docs/reference/pipeline-format.md, decision 6). It works on the lossless scan of the text, never on the
 * loaded model, so includes stay includes, injected values stay out, and every comment survives. smol-toml
 * decides what the file means: the text is parsed before formatting (syntax errors become PARSE_ERROR) and the
 * result is parsed again and compared, so `format` can never hand back a file that means something else.
 *
 * Layout decisions (all deterministic, and applying them twice gives the same text):
 * - Order of the file: top-level plain keys first (TOML requires it; among themselves in the same order
 *   as the tables), then the top-level tables in the order of docs/reference/pipeline-format.md §4.6
 *   (`[workflow]`, `[config]`, `[config_meta]`, `[[references]]`, `reference_dir`, …, `[[values]]`, then
 *   `[webhook]`), then unknown tables in source order. The elements of an array of tables never change
 *   their relative order; a sub-table such as `[rules.environment]` stays with the element it belongs to,
 *   after that element's plain keys.
 * - Order of keys: struct order for the tables the format defines (`[workflow]`, rules in the order of
 *   docs/reference/pipeline-format.md §4.6, references, defaults, resources, environments, includes, pairs, …),
 *   unknown keys after the known ones in source order; free maps (`[config]`, `params`, `envvars`,
 *   metadata, named inputs) keep source order. Sub-tables of one table follow the same order, stably, so
 *   nested arrays of tables keep theirs.
 * - Style is kept where it is a choice: an inline table stays inline, a sub-table stays a sub-table, a
 *   dotted key stays dotted. Spacing is normalised: `key = value`, `{ a = "x", b = 1 }`, `["a", "b"]`.
 * - Strings: a single-line string is re-encoded from its value: a literal `'…'` string when the value has a
 *   backslash or double quote and can be written literally (fewer escapes in regexes and shell text),
 *   otherwise a double-quoted string with minimal escapes (tab and control characters escaped). A value with
 *   a newline becomes a `"""` string. A multi-line string written in the source (`"""…"""` or `'''…'''`) is
 *   kept byte for byte: it is usually a shell script whose line continuations are the author's layout.
 * - Numbers, booleans, dates and times keep their source text (`1_000` stays `1_000`).
 * - Arrays: `[]` when empty; on one line when they have no comments, no multi-line element and fit in 100
 *   columns (inside a one-line inline table the width is not a reason to break); otherwise one element per
 *   line, indented 4 spaces, each followed by a comma. Inline tables are written on one line unless they
 *   hold comments, in which case they use TOML 1.1's multi-line form with a trailing comma.
 * - Comments move with the item they precede, a same-line comment stays on its item's line, comments at the
 *   end of the file stay at the end. A comment block at the top of the file that a blank line separates from
 *   the first item is the file's header and stays on top even when that item moves. Indented comment lines
 *   right under a same-line comment continue it: they stay with that item, aligned under its comment.
 *   Same-line comments of consecutive short one-line keys are aligned in one column (gofmt-style), so the
 *   aligned comment columns of real `[config]` tables survive; otherwise one space separates them.
 * - Blank lines: exactly one before each table header and none right after it; elsewhere a single blank
 *   line is kept where the source had one or more (before a key, before a comment block, inside a comment
 *   block, between a comment block and its item); never two in a row. Trailing spaces are removed (outside
 *   multi-line strings); lines end with `\n` and the file with exactly one.
 */
import { parse as parseToml } from "smol-toml";
import { parseTomlText } from "./parse-source.js";
import { KNOWN_KEYS } from "./schema.js";
import {
  scanToml,
  type ArrayNode,
  type Comment,
  type DocumentItem,
  type InlineTableNode,
  type KeyValueItem,
  type TableItem,
  type TomlDocument,
  type ValueNode,
} from "./toml-syntax.js";

const INDENT = "    ";
const MAX_WIDTH = 100;

/** Formats a pipeline file's text canonically; throws a PARSE_ERROR EngineError when it is not valid TOML. */
export function formatPipelineText(text: string, file = "pipeline"): string {
  const before = parseTomlText(text, file);
  const formatted = layout(scanToml(text), text);
  // A formatter bug must never silently change what a pipeline means.
  if (!sameValue(before, parseFormatted(formatted))) {
    throw new Error(`format would change the meaning of ${file}; this is a bug in the formatter, please report it`);
  }
  return formatted;
}

/** The formatted text's value, or undefined when a formatter bug made it unparsable (caught just above). */
function parseFormatted(formatted: string): unknown {
  try {
    return parseToml(formatted);
  } catch {
    return undefined;
  }
}

/** True when formatting would leave the text unchanged (a missing final newline is not counted). */
export function isFormatted(text: string, file?: string): boolean {
  const formatted = formatPipelineText(text, file);
  return formatted === text || formatted === text + "\n";
}

// ---------------------------------------------------------------------------------------------------------
// Canonical key order: which keys a table knows, and in what order they are written.

/** The key order of one kind of table, and the kinds of its sub-tables. */
interface Shape {
  keys?: readonly string[];
  children?: Readonly<Record<string, Shape>>;
  /** The shape of every value of a map whose keys are free (`env_groups.NAME`). */
  each?: Shape;
}

const RULE_KEYS = [
  "name", "input", "expand_inputs", "output", "shell", "script", "threads", "memory", "resources", "environment",
  "env_group", "log", "benchmark", "params", "priority", "target", "optional", "group", "description", "when",
  "temporary", "scratch", "scatter", "transform", "temp_output", "protected_output", "input_function", "retries",
  "tags", "shadow", "ancient", "localrule", "envvars", "checkpoint", "checkpoint_manifest", "required",
  "depends_on", "extends", "retry_delay", "pre_exec", "on_success", "on_failure", "format_hint", "pipe",
  "checksum", "resource_hint", "rule_metadata", "cache_key", "interpreter",
] as const;

const ENVIRONMENT: Shape = { keys: KNOWN_KEYS.environment };

const RULE: Shape = {
  // Keys the schema gains later still get a place, after the list (docs/reference/pipeline-format.md §4.6).
  keys: [...RULE_KEYS, ...KNOWN_KEYS.rule.filter((key) => !(RULE_KEYS as readonly string[]).includes(key))],
  children: {
    resources: { keys: KNOWN_KEYS.resources, children: { gpu_spec: { keys: ["count", "model", "memory_gb", "compute_capability"] } } },
    environment: ENVIRONMENT,
    expand_inputs: { keys: ["pattern", "variables"] },
    scatter: { keys: ["variable", "values", "values_from", "gather"] },
    transform: {
      keys: ["split", "map", "combine", "cleanup"],
      children: { split: { keys: ["by", "values", "values_from", "n", "glob"] }, combine: { keys: ["shell", "aggregate", "method", "header"] } },
    },
  },
};

const TOP: Shape = {
  keys: [
    "workflow", "config", "config_meta", "references", "reference_dir", "defaults", "report", "rules", "plugins",
    "include", "execution_group", "citation", "cluster", "resource_budget", "resource_groups", "reference_db",
    "env_groups", "wildcard_constraints", "pairs", "sample_groups", "values", "webhook",
  ],
  children: {
    workflow: { keys: KNOWN_KEYS.workflow },
    references: { keys: KNOWN_KEYS.references, children: { environment: ENVIRONMENT } },
    defaults: { keys: KNOWN_KEYS.defaults, children: { environment: ENVIRONMENT } },
    rules: RULE,
    include: { keys: KNOWN_KEYS.include },
    execution_group: { keys: ["name", "rules", "mode"] },
    cluster: { keys: ["backend", "partition", "queue", "account", "walltime", "max_submitted", "max_array_size", "poll_interval", "extra_args"] },
    resource_groups: { each: { keys: ["max", "wait"] } },
    env_groups: { each: ENVIRONMENT },
    pairs: { keys: ["pair_id", "experiment", "tumor", "control", "normal", "experiment_type", "tumor_type", "metadata"] },
    sample_groups: { keys: ["name", "samples", "metadata"] },
    values: { keys: ["name", "values", "values_from"] },
  },
};

function childShape(shape: Shape | undefined, key: string): Shape | undefined {
  if (!shape) return undefined;
  // Own properties only: a key named "constructor" must not find Object.prototype's.
  if (shape.children && Object.hasOwn(shape.children, key)) return shape.children[key];
  return shape.each;
}

function shapeAt(shape: Shape | undefined, path: readonly string[]): Shape | undefined {
  return path.reduce<Shape | undefined>(childShape, shape);
}

/** Where a key goes among its table's keys; unknown keys share the last place, so they keep source order. */
function rank(shape: Shape | undefined, key: string | undefined): number {
  const index = key === undefined ? -1 : (shape?.keys?.indexOf(key) ?? -1);
  return index < 0 ? Number.MAX_SAFE_INTEGER : index;
}

/** A stable sort by rank (Array.prototype.sort is stable), so equal ranks keep source order. */
function byRank<T>(items: T[], shape: Shape | undefined, keyOf: (item: T) => string | undefined): T[] {
  return [...items].sort((a, b) => rank(shape, keyOf(a)) - rank(shape, keyOf(b)));
}

// ---------------------------------------------------------------------------------------------------------
// From the scan to sections: each table header with the key/value pairs under it, grouped into the
// top-level blocks that move as one.

/** A scanned item with the blank-line facts of its source that the layout keeps. */
interface Placed<T extends DocumentItem> {
  item: T;
  leading: Comment[];
  /** A blank line before the item (or before its comment block). */
  gap: boolean;
  /** A blank line between the comment block and the item. */
  detached: boolean;
  /** Indented comment lines that continue the item's same-line comment. */
  continuation: Comment[];
}

interface Section {
  header: Placed<TableItem> | null;
  entries: Placed<KeyValueItem>[];
}

/** What moves as one: a standard top-level table with all its sub-tables, or one array-of-tables element. */
interface Block {
  name: string;
  sections: Section[];
}

interface Grouped {
  fileHeader: Comment[];
  root: Section;
  blocks: Block[];
}

function placeItems(doc: TomlDocument, text: string): { placed: Placed<DocumentItem>[]; endComments: Comment[] } {
  const lineOf = lineLocator(text);
  const sourceLines = text.split("\n");
  const indented = (comment: Comment): boolean => /^[ \t]/.test(sourceLines[comment.line - 1] ?? "");
  const placed: Placed<DocumentItem>[] = [];
  let previous: Placed<DocumentItem> | undefined;
  let previousEnd = 0;
  for (const item of doc.items) {
    const leading = [...item.leading];
    if (previous) previousEnd = takeContinuation(previous, leading, indented, previousEnd);
    const line = item.kind === "table" ? item.span.line : item.keySpan.line;
    const first = leading[0];
    const last = leading[leading.length - 1];
    // Between items there are only blank lines and comments, so line numbers alone tell where blanks were.
    const gap = first ? first.blankBefore : previousEnd > 0 && line - previousEnd > 1;
    const detached = last !== undefined && line - last.line > 1;
    previous = { item, leading, gap, detached, continuation: [] };
    placed.push(previous);
    previousEnd = lineOf((item.kind === "table" ? item.span.end : item.value.span.end) - 1);
  }
  const endComments = [...doc.endComments];
  if (previous) takeContinuation(previous, endComments, indented, previousEnd);
  return { placed, endComments };
}

/**
 * Moves the indented comment lines that directly follow an item's same-line comment (a trailing comment
 * continued on the next lines, as aligned comment columns do) from the next item's comments to that item.
 * Returns the last source line the item now covers.
 */
function takeContinuation(item: Placed<DocumentItem>, comments: Comment[], indented: (comment: Comment) => boolean, end: number): number {
  const trailing = item.item.trailing;
  if (!trailing) return end;
  let count = 0;
  while (count < comments.length) {
    const comment = comments[count]!;
    if (comment.line !== trailing.line + count + 1 || comment.blankBefore || !indented(comment)) break;
    count++;
  }
  item.continuation = comments.splice(0, count);
  return Math.max(end, trailing.line + count);
}

/** Line number (from 1) of a text offset. */
function lineLocator(text: string): (offset: number) => number {
  const starts = [0];
  for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) starts.push(i + 1);
  return (offset) => {
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (starts[middle]! <= offset) low = middle;
      else high = middle - 1;
    }
    return low + 1;
  };
}

/**
 * Splits the file's opening comments from the first item: everything up to the last blank line belongs to
 * the file, not to the item (a licence or description block stays on top when `[config]` moves down).
 */
function takeFileHeader(first: Placed<DocumentItem> | undefined): Comment[] {
  if (!first) return [];
  const comments = first.leading;
  let cut = first.detached ? comments.length : 0;
  if (cut === 0) {
    for (let i = comments.length - 1; i > 0; i--) {
      if (comments[i]!.blankBefore) {
        cut = i;
        break;
      }
    }
  }
  first.leading = comments.slice(cut);
  if (first.leading.length === 0) first.detached = false;
  first.gap = false;
  return comments.slice(0, cut);
}

function groupItems(placed: Placed<DocumentItem>[]): Grouped {
  const fileHeader = takeFileHeader(placed[0]);
  const root: Section = { header: null, entries: [] };
  const blocks: Block[] = [];
  const tables = new Map<string, Block>();
  // The latest element of each top-level array of tables, which `[name.sub]` headers extend.
  const lastElement = new Map<string, Block>();
  let current = root;
  for (const entry of placed) {
    const item = entry.item;
    if (item.kind === "keyValue") {
      current.entries.push({ ...entry, item });
      continue;
    }
    current = { header: { ...entry, item }, entries: [] };
    const top = item.path[0]!;
    let block: Block | undefined;
    if (item.arrayOfTables && item.path.length === 1) {
      block = { name: top, sections: [] };
      blocks.push(block);
      lastElement.set(top, block);
    } else {
      block = lastElement.get(top) ?? tables.get(top);
      if (!block) {
        block = { name: top, sections: [] };
        blocks.push(block);
        tables.set(top, block);
      }
    }
    block.sections.push(current);
  }
  return { fileHeader, root, blocks };
}

/** The block's own header first, then its sub-tables in their table's key order (stable). */
function orderSections(block: Block): Section[] {
  const shape = childShape(TOP, block.name);
  const place = (section: Section): number => {
    const path = section.header!.item.path;
    return path.length === 1 ? -1 : rank(shape, path[1]);
  };
  return [...block.sections].sort((a, b) => place(a) - place(b));
}

// ---------------------------------------------------------------------------------------------------------
// Writing.

/** Collects output lines, never writing two blank lines in a row or a blank line first. */
class Writer {
  private readonly lines: string[] = [];

  blank(): void {
    if (this.lines.length > 0 && this.lines[this.lines.length - 1] !== "") this.lines.push("");
  }

  line(text: string): void {
    this.lines.push(text);
  }

  comments(comments: readonly Comment[], indent: string): void {
    for (const line of commentLines(comments, indent)) {
      if (line === "") this.blank();
      else this.line(line);
    }
  }

  text(): string {
    while (this.lines[this.lines.length - 1] === "") this.lines.pop();
    return this.lines.length > 0 ? this.lines.join("\n") + "\n" : "";
  }
}

function layout(doc: TomlDocument, text: string): string {
  const { placed, endComments: end } = placeItems(doc, text);
  const { fileHeader, root, blocks } = groupItems(placed);
  const w = new Writer();
  w.comments(fileHeader, "");
  w.blank();
  writeEntries(w, root.entries, TOP);
  for (const block of byRank(blocks, TOP, (b) => b.name)) {
    for (const section of orderSections(block)) writeSection(w, section);
  }
  if (end[0]?.blankBefore) w.blank();
  w.comments(end, "");
  return w.text();
}

function writeSection(w: Writer, section: Section): void {
  const header = section.header!;
  w.blank();
  writeLeading(w, header);
  const path = renderKey(header.item.path);
  writeItemLine(w, header.item.arrayOfTables ? `[[${path}]]` : `[${path}]`, header);
  writeEntries(w, section.entries, shapeAt(TOP, header.item.path));
}

function writeEntries(w: Writer, entries: Placed<KeyValueItem>[], shape: Shape | undefined): void {
  const sorted = byRank(entries, shape, (entry) => entry.item.key[0]);
  const bodies = sorted.map((entry) => {
    const key = renderKey(entry.item.key);
    return `${key} = ${renderValue(entry.item.value, shapeAt(shape, entry.item.key), { indent: "", column: key.length + 3, oneLine: false })}`;
  });
  const columns = commentColumns(sorted, bodies);
  sorted.forEach((entry, index) => {
    // No blank line right after a header or at the top of the file.
    if (entry.gap && index > 0) w.blank();
    writeLeading(w, entry);
    writeItemLine(w, bodies[index]!, entry, columns[index]);
  });
}

/** Bodies longer than this keep their same-line comment to themselves instead of pushing a column right. */
const MAX_ALIGNED_BODY = 60;

/**
 * The column of each entry's same-line comment. As gofmt does, the comments of consecutive short one-line
 * entries (no blank line or comment block between them) line up one space after the longest entry, so the
 * aligned comment columns of real `[config]` tables survive; any other comment follows its item after one space.
 */
function commentColumns(entries: Placed<KeyValueItem>[], bodies: string[]): number[] {
  const columns = bodies.map(lastLineEnd);
  const alignable = (index: number): boolean =>
    entries[index]!.item.trailing !== null && !bodies[index]!.includes("\n") && bodies[index]!.length <= MAX_ALIGNED_BODY;
  let start = 0;
  while (start < entries.length) {
    let end = start + 1;
    if (alignable(start)) {
      while (end < entries.length && alignable(end) && entries[end]!.leading.length === 0 && !entries[end]!.gap) end++;
      columns.fill(columns.slice(start, end).reduce((a, b) => Math.max(a, b)), start, end);
    }
    start = end;
  }
  return columns;
}

/** The column one space after the text's last line: where a same-line comment starts by default. */
function lastLineEnd(text: string): number {
  return text.length - text.lastIndexOf("\n");
}

/** An item's text, its same-line comment at `column`, and that comment's continuation lines aligned under it. */
function writeItemLine(w: Writer, body: string, placed: Placed<DocumentItem>, column = lastLineEnd(body)): void {
  const trailing = placed.item.trailing;
  const pad = " ".repeat(column - lastLineEnd(body) + 1);
  w.line(trailing ? body + pad + trailing.text.trimEnd() : body);
  for (const comment of placed.continuation) w.line(" ".repeat(column) + comment.text.trimEnd());
}

function writeLeading(w: Writer, placed: Placed<DocumentItem>): void {
  w.comments(placed.leading, "");
  if (placed.detached) w.blank();
}

/** Comment lines, with "" where the source had a blank line inside the block. */
function commentLines(comments: readonly Comment[], indent: string): string[] {
  const lines: string[] = [];
  comments.forEach((comment, index) => {
    if (index > 0 && comment.blankBefore) lines.push("");
    lines.push(indent + comment.text.trimEnd());
  });
  return lines;
}

function trailingText(comment: Comment | null): string {
  return comment ? ` ${comment.text.trimEnd()}` : "";
}

// ---------------------------------------------------------------------------------------------------------
// Values.

interface ValueContext {
  /** Indentation of the line the value starts on. */
  indent: string;
  /** Column where the value starts, for the width rule. */
  column: number;
  /** Inside a one-line inline table, where width alone never breaks an array. */
  oneLine: boolean;
}

function renderValue(node: ValueNode, shape: Shape | undefined, context: ValueContext): string {
  if (node.kind === "array") return renderArray(node, shape, context);
  if (node.kind === "inlineTable") return renderInlineTable(node, shape, context);
  return renderScalar(node.raw);
}

function renderArray(node: ArrayNode, shape: Shape | undefined, context: ValueContext): string {
  const inner = context.indent + INDENT;
  // An array's elements have the array's shape (an array of inline tables is a list of one kind of table).
  const items = node.elements.map((element) => renderValue(element.value, shape, { indent: inner, column: inner.length, oneLine: context.oneLine }));
  const commented = node.endComments.length > 0 || node.elements.some((element) => element.leading.length > 0 || element.trailing !== null);
  if (!commented) {
    const single = `[${items.join(", ")}]`;
    const fits = context.oneLine || context.column + single.length <= MAX_WIDTH;
    if (fits && !single.includes("\n")) return single;
  }
  const lines = ["["];
  node.elements.forEach((element, index) => {
    if (index > 0 && element.leading[0]?.blankBefore) lines.push("");
    lines.push(...commentLines(element.leading, inner));
    lines.push(`${inner}${items[index]},${trailingText(element.trailing)}`);
  });
  lines.push(...endCommentLines(node.endComments, inner, node.elements.length > 0));
  lines.push(`${context.indent}]`);
  return lines.join("\n");
}

function renderInlineTable(node: InlineTableNode, shape: Shape | undefined, context: ValueContext): string {
  const entries = byRank(node.entries, shape, (entry) => entry.key[0]);
  if (!hasComments(node)) {
    if (entries.length === 0) return "{}";
    const parts = entries.map((entry) => {
      const key = renderKey(entry.key);
      return `${key} = ${renderValue(entry.value, shapeAt(shape, entry.key), { indent: context.indent, column: 0, oneLine: true })}`;
    });
    return `{ ${parts.join(", ")} }`;
  }
  // Comments need lines of their own: TOML 1.1's multi-line inline table.
  const inner = context.indent + INDENT;
  const lines = ["{"];
  entries.forEach((entry, index) => {
    if (index > 0 && entry.leading[0]?.blankBefore) lines.push("");
    lines.push(...commentLines(entry.leading, inner));
    const key = renderKey(entry.key);
    const value = renderValue(entry.value, shapeAt(shape, entry.key), { indent: inner, column: inner.length + key.length + 3, oneLine: false });
    lines.push(`${inner}${key} = ${value},${trailingText(entry.trailing)}`);
  });
  lines.push(...endCommentLines(node.endComments, inner, entries.length > 0));
  lines.push(`${context.indent}}`);
  return lines.join("\n");
}

function endCommentLines(comments: readonly Comment[], indent: string, afterElements: boolean): string[] {
  const lines = commentLines(comments, indent);
  return afterElements && comments[0]?.blankBefore ? ["", ...lines] : lines;
}

function hasComments(node: ValueNode): boolean {
  if (node.kind === "scalar") return false;
  const parts = node.kind === "array" ? node.elements : node.entries;
  return node.endComments.length > 0 || parts.some((part) => part.leading.length > 0 || part.trailing !== null || hasComments(part.value));
}

function renderScalar(raw: string): string {
  // A multi-line string is kept as written: its line breaks and continuations are the author's layout.
  if (raw.startsWith('"""') || raw.startsWith("'''")) return raw;
  if (raw.startsWith('"') || raw.startsWith("'")) return encodeString(decodeString(raw));
  return raw;
}

/** The value of a one-line string literal, decoded by the same parser that reads pipelines. */
function decodeString(raw: string): string {
  return (parseToml(`v = ${raw}`) as { v: string }).v;
}

// Characters a literal string cannot hold (tab included: an escaped tab is visible, a raw one is not).
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

function encodeString(value: string): string {
  if (value.includes("\n")) return `"""\n${escapeMultiline(value)}"""`;
  if (/[\\"]/.test(value) && !value.includes("'") && !CONTROL.test(value)) return `'${value}'`;
  return `"${escapeBasic(value)}"`;
}

const ESCAPES: Readonly<Record<string, string>> = { "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r", '"': '\\"', "\\": "\\\\" };

function escapeChar(char: string): string {
  return ESCAPES[char] ?? `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`;
}

function escapeBasic(value: string): string {
  // eslint-disable-next-line no-control-regex
  return value.replace(/[\u0000-\u001f\u007f"\\]/g, escapeChar);
}

/**
 * Content of a `"""` string: newlines stay real (the opening newline is trimmed by TOML, so the value's own
 * first newline survives), and a quote is escaped when another quote or the closing delimiter follows it,
 * so no run of three quotes can end the string early.
 */
function escapeMultiline(value: string): string {
  // eslint-disable-next-line no-control-regex
  return value.replace(/[\u0000-\u0009\u000b-\u001f\u007f\\]|"(?="|$)/g, escapeChar);
}

function renderKey(parts: readonly string[]): string {
  return parts.map((part) => (/^[A-Za-z0-9_-]+$/.test(part) ? part : `"${escapeBasic(part)}"`)).join(".");
}

// ---------------------------------------------------------------------------------------------------------

/** Deep equality of parsed TOML values, key order ignored (formatting reorders keys on purpose). */
function sameValue(a: unknown, b: unknown): boolean {
  if (a instanceof Date || b instanceof Date) {
    return a instanceof Date && b instanceof Date && a.toISOString() === b.toISOString();
  }
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((item, i) => sameValue(item, b[i]));
  }
  if (typeof a === "object" && a !== null && typeof b === "object" && b !== null) {
    const keysA = Object.keys(a);
    const recordB = b as Record<string, unknown>;
    return (
      keysA.length === Object.keys(b).length &&
      keysA.every((key) => Object.hasOwn(b, key) && sameValue((a as Record<string, unknown>)[key], recordB[key]))
    );
  }
  return Object.is(a, b);
}
