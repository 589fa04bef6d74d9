/**
 * Uploads into the caller's own files folder (`<dataDir>/users/<id>/files`), streamed to disk: a raw body
 * (`?name=`) or `multipart/form-data` (one or more file parts, read part by part as the bytes arrive, never
 * whole in memory). Each file is written under a hidden temporary name, hashed while it is written, and
 * moved into place only when complete; past the size limit the partial file is removed and the answer is
 * 413. Names and folders are checked: no `..`, no absolute paths, no control or invisible format characters
 * (bidirectional controls among them), no hidden names, no links on the way, and no overwriting unless asked.
 */
import { createHash, randomBytes } from "node:crypto";
import { linkSync, lstatSync, mkdirSync, readdirSync, renameSync, rmSync, unlinkSync } from "node:fs";
import { open, type FileHandle } from "node:fs/promises";
import { join } from "node:path";
import { ServiceError } from "../../errors.js";

/** One stored file, as answered. */
export interface StoredFile {
  path: string;
  size: number;
  sha256: string;
}

/**
 * Characters no file name may hold: controls, and invisible format characters — above all the bidirectional
 * controls (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C), which make `invoice\u202Etxt.exe` show as
 * `invoiceexe.txt` — and the line and paragraph separators.
 */
const INVISIBLE = /[\p{Cc}\p{Cf}\u2028\u2029]/u;

/** What the invisible characters are called in messages. */
function kindOf(character: string): string {
  const code = character.codePointAt(0)!;
  if ((code >= 0x202a && code <= 0x202e) || (code >= 0x2066 && code <= 0x2069) || code === 0x200e || code === 0x200f || code === 0x061c) return "a bidirectional text control";
  if (/\p{Cc}/u.test(character)) return "a control character";
  if (code === 0x2028 || code === 0x2029) return "a line or paragraph separator";
  return "an invisible format character";
}

/** `U+202E`, as messages name a character. */
function codePoint(character: string): string {
  return `U+${character.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`;
}

/** The name as messages may quote it: every invisible character written as its code point. */
export function shownName(name: string): string {
  return [...name].map((character) => (INVISIBLE.test(character) ? `<${codePoint(character)}>` : character)).join("");
}

/** Why a name is refused, or undefined when it may be used as one path segment. */
export function nameProblem(name: string): string | undefined {
  if (name === "") return "the name is empty";
  if (name === "." || name === "..") return `'${name}' is not a name`;
  if (name.includes("/") || name.includes("\\")) return "a name cannot contain / or \\";
  // Positions count characters as people do (an emoji is one), from 1.
  const characters = [...name];
  const at = characters.findIndex((character) => INVISIBLE.test(character));
  if (at >= 0) return `the name has ${codePoint(characters[at]!)}, ${kindOf(characters[at]!)}, at character ${at + 1}: names cannot contain control or invisible format characters`;
  if (name.startsWith(".")) return "hidden names (starting with .) are not accepted";
  if (Buffer.byteLength(name) > 255) return "the name is longer than 255 bytes";
  return undefined;
}

/** The segments of a folder path inside the own folder, checked one by one. */
export function folderSegments(path: string): string[] {
  if (path.startsWith("/") || /^[A-Za-z]:/.test(path)) throw new ServiceError("INVALID_PATH", "the folder must be relative to your files folder", { suggestion: "give a path like uploads/run1" });
  const segments = path.split("/").filter((segment, index, all) => !(segment === "" && (index === 0 || index === all.length - 1)));
  for (const segment of segments) {
    const problem = nameProblem(segment);
    if (problem) throw new ServiceError("INVALID_PATH", `folder '${shownName(path)}': ${problem}`, { suggestion: "use plain folder names separated by /" });
  }
  return segments;
}

/** Makes (or finds) a folder inside `own`, refusing links and files on the way. */
export function folderInside(own: string, segments: string[]): string {
  let current = own;
  for (const segment of segments) {
    current = join(current, segment);
    let stat;
    try {
      stat = lstatSync(current);
    } catch {
      mkdirSync(current, { mode: 0o700 });
      continue;
    }
    if (!stat.isDirectory()) throw new ServiceError("INVALID_PATH", `${segments.join("/")}: ${segment} is not a folder`, { suggestion: "choose another folder" });
  }
  return current;
}

/** Writes one stream of chunks to `folder/name` through a temporary file; the limit is per file. */
export class FileSink {
  private readonly temp: string;
  private readonly hash = createHash("sha256");
  private handle: FileHandle | undefined;
  size = 0;

  constructor(
    private readonly folder: string,
    private readonly name: string,
    private readonly limit: number,
  ) {
    this.temp = join(folder, `.upload-${randomBytes(8).toString("hex")}.part`);
  }

  async start(): Promise<void> {
    this.handle = await open(this.temp, "wx", 0o600);
  }

  /** Adds bytes; false when the file went past the limit (the partial file is then removed). */
  async write(chunk: Uint8Array): Promise<boolean> {
    this.size += chunk.byteLength;
    if (this.size > this.limit) {
      await this.abort();
      return false;
    }
    this.hash.update(chunk);
    await this.handle!.write(chunk);
    return true;
  }

  /** Moves the complete file into place (without replacing one, unless `overwrite`). */
  async finish(overwrite: boolean, shownFolder: string): Promise<StoredFile> {
    await this.handle!.close();
    this.handle = undefined;
    const target = join(this.folder, this.name);
    const shown = shownFolder ? `${shownFolder}/${this.name}` : this.name;
    try {
      if (overwrite) {
        const existing = lstatOrUndefined(target);
        if (existing && !existing.isFile()) throw new ServiceError("CONFLICT", `${shown} exists and is not a file`, { suggestion: "choose another name" });
        renameSync(this.temp, target);
      } else {
        // A hard link fails when the name is taken: no check-then-write race.
        linkSync(this.temp, target);
        unlinkSync(this.temp);
      }
    } catch (error) {
      rmSync(this.temp, { force: true });
      if ((error as NodeJS.ErrnoException).code === "EEXIST") throw new ServiceError("CONFLICT", `${shown} exists`, { suggestion: "add overwrite=true to replace it, or choose another name" });
      throw error;
    }
    return { path: shown, size: this.size, sha256: this.hash.digest("hex") };
  }

  /** Removes the partial file. */
  async abort(): Promise<void> {
    await this.handle?.close().catch(() => undefined);
    this.handle = undefined;
    rmSync(this.temp, { force: true });
  }
}

function lstatOrUndefined(path: string) {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}

/** One event of a multipart body: a part begins (its headers), some of its bytes, or it ends. */
export type MultipartEvent = { type: "part"; name: string | null; filename: string | null } | { type: "data"; chunk: Uint8Array } | { type: "end" };

/** The boundary of a multipart/form-data content type, or undefined. */
export function multipartBoundary(contentType: string): string | undefined {
  if (!/^multipart\/form-data\b/i.test(contentType)) return undefined;
  const match = /;\s*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  return match?.[1] ?? match?.[2];
}

const MAX_PART_HEADERS = 16 * 1024;

/** Reads a multipart body as it arrives: part headers, then the part's bytes in pieces (nothing held whole). */
export async function* multipartEvents(body: AsyncIterable<Uint8Array>, boundary: string): AsyncGenerator<MultipartEvent> {
  const delimiter = Buffer.from(`\r\n--${boundary}`);
  // A leading CRLF makes the first delimiter look like every other one.
  let buffer: Buffer = Buffer.from("\r\n");
  let state: "preamble" | "after-delimiter" | "headers" | "body" = "preamble";
  const bad = (message: string) => new ServiceError("BAD_REQUEST", `malformed multipart body: ${message}`, { suggestion: "send multipart/form-data with file parts, or the raw file with ?name=" });
  for await (const chunk of body) {
    buffer = buffer.length === 0 ? Buffer.from(chunk) : Buffer.concat([buffer, chunk]);
    for (;;) {
      if (state === "preamble") {
        const at = buffer.indexOf(delimiter);
        if (at < 0) {
          buffer = buffer.subarray(Math.max(0, buffer.length - delimiter.length + 1));
          break;
        }
        buffer = buffer.subarray(at + delimiter.length);
        state = "after-delimiter";
      } else if (state === "after-delimiter") {
        if (buffer.length < 2) break;
        if (buffer[0] === 0x2d && buffer[1] === 0x2d) return; // the closing boundary: the epilogue is not read
        const lineEnd = buffer.indexOf("\r\n");
        if (lineEnd < 0) {
          if (buffer.length > 256) throw bad("no line end after a boundary");
          break;
        }
        buffer = buffer.subarray(lineEnd + 2);
        state = "headers";
      } else if (state === "headers") {
        const end = buffer.indexOf("\r\n\r\n");
        if (end < 0) {
          if (buffer.length > MAX_PART_HEADERS) throw bad("part headers over 16 KiB");
          break;
        }
        const headers = buffer.subarray(0, end).toString("utf8");
        buffer = buffer.subarray(end + 4);
        const disposition = /^content-disposition:(.*)$/im.exec(headers)?.[1] ?? "";
        const param = (key: string) => new RegExp(`;\\s*${key}="((?:[^"\\\\]|\\\\.)*)"`, "i").exec(disposition)?.[1]?.replace(/\\(.)/g, "$1") ?? new RegExp(`;\\s*${key}=([^;\\s]+)`, "i").exec(disposition)?.[1] ?? null;
        yield { type: "part", name: param("name"), filename: param("filename") };
        state = "body";
      } else if (state === "body") {
        const at = buffer.indexOf(delimiter);
        if (at < 0) {
          const keep = delimiter.length - 1;
          if (buffer.length > keep) {
            yield { type: "data", chunk: buffer.subarray(0, buffer.length - keep) };
            buffer = buffer.subarray(buffer.length - keep);
          }
          break;
        }
        if (at > 0) yield { type: "data", chunk: buffer.subarray(0, at) };
        yield { type: "end" };
        buffer = buffer.subarray(at + delimiter.length);
        state = "after-delimiter";
      }
    }
  }
  throw bad("the body ended before its closing boundary");
}

/** Lists one folder inside the own folder (no links followed, at most `limit` entries). */
export function listFolder(folder: string, shownFolder: string, limit = 1000): { entries: { name: string; path: string; type: "file" | "folder"; size: number; modified_at: string }[]; truncated: boolean } {
  const names = readdirSync(folder).filter((name) => !name.startsWith(".")).sort();
  const entries = [];
  for (const name of names.slice(0, limit)) {
    const stat = lstatOrUndefined(join(folder, name));
    if (!stat || !(stat.isFile() || stat.isDirectory())) continue;
    entries.push({ name, path: shownFolder ? `${shownFolder}/${name}` : name, type: stat.isDirectory() ? ("folder" as const) : ("file" as const), size: stat.isDirectory() ? 0 : stat.size, modified_at: stat.mtime.toISOString() });
  }
  return { entries, truncated: names.length > limit };
}
