import { execFileSync } from "node:child_process";
import { appendFileSync, closeSync, ftruncateSync, mkdirSync, mkdtempSync, openSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { LINE_CUT_MARKER, LOG_LIMITS, readLinePage, tailLines } from "../../../../src/server/domains/execution/log-pages.js";

let dir: string;
let path: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "strand-logs-"));
  path = join(dir, "job.log");
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** Every line of a file, read a page at a time from offset 0 until eof. */
function pageThrough(limit: number): { lines: string[]; pages: number } {
  const lines: string[] = [];
  let offset = 0;
  let pages = 0;
  for (;;) {
    const page = readLinePage(dir, path, offset, limit);
    pages++;
    expect(page.lines.length).toBeLessThanOrEqual(limit);
    lines.push(...page.lines);
    if (page.eof) break;
    expect(page.next_offset).toBeGreaterThan(offset);
    offset = page.next_offset;
  }
  return { lines, pages };
}

// Characters of one to four bytes, so that chunk boundaries fall inside characters somewhere.
const ALPHABET = ["a", "é", "€", "😀", "\u001b[31m", "中", " ", "ß"];

function textLine(index: number): string {
  let line = `${index}:`;
  const length = (index * 7919) % 300;
  for (let i = 0; i < length; i++) line += ALPHABET[(index + i) % ALPHABET.length];
  return line;
}

describe("readLinePage", () => {
  it("pages through a file from offset 0 to eof, giving every line exactly once", () => {
    const lines = Array.from({ length: 10_000 }, (_, i) => (i % 97 === 0 ? "" : textLine(i)));
    writeFileSync(path, lines.map((line) => `${line}\n`).join(""));
    const { lines: read, pages } = pageThrough(333);
    expect(read).toEqual(lines);
    expect(pages).toBe(Math.ceil(10_000 / 333));
  });

  it("keeps multi-byte characters whole across read chunks, and cuts lines longer than 64 KiB with a marker", () => {
    // Lines longer than a read chunk but under the cut, then lines over it, in characters of every width.
    const long = Array.from({ length: 5 }, (_, n) => ALPHABET.slice(n).join("").repeat(1500 + n));
    const over = Array.from({ length: 3 }, (_, n) => ALPHABET.slice(n).join("").repeat(30_000 + n));
    const huge = "😀€é".repeat(200_000); // 1.8 MB
    writeFileSync(path, [...long, ...over, huge, "end"].map((line) => `${line}\n`).join(""));
    const { lines } = pageThrough(2);
    expect(lines.slice(0, 5)).toEqual(long);
    expect(lines.at(-1)).toBe("end");
    const cut = lines.slice(5, -1);
    expect(cut).toHaveLength(4); // the rest of a cut line is skipped, not returned as more lines
    [...over, huge].forEach((original, index) => {
      const line = cut[index]!;
      expect(line.endsWith(LINE_CUT_MARKER)).toBe(true);
      const kept = line.slice(0, -LINE_CUT_MARKER.length);
      expect(original.startsWith(kept)).toBe(true);
      expect(Buffer.byteLength(kept)).toBeLessThanOrEqual(LOG_LIMITS.lineBytes);
      expect(Buffer.byteLength(kept)).toBeGreaterThan(LOG_LIMITS.lineBytes - 4);
    });
    for (const piece of lines) expect(piece).not.toContain("\uFFFD");
  });

  it("holds at most 1 MiB of lines in one page, and always at least one line", () => {
    const line = "x".repeat(60_000);
    writeFileSync(path, `${line}\n`.repeat(40));
    const page = readLinePage(dir, path, 0, 1000);
    expect(page.lines.length).toBe(Math.floor(LOG_LIMITS.pageBytes / 60_000));
    expect(page.eof).toBe(false);
    expect(page.next_offset).toBe(page.lines.length * 60_001);
    const { lines } = pageThrough(1000);
    expect(lines).toHaveLength(40);
  });

  it("strips a trailing carriage return and nothing else", () => {
    writeFileSync(path, "one\r\n\u001b[32mgreen\u001b[0m\r\n  indented \n\r\n");
    expect(readLinePage(dir, path).lines).toEqual(["one", "\u001b[32mgreen\u001b[0m", "  indented ", ""]);
  });

  it("returns a last line without its newline, or holds it back for a log still being written", () => {
    writeFileSync(path, "done\nhalf a li");
    expect(readLinePage(dir, path)).toEqual({ lines: ["done", "half a li"], next_offset: 14, eof: true });
    expect(readLinePage(dir, path, 0, 1000, { growing: true })).toEqual({ lines: ["done"], next_offset: 5, eof: false });
    appendFileSync(path, "ne\n");
    expect(readLinePage(dir, path, 5, 1000, { growing: true })).toEqual({ lines: ["half a line"], next_offset: 17, eof: true });
  });

  it("gives the new lines of a growing file from the previous next_offset", () => {
    writeFileSync(path, "first\nsecond\n");
    const page = readLinePage(dir, path);
    expect(page).toEqual({ lines: ["first", "second"], next_offset: 13, eof: true });
    expect(readLinePage(dir, path, page.next_offset)).toEqual({ lines: [], next_offset: 13, eof: true });
    appendFileSync(path, "third\nfourth €\n");
    const next = readLinePage(dir, path, page.next_offset);
    expect(next.lines).toEqual(["third", "fourth €"]);
    expect(next.eof).toBe(true);
    expect(next.next_offset).toBe(Buffer.byteLength("first\nsecond\nthird\nfourth €\n"));
  });

  it("reads a missing file as empty and an offset past the end as an empty last page", () => {
    expect(readLinePage(dir, join(dir, "absent.log"), 100)).toEqual({ lines: [], next_offset: 0, eof: true });
    writeFileSync(path, "abc\n");
    expect(readLinePage(dir, path, 4000)).toEqual({ lines: [], next_offset: 4, eof: true });
    writeFileSync(path, "");
    expect(readLinePage(dir, path)).toEqual({ lines: [], next_offset: 0, eof: true });
  });

  it("starts at the next whole character when an offset falls inside one", () => {
    writeFileSync(path, "€uro\nnext\n");
    expect(readLinePage(dir, path, 1).lines).toEqual(["uro", "next"]);
  });

  it("bounds the limit to between 1 and 10000 lines", () => {
    writeFileSync(path, "x\n".repeat(12_000));
    expect(readLinePage(dir, path, 0, 0).lines).toHaveLength(1);
    expect(readLinePage(dir, path, 0, 50_000).lines).toHaveLength(10_000);
    expect(readLinePage(dir, path).lines).toHaveLength(1000);
  });

  it("reads only the page it returns, even deep into a file too large to load", () => {
    // A sparse 3 GiB file: reading it whole would fail (beyond a Buffer's size) or take seconds.
    const fd = openSync(path, "w");
    ftruncateSync(fd, 3 * 1024 ** 3);
    closeSync(fd);
    appendFileSync(path, "tail one\ntail two\n");
    const started = performance.now();
    const page = readLinePage(dir, path, 3 * 1024 ** 3 - 4, 10);
    expect(page.lines).toEqual(["\0\0\0\0tail one", "tail two"]);
    expect(page.eof).toBe(true);
    // From the start, a line of 3 GiB of zeros with no newline: its first 64 KiB with the marker, and the
    // page ends where the bounded read stopped (the next page goes on from there).
    const first = readLinePage(dir, path, 0, 2);
    expect(first.lines).toEqual(["\0".repeat(LOG_LIMITS.lineBytes) + LINE_CUT_MARKER]);
    expect(first).toMatchObject({ next_offset: LOG_LIMITS.scanBytes, eof: false });
    expect(readLinePage(dir, path, first.next_offset, 2).next_offset).toBe(2 * LOG_LIMITS.scanBytes);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});

describe("readLinePage inside a run folder", () => {
  it("reads a regular file inside the folder, and nothing through a symbolic link, outside the folder, or that is not a file", () => {
    mkdirSync(join(dir, "logs"));
    writeFileSync(join(dir, "logs", "job.err"), "inside\n");
    const secret = join(mkdtempSync(join(tmpdir(), "strand-secret-")), "secret.txt");
    writeFileSync(secret, "secret\n");
    symlinkSync(secret, join(dir, "logs", "link.err"));
    symlinkSync(dirname(secret), join(dir, "linked-folder"));
    const empty = { lines: [], next_offset: 0, eof: true };
    expect(readLinePage(dir, join(dir, "logs", "job.err"), 0, 10).lines).toEqual(["inside"]);
    expect(readLinePage(dir, join(dir, "logs", "link.err"), 0, 10)).toEqual(empty);
    expect(readLinePage(dir, join(dir, "linked-folder", "secret.txt"), 0, 10)).toEqual(empty);
    expect(readLinePage(dir, secret, 0, 10)).toEqual(empty);
    expect(readLinePage(dir, join(dir, "logs", "..", "..", secret), 0, 10)).toEqual(empty);
    expect(readLinePage(dir, join(dir, "logs"), 0, 10)).toEqual(empty);
    // A FIFO a job left where its log was reads as empty at once (an open would wait for a writer forever).
    execFileSync("mkfifo", [join(dir, "logs", "fifo.err")]);
    expect(readLinePage(dir, join(dir, "logs", "fifo.err"), 0, 10)).toEqual(empty);
    expect(tailLines(dir, join(dir, "logs", "fifo.err"), 10)).toEqual([]);
    rmSync(dirname(secret), { recursive: true, force: true });
  });
});

describe("tailLines", () => {
  it("gives the last lines of a 5 MB log quickly", () => {
    const lines = Array.from({ length: 60_000 }, (_, i) => textLine(i));
    writeFileSync(path, lines.map((line) => `${line}\n`).join(""));
    const started = performance.now();
    const tail = tailLines(dir, path, 100);
    const elapsed = performance.now() - started;
    expect(tail).toEqual(lines.slice(-100));
    expect(elapsed).toBeLessThan(50);
  });

  it("reads only the end of a file too large to load", () => {
    const fd = openSync(path, "w");
    ftruncateSync(fd, 3 * 1024 ** 3);
    closeSync(fd);
    const lines = Array.from({ length: 150 }, (_, i) => textLine(i));
    appendFileSync(path, `\n${lines.join("\n")}\n`);
    const started = performance.now();
    expect(tailLines(dir, path, 100)).toEqual(lines.slice(-100));
    expect(performance.now() - started).toBeLessThan(200);
  });

  it("handles short files, a missing newline at the end, carriage returns and odd counts", () => {
    writeFileSync(path, "a\r\nb\nc");
    expect(tailLines(dir, path, 100)).toEqual(["a", "b", "c"]);
    expect(tailLines(dir, path, 2)).toEqual(["b", "c"]);
    expect(tailLines(dir, path, 0)).toEqual([]);
    writeFileSync(path, "only\n");
    expect(tailLines(dir, path, 1)).toEqual(["only"]);
    writeFileSync(path, "\n\n");
    expect(tailLines(dir, path, 5)).toEqual(["", ""]);
    writeFileSync(path, "");
    expect(tailLines(dir, path, 5)).toEqual([]);
    expect(tailLines(dir, join(dir, "absent.log"), 5)).toEqual([]);
  });

  it("cuts long lines and keeps the newest lines that fit in 1 MiB", () => {
    const lines = Array.from({ length: 40 }, (_, n) => `${n}:`.padEnd(100_000, "z"));
    writeFileSync(path, lines.map((line) => `${line}\n`).join(""));
    const tail = tailLines(dir, path, 100);
    expect(tail).toHaveLength(Math.floor(LOG_LIMITS.pageBytes / (LOG_LIMITS.lineBytes + Buffer.byteLength(LINE_CUT_MARKER))));
    expect(tail.at(-1)).toBe(lines.at(-1)!.slice(0, LOG_LIMITS.lineBytes) + LINE_CUT_MARKER);
    expect(tail[0]!.startsWith(`${40 - tail.length}:`)).toBe(true);
  });

  it("finds line boundaries across read chunks with multi-byte characters", () => {
    const lines = Array.from({ length: 40 }, (_, n) => ALPHABET.join("").repeat(1000 + n * 37));
    writeFileSync(path, lines.map((line) => `${line}\n`).join(""));
    expect(tailLines(dir, path, 15)).toEqual(lines.slice(-15));
  });
});
