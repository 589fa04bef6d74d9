/**
 * Regenerates the AI's bundled package index (`src/server/domains/ai/knowledge/package-index.json`) from
 * templates/*.oxoflow and the corpus pipelines' environment declarations. The JSON is committed: it is the
 * data the service ships, and this script is the only thing that writes it. The corpus is `STRAND_CORPUS`,
 * else `../shared/corpus` next to the project; without one the index covers the templates only (and says
 * so on stderr). `--out FILE` writes elsewhere (the tests use it to check the output is deterministic).
 */
import { existsSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { buildPackageIndex, serializePackageIndex } from "../src/server/domains/ai/knowledge/package-index-builder.js";

const PROJECT_ROOT = fileURLToPath(new URL("../", import.meta.url));

/** Where the committed index lives. */
export const PACKAGE_INDEX_FILE = fileURLToPath(new URL("../src/server/domains/ai/knowledge/package-index.json", import.meta.url));

/** The corpus folder to read, or null when there is none. */
export function corpusFolder(): string | null {
  const configured = process.env.STRAND_CORPUS;
  const folder = configured && configured.trim() !== "" ? resolve(configured) : resolve(PROJECT_ROOT, "../shared/corpus");
  return existsSync(folder) ? folder : null;
}

async function main(): Promise<void> {
  const outIndex = process.argv.indexOf("--out");
  const out = outIndex >= 0 && process.argv[outIndex + 1] ? resolve(process.argv[outIndex + 1]!) : PACKAGE_INDEX_FILE;
  const corpus = corpusFolder();
  if (corpus === null) process.stderr.write("no corpus found (set STRAND_CORPUS): indexing the templates only\n");
  const index = await buildPackageIndex({ templatesDir: resolve(PROJECT_ROOT, "templates"), corpusDir: corpus });
  writeFileSync(out, serializePackageIndex(index));
  process.stdout.write(`wrote ${index.packages.length} packages from ${index.sources.templates.length} templates and ${index.sources.corpus.length} corpus pipelines\n`);
}

await main();
