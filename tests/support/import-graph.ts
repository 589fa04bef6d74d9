/**
 * The import graph of the project's TypeScript sources, read with TypeScript's own pre-processor (static
 * imports, `export … from`, type imports and dynamic `import()`), and the checks the layering rules need:
 * strongly connected components (import loops) and the edges that cross a boundary.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import ts from "typescript";

/** Module path (relative to the root, `/`-separated, e.g. `src/cli/main.ts`) → the modules it imports. */
export type ImportGraph = Map<string, Set<string>>;

/** Every `.ts` file under `dir` (relative to `root`), sorted. */
export function sourceFiles(root: string, dir: string): string[] {
  const found: string[] = [];
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith(".d.ts")) found.push(relative(root, path).split(sep).join("/"));
    }
  };
  walk(join(root, dir));
  return found.sort();
}

/** The project-relative module a relative specifier names (`./x.js` → `…/x.ts`), or undefined for packages. */
export function resolveSpecifier(from: string, specifier: string, known: ReadonlySet<string>): string | undefined {
  if (!specifier.startsWith(".")) return undefined;
  const base = resolve("/", dirname(from), specifier).slice(1);
  const candidates = [base, base.replace(/\.js$/, ".ts"), base.replace(/\.js$/, ".tsx"), `${base}.ts`, `${base}/index.ts`];
  return candidates.find((candidate) => known.has(candidate)) ?? base;
}

/** The import graph of the given sources; `read` returns a module's text (default: from disk under `root`). */
export function importGraph(files: string[], read: (file: string) => string): ImportGraph {
  const known = new Set(files);
  const graph: ImportGraph = new Map();
  for (const file of files) {
    const targets = new Set<string>();
    for (const imported of ts.preProcessFile(read(file), true, true).importedFiles) {
      const target = resolveSpecifier(file, imported.fileName, known);
      if (target !== undefined) targets.add(target);
    }
    graph.set(file, targets);
  }
  return graph;
}

/** The import graph of everything under `dirs` of the project at `root`. */
export function projectImportGraph(root: string, dirs: string[]): ImportGraph {
  const files = dirs.flatMap((dir) => sourceFiles(root, dir));
  return importGraph(files, (file) => readFileSync(join(root, file), "utf8"));
}

/** The import loops: strongly connected components with more than one module, or a module importing itself. */
export function importLoops(graph: ImportGraph): string[][] {
  // Tarjan's algorithm, iterative so a deep graph cannot overflow the stack.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const loops: string[][] = [];
  let next = 0;
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work: { node: string; edges: Iterator<string> }[] = [];
    const visit = (node: string) => {
      index.set(node, next);
      low.set(node, next);
      next++;
      stack.push(node);
      onStack.add(node);
      work.push({ node, edges: (graph.get(node) ?? new Set()).values() });
    };
    visit(start);
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      const step = frame.edges.next();
      if (!step.done) {
        const target = step.value;
        if (!graph.has(target)) continue;
        if (!index.has(target)) visit(target);
        else if (onStack.has(target)) low.set(frame.node, Math.min(low.get(frame.node)!, index.get(target)!));
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!));
      if (low.get(frame.node) !== index.get(frame.node)) continue;
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== frame.node);
      if (component.length > 1 || graph.get(frame.node)?.has(frame.node)) loops.push(component.sort());
    }
  }
  return loops;
}

/** The graph of groups (`group(module)`, undefined leaves a module out), with the module edges behind each group edge. */
export function groupGraph(graph: ImportGraph, group: (module: string) => string | undefined): ImportGraph {
  const grouped: ImportGraph = new Map();
  for (const [from, targets] of graph) {
    const source = group(from);
    if (source === undefined) continue;
    if (!grouped.has(source)) grouped.set(source, new Set());
    for (const target of targets) {
      const sink = group(target);
      if (sink !== undefined && sink !== source) grouped.get(source)!.add(sink);
    }
  }
  return grouped;
}

/** Every edge `from → to` of the graph, as `"from → to"`, that `offends` says breaks a rule. */
export function offendingEdges(graph: ImportGraph, offends: (from: string, to: string) => boolean): string[] {
  const found: string[] = [];
  for (const [from, targets] of graph) for (const to of targets) if (offends(from, to)) found.push(`${from} → ${to}`);
  return found;
}
