import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ConditionError, conditionConfigKeys, evaluateCondition, parseCondition } from "../../../src/engine/expand/when.js";
import { loadPipelineText } from "../../../src/engine/format/load.js";
import type { TomlValue } from "../../../src/engine/format/model.js";
import { removeTempDirs, tempDir, writeFile } from "../../support/temp-workspace.js";

afterAll(removeTempDirs);

const CONFIG: Record<string, TomlValue> = {
  paired: true,
  trimmed: false,
  depth: 30,
  ratio: 0.25,
  mode: "wgs",
  empty: "",
  no: "false",
  zero_text: "0",
  zero: 0,
  list: ["a", "b"],
  none: [],
};

function when(source: string, bindings: Record<string, string> = {}, workdir = tempDir(), config = CONFIG): boolean {
  return evaluateCondition(parseCondition(source), { config, bindings, workdir });
}

function unreadable(source: string): ConditionError {
  try {
    parseCondition(source);
  } catch (error) {
    expect(error).toBeInstanceOf(ConditionError);
    return error as ConditionError;
  }
  throw new Error(`'${source}' was read`);
}

describe("literals and logic", () => {
  it.each([
    ["", true],
    ["   ", true],
    ["true", true],
    ["false", false],
    ["!false", true],
    ["!!true", true],
    ["true && false", false],
    ["false || true", true],
    // && binds tighter than ||.
    ["true || false && false", true],
    ["(true || false) && false", false],
    ["!(true && false)", true],
    ["((true))", true],
  ])("%j is %s", (source, expected) => {
    expect(when(source)).toBe(expected);
  });
});

describe("config values", () => {
  it.each([
    ["config.paired", true],
    ["config.trimmed", false],
    ["config.depth", true],
    ["config.zero", false],
    ["config.mode", true],
    ["config.empty", false],
    ["config.no", false],
    ["config.zero_text", false],
    ["config.list", true],
    ["config.none", false],
    ["config.missing", false],
  ])("bare %s is truthy: %s", (source, expected) => {
    expect(when(source)).toBe(expected);
  });

  it.each([
    ["config.paired == true", true],
    ["config.paired != true", false],
    ["config.trimmed == false", true],
    ["config.paired == yes", false],
    ["config.depth >= 30", true],
    ["config.depth > 30", false],
    ["config.depth < 31", true],
    ["config.depth == 30.0", true],
    ["config.depth != 20", true],
    ["config.ratio <= 0.25", true],
    ["config.ratio > 0.3", false],
    ["config.mode == 'wgs'", true],
    ['config.mode == "wgs"', true],
    ["config.mode == wgs", true],
    ["config.mode != 'wes'", true],
    ["config.mode == 'WGS'", false],
    ["config.missing == 'x'", false],
    ["config.missing != 'x'", true],
  ])("%s is %s", (source, expected) => {
    expect(when(source)).toBe(expected);
  });

  it("a command-line override compares with the type of the value it replaced", async () => {
    const pipeline = await loadPipelineText(`[workflow]\nname = "x"\n\n[config]\nmin_cov = 10\nwes = false\n`, { dir: tempDir(), overrides: { min_cov: "40", wes: "true" } });
    const context = { config: pipeline.config, bindings: {}, workdir: pipeline.dir };
    expect(evaluateCondition(parseCondition("config.min_cov > 30"), context)).toBe(true);
    expect(evaluateCondition(parseCondition("config.wes == true && config.wes"), context)).toBe(true);
  });

  it("lists the config keys a condition reads, with their columns", () => {
    expect(conditionConfigKeys(parseCondition("config.a && (!config.b || wildcard.c == '') || config.a_2 > 1"))).toEqual([
      { key: "a", column: 1 },
      { key: "b", column: 15 },
      { key: "a_2", column: 48 },
    ]);
  });
});

describe("wildcards (Decision 3)", () => {
  it("wildcard.NAME compares against the instance's bindings", () => {
    expect(when("wildcard.control != ''", { control: "N1" })).toBe(true);
    expect(when("wildcard.control != ''", { control: "" })).toBe(false);
    expect(when("wildcard.control", { control: "N1" })).toBe(true);
    expect(when("wildcard.control", {})).toBe(false);
  });

  it("bare wildcard names compare too", () => {
    expect(when("sample == 'S1'", { sample: "S1" })).toBe(true);
    expect(when("sample == 'S1'", { sample: "S2" })).toBe(false);
    expect(when("group != normal && sample >= 'S2'", { group: "tumor", sample: "S3" })).toBe(true);
    // An unbound wildcard is the empty text.
    expect(when("experiment_type == ''", {})).toBe(true);
  });

  it("numeric binding values compare as numbers when the right side is a bare number", () => {
    expect(when("chunk < 10", { chunk: "9" })).toBe(true);
    expect(when("chunk < 10", { chunk: "11" })).toBe(false);
    // Quoted right sides compare as text.
    expect(when("chunk < '10'", { chunk: "9" })).toBe(false);
  });
});

describe("file_exists (Decision 8)", () => {
  it("resolves relative paths against the workflow folder, not the process's current folder", () => {
    const workdir = tempDir();
    writeFile(workdir, "inputs/marker.txt", "");
    expect(when('file_exists("inputs/marker.txt")', {}, workdir)).toBe(true);
    expect(when("file_exists('inputs/other.txt')", {}, workdir)).toBe(false);
    // package.json exists in the process's current folder, but not in the workflow folder.
    expect(existsSync(join(process.cwd(), "package.json"))).toBe(true);
    expect(when('file_exists("package.json")', {}, workdir)).toBe(false);
  });

  it("takes absolute paths as they are", () => {
    const other = tempDir();
    const path = writeFile(other, "a.txt", "");
    expect(when(`file_exists("${path}") && !file_exists("${other}/b.txt")`)).toBe(true);
  });
});

describe("unreadable conditions", () => {
  it.each([
    ["config.depth >", "expected a value after the comparison", 15],
    ["config.a = 1", "unexpected character '='", 10],
    ["config.a && (config.b", "missing ')'", 22],
    ["config.a == 1 )", "unexpected ')' after a complete condition", 15],
    ["paired", "cannot read 'paired'", 1],
    ["true && sample", "cannot read 'sample'", 9],
    ["file_exists(data.txt)", "file_exists needs a quoted path", 13],
    ["file_exists", "file_exists needs a quoted path in parentheses", 12],
    ["config.mode == 'wgs", "unclosed ' quote", 16],
    ["config.a &&", "the condition ends too early", 12],
    ["config.a-b", "'config.a-b' is not a config key name", 1],
    ["&& true", "unexpected '&&'", 1],
    ["wildcard.", "'wildcard.' is not a wildcard name", 1],
    ["x == 1 $", "unexpected character '$'", 8],
  ])("%j: %s at column %i", (source, message, column) => {
    const error = unreadable(source);
    expect(error.message).toContain(message);
    expect(error.column).toBe(column);
  });
});
