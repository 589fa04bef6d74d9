/**
 * The layering rules of docs/architecture.md, checked on the real sources: one direction of dependency
 * (engine ← service, engine ← command line, the command line only starting the service), domains that meet
 * only through each other's `service.ts`, the browser app on its own (it runs in browsers: only the typed
 * client besides itself) with its requests in its data layer, and no import loops at all. A failure names
 * every offending import.
 */
import { describe, expect, it } from "vitest";
import { groupGraph, importGraph, importLoops, offendingEdges, projectImportGraph } from "../support/import-graph.js";
import { PROJECT_ROOT } from "../support/strand-cli.js";

const graph = projectImportGraph(PROJECT_ROOT, ["src"]);

const under = (folder: string) => (module: string) => module.startsWith(`${folder}/`);
const inEngine = under("src/engine");
const inServer = under("src/server");
const inCli = under("src/cli");
const inClient = under("src/client");
const inWeb = under("src/web");
const inWebApi = under("src/web/api");
/** The browser app's typed client of the service: only its data layer (src/web/api) asks the service through it. */
const WEB_CLIENT = "src/web/api/client.ts";

/** The domain a module belongs to (`src/server/domains/<domain>/…`), or undefined. */
function domainOf(module: string): string | undefined {
  return /^src\/server\/domains\/([^/]+)\//.exec(module)?.[1];
}

describe("the import graph of src/", () => {
  it("is read completely: static, type-only, re-exported and dynamic imports are all edges", () => {
    expect(graph.size).toBeGreaterThan(100);
    expect(graph.get("src/server/app.ts")).toContain("src/server/domains/workflow/routes.ts");
    expect(graph.get("src/cli/main.ts")).toContain("src/cli/commands/serve.ts"); // import("./commands/serve.js")
    const sample = importGraph(["a.ts", "b.ts", "c.ts", "d.ts"], (file) =>
      ({ "a.ts": 'import type { B } from "./b.js";', "b.ts": 'export { c } from "./c.js";', "c.ts": 'const a = () => import("./a.js");', "d.ts": 'import "./d.js";' })[file]!,
    );
    expect(importLoops(sample)).toEqual([["a.ts", "b.ts", "c.ts"], ["d.ts"]]);
  });

  it("has no import loops", () => {
    expect(importLoops(graph)).toEqual([]);
  });

  it("never imports from src/engine into anything else: the engine is a library with no HTTP and no CLI in it", () => {
    expect(offendingEdges(graph, (from, to) => inEngine(from) && !inEngine(to))).toEqual([]);
  });

  it("never imports the command line from the service", () => {
    expect(offendingEdges(graph, (from, to) => inServer(from) && inCli(to))).toEqual([]);
  });

  it("never imports a server domain from the command line (it only starts the service)", () => {
    expect(offendingEdges(graph, (from, to) => inCli(from) && domainOf(to) !== undefined)).toEqual([]);
  });

  it("lets a domain use another only through that domain's service.ts, never its routes or schemas", () => {
    const crossing = offendingEdges(graph, (from, to) => {
      const [source, target] = [domainOf(from), domainOf(to)];
      return source !== undefined && target !== undefined && source !== target && to !== `src/server/domains/${target}/service.ts`;
    });
    expect(crossing).toEqual([]);
  });

  it("keeps the typed client self-contained (it runs in browsers): it imports nothing else of src/", () => {
    expect([...graph.keys()].filter(inClient).length).toBeGreaterThan(0);
    expect(offendingEdges(graph, (from, to) => inClient(from) && !inClient(to))).toEqual([]);
  });

  it("keeps the browser app to itself and the typed client: it runs in browsers, and talks to the service only over HTTP", () => {
    expect([...graph.keys()].filter(inWeb).length).toBeGreaterThan(50);
    expect(offendingEdges(graph, (from, to) => inWeb(from) && !inWeb(to) && !inClient(to))).toEqual([]);
  });

  it("lets only the browser app's data layer (src/web/api) use the typed client: pages and components ask through its hooks", () => {
    expect([...graph.keys()].filter(inWebApi).some((module) => graph.get(module)?.has(WEB_CLIENT))).toBe(true);
    expect(offendingEdges(graph, (from, to) => to === WEB_CLIENT && !inWebApi(from))).toEqual([]);
  });

  it("has no two domains depending on each other in a circle", () => {
    expect(importLoops(groupGraph(graph, domainOf))).toEqual([]);
  });

  it("keeps the service's lower layers (store, runner, events, middleware, shared shapes) free of domains: only app.ts composes them (config.ts reads their settings, ai-capabilities.ts composes the AI's reads)", () => {
    // config.ts turns the environment into every domain's settings (OAuth clients, run limits, the sign-in
    // throttle), so it names their settings types; ai-capabilities.ts composes the AI's read-only capabilities
    // from the other domains' reads (so the AI domain itself never imports a domain that can write); nothing
    // below them may.
    const composition = new Set(["src/server/app.ts", "src/server/config.ts", "src/server/ai-capabilities.ts"]);
    const upward = offendingEdges(graph, (from, to) => inServer(from) && domainOf(from) === undefined && !composition.has(from) && domainOf(to) !== undefined);
    expect(upward).toEqual([]);
  });
});
