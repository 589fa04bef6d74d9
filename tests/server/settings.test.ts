/**
 * The one table of environment variables: the configuration reference is generated from it, every
 * variable is read through it (no other module of src/server, src/cli or src/license reads one), and a bad
 * value is refused naming its variable.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readSetting, readSettings, SETTINGS } from "../../src/server/settings.js";
import { sourceFiles } from "../support/import-graph.js";
import { PROJECT_ROOT } from "../support/strand-cli.js";

describe("the settings table", () => {
  it("is the configuration reference, every variable in it (the page's freshness: tests/docs/generated-references.test.ts)", () => {
    const reference = readFileSync(join(PROJECT_ROOT, "docs/reference/configuration.md"), "utf8");
    for (const name of Object.keys(SETTINGS)) expect(reference).toContain(`| \`${name}\` |`);
  });

  it("is the only place the service, the command line and the license read a variable of the service", () => {
    const reads = /(?:process\.env|\benv)(?:\.|\[")((?:SERVICE|ANTHROPIC|OPENAI|DEEPSEEK|OLLAMA)_[A-Z_]+)/g;
    const offenders: string[] = [];
    const files = ["src/server", "src/cli", "src/license", "src/engine"].flatMap((dir) => sourceFiles(PROJECT_ROOT, dir));
    for (const path of files) {
      if (path === "src/server/settings.ts") continue;
      for (const match of readFileSync(join(PROJECT_ROOT, path), "utf8").matchAll(reads)) offenders.push(`${path}: ${match[0]}`);
    }
    expect(offenders).toEqual([]);
  });

  it("reads defaults by mode and refuses a bad value, naming the variable", () => {
    expect(readSetting({}, "SERVICE_USER_MAX_RUNS", "personal")).toBe(0);
    expect(readSetting({}, "SERVICE_USER_MAX_RUNS", "team")).toBe(4);
    expect(readSetting({ SERVICE_MODE: "hpc" }, "SERVICE_EVENT_STREAMS_PER_USER")).toBe(8);
    expect(() => readSettings({ SERVICE_PORT: "eighty" })).toThrow("SERVICE_PORT must be a whole number of at least 0, got 'eighty'");
    expect(() => readSettings({ SERVICE_MODE: "" })).toThrow("SERVICE_MODE must be personal, team or hpc, got ''");
    expect(readSettings({ SERVICE_CORS_ORIGINS: "https://a.example/, ,https://b.example" }).SERVICE_CORS_ORIGINS).toEqual(["https://a.example", "https://b.example"]);
  });
});
