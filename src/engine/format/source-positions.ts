/**
 * Where each value of a TOML document sits in its file, addressed by the path a program uses to reach it
 * (`["rules", 3, "environment", "conda"]`). Built lazily from the lossless scan, only when a finding needs
 * a position, so loading stays fast.
 */
import type { SourcePosition } from "../findings.js";
import { scanToml, type ValueNode } from "./toml-syntax.js";

export type ValuePath = ReadonlyArray<string | number>;

/** A source file's text with a lazily built index from value paths to positions. */
export class SourceFile {
  private index: Map<string, Position> | undefined;

  constructor(
    readonly path: string,
    readonly text: string,
  ) {}

  /** The position of the value at `path`, or of its nearest ancestor that is written in the file. */
  locate(path: ValuePath): SourcePosition {
    const index = this.positions();
    for (let length = path.length; length > 0; length--) {
      const found = index.get(pathKey(path.slice(0, length)));
      if (found) return { file: this.path, line: found.line, column: found.column };
    }
    return { file: this.path, line: 1, column: 1 };
  }

  /**
   * The position of a character inside a one-line quoted string value: `offset` counts from 1 within the
   * string's content. Falls back to the key's position for other values.
   */
  locateInString(path: ValuePath, offset: number): SourcePosition {
    const value = this.positions().get(pathKey(path) + VALUE_SUFFIX);
    if (value && value.singleLineString) return { file: this.path, line: value.line, column: value.column + offset - 1 };
    return this.locate(path);
  }

  /** True when the value at `path` is written in the file itself (not defaulted or injected). */
  has(path: ValuePath): boolean {
    return this.positions().has(pathKey(path));
  }

  private positions(): Map<string, Position> {
    if (!this.index) {
      try {
        this.index = indexPositions(this.text);
      } catch {
        // A text the scan cannot follow still loads; its findings then point at the start of the file.
        this.index = new Map();
      }
    }
    return this.index;
  }
}

interface Position {
  line: number;
  column: number;
  /** Set on value entries: the value is a quoted string on one line (columns inside it are exact). */
  singleLineString?: boolean;
}

/** Suffix of the index key that holds where a key's value starts (as opposed to the key itself). */
const VALUE_SUFFIX = "\u0000=";

function pathKey(path: ValuePath): string {
  return path.join("\u0000");
}

/** Maps every table, key and array element of a TOML text to its line and column. */
export function indexPositions(text: string): Map<string, Position> {
  const doc = scanToml(text);
  const index = new Map<string, Position>();
  // Current element index of every array of tables, keyed by its resolved path.
  const arrayTableIndex = new Map<string, number>();
  let current: (string | number)[] = [];

  const resolve = (names: string[]): (string | number)[] => {
    const resolved: (string | number)[] = [];
    for (const name of names) {
      resolved.push(name);
      const at = arrayTableIndex.get(pathKey(resolved));
      if (at !== undefined) resolved.push(at);
    }
    return resolved;
  };

  const record = (path: (string | number)[], line: number, column: number): void => {
    const key = pathKey(path);
    if (!index.has(key)) index.set(key, { line, column });
  };

  const recordValue = (path: (string | number)[], value: ValueNode): void => {
    if (value.kind === "scalar") {
      // Columns inside a one-line string without escapes map one-to-one onto the file.
      const raw = value.raw;
      const quoted = raw.startsWith('"') || raw.startsWith("'");
      const singleLineString = quoted && !raw.startsWith('"""') && !raw.startsWith("'''") && !raw.includes("\\");
      index.set(pathKey(path) + VALUE_SUFFIX, { line: value.span.line, column: value.span.column + 1, singleLineString });
    } else if (value.kind === "array") {
      value.elements.forEach((element, i) => {
        const elementPath = [...path, i];
        record(elementPath, element.value.span.line, element.value.span.column);
        recordValue(elementPath, element.value);
      });
    } else if (value.kind === "inlineTable") {
      for (const entry of value.entries) {
        const entryPath = [...path];
        for (const part of entry.key) {
          entryPath.push(part);
          record(entryPath, entry.keySpan.line, entry.keySpan.column);
        }
        recordValue(entryPath, entry.value);
      }
    }
  };

  for (const item of doc.items) {
    if (item.kind === "table") {
      if (item.arrayOfTables) {
        const parent = resolve(item.path.slice(0, -1));
        const arrayPath = [...parent, item.path[item.path.length - 1]!];
        const key = pathKey(arrayPath);
        const next = (arrayTableIndex.get(key) ?? -1) + 1;
        arrayTableIndex.set(key, next);
        // Nested arrays of tables restart when their parent element changes.
        for (const other of arrayTableIndex.keys()) {
          if (other.startsWith(key + "\u0000")) arrayTableIndex.delete(other);
        }
        record(arrayPath, item.span.line, item.span.column);
        current = [...arrayPath, next];
      } else {
        current = resolve(item.path);
      }
      record(current, item.span.line, item.span.column);
    } else {
      const path = [...current];
      for (const part of item.key) {
        path.push(part);
        record(path, item.keySpan.line, item.keySpan.column);
      }
      recordValue(path, item.value);
    }
  }
  return index;
}
