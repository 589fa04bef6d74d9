/**
 * Bundles the engine into one file, dist/engine/strand-engine.mjs, that the service stages on a remote
 * cluster's login node when it has Node.js but no strand (docs/guide/hpc.md, "Remote clusters"). The file
 * runs `strand run`, `strand dry-run`, `strand status` and the other engine commands with nothing but Node.js;
 * the service's own commands (serve, user, cluster add…) need native addons that stay behind, and say so.
 * Run by `npm run build` after the TypeScript compile.
 */
import { readFileSync } from "node:fs";
import { build } from "esbuild";

const manifest = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));

/** Native addons (and what loads them) are not bundled: a module that needs one fails with this when used. */
const SERVICE_ONLY = /^(better-sqlite3|@node-rs\/argon2|ssh2|cpu-features)$/;

const serviceOnly = {
  name: "service-only",
  setup(plugin) {
    plugin.onResolve({ filter: SERVICE_ONLY }, (args) => ({ path: args.path, namespace: "service-only" }));
    plugin.onLoad({ filter: /.*/, namespace: "service-only" }, (args) => ({
      // CommonJS, so any named import of it is allowed; using one throws.
      contents: [
        `const message = ${JSON.stringify(`${args.path} is not part of the bundled engine: this command needs a full strand install`)};`,
        "const fail = () => { throw new Error(message); };",
        'const stub = new Proxy(function () {}, { get: (_target, name) => (name === "__esModule" ? false : name === "default" ? stub : fail()), apply: fail, construct: fail });',
        "module.exports = stub;",
      ].join("\n"),
      loader: "js",
    }));
  },
};

await build({
  stdin: {
    contents: 'import { runCli } from "./dist/cli/main.js";\nprocess.exitCode = await runCli(process.argv.slice(2));\n',
    resolveDir: new URL("..", import.meta.url).pathname,
    sourcefile: "strand-engine-entry.mjs",
  },
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  outfile: new URL("../dist/engine/strand-engine.mjs", import.meta.url).pathname,
  define: { STRAND_BUNDLED_VERSION: JSON.stringify(manifest.version) },
  // CommonJS dependencies call require(); an ES module has none of its own.
  banner: { js: `#!/usr/bin/env node\n// strand ${manifest.version}, the engine in one file (scripts/bundle-engine.mjs).\nimport { createRequire as strandCreateRequire } from "node:module";\nconst require = strandCreateRequire(import.meta.url);` },
  plugins: [serviceOnly],
  logLevel: "warning",
  legalComments: "none",
});
