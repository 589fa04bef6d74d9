/**
 * How the browser app writes times, sizes, durations and counts (src/web/components/formatting.ts) and the
 * run pages' own helpers (src/web/runs/format.ts: a run's elapsed time, config overrides read as TOML values).
 */
import { describe, expect, it } from "vitest";
import { byteSize, formatCount, formatDuration, fullTime, relativeTime } from "../../src/web/components/formatting.js";
import { elapsedMs, tomlKind, tomlValue } from "../../src/web/runs/format.js";

const NOW = Date.parse("2026-06-15T12:00:00Z");
const ago = (seconds: number) => new Date(NOW - seconds * 1000).toISOString();

describe("times, sizes, durations and counts", () => {
  it("say how long ago or ahead in the largest unit that fits, and 'just now' within a minute", () => {
    expect(relativeTime(ago(20), NOW)).toBe("just now");
    expect(relativeTime(ago(3 * 3600), NOW)).toBe("3 hours ago");
    expect(relativeTime(ago(-2 * 7 * 24 * 3600), NOW)).toBe("in 2 weeks");
    expect(relativeTime(ago(24 * 3600), NOW)).toBe("yesterday");
    expect(relativeTime(ago(400 * 24 * 3600), NOW)).toBe("last year");
  });

  it("write a missing time, size or duration as a dash", () => {
    expect(fullTime(null)).toBe("—");
    expect(fullTime(undefined)).toBe("—");
    expect(byteSize(null)).toBe("—");
    expect(formatDuration(undefined)).toBe("—");
    expect(formatDuration(Number.NaN)).toBe("—");
  });

  it("write sizes in binary units, one decimal below ten", () => {
    expect(byteSize(0)).toBe("0 B");
    expect(byteSize(512)).toBe("512 B");
    expect(byteSize(1434)).toBe("1.4 KiB");
    expect(byteSize(23 * 1024 * 1024 + 1)).toBe("23 MiB");
    expect(byteSize(5 * 1024 ** 5)).toBe("5120 TiB");
  });

  it("write durations in the two largest fitting units", () => {
    expect(formatDuration(850)).toBe("850 ms");
    expect(formatDuration(9_400)).toBe("9.4 s");
    expect(formatDuration(12_400)).toBe("12 s");
    expect(formatDuration(45_000)).toBe("45 s");
    expect(formatDuration(185_000)).toBe("3 m 05 s");
    expect(formatDuration((2 * 60 + 14) * 60_000)).toBe("2 h 14 m");
    expect(formatDuration(50 * 3600_000)).toBe("2 d 2 h");
  });

  it("write counts with thousands separators", () => {
    expect(formatCount(100000)).toBe("100,000");
    expect(formatCount(7)).toBe("7");
  });
});

describe("a run's helpers", () => {
  it("measure from the start to the end, or to now while running, and nothing before the start", () => {
    expect(elapsedMs("2026-06-15T11:59:00Z", "2026-06-15T11:59:30Z", NOW)).toBe(30_000);
    expect(elapsedMs("2026-06-15T11:59:00Z", null, NOW)).toBe(60_000);
    expect(elapsedMs(null, null, NOW)).toBeNull();
    // A clock that went back does not make a negative duration.
    expect(elapsedMs("2026-06-15T12:01:00Z", null, NOW)).toBe(0);
  });

  it("read a config override as TOML would: booleans, integers, floats, quoted strings, else a bare string", () => {
    expect(tomlValue("true")).toBe(true);
    expect(tomlValue(" false ")).toBe(false);
    expect(tomlValue("1_000")).toBe(1000);
    expect(tomlValue("-4")).toBe(-4);
    expect(tomlValue("0.5")).toBe(0.5);
    expect(tomlValue("1e3")).toBe(1000);
    expect(tomlValue('"4"')).toBe("4");
    expect(tomlValue("'a b'")).toBe("a b");
    expect(tomlValue("hg38")).toBe("hg38");
    expect([tomlKind("4"), tomlKind("4.5"), tomlKind("yes"), tomlKind("true")]).toEqual(["integer", "float", "string", "boolean"]);
  });
});
