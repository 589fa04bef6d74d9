import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MetricsFile, readMetrics, summariseMetrics, type MetricsSample } from "../../../src/server/runner/metrics-file.js";

let dir: string;
let path: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "strand-metrics-"));
  path = join(dir, "metrics.jsonl");
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

function sample(index: number): MetricsSample {
  return { time: new Date(1_700_000_000_000 + index * 1000).toISOString(), cpu_pct: index % 400, memory_mb: index / 10, processes: 1 + (index % 7) };
}

function lineCount(): number {
  return readFileSync(path, "utf8").split("\n").filter((line) => line !== "").length;
}

describe("MetricsFile", () => {
  it("never exceeds the cap, keeps the newest samples in order, and rewrites once per quarter of the cap", () => {
    const file = new MetricsFile(dir, path, { cap: 40 });
    let rewrites = 0;
    let inode = -1;
    for (let i = 0; i < 5000; i++) {
      file.append(sample(i));
      const current = statSync(path).ino;
      if (inode !== -1 && current !== inode) rewrites++;
      inode = current;
      expect(lineCount()).toBeLessThanOrEqual(40);
    }
    const samples = readMetrics(dir, path);
    expect(samples.length).toBeGreaterThanOrEqual(30);
    expect(samples.length).toBeLessThanOrEqual(40);
    expect(samples).toEqual(Array.from({ length: samples.length }, (_, k) => sample(5000 - samples.length + k)));
    // Past the first fill a rewrite leaves 30 lines, so the next one comes 11 appends later.
    expect(rewrites).toBe(Math.ceil((5000 - 40) / 11));
    expect(existsSync(`${path}.tmp`)).toBe(false);
  });

  it("uses 2000 lines as the default cap", () => {
    const file = new MetricsFile(dir, path);
    for (let i = 0; i < 2001; i++) file.append(sample(i));
    expect(lineCount()).toBe(1500);
    expect(readMetrics(dir, path).at(-1)).toEqual(sample(2000));
  });

  it("counts the lines of a file left by an earlier supervisor", () => {
    writeFileSync(path, Array.from({ length: 35 }, (_, i) => `${JSON.stringify(sample(i))}\n`).join(""));
    const file = new MetricsFile(dir, path, { cap: 40 });
    const inode = statSync(path).ino;
    for (let i = 35; i < 40; i++) file.append(sample(i));
    expect(lineCount()).toBe(40);
    expect(statSync(path).ino).toBe(inode); // appended, not rewritten
    file.append(sample(40));
    expect(readMetrics(dir, path)).toEqual(Array.from({ length: 30 }, (_, k) => sample(11 + k)));
  });

  it("truncates at the next append a file already longer than the cap", () => {
    writeFileSync(path, Array.from({ length: 100 }, (_, i) => `${JSON.stringify(sample(i))}\n`).join(""));
    new MetricsFile(dir, path, { cap: 40 }).append(sample(100));
    expect(readMetrics(dir, path)).toEqual(Array.from({ length: 30 }, (_, k) => sample(71 + k)));
  });

  it("puts the next record on a line of its own after a torn last line", () => {
    writeFileSync(path, `${JSON.stringify(sample(0))}\n{"time":"2024-`);
    const file = new MetricsFile(dir, path, { cap: 40 });
    file.append(sample(1));
    file.append(sample(2));
    expect(readMetrics(dir, path)).toEqual([sample(0), sample(1), sample(2)]);
  });
});

describe("readMetrics", () => {
  it("reads nothing from a missing file", () => {
    expect(readMetrics(dir, join(dir, "absent.jsonl"))).toEqual([]);
  });

  it("skips torn, foreign and malformed lines", () => {
    writeFileSync(path, "");
    appendFileSync(path, `${JSON.stringify(sample(1))}\n`);
    appendFileSync(path, "not json at all\n\n");
    appendFileSync(path, `${JSON.stringify({ time: "x", cpu_pct: "12", memory_mb: 1, processes: 1 })}\n`);
    appendFileSync(path, `[1,2,3]\nnull\n`);
    appendFileSync(path, `${JSON.stringify(sample(2))}\n`);
    appendFileSync(path, `{"time":"2024-01-01T00:00:00.000Z","cpu_pct":1`);
    expect(readMetrics(dir, path)).toEqual([sample(1), sample(2)]);
  });
});

describe("summariseMetrics", () => {
  it("gives the latest CPU and memory and the peak memory", () => {
    const samples = [
      { ...sample(0), cpu_pct: 50, memory_mb: 100 },
      { ...sample(1), cpu_pct: 180.5, memory_mb: 900.2 },
      { ...sample(2), cpu_pct: 12.3, memory_mb: 256 },
    ];
    expect(summariseMetrics(samples)).toEqual({ cpu_pct: 12.3, memory_mb: 256, peak_memory_mb: 900.2 });
  });

  it("has nothing to say about no samples", () => {
    expect(summariseMetrics([])).toBeNull();
  });
});
