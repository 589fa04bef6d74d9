/**
 * Durations (`5s`, `2m`, `1h`, `1d`) and scheduler walltimes: parsing, and the forms SLURM, PBS/SGE and
 * LSF write.
 */
import { describe, expect, it } from "vitest";
import { isColonWalltime, lsfRunLimit, parseDuration, parseWalltime, walltime, walltimeHours } from "../../../src/engine/run/durations.js";

describe("parseDuration", () => {
  it("reads seconds, minutes, hours and days in any case", () => {
    expect(parseDuration("5s")).toBe(5000);
    expect(parseDuration("2m")).toBe(120_000);
    expect(parseDuration("1h")).toBe(3_600_000);
    expect(parseDuration("1d")).toBe(86_400_000);
    expect(parseDuration("3H")).toBe(10_800_000);
    expect(parseDuration(" 90 M ")).toBe(5_400_000);
    expect(parseDuration("1.5h")).toBe(5_400_000);
  });

  it("refuses a missing unit or anything else", () => {
    for (const text of ["30", "", "h", "5x", "1h30m", "-5s", "5 sec", "04:00:00"]) expect(parseDuration(text), text).toBeUndefined();
  });
});

describe("walltimes", () => {
  it("renders HH:MM:SS, and D-HH:MM:SS from one day on, rounding seconds up", () => {
    expect(walltime(0)).toBe("00:00:00");
    expect(walltime(1500)).toBe("00:00:02");
    expect(walltime(3_600_000)).toBe("01:00:00");
    expect(walltime(86_399_000)).toBe("23:59:59");
    expect(walltime(86_400_000)).toBe("1-00:00:00");
    expect(walltime(2 * 86_400_000 + 3_723_000)).toBe("2-01:02:03");
  });

  it("renders hours beyond a day for PBS and SGE", () => {
    expect(walltimeHours(36 * 3_600_000)).toBe("36:00:00");
    expect(walltimeHours(61_000)).toBe("00:01:01");
  });

  it("renders LSF run limits in minutes, rounded up, as MM under an hour and HH:MM from one hour on", () => {
    expect(lsfRunLimit(30 * 60_000)).toBe("30");
    expect(lsfRunLimit(30 * 60_000 + 1)).toBe("31");
    expect(lsfRunLimit(59 * 60_000 + 1)).toBe("01:00");
    expect(lsfRunLimit(90 * 60_000)).toBe("01:30");
    expect(lsfRunLimit(2 * 86_400_000)).toBe("48:00");
    expect(lsfRunLimit(1000)).toBe("1");
  });

  it("parses durations and colon forms", () => {
    expect(parseWalltime("2h")).toBe(7_200_000);
    expect(parseWalltime("04:00:00")).toBe(14_400_000);
    expect(parseWalltime("4:30")).toBe(16_200_000);
    expect(parseWalltime("1-00:00:00")).toBe(86_400_000);
    expect(parseWalltime("2-12")).toBe(216_000_000);
    expect(parseWalltime("1-02:30")).toBe(95_400_000);
    expect(parseWalltime("100:00:00")).toBe(360_000_000);
  });

  it("refuses bare numbers, out-of-range fields and words", () => {
    for (const text of ["60", "forever", "01:75:00", "01:00:60", "1:2:3:4", ""]) expect(parseWalltime(text), text).toBeUndefined();
  });

  it("tells colon forms from durations", () => {
    expect(isColonWalltime("04:00:00")).toBe(true);
    expect(isColonWalltime("1-00:00:00")).toBe(true);
    expect(isColonWalltime("2-12")).toBe(true);
    expect(isColonWalltime("2h")).toBe(false);
    expect(isColonWalltime("60")).toBe(false);
  });
});
