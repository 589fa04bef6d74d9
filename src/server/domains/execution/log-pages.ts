/**
 * Reading job and engine logs for the run views: pages of lines from a byte offset (the logs endpoint) and
 * the last lines of a file (the run detail's log tail). Logs can be many megabytes and still being written,
 * so both read in chunks from where they start and never load a whole file. Offsets are byte offsets;
 * lines are cut at "\n" bytes, which never occur inside a UTF-8 character, so a returned line never holds
 * half a character. Text is returned as written (colour escapes included) except for a trailing "\r".
 */
import { closeSync, fstatSync, readSync } from "node:fs";
import { openInWorkspace, readAt as readBytesAt } from "../../runner/workspace-reader.js";

/** One page of a log: the lines, where the next page starts, and whether the file end was reached. */
export interface LinePage {
  lines: string[];
  /** The byte offset to pass for the next page. */
  next_offset: number;
  /** True when `next_offset` is the end of the file as it was when this page was read. */
  eof: boolean;
}

const NEWLINE = 0x0a;
const CHUNK_BYTES = 64 * 1024;
const DEFAULT_LIMIT = 1000;
const MAX_LIMIT = 10_000;

/** The bounds of a log answer. */
export const LOG_LIMITS = {
  /** A longer line is cut here (at a character boundary) and ends with `LINE_CUT_MARKER`; the rest is skipped. */
  lineBytes: 64 * 1024,
  /** The lines of one page together hold at most this many bytes (a page always holds at least one line). */
  pageBytes: 1024 * 1024,
  /** A page reads at most this far into the file; a cut line going on further ends the page mid-line. */
  scanBytes: 16 * 1024 * 1024,
  /** The most a tail reads from the end. */
  tailBytes: 8 * 1024 * 1024,
} as const;

/** What ends a line that was cut. */
export const LINE_CUT_MARKER = ` … [line cut at ${LOG_LIMITS.lineBytes / 1024} KiB]`;

/**
 * Up to `limit` lines from byte `offset`, at most `LOG_LIMITS.pageBytes` of them, each cut at
 * `LOG_LIMITS.lineBytes`. A last line without its "\n" is returned (and `next_offset` placed after it) so
 * that a finished log always pages to `eof`; a caller reading a log that is still being written passes
 * `growing: true` to hold such a line back until its newline arrives, leaving `next_offset` at its start. A
 * missing file reads as empty; an offset past the end (a file truncated since) gives an empty page whose
 * `next_offset` is the current end. The file is read as every file of a workspace is (runner/workspace-reader.ts):
 * a regular file inside `root`, reached without a link; anything else reads as missing.
 */
export function readLinePage(root: string, path: string, offset = 0, limit = DEFAULT_LIMIT, options: { growing?: boolean } = {}): LinePage {
  const fd = openInWorkspace(root, path);
  if (fd === undefined) return { lines: [], next_offset: 0, eof: true };
  try {
    const size = fstatSync(fd).size;
    const wanted = clampLimit(limit);
    const start = Number.isFinite(offset) ? Math.max(0, Math.floor(offset)) : 0;
    if (start >= size) return { lines: [], next_offset: size, eof: true };
    const page = new PageBuilder(wanted);
    page.lineStart = start;
    const chunk = Buffer.allocUnsafe(CHUNK_BYTES);
    const scanEnd = Math.min(size, start + LOG_LIMITS.scanBytes);
    let readAt = start;
    let first = true;
    while (!page.full && readAt < scanEnd) {
      const count = readSync(fd, chunk, 0, Math.min(CHUNK_BYTES, scanEnd - readAt), readAt);
      if (count === 0) break; // the file shrank under us
      let data = chunk.subarray(0, count);
      if (first) {
        // An offset that was not a next_offset may land inside a character: start at the next one.
        const skip = skipContinuationBytes(data, 0);
        page.lineStart += skip;
        data = data.subarray(skip);
        first = false;
      }
      page.feed(data, readAt + (count - data.length));
      readAt += count;
    }
    if (!page.full && page.hasPartialLine) {
      // The file (or the scan) ended inside a line: a finished log gives it, a growing one holds it back,
      // and a cut line that runs past the scan is given with the page ending where the reading stopped.
      if (readAt >= size && !options.growing) page.endLine(readAt);
      else if (page.partialCut) page.endLine(readAt);
    }
    return { lines: page.lines, next_offset: page.lineStart, eof: page.lineStart >= size };
  } finally {
    closeSync(fd);
  }
}

/** Collects a page's lines from the bytes fed to it, cutting long lines and stopping at the page's bounds. */
class PageBuilder {
  readonly lines: string[] = [];
  /** The file offset where the line being assembled starts (the page's next_offset once it ends). */
  lineStart = 0;
  private pageBytes = 0;
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private cut = false;
  private stopped = false;

  constructor(private readonly wanted: number) {}

  get full(): boolean {
    return this.stopped || this.lines.length >= this.wanted;
  }

  get hasPartialLine(): boolean {
    return this.pendingBytes > 0 || this.cut;
  }

  get partialCut(): boolean {
    return this.cut;
  }

  /** Takes the bytes `data`, which start at file offset `at`. */
  feed(data: Buffer, at: number): void {
    let from = 0;
    while (!this.full) {
      const newline = data.indexOf(NEWLINE, from);
      const end = newline === -1 ? data.length : newline;
      this.keep(data.subarray(from, end));
      if (newline === -1) return;
      this.endLine(at + newline + 1);
      from = newline + 1;
    }
  }

  /** Ends the line being assembled; the next one starts at file offset `nextStart`. */
  endLine(nextStart: number): void {
    const bytes = this.pendingBytes === 0 ? Buffer.alloc(0) : this.pending.length === 1 ? this.pending[0]! : Buffer.concat(this.pending);
    const text = decodeLine(bytes) + (this.cut ? LINE_CUT_MARKER : "");
    const size = bytes.length;
    if (this.lines.length > 0 && this.pageBytes + size > LOG_LIMITS.pageBytes) {
      this.stopped = true; // this line starts the next page
      return;
    }
    this.lines.push(text);
    this.pageBytes += size;
    this.lineStart = nextStart;
    this.pending = [];
    this.pendingBytes = 0;
    this.cut = false;
  }

  /** Keeps part of the line being assembled, up to the line cut. */
  private keep(piece: Buffer): void {
    if (piece.length === 0 || this.cut) return;
    const room = LOG_LIMITS.lineBytes - this.pendingBytes;
    if (piece.length <= room) {
      // Copied: `piece` may be a view of the read buffer, which the next read overwrites.
      this.pending.push(Buffer.from(piece));
      this.pendingBytes += piece.length;
      return;
    }
    // The cut is found in the whole line kept so far: a character may have begun in an earlier read.
    const whole = Buffer.concat([...this.pending, piece.subarray(0, room + 1)]);
    const cut = characterBoundaryBefore(whole, LOG_LIMITS.lineBytes);
    this.pending = [whole.subarray(0, cut)];
    this.pendingBytes = cut;
    this.cut = true;
  }
}

/**
 * The last `count` lines of a file (fewer if it has fewer, or if they would hold more than
 * `LOG_LIMITS.pageBytes`), each cut like a page's, read backwards from the end in chunks; confined to `root`
 * as for `readLinePage`.
 */
export function tailLines(root: string, path: string, count: number): string[] {
  const wanted = Number.isFinite(count) ? Math.floor(count) : 0;
  if (wanted <= 0) return [];
  const fd = openInWorkspace(root, path);
  if (fd === undefined) return [];
  try {
    const size = fstatSync(fd).size;
    if (size === 0) return [];
    const chunks: Buffer[] = [];
    let start = size;
    let newlines = 0;
    // Enough is read once `wanted` newlines precede the last line; the file's final "\n" ends the last
    // line rather than separating two, so it does not count.
    while (start > 0 && size - start < LOG_LIMITS.tailBytes && newlines < wanted) {
      const length = Math.min(CHUNK_BYTES, start, LOG_LIMITS.tailBytes - (size - start));
      start -= length;
      const buffer = readBytesAt(fd, start, length);
      chunks.unshift(buffer);
      for (let i = 0; i < buffer.length; i++) if (buffer[i] === NEWLINE && start + i !== size - 1) newlines++;
    }
    let bytes = Buffer.concat(chunks);
    if (bytes[bytes.length - 1] === NEWLINE) bytes = bytes.subarray(0, bytes.length - 1);
    // Reading began mid-file, maybe mid-character; the line cut there is dropped below unless the
    // window ran out first, and then it is kept from its first whole character.
    if (start > 0) bytes = bytes.subarray(skipContinuationBytes(bytes, 0));
    const lines = bytes.toString("utf8").split("\n").slice(-wanted).map((line) => cutLine(stripCarriageReturn(line)));
    // Like a page, a tail holds at most LOG_LIMITS.pageBytes: the newest lines that fit (at least one).
    let total = 0;
    let first = lines.length;
    while (first > 0 && (first === lines.length || total + Buffer.byteLength(lines[first - 1]!) <= LOG_LIMITS.pageBytes)) total += Buffer.byteLength(lines[--first]!);
    return lines.slice(first);
  } finally {
    closeSync(fd);
  }
}

/** A line of text cut at `LOG_LIMITS.lineBytes` with the marker (a tail's lines come from one read). */
function cutLine(line: string): string {
  if (line.length <= LOG_LIMITS.lineBytes / 4 || Buffer.byteLength(line) <= LOG_LIMITS.lineBytes) return line;
  const bytes = Buffer.from(line);
  return bytes.subarray(0, characterBoundaryBefore(bytes, LOG_LIMITS.lineBytes)).toString("utf8") + LINE_CUT_MARKER;
}

function clampLimit(limit: number): number {
  if (!Number.isFinite(limit)) return DEFAULT_LIMIT;
  return Math.min(MAX_LIMIT, Math.max(1, Math.floor(limit)));
}

/** The index of the first byte at or after `from` that starts a UTF-8 character (at most 3 skipped). */
function skipContinuationBytes(bytes: Buffer, from: number): number {
  let at = from;
  while (at < from + 3 && at < bytes.length && isContinuationByte(bytes[at]!)) at++;
  return at;
}

/** The largest index at or below `limit` where a UTF-8 character starts, so a cut there splits none. */
function characterBoundaryBefore(bytes: Buffer, limit: number): number {
  let at = limit;
  while (at > limit - 3 && at > 0 && at < bytes.length && isContinuationByte(bytes[at]!)) at--;
  return at;
}

function isContinuationByte(byte: number): boolean {
  return (byte & 0xc0) === 0x80;
}

function decodeLine(bytes: Buffer): string {
  return stripCarriageReturn(bytes.toString("utf8"));
}

function stripCarriageReturn(line: string): string {
  return line.endsWith("\r") ? line.slice(0, -1) : line;
}
