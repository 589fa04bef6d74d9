/**
 * docs/architecture.md draws the project as it is: every engine stage, service domain and store area that
 * exists in src/ is named there, so a folder added without its place in the drawing fails here.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../support/strand-cli.js";

const doc = readFileSync(join(PROJECT_ROOT, "docs", "architecture.md"), "utf8");

/** The sub-folders of a folder of the project. */
function folders(...path: string[]): string[] {
  return readdirSync(join(PROJECT_ROOT, ...path), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
}

describe("docs/architecture.md", () => {
  it("names every engine stage, service domain and store area", () => {
    const missing = [
      ...folders("src", "engine").map((name) => `engine ${name}/`).filter((name) => !doc.includes(name.slice("engine ".length))),
      ...folders("src", "server", "domains").filter((name) => !doc.includes(name)).map((name) => `domain ${name}`),
      ...folders("src", "server", "store").filter((name) => !doc.includes(name)).map((name) => `store area ${name}`),
      ...folders("src", "engine", "run").map((name) => `${name}/`).filter((name) => !doc.includes(name)),
    ];
    expect(missing).toEqual([]);
  });

  it("names the top-level entries of the project's layout", () => {
    for (const entry of ["package.json", "tsconfig.json", "drizzle.config.ts", "README.md", "drizzle/", "public/", "src/", "tests/"]) expect(doc, entry).toContain(entry);
  });
});
