#!/usr/bin/env node
// Entry point of the `strand` command: runs the compiled command line from dist/.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const main = new URL("../dist/cli/main.js", import.meta.url);
if (!existsSync(fileURLToPath(main))) {
  process.stderr.write("strand: the compiled command line is missing (dist/). Run `npm install` or `npm run build` first.\n");
  process.exit(2);
}
const { runCli } = await import(main.href);
process.exitCode = await runCli(process.argv.slice(2));
