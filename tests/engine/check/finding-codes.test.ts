/**
 * The finding-code table is the one home of the codes checks report: every code a check reports is in it
 * (and so in docs/reference/finding-codes.md), and every code in it is still reported somewhere.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FINDING_CODES } from "../../../src/engine/check/finding-codes.js";
import { sourceFiles } from "../../support/import-graph.js";
import { PROJECT_ROOT } from "../../support/strand-cli.js";

/** The check codes the engine's source reports: E/W/S codes and the named warnings of loading. */
function reportedCodes(): Map<string, string> {
  const codes = new Map<string, string>();
  const literal = /"([EWS]\d{3}|INCLUDE_SHADOWED|INCLUDE_CONTRACT|SOURCE_EMPTY)"/g;
  for (const path of sourceFiles(PROJECT_ROOT, "src/engine")) {
    if (path.endsWith("finding-codes.ts") || path.endsWith("findings.ts")) continue;
    for (const match of readFileSync(join(PROJECT_ROOT, path), "utf8").matchAll(literal)) codes.set(match[1]!, path);
  }
  return codes;
}

describe("the finding-code table", () => {
  it("holds every code a check reports", () => {
    const missing = [...reportedCodes()].filter(([code]) => !Object.hasOwn(FINDING_CODES, code)).map(([code, path]) => `${code} (${path})`);
    expect(missing, "add these to src/engine/check/finding-codes.ts, then run npm run docs:generate").toEqual([]);
  });

  it("holds no code that nothing reports", () => {
    const reported = reportedCodes();
    expect(Object.keys(FINDING_CODES).filter((code) => !reported.has(code))).toEqual([]);
  });
});
