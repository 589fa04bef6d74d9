/**
 * From bytes to a decoded pipeline file: strict UTF-8, size and nesting limits, TOML syntax errors and
 * type errors, each reported with its file, line and column.
 */
import { readFile, stat } from "node:fs/promises";
import { parse as parseToml, TomlError } from "smol-toml";
import type { z } from "zod";
import { EngineError } from "../findings.js";
import { pipelineFileSchema, type DecodedPipelineFile } from "./schema.js";
import type { SourceFile} from "./source-positions.js";
import { type ValuePath } from "./source-positions.js";

/** Largest pipeline file accepted (real pipelines are kilobytes; generated ones a few megabytes). */
export const MAX_PIPELINE_BYTES = 64 * 1024 * 1024;
/** Deepest nesting of tables and arrays accepted. */
export const MAX_NESTING_DEPTH = 64;

/** Reads a pipeline file as strict UTF-8, refusing files that are too large or not text. */
export async function readPipelineText(path: string, label: string = path): Promise<string> {
  let size: number;
  try {
    const info = await stat(path);
    if (info.isDirectory()) {
      throw new EngineError("IO_ERROR", `${label} is a folder, not a pipeline file`, {
        suggestion: "name a .oxoflow file, or a folder that holds main.oxoflow",
      });
    }
    // A device or pipe (/dev/zero, /dev/stdin, a FIFO) has no size to check and may never end.
    if (!info.isFile()) {
      throw new EngineError("IO_ERROR", `${label} is not a regular file`, { suggestion: "name a .oxoflow file" });
    }
    size = info.size;
  } catch (error) {
    if (error instanceof EngineError) throw error;
    throw new EngineError("IO_ERROR", `cannot read ${label}: ${describeIoError(error)}`, {
      suggestion: "check the path; relative paths are taken from the including file's folder",
    });
  }
  if (size > MAX_PIPELINE_BYTES) {
    throw new EngineError("LIMIT_ERROR", `${label} is ${formatBytes(size)}; the largest pipeline file accepted is ${formatBytes(MAX_PIPELINE_BYTES)}`, {
      at: { file: label, line: 1, column: 1 },
      suggestion: "move sample lists into a sample_groups_file or pairs_file",
    });
  }
  const bytes = await readFile(path);
  return decodeUtf8(bytes, label);
}

/** Decodes bytes as UTF-8, reporting the line and column of the first invalid byte. */
export function decodeUtf8(bytes: Uint8Array, label: string): string {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    const offset = firstInvalidUtf8Offset(bytes);
    const before = new TextDecoder("utf-8").decode(bytes.subarray(0, offset));
    const lines = before.split("\n");
    throw new EngineError("PARSE_ERROR", `${label} is not valid UTF-8 text (byte 0x${(bytes[offset] ?? 0).toString(16).padStart(2, "0")} at offset ${offset})`, {
      at: { file: label, line: lines.length, column: (lines[lines.length - 1]?.length ?? 0) + 1 },
      suggestion: "save the file as UTF-8; pipeline files are text",
    });
  }
}

/**
 * Offset of the first byte sequence that is not UTF-8 (the lead byte of a broken sequence). The second byte
 * of some lead bytes has a narrower range (RFC 3629): E0 and F0 exclude overlong forms, ED excludes the
 * UTF-16 surrogate halves, F4 excludes code points beyond U+10FFFF.
 */
function firstInvalidUtf8Offset(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const byte = bytes[i]!;
    let extra = 0;
    let low = 0x80;
    let high = 0xbf;
    if (byte < 0x80) extra = 0;
    else if (byte >= 0xc2 && byte <= 0xdf) extra = 1;
    else if (byte >= 0xe0 && byte <= 0xef) {
      extra = 2;
      if (byte === 0xe0) low = 0xa0;
      if (byte === 0xed) high = 0x9f;
    } else if (byte >= 0xf0 && byte <= 0xf4) {
      extra = 3;
      if (byte === 0xf0) low = 0x90;
      if (byte === 0xf4) high = 0x8f;
    } else return i;
    for (let k = 1; k <= extra; k++) {
      const next = bytes[i + k];
      if (next === undefined || next < (k === 1 ? low : 0x80) || next > (k === 1 ? high : 0xbf)) return i;
    }
    i += extra + 1;
  }
  return bytes.length;
}

/** Parses TOML text into a plain table, turning syntax errors into positioned findings. */
export function parseTomlText(text: string, label: string): Record<string, unknown> {
  if (text.length > MAX_PIPELINE_BYTES) {
    throw new EngineError("LIMIT_ERROR", `${label} is larger than ${formatBytes(MAX_PIPELINE_BYTES)}`, { at: { file: label, line: 1, column: 1 } });
  }
  let table: Record<string, unknown>;
  try {
    table = parseToml(text, { maxDepth: MAX_NESTING_DEPTH, unsafeKeyBehaviour: "throw" }) as Record<string, unknown>;
  } catch (error) {
    if (error instanceof TomlError) {
      const message = error.message.split("\n")[0]!.replace(/^Invalid TOML document: /, "");
      throw new EngineError("PARSE_ERROR", `TOML syntax error in ${label}: ${message}`, {
        at: { file: label, line: error.line, column: error.column },
        suggestion: syntaxHint(message),
      });
    }
    throw new EngineError("PARSE_ERROR", `cannot parse ${label}: ${error instanceof Error ? error.message : String(error)}`, {
      at: { file: label, line: 1, column: 1 },
    });
  }
  const depth = nestingDepth(table);
  if (depth > MAX_NESTING_DEPTH) {
    throw new EngineError("LIMIT_ERROR", `${label} nests tables ${depth} levels deep; at most ${MAX_NESTING_DEPTH} are accepted`, {
      at: { file: label, line: 1, column: 1 },
      suggestion: "pipelines need only a few levels of tables; check for a runaway dotted key",
    });
  }
  return table;
}

function syntaxHint(message: string): string | null {
  if (/control character/i.test(message)) return "use \"\"\" … \"\"\" for text that spans lines, or escape the character";
  if (/unterminated|unfinished|end of (file|document)/i.test(message)) return "close the string, array or table that starts here";
  if (/duplicate|already (been )?defined|overwrite|redefine/i.test(message)) return "each key may be set once per table; for several rules use [[rules]] (two brackets)";
  if (/nested/i.test(message)) return "pipelines need only a few levels of nesting";
  if (/unsafe|__proto__|prototype|constructor/i.test(message)) return "rename the key";
  return "see https://toml.io/en/v1.1.0 for the syntax";
}

/** Deepest nesting of tables/arrays, computed without recursion. */
function nestingDepth(root: unknown): number {
  let max = 0;
  const stack: [unknown, number][] = [[root, 0]];
  while (stack.length > 0) {
    const [value, depth] = stack.pop()!;
    if (depth > max) max = depth;
    if (depth > MAX_NESTING_DEPTH) return depth;
    if (Array.isArray(value)) {
      for (const item of value) if (typeof item === "object" && item !== null) stack.push([item, depth + 1]);
    } else if (typeof value === "object" && value !== null && !(value instanceof Date)) {
      for (const item of Object.values(value)) if (typeof item === "object" && item !== null) stack.push([item, depth + 1]);
    }
  }
  return max;
}

/** Checks a parsed table against the file schema; the first problems become one positioned error. */
export function decodePipelineTable(table: Record<string, unknown>, source: SourceFile): DecodedPipelineFile {
  const result = pipelineFileSchema.safeParse(table);
  if (result.success) return result.data;
  const issues = result.error.issues.slice(0, 5);
  const first = issues[0]!;
  const where = describePath(first.path as ValuePath, table);
  const message = `${where}: ${describeIssue(first, table)}` + (result.error.issues.length > 1 ? ` (and ${result.error.issues.length - 1} more problem(s))` : "");
  throw new EngineError("SCHEMA_ERROR", `${source.path}: ${message}`, {
    at: source.locate(first.path as ValuePath),
    rule: ruleNameAt(first.path as ValuePath, table),
    suggestion: issueSuggestion(first, valueAt(table, first.path as ValuePath) === undefined),
  });
}

/** Describes a value path the way a user reads the file: `[[rules]] "align" → input`. */
export function describePath(path: ValuePath, table: Record<string, unknown>): string {
  if (path.length === 0) return "the file";
  const [section, index, ...rest] = path;
  let head: string;
  let tail: ReadonlyArray<string | number>;
  if (typeof index === "number") {
    const entry = (table[section as string] as unknown[] | undefined)?.[index] as Record<string, unknown> | undefined;
    const name = entry && typeof entry.name === "string" ? ` "${entry.name}"` : ` #${index + 1}`;
    head = `[[${section}]]${name}`;
    tail = rest;
  } else {
    head = `[${section}]`;
    tail = path.slice(1);
  }
  if (tail.length === 0) return head;
  return `${head} → ${tail.map((part) => (typeof part === "number" ? `[${part}]` : part)).join(".").replace(/\.\[/g, "[")}`;
}

function ruleNameAt(path: ValuePath, table: Record<string, unknown>): string | null {
  if (path[0] !== "rules" || typeof path[1] !== "number") return null;
  const rule = (table.rules as unknown[] | undefined)?.[path[1]] as Record<string, unknown> | undefined;
  return rule && typeof rule.name === "string" ? rule.name : null;
}

function describeIssue(issue: z.core.$ZodIssue, table: Record<string, unknown>): string {
  const found = describeValue(valueAt(table, issue.path as ValuePath));
  if (issue.code === "invalid_type") {
    // A missing key: the schema's own message says what to add, when it has one.
    if (found === "nothing") return issue.message.startsWith("Invalid input") ? `is required (expected ${issue.expected})` : issue.message;
    if (issue.message.startsWith("Invalid input")) return `expected ${issue.expected}, found ${found}`;
    return `${issue.message} (found ${found})`;
  }
  if (issue.code === "invalid_union") return `${issue.message.startsWith("Invalid input") ? "has the wrong type" : issue.message} (found ${found})`;
  if (issue.code === "invalid_value") return `${issue.message} (found ${found})`;
  return issue.message;
}

function issueSuggestion(issue: z.core.$ZodIssue, missing: boolean): string | null {
  const last = issue.path[issue.path.length - 1];
  if (missing && issue.code === "invalid_type" && last !== undefined) {
    return issue.expected === "object" ? `add a [${String(last)}] table` : `add ${String(last)} = …`;
  }
  if ((last === "input" || last === "output") && issue.code === "invalid_union") {
    return `write ${String(last)} = ["path"] even for a single path`;
  }
  if (issue.code === "invalid_type" && issue.expected === "array") return "write a list in brackets, e.g. [\"a\", \"b\"]";
  if (issue.code === "invalid_type" && issue.expected === "number") return "write the number without quotes";
  if (issue.code === "invalid_type" && issue.expected === "string") return "put the value in double quotes";
  return null;
}

function valueAt(root: unknown, path: ValuePath): unknown {
  let value: unknown = root;
  for (const part of path) {
    if (value === null || typeof value !== "object") return undefined;
    value = (value as Record<string | number, unknown>)[part];
  }
  return value;
}

function describeValue(value: unknown): string {
  if (value === undefined) return "nothing";
  if (Array.isArray(value)) return "an array";
  if (value instanceof Date) return "a date";
  if (typeof value === "object" && value !== null) return "a table";
  if (typeof value === "string") return `a string ("${value.length > 40 ? value.slice(0, 40) + "…" : value}")`;
  if (typeof value === "number") return Number.isInteger(value) ? `an integer (${value})` : `a number (${value})`;
  return `a ${typeof value} (${String(value)})`;
}

function describeIoError(error: unknown): string {
  const code = (error as { code?: string }).code;
  if (code === "ENOENT") return "no such file";
  if (code === "EACCES") return "permission denied";
  return error instanceof Error ? error.message : String(error);
}

/** Formats a byte count for messages. */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
  if (bytes >= 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${bytes} bytes`;
}
