/**
 * Surgical edits of a TOML text addressed by value paths (`["rules", 2, "resources", "threads"]`): set a
 * value, delete a key, append to or drop from an array. Each edit changes only the bytes of what it
 * touches; comments, spacing and the layout of every other part of the file stay as written. The text must
 * be valid TOML (smol-toml decides); the lossless scan says where each piece is.
 */
import { parse as parseToml } from "smol-toml";
import { scanToml, type ArrayNode, type Comment, type InlineTableNode, type KeyValueItem, type TableItem, type ValueNode } from "./toml-syntax.js";
import type { ValuePath } from "./source-positions.js";

/** A value a JSON request can carry (null only where an edit means "delete"). */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** A request the text cannot carry out (a value TOML cannot hold, a path that is not a table). */
export class TomlEditError extends Error {
  constructor(
    message: string,
    readonly suggestion?: string,
  ) {
    super(message);
  }
}

/** A `[table]` or `[[array]]` header with its key/value lines, or the root lines before the first header. */
interface Section {
  header: TableItem | null;
  path: (string | number)[];
  items: KeyValueItem[];
}

/** A key/value pair wherever it is written: a line of a section, or an entry of an inline table. */
interface Entry {
  path: (string | number)[];
  value: ValueNode;
  /** The section whose line it is, or the inline table it sits in. */
  home: { kind: "section"; section: Section; item: KeyValueItem } | { kind: "inline"; table: InlineTableNode; index: number };
}

/** An element of an array value as written, with its path. */
export interface WrittenElement {
  path: (string | number)[];
  value: ValueNode;
  array: ArrayNode;
  index: number;
}

const BARE = /^[A-Za-z0-9_-]+$/;

/** Whether a value is a table (a plain object, not an array or a date). */
export function isTable(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) && [Object.prototype, null].includes(Object.getPrototypeOf(value));
}

/** A key as TOML writes it: bare when it can be, quoted otherwise. */
export function renderKey(key: string | number): string {
  const text = String(key);
  return BARE.test(text) ? text : basicString(text);
}

function basicString(text: string): string {
  // JSON's escapes are TOML's; DEL is the one control character JSON leaves alone.
  return JSON.stringify(text).replace(/\u007f/g, "\\u007F");
}

/** Escapes the control characters a multi-line basic string may not hold (all but tab and line feed). */
function escapeControls(text: string): string {
  let out = "";
  for (const ch of text) {
    const code = ch.charCodeAt(0);
    out += (code < 0x20 && ch !== "\t" && ch !== "\n") || code === 0x7f ? `\\u${code.toString(16).padStart(4, "0").toUpperCase()}` : ch;
  }
  return out;
}

/** A multi-line basic string, for text with line breaks written as a key's own line. */
function multilineString(text: string): string {
  const body = text
    .replace(/\\/g, "\\\\")
    // No run of three quotes, and no quote right before the closing delimiter.
    .replace(/"(?=")|"$/g, '\\"');
  return `"""\n${escapeControls(body)}"""`;
}

/** A JSON value as an inline TOML value; `multiline` lets a string with line breaks use `"""`. */
export function renderValue(value: JsonValue, multiline = false): string {
  if (value === null) throw new TomlEditError("null is not a TOML value", "null in a patch deletes the key it names; inside arrays and tables leave the entry out");
  if (typeof value === "string") return multiline && value.includes("\n") ? multilineString(value) : basicString(value);
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new TomlEditError(`${value} is not a TOML number`);
    return String(value);
  }
  if (typeof value === "boolean") return String(value);
  if (Array.isArray(value)) return `[${value.map((element) => renderValue(element)).join(", ")}]`;
  const entries = Object.entries(value);
  if (entries.length === 0) return "{}";
  return `{ ${entries.map(([key, inner]) => `${renderKey(key)} = ${renderValue(inner)}`).join(", ")} }`;
}

/** One replacement of the bytes `start`..`end`. */
interface Splice {
  start: number;
  end: number;
  text: string;
}

function splice(text: string, change: Splice): string {
  return text.slice(0, change.start) + change.text + text.slice(change.end);
}

function samePath(a: ValuePath, b: ValuePath): boolean {
  return a.length === b.length && a.every((part, i) => part === b[i]);
}

function startsWith(path: ValuePath, prefix: ValuePath): boolean {
  return path.length >= prefix.length && prefix.every((part, i) => part === path[i]);
}

/** A TOML text being edited: every edit re-reads the text, so paths always mean the current document. */
export class TomlText {
  private scanned: { sections: Section[]; entries: Entry[]; elements: WrittenElement[]; lineStarts: number[] } | undefined;
  private parsed: Record<string, unknown> | undefined;

  constructor(private current: string) {}

  /** The edited text. */
  get text(): string {
    return this.current;
  }

  /** What the text means, as smol-toml reads it. */
  get document(): Record<string, unknown> {
    this.parsed ??= parseToml(this.current) as Record<string, unknown>;
    return this.parsed;
  }

  /** The value at `path`, or undefined. */
  valueAt(path: ValuePath): unknown {
    let value: unknown = this.document;
    for (const part of path) {
      if (value === null || typeof value !== "object") return undefined;
      value = (value as Record<string | number, unknown>)[part];
    }
    return value;
  }

  /** Sets the value at `path`, replacing what was there (a table included) and creating missing tables. */
  set(path: ValuePath, value: JsonValue): void {
    if (value === null) return this.delete(path);
    const exact = this.view().entries.find((entry) => samePath(entry.path, path));
    if (exact) return this.replaceValue(exact.value, value, exact.home.kind === "section");
    const element = this.view().elements.find((candidate) => samePath(candidate.path, path));
    if (element) return this.replaceValue(element.value, value, false);
    if (this.isWritten(path)) this.delete(path);
    this.insert(path, value);
  }

  /** Applies an RFC 7396 merge patch to the table at `path`: null deletes, tables merge, anything else replaces. */
  mergePatch(path: ValuePath, patch: Record<string, JsonValue>): void {
    for (const [key, value] of Object.entries(patch)) {
      const at = [...path, key];
      if (value === null) this.delete(at);
      else if (isTable(value) && isTable(this.valueAt(at))) this.mergePatch(at, value);
      else this.set(at, value);
    }
  }

  /** Deletes the key at `path` with every line that defines it (nothing when it is not there). */
  delete(path: ValuePath): void {
    for (;;) {
      const { sections, entries, elements } = this.view();
      const element = elements.find((candidate) => samePath(candidate.path, path));
      if (element) return this.dropElement(element);
      // Headers under the path (a table and its sub-tables) go together, latest first, from one reading:
      // removing an array table renumbers the ones after it.
      const headed = sections.filter((candidate) => candidate.header && startsWith(candidate.path, path));
      if (headed.length > 0) {
        for (const range of headed.map((section) => this.sectionRange(section)).reverse()) this.apply({ ...range, text: "" });
        return;
      }
      // Then key lines or entries, outermost first, one at a time, re-reading in between.
      const under = entries.filter((candidate) => startsWith(candidate.path, path));
      if (under.length === 0) return;
      const shortest = Math.min(...under.map((candidate) => candidate.path.length));
      this.dropEntry(under.filter((candidate) => candidate.path.length === shortest).pop()!);
    }
  }

  /** Appends `value` to the array at `path` (creating `[value]` when there is none). */
  append(path: ValuePath, value: JsonValue): void {
    const exact = this.view().entries.find((entry) => samePath(entry.path, path));
    if (!exact || exact.value.kind !== "array") return this.set(path, [value]);
    const array = exact.value;
    const rendered = renderValue(value);
    if (array.elements.length === 0) return this.apply({ start: array.span.start, end: array.span.end, text: `[${rendered}]` });
    const last = array.elements[array.elements.length - 1]!.value;
    const lines = this.view().lineStarts;
    const multiLine = lineOf(lines, last.span.start) !== lineOf(lines, array.span.start);
    const separator = multiLine ? `,\n${this.indentOf(last.span.start)}` : ", ";
    this.apply({ start: last.span.end, end: last.span.end, text: separator + rendered });
  }

  /** The written elements of the array at `path`, with their paths. */
  elementsOf(path: ValuePath): WrittenElement[] {
    return this.view().elements.filter((element) => samePath(element.path.slice(0, -1), path));
  }

  /** Removes one element of an array (its comma too). */
  dropElement(element: WrittenElement): void {
    const { array, index } = element;
    const elements = array.elements;
    const value = elements[index]!.value;
    if (elements.length === 1) {
      // Its comma goes too (`[\n  "a",\n]`), or `[,]` would be left.
      const comma = /^[ \t\r\n]*,/.exec(this.current.slice(value.span.end));
      return this.apply({ start: value.span.start, end: value.span.end + (comma ? comma[0].length : 0), text: "" });
    }
    if (index < elements.length - 1) return this.apply({ start: value.span.start, end: elements[index + 1]!.value.span.start, text: "" });
    this.apply({ start: elements[index - 1]!.value.span.end, end: value.span.end, text: "" });
  }

  /** Inserts a whole new `[[name]]` table after the last one (or at the end of the text). */
  appendArrayTable(name: string, table: Record<string, JsonValue>): void {
    const { sections } = this.view();
    const own = sections.filter((section) => section.path[0] === name);
    const lines = Object.entries(table).map(([key, value]) => `${renderKey(key)} = ${renderValue(value, true)}\n`);
    const block = `[[${renderKey(name)}]]\n${lines.join("")}`;
    if (own.length === 0) return this.appendAtEnd(block);
    const end = this.sectionEnd(own[own.length - 1]!);
    const before = this.current.slice(0, end);
    this.apply({ start: end, end, text: (before.endsWith("\n") ? "" : "\n") + "\n" + block });
  }

  private appendAtEnd(block: string): void {
    const text = this.current;
    const gap = text.length === 0 ? "" : text.endsWith("\n\n") ? "" : text.endsWith("\n") ? "\n" : "\n\n";
    this.apply({ start: text.length, end: text.length, text: gap + block });
  }

  private apply(change: Splice): void {
    this.current = splice(this.current, change);
    this.scanned = undefined;
    this.parsed = undefined;
  }

  /** Whether anything is written at or under `path` (a key, dotted keys or a table header). */
  private isWritten(path: ValuePath): boolean {
    const { sections, entries } = this.view();
    return entries.some((entry) => startsWith(entry.path, path)) || sections.some((section) => section.header && startsWith(section.path, path));
  }

  private replaceValue(node: ValueNode, value: JsonValue, ownLine: boolean): void {
    this.apply({ start: node.span.start, end: node.span.end, text: renderValue(value, ownLine) });
  }

  /** Adds a key that is not written anywhere yet, next to its table's other keys. */
  private insert(path: ValuePath, value: JsonValue): void {
    const parent = path.slice(0, -1);
    const key = path[path.length - 1]!;
    const { sections, entries, elements } = this.view();
    const holder = entries.find((entry) => samePath(entry.path, parent)) ?? elements.find((element) => samePath(element.path, parent));
    if (holder) {
      if (holder.value.kind !== "inlineTable") throw new TomlEditError(`${describe(parent)} is not a table`);
      return this.insertInline(holder.value, key, value);
    }
    const section = sections.find((candidate) => samePath(candidate.path, parent));
    if (section && (section.header || parent.length === 0)) {
      if (parent.length === 0 && isTable(value) && Object.keys(value).length > 0) return this.appendAtEnd(`[${renderKey(key)}]\n${Object.entries(value).map(([inner, v]) => `${renderKey(inner)} = ${renderValue(v, true)}\n`).join("")}`);
      return this.insertLine(section, [key], value);
    }
    // A table written as dotted keys (`resources.threads = 2`) gains one more dotted key.
    const dotted = entries.filter((entry) => entry.home.kind === "section" && entry.home.section.path.length <= parent.length && startsWith(entry.path, parent));
    if (dotted.length > 0) {
      const home = dotted[dotted.length - 1]!.home as { kind: "section"; section: Section; item: KeyValueItem };
      return this.insertLine(home.section, [...parent.slice(home.section.path.length), key], value, home.item);
    }
    // The table itself is not written yet: it becomes a key of its own parent.
    if (parent.length === 0) throw new TomlEditError(`cannot place the key ${String(key)}`);
    this.insert(parent, { [String(key)]: value } as JsonValue);
  }

  /** Writes `key = value` on a line of its own after `after` (default: the section's last key). */
  private insertLine(section: Section, key: (string | number)[], value: JsonValue, after?: KeyValueItem): void {
    const line = `${key.map(renderKey).join(".")} = ${renderValue(value, true)}`;
    const last = after ?? section.items[section.items.length - 1];
    if (last) {
      const end = this.lineEndAfter(last.value.span.end);
      const indent = this.indentOf(last.keySpan.start);
      return this.apply({ start: end, end, text: `${indent}${line}\n` });
    }
    if (section.header) {
      const end = this.lineEndAfter(section.header.span.end);
      return this.apply({ start: end, end, text: `${line}\n` });
    }
    // Root keys go before the first header (and its comments).
    const first = this.view().sections.find((candidate) => candidate.header);
    if (!first) return this.appendAtEnd(`${line}\n`);
    const start = this.lineStartOf(commentsStart(first.header!, this.view().lineStarts) ?? first.header!.span.start);
    this.apply({ start, end: start, text: `${line}\n\n` });
  }

  private insertInline(table: InlineTableNode, key: string | number, value: JsonValue): void {
    const rendered = `${renderKey(key)} = ${renderValue(value)}`;
    const last = table.entries[table.entries.length - 1];
    if (!last) return this.apply({ start: table.span.start, end: table.span.end, text: `{ ${rendered} }` });
    this.apply({ start: last.value.span.end, end: last.value.span.end, text: `, ${rendered}` });
  }

  private dropEntry(entry: Entry): void {
    if (entry.home.kind === "section") {
      const { item } = entry.home;
      const lines = this.view().lineStarts;
      const start = this.lineStartOf(commentsStart(item, lines) ?? item.keySpan.start);
      return this.apply({ start, end: this.lineEndAfter(item.value.span.end), text: "" });
    }
    const { table, index } = entry.home;
    const entries = table.entries;
    const own = entries[index]!;
    if (entries.length === 1) return this.apply({ start: own.keySpan.start, end: own.value.span.end, text: "" });
    if (index < entries.length - 1) return this.apply({ start: own.keySpan.start, end: entries[index + 1]!.keySpan.start, text: "" });
    this.apply({ start: entries[index - 1]!.value.span.end, end: own.value.span.end, text: "" });
  }

  /** Where a header with its keys and the comments just above it sit (and one blank line, so no gap doubles). */
  private sectionRange(section: Section): { start: number; end: number } {
    const lines = this.view().lineStarts;
    const header = section.header!;
    const start = this.lineStartOf(commentsStart(header, lines) ?? header.span.start);
    let end = this.sectionEnd(section);
    const text = this.current;
    if (start === 0 || text.slice(Math.max(0, start - 2), start) === "\n\n") {
      while (end < text.length) {
        const next = text.indexOf("\n", end);
        const line = text.slice(end, next === -1 ? text.length : next + 1);
        if (line.trim() !== "") break;
        end += line.length;
      }
    }
    return { start, end };
  }

  /** Just after the last line of a section's own keys (or of its header). */
  private sectionEnd(section: Section): number {
    const last = section.items[section.items.length - 1];
    return this.lineEndAfter(last ? last.value.span.end : section.header!.span.end);
  }

  /** The offset after the newline that ends the line holding `offset` (trailing comment included). */
  private lineEndAfter(offset: number): number {
    const next = this.current.indexOf("\n", offset);
    return next === -1 ? this.current.length : next + 1;
  }

  private lineStartOf(offset: number): number {
    return this.current.lastIndexOf("\n", offset - 1) + 1;
  }

  private indentOf(offset: number): string {
    const start = this.lineStartOf(offset);
    return /^[ \t]*/.exec(this.current.slice(start, offset))![0];
  }

  private view(): { sections: Section[]; entries: Entry[]; elements: WrittenElement[]; lineStarts: number[] } {
    this.scanned ??= index(this.current);
    return this.scanned;
  }
}

/** The offset where the comments directly above an item start (no blank line between), or undefined. */
function commentsStart(item: { leading: Comment[]; span?: { line: number }; keySpan?: { line: number } }, lineStarts: number[]): number | undefined {
  const itemLine = (item.keySpan ?? item.span)!.line;
  let line = itemLine;
  let first: Comment | undefined;
  for (let i = item.leading.length - 1; i >= 0; i--) {
    const comment = item.leading[i]!;
    if (comment.line !== line - 1) break;
    first = comment;
    line = comment.line;
    if (comment.blankBefore) break;
  }
  return first ? lineStarts[first.line - 1] : undefined;
}

function lineOf(lineStarts: number[], offset: number): number {
  let low = 0;
  let high = lineStarts.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (lineStarts[mid]! <= offset) low = mid;
    else high = mid - 1;
  }
  return low + 1;
}

function describe(path: ValuePath): string {
  return path.length === 0 ? "the document" : path.join(".");
}

/** Sections with resolved paths (array-of-tables indices included), every entry and every array element. */
function index(text: string): { sections: Section[]; entries: Entry[]; elements: WrittenElement[]; lineStarts: number[] } {
  const doc = scanToml(text);
  const lineStarts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) lineStarts.push(i + 1);
  const sections: Section[] = [{ header: null, path: [], items: [] }];
  const entries: Entry[] = [];
  const elements: WrittenElement[] = [];
  const arrayIndex = new Map<string, number>();
  const key = (path: ValuePath) => path.join("\u0000");
  const resolve = (names: string[]): (string | number)[] => {
    const resolved: (string | number)[] = [];
    for (const name of names) {
      resolved.push(name);
      const at = arrayIndex.get(key(resolved));
      if (at !== undefined) resolved.push(at);
    }
    return resolved;
  };
  const visit = (path: (string | number)[], value: ValueNode): void => {
    if (value.kind === "array") {
      value.elements.forEach((element, i) => {
        elements.push({ path: [...path, i], value: element.value, array: value, index: i });
        visit([...path, i], element.value);
      });
    } else if (value.kind === "inlineTable") {
      value.entries.forEach((entry, i) => {
        const entryPath = [...path, ...entry.key];
        entries.push({ path: entryPath, value: entry.value, home: { kind: "inline", table: value, index: i } });
        visit(entryPath, entry.value);
      });
    }
  };
  for (const item of doc.items) {
    if (item.kind === "table") {
      let path: (string | number)[];
      if (item.arrayOfTables) {
        const arrayPath = [...resolve(item.path.slice(0, -1)), item.path[item.path.length - 1]!];
        const next = (arrayIndex.get(key(arrayPath)) ?? -1) + 1;
        for (const other of [...arrayIndex.keys()]) if (other.startsWith(key(arrayPath) + "\u0000")) arrayIndex.delete(other);
        arrayIndex.set(key(arrayPath), next);
        path = [...arrayPath, next];
      } else path = resolve(item.path);
      sections.push({ header: item, path, items: [] });
    } else {
      const section = sections[sections.length - 1]!;
      section.items.push(item);
      const path = [...section.path, ...item.key];
      entries.push({ path, value: item.value, home: { kind: "section", section, item } });
      visit(path, item.value);
    }
  }
  return { sections, entries, elements, lineStarts };
}
