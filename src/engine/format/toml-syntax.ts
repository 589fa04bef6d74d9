/**
 * A lossless scan of a TOML document: tables, key/value pairs, values with their spans, and the comments
 * around them. smol-toml decides what a document means; this scan only says where each piece is, so that
 * findings can point at a line and column and `format` can keep comments. It assumes a document that
 * smol-toml has already accepted.
 */

/** A location in the text: offsets into the string, line and column from 1. */
export interface Span {
  start: number;
  end: number;
  line: number;
  column: number;
}

/** A comment line (`# …`), with whether a blank line preceded it. */
export interface Comment {
  text: string;
  line: number;
  blankBefore: boolean;
}

export interface ScalarNode {
  kind: "scalar";
  span: Span;
  raw: string;
}

export interface ArrayElement {
  value: ValueNode;
  leading: Comment[];
  trailing: Comment | null;
}

export interface ArrayNode {
  kind: "array";
  span: Span;
  elements: ArrayElement[];
  /** Comments after the last element, before the closing bracket. */
  endComments: Comment[];
}

export interface InlineEntry {
  key: string[];
  keySpan: Span;
  value: ValueNode;
  leading: Comment[];
  trailing: Comment | null;
}

export interface InlineTableNode {
  kind: "inlineTable";
  span: Span;
  entries: InlineEntry[];
  endComments: Comment[];
}

export type ValueNode = ScalarNode | ArrayNode | InlineTableNode;

export interface TableItem {
  kind: "table";
  path: string[];
  arrayOfTables: boolean;
  span: Span;
  leading: Comment[];
  trailing: Comment | null;
}

export interface KeyValueItem {
  kind: "keyValue";
  key: string[];
  keySpan: Span;
  value: ValueNode;
  leading: Comment[];
  trailing: Comment | null;
}

export type DocumentItem = TableItem | KeyValueItem;

export interface TomlDocument {
  items: DocumentItem[];
  /** Comments after the last item. */
  endComments: Comment[];
}

const BARE_KEY = /[A-Za-z0-9_-]/;

/** Scans an already-valid TOML text into items with spans and comments. */
export function scanToml(text: string): TomlDocument {
  return new Scanner(text).document();
}

class Scanner {
  private pos = 0;
  private line = 1;
  private lineStart = 0;
  private pendingComments: Comment[] = [];
  private blankSeen = false;

  constructor(private readonly text: string) {
    if (text.charCodeAt(0) === 0xfeff) this.pos = 1;
  }

  document(): TomlDocument {
    const items: DocumentItem[] = [];
    for (;;) {
      this.skipTrivia();
      if (this.pos >= this.text.length) break;
      const leading = this.takeComments();
      const ch = this.text[this.pos];
      let item: DocumentItem;
      if (ch === "[") item = this.tableHeader(leading);
      else item = this.keyValue(leading);
      item.trailing = this.trailingComment();
      items.push(item);
    }
    return { items, endComments: this.takeComments() };
  }

  private span(start: number, line: number, column: number): Span {
    return { start, end: this.pos, line, column };
  }

  private here(): { start: number; line: number; column: number } {
    return { start: this.pos, line: this.line, column: this.pos - this.lineStart + 1 };
  }

  private newline(): void {
    this.line++;
    this.lineStart = this.pos;
  }

  /** Skips whitespace, newlines and comments, collecting comments as pending leading comments. */
  private skipTrivia(): void {
    // The newline that ends an item's own line is not a blank line.
    let lineHadContent = this.pos > this.lineStart;
    while (this.pos < this.text.length) {
      const ch = this.text[this.pos];
      if (ch === " " || ch === "\t" || ch === "\r") this.pos++;
      else if (ch === "\n") {
        this.pos++;
        this.newline();
        if (!lineHadContent) this.blankSeen = true;
        lineHadContent = false;
      } else if (ch === "#") {
        const line = this.line;
        const start = this.pos;
        while (this.pos < this.text.length && this.text[this.pos] !== "\n") this.pos++;
        this.pendingComments.push({ text: this.text.slice(start, this.pos).replace(/\r$/, ""), line, blankBefore: this.blankSeen });
        this.blankSeen = false;
        lineHadContent = true;
      } else break;
    }
  }

  private takeComments(): Comment[] {
    const comments = this.pendingComments;
    this.pendingComments = [];
    return comments;
  }

  /** A comment on the same line after an item. */
  private trailingComment(): Comment | null {
    while (this.pos < this.text.length && (this.text[this.pos] === " " || this.text[this.pos] === "\t")) this.pos++;
    if (this.text[this.pos] === "#") {
      const start = this.pos;
      while (this.pos < this.text.length && this.text[this.pos] !== "\n") this.pos++;
      this.blankSeen = false;
      return { text: this.text.slice(start, this.pos).replace(/\r$/, ""), line: this.line, blankBefore: false };
    }
    this.blankSeen = false;
    return null;
  }

  private tableHeader(leading: Comment[]): TableItem {
    const at = this.here();
    const arrayOfTables = this.text.startsWith("[[", this.pos);
    this.pos += arrayOfTables ? 2 : 1;
    this.skipInlineSpace();
    const { key } = this.key();
    this.skipInlineSpace();
    this.pos += arrayOfTables ? 2 : 1;
    return { kind: "table", path: key, arrayOfTables, span: this.span(at.start, at.line, at.column), leading, trailing: null };
  }

  private keyValue(leading: Comment[]): KeyValueItem {
    const { key, span: keySpan } = this.key();
    this.skipInlineSpace();
    this.pos++; // '='
    this.skipInlineSpace();
    const value = this.value();
    return { kind: "keyValue", key, keySpan, value, leading, trailing: null };
  }

  private skipInlineSpace(): void {
    while (this.pos < this.text.length && (this.text[this.pos] === " " || this.text[this.pos] === "\t")) this.pos++;
  }

  /** A dotted key: bare, basic-quoted or literal-quoted parts separated by dots. */
  private key(): { key: string[]; span: Span } {
    const at = this.here();
    const parts: string[] = [];
    for (;;) {
      this.skipInlineSpace();
      const ch = this.text[this.pos];
      if (ch === '"') parts.push(this.basicString());
      else if (ch === "'") parts.push(this.literalString());
      else {
        const start = this.pos;
        while (this.pos < this.text.length && BARE_KEY.test(this.text[this.pos]!)) this.pos++;
        parts.push(this.text.slice(start, this.pos));
      }
      this.skipInlineSpace();
      if (this.text[this.pos] === ".") this.pos++;
      else break;
    }
    return { key: parts, span: this.span(at.start, at.line, at.column) };
  }

  private basicString(): string {
    this.pos++;
    let out = "";
    while (this.pos < this.text.length) {
      const ch = this.text[this.pos]!;
      if (ch === '"') {
        this.pos++;
        break;
      }
      if (ch === "\\") {
        out += decodeEscape(this.text, this.pos);
        this.pos += escapeLength(this.text, this.pos);
        continue;
      }
      out += ch;
      this.pos++;
    }
    return out;
  }

  private literalString(): string {
    const start = ++this.pos;
    while (this.pos < this.text.length && this.text[this.pos] !== "'") this.pos++;
    const out = this.text.slice(start, this.pos);
    this.pos++;
    return out;
  }

  private value(): ValueNode {
    const at = this.here();
    const ch = this.text[this.pos];
    if (ch === "[") return this.array();
    if (ch === "{") return this.inlineTable();
    if (this.text.startsWith('"""', this.pos)) this.skipMultiline('"""');
    else if (this.text.startsWith("'''", this.pos)) this.skipMultiline("'''");
    else if (ch === '"') this.basicString();
    else if (ch === "'") this.literalString();
    else this.skipBareValue();
    return { kind: "scalar", span: this.span(at.start, at.line, at.column), raw: this.text.slice(at.start, this.pos) };
  }

  private skipMultiline(delimiter: string): void {
    this.pos += 3;
    while (this.pos < this.text.length) {
      const ch = this.text[this.pos];
      if (ch === "\\" && delimiter === '"""') {
        this.pos += 2;
        if (this.text[this.pos - 1] === "\n") this.newline();
        continue;
      }
      if (ch === "\n") {
        this.pos++;
        this.newline();
        continue;
      }
      if (this.text.startsWith(delimiter, this.pos)) {
        this.pos += 3;
        // Up to two extra quote characters may close the string ("""a"""" is a" plus the delimiter).
        let extra = 0;
        while (extra < 2 && this.text[this.pos] === delimiter[0]) {
          this.pos++;
          extra++;
        }
        return;
      }
      this.pos++;
    }
  }

  /** Numbers, booleans, dates and times: up to the next delimiter (a date may contain one space before its time). */
  private skipBareValue(): void {
    const start = this.pos;
    while (this.pos < this.text.length && !/[,\]}\s#]/.test(this.text[this.pos]!)) this.pos++;
    if (/^\d{4}-\d{2}-\d{2}$/.test(this.text.slice(start, this.pos)) && this.text[this.pos] === " " && /\d/.test(this.text[this.pos + 1] ?? "")) {
      this.pos++;
      while (this.pos < this.text.length && !/[,\]}\s#]/.test(this.text[this.pos]!)) this.pos++;
    }
  }

  /** Skips whitespace, newlines and comments inside an array or inline table, returning the comments. */
  private innerTrivia(): Comment[] {
    const comments: Comment[] = [];
    let blank = false;
    let lineHadContent = true;
    while (this.pos < this.text.length) {
      const ch = this.text[this.pos];
      if (ch === " " || ch === "\t" || ch === "\r") this.pos++;
      else if (ch === "\n") {
        this.pos++;
        this.newline();
        if (!lineHadContent) blank = true;
        lineHadContent = false;
      } else if (ch === "#") {
        const start = this.pos;
        const line = this.line;
        while (this.pos < this.text.length && this.text[this.pos] !== "\n") this.pos++;
        comments.push({ text: this.text.slice(start, this.pos).replace(/\r$/, ""), line, blankBefore: blank });
        blank = false;
        lineHadContent = true;
      } else break;
    }
    return comments;
  }

  /** A comment on the same line as the previous element (after its comma, if any). */
  private innerTrailing(afterLine: number): Comment | null {
    const save = { pos: this.pos };
    this.skipInlineSpace();
    if (this.text[this.pos] === "#" && this.line === afterLine) {
      const start = this.pos;
      while (this.pos < this.text.length && this.text[this.pos] !== "\n") this.pos++;
      return { text: this.text.slice(start, this.pos).replace(/\r$/, ""), line: afterLine, blankBefore: false };
    }
    this.pos = save.pos;
    return null;
  }

  private array(): ArrayNode {
    const at = this.here();
    this.pos++;
    const elements: ArrayElement[] = [];
    let endComments: Comment[] = [];
    let carried: Comment[] = [];
    for (;;) {
      const leading = [...carried, ...this.innerTrivia()];
      if (this.text[this.pos] === "]" || this.pos >= this.text.length) {
        endComments = leading;
        this.pos++;
        break;
      }
      const value = this.value();
      const { trailing, carried: next } = this.afterElement();
      carried = next;
      elements.push({ value, leading, trailing });
    }
    return { kind: "array", span: this.span(at.start, at.line, at.column), elements, endComments };
  }

  /**
   * After an element of an array or inline table: its comma and the comment on its line. Comments on the
   * lines between the element and a comma written on a later line are carried to the next element.
   */
  private afterElement(): { trailing: Comment | null; carried: Comment[] } {
    const valueLine = this.line;
    this.innerTrailingSpace();
    if (this.text[this.pos] === ",") {
      this.pos++;
      return { trailing: this.innerTrailing(valueLine), carried: [] };
    }
    const trailing = this.innerTrailing(valueLine);
    this.innerTrailingSpace();
    let carried: Comment[] = [];
    if (this.text[this.pos] !== "," && this.text[this.pos] !== "]" && this.text[this.pos] !== "}") carried = this.innerTrivia();
    if (this.text[this.pos] === ",") this.pos++;
    return { trailing, carried };
  }

  /** Whitespace and newlines (no comments) between a value and its comma. */
  private innerTrailingSpace(): void {
    while (this.pos < this.text.length) {
      const ch = this.text[this.pos];
      if (ch === " " || ch === "\t" || ch === "\r") this.pos++;
      else if (ch === "\n") {
        // Only skip when the next non-space character is a comma or closing bracket.
        let look = this.pos + 1;
        while (look < this.text.length && /[ \t\r\n]/.test(this.text[look]!)) look++;
        if (this.text[look] !== "," && this.text[look] !== "]" && this.text[look] !== "}") return;
        this.pos++;
        this.newline();
      } else return;
    }
  }

  private inlineTable(): InlineTableNode {
    const at = this.here();
    this.pos++;
    const entries: InlineEntry[] = [];
    let endComments: Comment[] = [];
    let carried: Comment[] = [];
    for (;;) {
      const leading = [...carried, ...this.innerTrivia()];
      if (this.text[this.pos] === "}" || this.pos >= this.text.length) {
        endComments = leading;
        this.pos++;
        break;
      }
      const { key, span: keySpan } = this.key();
      this.skipInlineSpace();
      this.pos++; // '='
      this.skipInlineSpace();
      const value = this.value();
      const { trailing, carried: next } = this.afterElement();
      carried = next;
      entries.push({ key, keySpan, value, leading, trailing });
    }
    return { kind: "inlineTable", span: this.span(at.start, at.line, at.column), entries, endComments };
  }
}

function escapeLength(text: string, pos: number): number {
  const next = text[pos + 1];
  if (next === "u") return 6;
  if (next === "U") return 10;
  if (next === "x") return 4;
  return 2;
}

function decodeEscape(text: string, pos: number): string {
  const next = text[pos + 1];
  switch (next) {
    case "n":
      return "\n";
    case "t":
      return "\t";
    case "r":
      return "\r";
    case "b":
      return "\b";
    case "f":
      return "\f";
    case "e":
      return "\x1b";
    case '"':
      return '"';
    case "\\":
      return "\\";
    case "u":
      return String.fromCodePoint(parseInt(text.slice(pos + 2, pos + 6), 16));
    case "U":
      return String.fromCodePoint(parseInt(text.slice(pos + 2, pos + 10), 16));
    case "x":
      return String.fromCodePoint(parseInt(text.slice(pos + 2, pos + 4), 16));
    default:
      return next ?? "";
  }
}
