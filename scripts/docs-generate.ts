/**
 * `npm run docs:generate`: writes the generated reference pages under `docs/reference/` from the code's own
 * tables (see `scripts/docs-reference.ts`). With `--check` it only compares, and exits 1 naming the pages
 * that are out of date (the test `tests/docs/generated-references.test.ts` does the same).
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { generatedPages } from "./docs-reference.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

function current(path: string): string | undefined {
  try {
    return readFileSync(join(ROOT, path), "utf8");
  } catch {
    return undefined;
  }
}

async function main(): Promise<void> {
  const check = process.argv.includes("--check");
  const stale: string[] = [];
  for (const page of await generatedPages()) {
    if (current(page.path) === page.text) continue;
    stale.push(page.path);
    if (check) continue;
    mkdirSync(dirname(join(ROOT, page.path)), { recursive: true });
    writeFileSync(join(ROOT, page.path), page.text);
  }
  if (check && stale.length > 0) {
    console.error(`out of date: ${stale.join(", ")}; run npm run docs:generate`);
    process.exit(1);
  }
  console.log(stale.length === 0 ? "the generated references are up to date" : `wrote ${stale.join(", ")}`);
}

await main();
