/**
 * The one way the service reads a file a job could have written: anything in a run's workspace, its
 * `.strand/runs/<id>/` folder included. Jobs write there, so every such file is hostile: a symbolic link to
 * another user's run or to the database, a FIFO that never answers, a folder swapped for a link between a
 * check and an open, a file of many gigabytes. Read through here, a file is
 *
 * - named relative to the workspace (or by an absolute path inside it), never outside it;
 * - reached without a link in any component: each folder is checked with lstat, the file is opened with
 *   O_NOFOLLOW, and the descriptor's real location (`/proc/self/fd`) must be inside the workspace and its
 *   identity (device and inode) the one the walk saw — so a swap between the checks and the open is caught;
 * - opened with O_NONBLOCK, so a FIFO (or a device) never blocks a thread, then accepted only when fstat
 *   says it is a regular file;
 * - read up to a stated number of bytes, never whole when it is bigger;
 * - and, asynchronously, given a deadline, and never more than a few at once, so a file system that hangs
 *   cannot take every libuv thread (sign-in hashes passwords on the same threads).
 *
 * Anything else reads as absent: callers answer it as they answer a missing file.
 */
import { closeSync, constants, existsSync, fstatSync, lstatSync, opendirSync, openSync, readlinkSync, readSync, realpathSync, type Dir, type Dirent, type Stats } from "node:fs";
import { open, opendir, type FileHandle } from "node:fs/promises";
import { isAbsolute, join, normalize, relative, sep } from "node:path";

/** Opened for reading only, never through a link in the last component, never waiting on a FIFO, never a controlling terminal. */
const READ_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK | constants.O_NOCTTY;

/** How long an asynchronous open and fstat may take before the file counts as unreadable. */
export const OPEN_DEADLINE_MS = 5_000;

/** Asynchronous opens of workspace files in flight at once (libuv has 4 threads by default; sign-in needs some). */
const MAX_OPENS_IN_FLIGHT = 2;

/** The path below `root` as its parts, or undefined when it is outside (absolute elsewhere, `..`, empty). */
function partsInside(root: string, path: string): string[] | undefined {
  const rest = isAbsolute(path) ? relative(root, path) : normalize(path);
  if (rest === "" || rest === "." || isAbsolute(rest) || rest === ".." || rest.startsWith(`..${sep}`) || rest.includes("\0")) return undefined;
  return rest.split(sep).filter((part) => part !== "" && part !== ".");
}

/** The root's real path (the service made it; jobs cannot replace the workspace folder itself). */
function realRoot(root: string): string | undefined {
  try {
    return realpathSync(root);
  } catch {
    return undefined;
  }
}

/** A workspace and a path in it, resolved: the base to walk from and the parts below it. */
interface Located {
  base: string;
  parts: string[];
}

/** Where `path` is below `root`: tried against the root as given, then against its real path (the engine may name files by either). */
function locate(root: string, path: string): Located | undefined {
  const base = realRoot(root);
  if (base === undefined) return undefined;
  const parts = partsInside(root, path) ?? (isAbsolute(path) ? partsInside(base, path) : undefined);
  return parts && parts.length > 0 ? { base, parts } : undefined;
}

/**
 * What is at `path` below `root`, looked at without following a link (lstat of each component), or
 * undefined when it is outside, absent, or reached through a link. The last component may be anything
 * but a link (callers decide what a folder, a FIFO or a file means to them).
 */
export function lstatInWorkspace(root: string, path: string): Stats | undefined {
  const located = locate(root, path);
  return located ? walk(located) : undefined;
}

function walk({ base, parts }: Located): Stats | undefined {
  let current = base;
  let stat: Stats | undefined;
  for (const [index, part] of parts.entries()) {
    current = join(current, part);
    try {
      stat = lstatSync(current);
    } catch {
      return undefined;
    }
    if (stat.isSymbolicLink()) return undefined;
    if (index < parts.length - 1 && !stat.isDirectory()) return undefined;
  }
  return stat;
}

/** Whether the open descriptor is the file the walk saw, and really lies inside `base` (Linux tells where an fd points). */
function isTheFileSeen(fd: number, base: string, seen: Stats, opened: Stats): boolean {
  if (!opened.isFile() || opened.dev !== seen.dev || opened.ino !== seen.ino) return false;
  let real: string;
  try {
    real = readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    return true; // no /proc (not Linux): the identity check above stands alone
  }
  return real === base || real.startsWith(base.endsWith(sep) ? base : `${base}${sep}`);
}

/** Opens a regular file below `root` for reading (see the module's rules); undefined when it may not be read. Close the descriptor. */
export function openInWorkspace(root: string, path: string): number | undefined {
  const located = locate(root, path);
  if (!located) return undefined;
  const seen = walk(located);
  if (!seen?.isFile()) return undefined;
  let fd: number;
  try {
    fd = openSync(join(located.base, ...located.parts), READ_FLAGS);
  } catch {
    return undefined;
  }
  try {
    if (isTheFileSeen(fd, located.base, seen, fstatSync(fd))) return fd;
  } catch {
    // fstat failed: not readable
  }
  closeSync(fd);
  return undefined;
}

/** A folder below `root` (or the root itself, path ""), open so that its entries can be read where it is now. */
export interface OpenFolder {
  /** Where the folder's entries are: `/proc/self/fd/<fd>` (the folder as opened, whatever is renamed since), else its path. */
  readonly path: string;
  /** The open folder's descriptor (fchown and fchmod act on the folder that was checked, not on a path). */
  readonly fd: number;
  close(): void;
}

/**
 * Opens a folder below `root` (`""` or `"."` for the root) without following a link, checked to lie inside
 * the root; undefined otherwise. Listing `path` (and lstat of `path/<name>`) then reads the folder that was
 * opened, so a job swapping it for a link after the check shows nothing of the link's target.
 */
export function openFolderInWorkspace(root: string, path: string): OpenFolder | undefined {
  const base = realRoot(root);
  if (base === undefined) return undefined;
  let target = base;
  if (path !== "" && path !== ".") {
    const located = locate(root, path);
    const seen = located && walk(located);
    if (!located || !seen?.isDirectory()) return undefined;
    target = join(located.base, ...located.parts);
  }
  let fd: number;
  try {
    fd = openSync(target, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return undefined;
  }
  const close = () => closeSync(fd);
  try {
    const real = readlinkSync(`/proc/self/fd/${fd}`);
    if (real !== base && !real.startsWith(`${base}${sep}`)) {
      close();
      return undefined;
    }
    return { path: `/proc/self/fd/${fd}`, fd, close };
  } catch {
    // No /proc (not Linux): the folder is listed by its path, checked above.
    return existsSync("/proc/self/fd") ? (close(), undefined) : { path: target, fd, close };
  }
}

/** Entries of a folder, at most `max` of them, and whether it holds more. */
export interface FolderEntries {
  entries: Dirent[];
  more: boolean;
}

/**
 * At most `max` entries of a folder (an opened one's `path`), read a few at a time: a job can fill a folder
 * with millions of names, which a whole listing would hold in memory and build on the event loop.
 */
export function folderEntries(path: string, max: number): FolderEntries {
  const entries: Dirent[] = [];
  let folder: Dir;
  try {
    folder = opendirSync(path, { bufferSize: 64 });
  } catch {
    return { entries, more: false };
  }
  try {
    for (let entry = folder.readSync(); entry !== null; entry = folder.readSync()) {
      if (entries.length >= max) return { entries, more: true };
      entries.push(entry);
    }
    return { entries, more: false };
  } catch {
    return { entries, more: false };
  } finally {
    folder.closeSync();
  }
}

/** folderEntries, read off the event loop (libuv's threads), a batch at a time. */
export async function folderEntriesAsync(path: string, max: number): Promise<FolderEntries> {
  const entries: Dirent[] = [];
  let folder: Dir;
  try {
    folder = await opendir(path, { bufferSize: 64 });
  } catch {
    return { entries, more: false };
  }
  try {
    for (let entry = await folder.read(); entry !== null; entry = await folder.read()) {
      if (entries.length >= max) return { entries, more: true };
      entries.push(entry);
    }
    return { entries, more: false };
  } catch {
    return { entries, more: false };
  } finally {
    await folder.close().catch(() => undefined);
  }
}

/** Reads `length` bytes at `position` (fewer at the end of the file). */
export function readAt(fd: number, position: number, length: number): Buffer {
  const buffer = Buffer.allocUnsafe(length);
  let filled = 0;
  while (filled < length) {
    const count = readSync(fd, buffer, filled, length - filled, position + filled);
    if (count === 0) break; // the end, or truncated while reading
    filled += count;
  }
  return buffer.subarray(0, filled);
}

/** A whole regular file below `root` when it holds at most `maxBytes`; undefined when absent, not allowed, or bigger. */
export function readWorkspaceFile(root: string, path: string, maxBytes: number): Buffer | undefined {
  const fd = openInWorkspace(root, path);
  if (fd === undefined) return undefined;
  try {
    const size = fstatSync(fd).size;
    if (size > maxBytes) return undefined;
    // One byte more than the cap tells a file that grew since fstat.
    const bytes = readAt(fd, 0, Math.min(size + 1, maxBytes + 1));
    return bytes.length > maxBytes ? undefined : bytes;
  } finally {
    closeSync(fd);
  }
}

/** A whole text file below `root` (UTF-8) up to `maxBytes`; undefined as for readWorkspaceFile. */
export function readWorkspaceText(root: string, path: string, maxBytes: number): string | undefined {
  return readWorkspaceFile(root, path, maxBytes)?.toString("utf8");
}

/** A JSON file below `root` up to `maxBytes`, parsed; undefined when absent, not allowed, too big or not JSON. */
export function readWorkspaceJson(root: string, path: string, maxBytes: number): unknown {
  const text = readWorkspaceText(root, path, maxBytes);
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** The last `bytes` of a text file below `root` (the first character may be cut); "" when it cannot be read. */
export function readWorkspaceTail(root: string, path: string, bytes: number): string {
  const fd = openInWorkspace(root, path);
  if (fd === undefined) return "";
  try {
    const size = fstatSync(fd).size;
    const length = Math.min(size, bytes);
    return readAt(fd, size - length, length).toString("utf8");
  } catch {
    return "";
  } finally {
    closeSync(fd);
  }
}

/**
 * Calls `onLine` for each complete line of a file below `root` from byte `offset`, reading at most
 * `maxBytes` (a line longer than `maxLineBytes` is skipped whole). Answers where the next read should
 * start (after the last complete line), or undefined when the file cannot be read. A line without its
 * newline yet is left for the next call.
 */
export function forEachWorkspaceLine(root: string, path: string, options: { offset?: number; maxBytes: number; maxLineBytes: number }, onLine: (line: string) => void): number | undefined {
  const fd = openInWorkspace(root, path);
  if (fd === undefined) return undefined;
  try {
    return forEachLine(fd, options, onLine);
  } finally {
    closeSync(fd);
  }
}

const CHUNK_BYTES = 64 * 1024;

/** The line reader of forEachWorkspaceLine, on an open descriptor. */
export function forEachLine(fd: number, options: { offset?: number; maxBytes: number; maxLineBytes: number }, onLine: (line: string) => void): number {
  const start = Math.max(0, options.offset ?? 0);
  const end = start + options.maxBytes;
  let position = start;
  let lineStart = start;
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let skipping = false;
  const chunk = Buffer.allocUnsafe(CHUNK_BYTES);
  while (position < end) {
    const count = readSync(fd, chunk, 0, Math.min(CHUNK_BYTES, end - position), position);
    if (count <= 0) break;
    let from = 0;
    for (;;) {
      const newline = chunk.indexOf(0x0a, from);
      if (newline < 0 || newline >= count) break;
      if (!skipping) {
        const piece = chunk.subarray(from, newline);
        const line = pendingBytes === 0 ? piece.toString("utf8") : Buffer.concat([...pending, piece]).toString("utf8");
        onLine(line);
      }
      pending = [];
      pendingBytes = 0;
      skipping = false;
      from = newline + 1;
      lineStart = position + from;
    }
    const rest = count - from;
    if (!skipping && rest > 0) {
      if (pendingBytes + rest > options.maxLineBytes) {
        // A line too long to be a record: dropped whole, up to its newline.
        skipping = true;
        pending = [];
        pendingBytes = 0;
      } else {
        pending.push(Buffer.from(chunk.subarray(from, count)));
        pendingBytes += rest;
      }
    }
    position += count;
  }
  // A skipped line's bytes are consumed even without its newline yet, so a follower does not read them again.
  return skipping ? position : lineStart;
}

/** Limits asynchronous opens in flight; waiting callers go in order. */
class Gate {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly limit: number) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.active >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.active++;
    try {
      return await work();
    } finally {
      this.active--;
      this.waiting.shift()?.();
    }
  }
}

const opens = new Gate(MAX_OPENS_IN_FLIGHT);

/** Resolves with `undefined` if `work` takes longer than `ms` (the work itself goes on, its result is dropped). */
function withDeadline<T>(work: Promise<T>, ms: number, onLate: (value: T) => void): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  let late = false;
  const deadline = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => {
      late = true;
      resolve(undefined);
    }, ms);
    timer.unref();
  });
  void work.then((value) => {
    if (late) onLate(value);
  }, () => undefined);
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

/**
 * Opens a regular file below `root` for streaming (see the module's rules), at most a few at once and
 * within `OPEN_DEADLINE_MS`; undefined when it may not be read. `seen`, when given, is the lstat a caller
 * already made (a listing), which the opened file must still be.
 */
export async function openInWorkspaceAsync(root: string, path: string, seen?: Stats): Promise<FileHandle | undefined> {
  const located = locate(root, path);
  if (!located) return undefined;
  const opened = opens.run(async () => {
    const walked = walk(located);
    if (!walked?.isFile() || (seen && (seen.ino !== walked.ino || seen.dev !== walked.dev))) return undefined;
    let handle: FileHandle;
    try {
      handle = await open(join(located.base, ...located.parts), READ_FLAGS);
    } catch {
      return undefined;
    }
    const stat = await handle.stat().catch(() => undefined);
    if (stat && isTheFileSeen(handle.fd, located.base, walked, stat)) return handle;
    await handle.close();
    return undefined;
  });
  return withDeadline(opened, OPEN_DEADLINE_MS, (late) => void late?.close());
}
