/**
 * `GET /api/runs/{id}/files`: what a run's workspace holds, for the browser. A file is streamed (never read
 * whole), with ranges, an ETag and a type by its extension; a folder is listed as JSON, or streamed as a zip
 * built while it is sent. Only what is inside the workspace is ever opened: an absolute path, `..`, a path
 * through a symbolic link, or the engine's own `.strand` folder answers 404 exactly as an absent file does.
 * A file is opened without following a link and checked to be the file the walk saw, so a job swapping in a
 * link between the two is refused too.
 *
 * The browser app shares this origin, so a result file must never run script here: HTML and XML are sent as
 * text/plain, every answer says `nosniff`, and all but PDFs carry a sandboxing Content-Security-Policy (a
 * sandboxed document has no origin and no scripts; Chrome's PDF viewer refuses to run sandboxed, and runs a
 * PDF's own scripts in its own isolated viewer anyway).
 */
import type { Dirent, Stats } from "node:fs";
import { lstat, realpath, type FileHandle } from "node:fs/promises";
import { extname, join } from "node:path";
import { Readable } from "node:stream";
import { Zip, ZipDeflate, ZipPassThrough } from "fflate";
import type { Caller } from "../../caller.js";
import { ServiceError } from "../../errors.js";
import { folderEntriesAsync, lstatInWorkspace, openFolderInWorkspace, openInWorkspaceAsync } from "../../runner/workspace-reader.js";
import { readableRun, type ExecutionContext } from "./service.js";

/** Bounds of a folder answer: entries listed, and files (and folders) put in one zip. */
export const FOLDER_LIMITS = { listed: 5_000, zipped: 10_000, read: 50_000 } as const;

/** The engine's bookkeeping folder at the top of a workspace (runs' logs, checkpoint, lock): never shown. */
const BOOKKEEPING = ".strand";

/** The biggest file a zip takes (fflate writes no Zip64 records). */
const ZIP_FILE_MAX_BYTES = 0xffff_ffff - 1;

/** What the caller asked for. */
export interface RunFileQuery {
  path?: string;
  download?: "0" | "1" | "true" | "false";
  format?: "json" | "zip";
}

/** One entry of a folder listing. */
export interface FolderEntry {
  name: string;
  path: string;
  type: "file" | "folder";
  size_bytes: number;
  modified_at: string;
}

const notFound = (id: string, path: string) =>
  new ServiceError("NOT_FOUND", `run ${id} has no file or folder '${path}'`, { suggestion: `GET /api/runs/${id}/files lists the top of the run's workspace` });

/** The parts of a relative path, or undefined when it is absolute, climbs with `..`, or names the bookkeeping folder. */
function pathParts(path: string | undefined): string[] | undefined {
  if (path === undefined) return [];
  if (path.includes("\0") || path.startsWith("/") || path.includes("\\")) return undefined;
  const parts = path.split("/").filter((part) => part !== "" && part !== ".");
  if (parts.some((part) => part === "..")) return undefined;
  if (parts[0] === BOOKKEEPING) return undefined;
  return parts;
}

/** The answer to `GET /api/runs/{id}/files` (and HEAD). */
export async function runFileAnswer(context: ExecutionContext, caller: Caller, id: string, query: RunFileQuery, request: Request): Promise<Response> {
  const run = await readableRun(context, caller, id);
  const shownPath = query.path ?? "";
  const parts = pathParts(query.path);
  if (!run.workspace || parts === undefined) throw notFound(id, shownPath);
  let root: string;
  try {
    root = await realpath(run.workspace);
  } catch {
    throw notFound(id, shownPath);
  }
  const relative = parts.join("/");
  const stat = parts.length === 0 ? await lstat(root).catch(() => undefined) : lstatInWorkspace(root, relative);
  if (!stat) throw notFound(id, shownPath);
  const full = parts.length === 0 ? root : join(root, ...parts);
  const download = query.download === "1" || query.download === "true";
  if (stat.isDirectory()) {
    const name = parts.at(-1) ?? `run-${id}`;
    if (query.format === "zip") return zipAnswer(root, parts, name, request.method === "HEAD");
    return Response.json(await folderListing(root, parts), { headers: { "Cache-Control": "private, no-cache", "X-Content-Type-Options": "nosniff" } });
  }
  if (!stat.isFile()) throw notFound(id, shownPath);
  if (query.format === "zip") throw new ServiceError("BAD_REQUEST", `'${relative}' is a file; format=zip is for folders`, { suggestion: "leave out format to download the file itself" });
  return fileAnswer({ id, root, shownPath, full, stat, download, request });
}

/** A folder's entries: folders first, then files, by name; links and other kinds are left out. */
async function folderListing(root: string, parts: string[]): Promise<{ path: string; entries: FolderEntry[]; truncated: boolean }> {
  const prefix = parts.length === 0 ? "" : `${parts.join("/")}/`;
  // The folder as opened: a job renaming it or swapping in a link after the checks shows nothing else.
  const folder = openFolderInWorkspace(root, parts.join("/"));
  if (!folder) return { path: parts.join("/"), entries: [], truncated: false };
  try {
    // A folder of millions of names is read only this far: what is shown is sorted from the entries read.
    const read = await folderEntriesAsync(folder.path, FOLDER_LIMITS.read);
    const dirents = read.entries.filter((entry) => (entry.isFile() || entry.isDirectory()) && !(parts.length === 0 && entry.name === BOOKKEEPING));
    dirents.sort((a, b) => (a.isDirectory() !== b.isDirectory() ? (a.isDirectory() ? -1 : 1) : a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const shown = dirents.slice(0, FOLDER_LIMITS.listed);
    const entries: FolderEntry[] = [];
    for (const entry of shown) {
      const stat = await lstat(join(folder.path, entry.name)).catch(() => undefined);
      if (!stat || !(stat.isFile() || stat.isDirectory())) continue; // gone, or replaced by a link since the listing
      entries.push({ name: entry.name, path: `${prefix}${entry.name}`, type: stat.isDirectory() ? "folder" : "file", size_bytes: stat.isDirectory() ? 0 : stat.size, modified_at: stat.mtime.toISOString() });
    }
    return { path: parts.join("/"), entries, truncated: read.more || dirents.length > shown.length };
  } finally {
    folder.close();
  }
}

/** How a file is shown: its Content-Type, whether a browser may show it inline, and its CSP. */
interface FileKind {
  type: string;
  inline: boolean;
  csp: string;
}

const SANDBOX = "sandbox; default-src 'none'";
const TEXT: FileKind = { type: "text/plain; charset=utf-8", inline: true, csp: SANDBOX };
const BINARY: FileKind = { type: "application/octet-stream", inline: false, csp: SANDBOX };
const image = (type: string): FileKind => ({ type, inline: true, csp: `${SANDBOX}; img-src 'self'` });

/** File kinds by extension (lower case, without the dot); anything else is looked at (see `sniffedKind`). */
const KINDS: Record<string, FileKind> = {
  png: image("image/png"),
  jpg: image("image/jpeg"),
  jpeg: image("image/jpeg"),
  gif: image("image/gif"),
  webp: image("image/webp"),
  // An SVG document may hold scripts: the sandbox (no allow-scripts) and default-src 'none' keep them from running.
  svg: { type: "image/svg+xml", inline: true, csp: `${SANDBOX}; img-src 'self' data:; style-src 'unsafe-inline'` },
  pdf: { type: "application/pdf", inline: true, csp: "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; object-src 'self'" },
  json: { type: "application/json; charset=utf-8", inline: true, csp: SANDBOX },
  // Markup is shown as its text, never rendered on this origin.
  html: TEXT,
  htm: TEXT,
  xhtml: TEXT,
  xml: TEXT,
  xsl: TEXT,
  mht: TEXT,
  mhtml: TEXT,
  gz: { ...BINARY, type: "application/gzip" },
  bgz: { ...BINARY, type: "application/gzip" },
  zip: { ...BINARY, type: "application/zip" },
  bz2: { ...BINARY, type: "application/x-bzip2" },
  xz: { ...BINARY, type: "application/x-xz" },
  zst: { ...BINARY, type: "application/zstd" },
  tar: { ...BINARY, type: "application/x-tar" },
  bam: BINARY,
  cram: BINARY,
  bai: BINARY,
  crai: BINARY,
  csi: BINARY,
  tbi: BINARY,
};
for (const extension of ["txt", "log", "out", "err", "md", "csv", "tsv", "tab", "fa", "fasta", "fna", "faa", "fq", "fastq", "vcf", "bed", "gff", "gff3", "gtf", "sam", "yaml", "yml", "toml", "oxoflow", "sh", "py", "r", "nf", "smk", "ini", "cfg", "conf"]) {
  KINDS[extension] = TEXT;
}

/** Extensions whose bytes are already compressed (a zip stores them as they are). */
const COMPRESSED = new Set(["gz", "bgz", "zip", "bz2", "xz", "zst", "bam", "cram", "png", "jpg", "jpeg", "gif", "webp", "pdf", "7z", "rar"]);

/** A file of no known extension: text (shown inline) when its first bytes are UTF-8 without NUL, else binary. */
async function sniffedKind(handle: FileHandle): Promise<FileKind> {
  const buffer = Buffer.alloc(8192);
  const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
  const head = buffer.subarray(0, bytesRead);
  if (head.includes(0)) return BINARY;
  try {
    // A character cut at the end of the sample is not a reason to call the file binary.
    new TextDecoder("utf-8", { fatal: true }).decode(bytesRead === buffer.length ? head.subarray(0, bytesRead - 4) : head);
    return TEXT;
  } catch {
    return BINARY;
  }
}

/** `Content-Disposition` with an ASCII fallback name and the UTF-8 one. */
function disposition(kind: "inline" | "attachment", name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\%;]/g, "_");
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/** The byte range asked for: undefined for the whole file, "unsatisfiable", or inclusive start and end. */
export function requestedRange(header: string | null, size: number): { start: number; end: number } | "unsatisfiable" | undefined {
  if (!header) return undefined;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  // Several ranges, or another unit: the whole file is a valid answer to those.
  if (!match || (match[1] === "" && match[2] === "")) return undefined;
  if (match[1] === "") {
    const suffix = Number(match[2]);
    if (suffix === 0 || size === 0) return "unsatisfiable";
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(match[1]);
  const end = match[2] === "" ? size - 1 : Math.min(Number(match[2]), size - 1);
  if (start >= size || end < start) return "unsatisfiable";
  return { start, end };
}

async function fileAnswer(input: { id: string; root: string; shownPath: string; full: string; stat: Stats; download: boolean; request: Request }): Promise<Response> {
  const { stat, request } = input;
  // Non-blocking, no link, still the file the walk saw, inside the workspace, within a deadline (runner/workspace-reader.ts).
  const handle = await openInWorkspaceAsync(input.root, input.full, stat);
  if (!handle) throw notFound(input.id, input.shownPath);
  let keepOpen = false;
  try {
    const name = input.full.slice(input.full.lastIndexOf("/") + 1);
    const kind = KINDS[extname(name).slice(1).toLowerCase()] ?? (await sniffedKind(handle));
    const etag = `"${stat.size.toString(16)}-${Math.floor(stat.mtimeMs).toString(16)}-${stat.ino.toString(16)}"`;
    const headers = new Headers({
      "Content-Type": kind.type,
      "Content-Disposition": disposition(kind.inline && !input.download ? "inline" : "attachment", name),
      "X-Content-Type-Options": "nosniff",
      "Content-Security-Policy": kind.csp,
      "Accept-Ranges": "bytes",
      ETag: etag,
      "Last-Modified": stat.mtime.toUTCString(),
      "Cache-Control": "private, no-cache",
    });
    if (request.headers.get("If-None-Match")?.split(",").some((tag) => tag.trim() === etag)) return new Response(null, { status: 304, headers });
    // If-Range with another version of the file: the whole (new) file, not a piece of it.
    const ifRange = request.headers.get("If-Range");
    const range = ifRange !== null && ifRange !== etag ? undefined : requestedRange(request.headers.get("Range"), stat.size);
    if (range === "unsatisfiable") {
      throw new ServiceError("RANGE_NOT_SATISFIABLE", `the file has ${stat.size} bytes; the range ${request.headers.get("Range")} is outside it`, {
        suggestion: "ask for a range inside the file (bytes=0-, or bytes=-N for the last N bytes)",
        headers: { "Content-Range": `bytes */${stat.size}`, "Accept-Ranges": "bytes" },
      });
    }
    const start = range?.start ?? 0;
    const end = range?.end ?? stat.size - 1;
    const length = stat.size === 0 ? 0 : end - start + 1;
    headers.set("Content-Length", String(length));
    if (range) headers.set("Content-Range", `bytes ${start}-${end}/${stat.size}`);
    const status = range ? 206 : 200;
    if (request.method === "HEAD" || length === 0) return new Response(null, { status, headers });
    const stream = handle.createReadStream({ start, end, autoClose: true });
    keepOpen = true;
    return new Response(Readable.toWeb(stream) as ReadableStream<Uint8Array>, { status, headers });
  } finally {
    if (!keepOpen) await handle.close();
  }
}

/** A folder as a zip, built while it is sent: files and empty folders under it, never through a link. */
function zipAnswer(root: string, parts: string[], name: string, headOnly: boolean): Response {
  const headers = {
    "Content-Type": "application/zip",
    "Content-Disposition": disposition("attachment", `${name}.zip`),
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": SANDBOX,
    "Cache-Control": "private, no-cache",
  };
  if (headOnly) return new Response(null, { status: 200, headers });
  let wake: (() => void) | undefined;
  let cancelled = false;
  const body = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        const zip = new Zip((error, chunk, final) => {
          if (cancelled) return;
          if (error) {
            cancelled = true;
            controller.error(error);
            return;
          }
          if (chunk.length > 0) controller.enqueue(chunk);
          if (final) controller.close();
        });
        /** Waits while the reader is behind (the stream's queue is full). */
        const drained = async () => {
          while (!cancelled && (controller.desiredSize ?? 1) <= 0) await new Promise<void>((resolve) => (wake = resolve));
        };
        void zipFolder(zip, root, parts, drained, () => cancelled).then(
          () => {
            if (!cancelled) zip.end();
          },
          (error: unknown) => {
            if (cancelled) return;
            cancelled = true;
            zip.terminate();
            controller.error(error);
          },
        );
      },
      pull() {
        wake?.();
        wake = undefined;
      },
      cancel() {
        cancelled = true;
        wake?.();
      },
    },
    { highWaterMark: 16 },
  );
  return new Response(body, { status: 200, headers });
}

/** Adds the folder's files (read in chunks, waiting for the reader) and empty folders to the zip, up to `FOLDER_LIMITS.zipped` entries. */
async function zipFolder(zip: Zip, root: string, parts: string[], drained: () => Promise<void>, stopped: () => boolean): Promise<void> {
  let entries = 0;
  const stack: string[][] = [parts];
  while (stack.length > 0 && !stopped()) {
    const folder = stack.pop()!;
    const inZip = folder.slice(parts.length);
    const opened = openFolderInWorkspace(root, folder.join("/"));
    if (!opened) continue;
    let dirents: Dirent[];
    try {
      // Never more names than the zip could still take (plus one folder level's worth of sub-folders).
      dirents = (await folderEntriesAsync(opened.path, FOLDER_LIMITS.zipped + 1)).entries;
    } finally {
      opened.close();
    }
    const kept = dirents.filter((entry) => (entry.isFile() || entry.isDirectory()) && !(folder.length === 0 && entry.name === BOOKKEEPING));
    kept.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    if (kept.length === 0 && inZip.length > 0 && entries < FOLDER_LIMITS.zipped) {
      entries++;
      const empty = new ZipPassThrough(`${inZip.join("/")}/`);
      zip.add(empty);
      empty.push(new Uint8Array(0), true);
    }
    // Depth first, in name order: sub-folders go on the stack in reverse.
    for (const entry of kept.filter((dirent) => dirent.isDirectory()).reverse()) stack.push([...folder, entry.name]);
    for (const entry of kept.filter((dirent) => dirent.isFile())) {
      if (stopped() || entries >= FOLDER_LIMITS.zipped) return;
      const full = join(root, ...folder, entry.name);
      const stat = lstatInWorkspace(root, full);
      if (!stat || !stat.isFile() || stat.size > ZIP_FILE_MAX_BYTES) continue;
      const handle = await openInWorkspaceAsync(root, full, stat);
      if (!handle) continue;
      entries++;
      const filename = [...inZip, entry.name].join("/");
      // Compressed formats are stored as they are; the rest deflated quickly (level 1), a chunk at a time.
      const file = COMPRESSED.has(extname(entry.name).slice(1).toLowerCase()) ? new ZipPassThrough(filename) : new ZipDeflate(filename, { level: 1 });
      file.mtime = stat.mtime;
      zip.add(file);
      try {
        // Chunks are pushed one behind: the last one read is pushed as final.
        let previous: Uint8Array | undefined;
        // The file as big as it was when listed: a job appending to it while it is zipped does not make the zip endless.
        const chunks = stat.size === 0 ? [] : (handle.createReadStream({ start: 0, end: stat.size - 1, highWaterMark: 64 * 1024, autoClose: false }) as AsyncIterable<Buffer>);
        for await (const chunk of chunks) {
          if (stopped()) return;
          if (previous) file.push(previous);
          previous = new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength);
          await drained();
        }
        file.push(previous ?? new Uint8Array(0), true);
      } finally {
        await handle.close();
      }
    }
  }
}
