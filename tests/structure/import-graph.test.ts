/**
 * The layering rules drawn in this repository's docs/architecture.md (read it first: it names the layers,
 * the engine's stage order, the store's areas and where each shared list lives), checked on the real
 * sources: one direction of dependency (engine ← service, engine ← command line, the command line only
 * starting the service), domains that meet only through each other's `service.ts` and are mounted through
 * their `domain.ts`, the browser app on its own (it runs in browsers: only the typed client besides itself)
 * with its requests in its data layer, and no import loops at all. A failure names every offending import.
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

/**
 * The engine's stages, lowest first. A module may import its own stage and the stages of lower layers,
 * never a higher layer nor another stage of its own layer:
 * - `.`: the modules directly under src/engine (findings, version, nearest-key, public-address), shared by
 *   every stage and importing none;
 * - format (TOML → model) < expand (jobs) < dag (edges, levels, selection) < check (validate, lint);
 * - notify and plugins read their own tables with the lower stages' helpers; a run sends webhooks;
 * - run (plan and execute) < tools (stats, diff, export, reports: a run report reads a run's folder)
 *   < data (fills the built-in templates of tools from a data folder).
 */
const ENGINE_LAYERS: readonly (readonly string[])[] = [["."], ["format"], ["expand"], ["dag"], ["check"], ["notify", "plugins"], ["run"], ["tools"], ["data"]];

/** The engine stage of a module: its folder under src/engine, `.` for a module directly there; undefined outside the engine. */
function engineStageOf(module: string): string | undefined {
  if (!inEngine(module)) return undefined;
  const path = module.slice("src/engine/".length);
  return path.includes("/") ? path.split("/")[0] : ".";
}

/** The layer of an engine stage (its index in ENGINE_LAYERS), or -1 for a stage no layer names. */
function engineLayerOf(stage: string): number {
  return ENGINE_LAYERS.findIndex((layer) => layer.includes(stage));
}

/** The folder of the scheduler modules: one module per scheduler, each listed by the registry beside it. */
const SCHEDULERS_FOLDER = "src/engine/run/cluster/schedulers/";
const inSchedulers = (module: string) => module.startsWith(SCHEDULERS_FOLDER);

/** The domain a module belongs to (`src/server/domains/<domain>/…`), or undefined. */
function domainOf(module: string): string | undefined {
  return /^src\/server\/domains\/([^/]+)\//.exec(module)?.[1];
}

describe("the import graph of src/", () => {
  it("is read completely: static, type-only, re-exported and dynamic imports are all edges", () => {
    expect(graph.size).toBeGreaterThan(100);
    expect(graph.get("src/server/app.ts")).toContain("src/server/domains/workflow/domain.ts");
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

  it("has the engine's stages import only downward (format < expand < dag < check < notify, plugins < run < tools < data)", () => {
    const stages = new Set([...graph.keys()].map(engineStageOf).filter((stage) => stage !== undefined));
    expect([...stages].filter((stage) => engineLayerOf(stage) < 0)).toEqual([]); // a new stage needs its place in ENGINE_LAYERS
    const upward = offendingEdges(graph, (from, to) => {
      const [source, target] = [engineStageOf(from), engineStageOf(to)];
      if (source === undefined || target === undefined || source === target) return false;
      return engineLayerOf(target) >= engineLayerOf(source);
    });
    expect(upward).toEqual([]);
  });

  it("keeps each scheduler in one module of run/cluster/schedulers/, importing no other scheduler, all listed by the registry", () => {
    const schedulers = [...graph.keys()].filter(inSchedulers);
    expect(schedulers.length).toBeGreaterThanOrEqual(4);
    expect(offendingEdges(graph, (from, to) => inSchedulers(from) && inSchedulers(to))).toEqual([]);
    expect(schedulers.filter((module) => !graph.get("src/engine/run/cluster/scheduler-registry.ts")?.has(module))).toEqual([]);
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

  it("wires every domain through its domain.ts: app.ts imports from a domain only that constructor, and mounts each one", () => {
    const domains = [...new Set([...graph.keys()].map(domainOf).filter((name): name is string => name !== undefined))];
    expect(domains.length).toBeGreaterThan(10);
    const fromApp = [...(graph.get("src/server/app.ts") ?? [])].filter((module) => domainOf(module) !== undefined);
    expect(fromApp.filter((module) => !module.endsWith("/domain.ts"))).toEqual([]);
    expect(domains.filter((name) => !fromApp.includes(`src/server/domains/${name}/domain.ts`))).toEqual([]);
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

  it("keeps the service's lower layers (store, runner, events, middleware, shared shapes) free of domains: only the modules that compose reach into them, each through what it composes", () => {
    // app.ts mounts each domain through its domain.ts; config.ts builds two domains' settings (the OAuth
    // clients, the per-user run limits); ai-capabilities.ts composes the AI's read-only capabilities from the
    // other domains' read paths (so the AI domain itself never imports a domain that can write). Nothing else
    // outside the domains may import one, and these three only the files named here.
    const composition = new Map<string, RegExp>([
      ["src/server/app.ts", /\/domain\.ts$/],
      ["src/server/config.ts", /^src\/server\/domains\/(auth\/oauth-settings|execution\/user-limits)\.ts$/],
      ["src/server/ai-capabilities.ts", /\/(service|views|reader)\.ts$/],
    ]);
    const upward = offendingEdges(graph, (from, to) => inServer(from) && domainOf(from) === undefined && domainOf(to) !== undefined && !composition.get(from)?.test(to));
    expect(upward).toEqual([]);
  });
});
