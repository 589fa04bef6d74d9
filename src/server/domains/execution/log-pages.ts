/**
 * Reading job and engine logs for the run views: pages of lines from a byte offset (the logs endpoint) and
 * the last lines of a file (the run detail's log tail). Logs can be many megabytes and still being written,
 * so both read in chunks from where they start and never load a whole file. Offsets are byte offsets;
 * lines are cut at "\n" bytes, which never occur inside a UTF-8 character, so a returned line never holds
 * half a character. Text is returned as written (colour escapes included) except for a trailing "\r".
 */
import { closeSync, fstatSync, openSync, readSync } from "node:fs";

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
// A tool printing progress with "\r" and no "\n" can write one "line" of hundreds of MB; such a line is
// returned in pieces of this size so that a page's memory stays bounded.
const MAX_LINE_BYTES = 1024 * 1024;
// The most a tail reads from the end; with lines longer than this on average, fewer lines come back
// and the oldest of them is cut at its start.
const MAX_TAIL_BYTES = 8 * 1024 * 1024;

/**
 * Up to `limit` lines from byte `offset`. A last line without its "\n" is returned (and `next_offset`
 * placed after it) so that a finished log always pages to `eof`; a caller reading a log that is still
 * being written passes `growing: true` to hold such a line back until its newline arrives, leaving
 * `next_offset` at its start. A missing file reads as empty; an offset past the end (a file truncated
 * since) gives an empty page whose `next_offset` is the current end.
 */
export function readLinePage(path: string, offset = 0, limit = DEFAULT_LIMIT, options: { growing?: boolean } = {}): LinePage {
  const fd = openIfPresent(path);
  if (fd === undefined) return { lines: [], next_offset: 0, eof: true };
  try {
    const size = fstatSync(fd).size;
    const wanted = clampLimit(limit);
    const start = Number.isFinite(offset) ? Math.max(0, Math.floor(offset)) : 0;
    if (start >= size) return { lines: [], next_offset: size, eof: true };

    const lines: string[] = [];
    const chunk = Buffer.allocUnsafe(CHUNK_BYTES);
    let lineStart = start; // file offset of the first byte of `pending`
    let pending = Buffer.alloc(0); // the line being assembled, without a newline yet
    let readAt = start;
    let first = true;
    while (lines.length < wanted && readAt < size) {
      const count = readSync(fd, chunk, 0, Math.min(CHUNK_BYTES, size - readAt), readAt);
      if (count === 0) break; // the file shrank under us
      readAt += count;
      const data = pending.length > 0 ? Buffer.concat([pending, chunk.subarray(0, count)]) : chunk.subarray(0, count);
      let from = 0;
      if (first) {
        // An offset that was not a next_offset may land inside a character: start at the next one.
        from = skipContinuationBytes(data, 0);
        lineStart += from;
        first = false;
      }
      while (lines.length < wanted) {
        const newline = data.indexOf(NEWLINE, from);
        if (newline === -1) break;
        lines.push(decodeLine(data.subarray(from, newline)));
        lineStart += newline + 1 - from;
        from = newline + 1;
      }
      let rest = data.subarray(from);
      while (lines.length < wanted && rest.length >= MAX_LINE_BYTES) {
        const cut = characterBoundaryBefore(rest, MAX_LINE_BYTES);
        lines.push(decodeLine(rest.subarray(0, cut)));
        lineStart += cut;
        rest = rest.subarray(cut);
      }
      // Copied: `rest` may be a view of `chunk`, which the next read overwrites.
      pending = Buffer.from(rest);
    }
    if (lines.length < wanted && pending.length > 0 && readAt >= size && !options.growing) {
      lines.push(decodeLine(pending));
      lineStart += pending.length;
    }
    return { lines, next_offset: lineStart, eof: lineStart >= size };
  } finally {
    closeSync(fd);
  }
}

/** The last `count` lines of a file (fewer if it has fewer), read backwards from the end in chunks. */
export function tailLines(path: string, count: number): string[] {
  const wanted = Number.isFinite(count) ? Math.floor(count) : 0;
  if (wanted <= 0) return [];
  const fd = openIfPresent(path);
  if (fd === undefined) return [];
  try {
    const size = fstatSync(fd).size;
    if (size === 0) return [];
    const chunks: Buffer[] = [];
    let start = size;
    let newlines = 0;
    // Enough is read once `wanted` newlines precede the last line; the file's final "\n" ends the last
    // line rather than separating two, so it does not count.
    while (start > 0 && size - start < MAX_TAIL_BYTES && newlines < wanted) {
      const length = Math.min(CHUNK_BYTES, start, MAX_TAIL_BYTES - (size - start));
      start -= length;
      const buffer = readFully(fd, start, length);
      chunks.unshift(buffer);
      for (let i = 0; i < buffer.length; i++) if (buffer[i] === NEWLINE && start + i !== size - 1) newlines++;
    }
    let bytes = Buffer.concat(chunks);
    if (bytes[bytes.length - 1] === NEWLINE) bytes = bytes.subarray(0, bytes.length - 1);
    // Reading began mid-file, maybe mid-character; the line cut there is dropped below unless the
    // window ran out first, and then it is kept from its first whole character.
    if (start > 0) bytes = bytes.subarray(skipContinuationBytes(bytes, 0));
    return bytes.toString("utf8").split("\n").slice(-wanted).map(stripCarriageReturn);
  } finally {
    closeSync(fd);
  }
}

function clampLimit(limit: number): number {
  if (!Number.isFinite(limit)) return DEFAULT_LIMIT;
  return Math.min(MAX_LIMIT, Math.max(1, Math.floor(limit)));
}

function openIfPresent(path: string): number | undefined {
  try {
    return openSync(path, "r");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

function readFully(fd: number, position: number, length: number): Buffer {
  const buffer = Buffer.allocUnsafe(length);
  let filled = 0;
  while (filled < length) {
    const count = readSync(fd, buffer, filled, length - filled, position + filled);
    if (count === 0) break; // truncated while reading
    filled += count;
  }
  return buffer.subarray(0, filled);
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
