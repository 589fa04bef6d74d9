/**
 * Writes the README's configuration table from the settings table (`src/server/settings.ts`), between the
 * markers `<!-- settings:start -->` and `<!-- settings:end -->`. `npm run docs:settings` writes it; `--check`
 * only compares and exits 1 when the README is out of date (a test does the same).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { settingsTable } from "../src/server/settings.js";

/** The README. */
export const README_FILE = fileURLToPath(new URL("../README.md", import.meta.url));

const START = "<!-- settings:start (generated from src/server/settings.ts by npm run docs:settings) -->";
const END = "<!-- settings:end -->";

/** The README's text with the generated table between the markers; an error when the markers are missing. */
export function withSettingsTable(readme: string): string {
  const start = readme.indexOf(START);
  const end = readme.indexOf(END);
  if (start < 0 || end < start) throw new Error(`README.md has no ${START} … ${END} block for the configuration table`);
  return `${readme.slice(0, start + START.length)}\n${settingsTable()}\n${readme.slice(end)}`;
}

function main(): void {
  const current = readFileSync(README_FILE, "utf8");
  const wanted = withSettingsTable(current);
  if (process.argv.includes("--check")) {
    if (current !== wanted) {
      console.error("README.md's configuration table is out of date: run npm run docs:settings");
      process.exit(1);
    }
    console.log("README.md's configuration table is up to date");
    return;
  }
  if (current !== wanted) writeFileSync(README_FILE, wanted);
  console.log(current === wanted ? "README.md's configuration table was up to date" : "wrote README.md's configuration table");
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main();
