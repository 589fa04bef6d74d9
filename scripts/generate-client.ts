/**
 * Regenerates the typed client's types (`src/client/api-types.ts`) from the service's OpenAPI document with
 * openapi-typescript. `npm run client:generate` writes the file; `--check` only compares and exits 1 when
 * the committed file is out of date (a test does the same, so CI fails on a route changed without it).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import openapiTS, { astToString } from "openapi-typescript";
import { exportOpenApiDocument } from "../src/server/openapi-export.js";

/** Where the generated types live. */
export const CLIENT_TYPES_FILE = fileURLToPath(new URL("../src/client/api-types.ts", import.meta.url));

const HEADER = `/**
 * The service's API as TypeScript types, generated from its OpenAPI document by openapi-typescript.
 * Do not edit: run \`npm run client:generate\` after changing a route (a test fails until you do).
 */
`;

/** The text of the generated types for the service's current document. */
export async function renderClientTypes(): Promise<string> {
  const document = await exportOpenApiDocument();
  const ast = await openapiTS(document as unknown as Parameters<typeof openapiTS>[0], { alphabetize: true });
  return HEADER + astToString(ast);
}

async function main(): Promise<void> {
  const text = await renderClientTypes();
  const check = process.argv.includes("--check");
  let current = "";
  try {
    current = readFileSync(CLIENT_TYPES_FILE, "utf8");
  } catch {
    // No file yet: writing creates it; checking reports it missing.
  }
  if (check) {
    if (current !== text) {
      process.stderr.write(`${CLIENT_TYPES_FILE} is out of date: run npm run client:generate\n`);
      process.exit(1);
    }
    process.stdout.write("client types are up to date\n");
    return;
  }
  if (current === text) {
    process.stdout.write("client types already up to date\n");
    return;
  }
  writeFileSync(CLIENT_TYPES_FILE, text);
  process.stdout.write(`wrote ${CLIENT_TYPES_FILE} (${text.length.toLocaleString("en-US")} characters)\n`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exit(1);
    },
  );
}
