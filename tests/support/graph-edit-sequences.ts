/**
 * For the graph edit tests: the corpus pipelines (STRAND_CORPUS, default `../shared/corpus` from the
 * project root), seeded random sequences of edits of every kind, and what each edit should mean, computed
 * on the parsed document (so a test can check the edited text reads as exactly that).
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { parse } from "smol-toml";

/** The corpus folder, or undefined when it is not there. */
export function corpusRoot(): string | undefined {
  const root = resolve(process.env.STRAND_CORPUS ?? join(process.cwd(), "..", "shared", "corpus"));
  return existsSync(root) ? root : undefined;
}

/** A corpus pipeline: its path relative to the corpus and its text. */
export interface CorpusPipeline {
  name: string;
  text: string;
}

/**
 * The corpus files that are pipelines with rules: `.oxoflow` and `.toml` files that parse and have at least
 * one `[[rules]]` table (profiles, configs and included modules without rules are not graphs to edit).
 */
export function corpusPipelines(root: string): { used: CorpusPipeline[]; skipped: string[] } {
  const used: CorpusPipeline[] = [];
  const skipped: string[] = [];
  const files = readdirSync(root, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.(oxoflow|toml)$/.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
  for (const file of files) {
    const name = relative(root, file);
    const text = readFileSync(file, "utf8");
    try {
      const doc = parse(text) as Record<string, unknown>;
      if (Array.isArray(doc.rules) && doc.rules.length > 0 && doc.rules.every((rule) => typeof rule === "object" && rule !== null && typeof (rule as Record<string, unknown>).name === "string")) {
        used.push({ name, text });
        continue;
      }
    } catch {
      // not TOML: skipped below
    }
    skipped.push(name);
  }
  return { used, skipped };
}

/** A small deterministic random number generator (mulberry32). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One graph edit as the API takes it. */
export interface GraphEditRequest {
  operation: string;
  payload: Record<string, unknown>;
}

type Doc = Record<string, unknown>;
type Rule = Record<string, unknown>;

const KINDS = ["add_rule", "remove_rule", "connect", "disconnect", "update_rule", "update_workflow", "rename_rule"] as const;

/**
 * Edit number `step` of a sequence on the pipeline `doc` reads as: the kinds take turns, so seven steps
 * make one of each, and `random` picks the rules and values (an edit that cannot apply, like disconnect
 * without an edge, becomes a connect; with fewer than two rules, an add_rule).
 */
export function randomEdit(doc: Doc, random: () => number, step: number): GraphEditRequest {
  const rules = (doc.rules as Rule[] | undefined) ?? [];
  const names = rules.map((rule) => rule.name as string);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const kind = KINDS[step % KINDS.length]!;
  if (names.length < 2 && kind !== "add_rule" && kind !== "update_workflow") return addRule(step);
  switch (kind) {
    case "add_rule":
      return addRule(step);
    case "remove_rule":
      return { operation: "remove_rule", payload: { name: pick(names) } };
    case "connect": {
      const from = pick(names);
      return { operation: "connect", payload: { from, to: pick(names.filter((name) => name !== from)) } };
    }
    case "disconnect": {
      const edges = rules.flatMap((rule) => (Array.isArray(rule.depends_on) ? rule.depends_on : []).filter((from) => names.includes(from as string) && from !== rule.name).map((from) => ({ from, to: rule.name })));
      if (edges.length === 0) {
        const from = pick(names);
        return { operation: "connect", payload: { from, to: pick(names.filter((name) => name !== from)) } };
      }
      return { operation: "disconnect", payload: pick(edges) };
    }
    case "update_rule": {
      const patches: Record<string, unknown>[] = [
        { threads: 3, description: `edited in step ${step}` },
        { resources: { memory: "2G", time_limit: "1h" }, tags: ["edited", "graph"] },
        { log: null, priority: 5, params: { depth: 12, mode: "fast" } },
        { shell: `echo step ${step}\necho "done" > {output}`, envvars: { LANG: "C" } },
        { description: null, retries: 2, optional: true },
      ];
      return { operation: "update_rule", payload: { name: pick(names), patch: pick(patches) } };
    }
    case "update_workflow":
      return { operation: "update_workflow", payload: { patch: pick([{ workflow: { version: `9.${step}.0` } }, { config: { edited_by_step: step } }, { workflow: { description: `step ${step}` }, defaults: { retries: 1 } }]) } };
    case "rename_rule":
      return { operation: "rename_rule", payload: { from: pick(names), to: `renamed_${step}` } };
  }
}

function addRule(step: number): GraphEditRequest {
  return {
    operation: "add_rule",
    payload: { rule: { name: `added_${step}`, input: ["in.txt"], output: [`added_${step}.txt`], shell: `cat {input} > {output}\necho ${step}`, resources: { threads: 2 } } },
  };
}

const isTable = (value: unknown): value is Doc => typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof Date);

function mergePatch(target: Doc, patch: Doc): void {
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete target[key];
    else if (isTable(value) && isTable(target[key])) mergePatch(target[key], value);
    else target[key] = structuredClone(value);
  }
}

/** What the document should read as after `edit` (the meaning the edited text must have). */
export function expectedAfter(before: Doc, edit: GraphEditRequest): Doc {
  const doc = structuredClone(before);
  const rules = (doc.rules as Rule[] | undefined) ?? [];
  const byName = (name: unknown) => rules.find((rule) => rule.name === name)!;
  const dropDependency = (rule: Rule, name: unknown) => {
    if (!Array.isArray(rule.depends_on) || !rule.depends_on.includes(name)) return;
    rule.depends_on = rule.depends_on.filter((entry) => entry !== name);
    if ((rule.depends_on as unknown[]).length === 0) delete rule.depends_on;
  };
  const p = edit.payload;
  switch (edit.operation) {
    case "add_rule":
      doc.rules = [...rules, structuredClone(p.rule)];
      break;
    case "remove_rule":
      doc.rules = rules.filter((rule) => rule.name !== p.name);
      for (const rule of doc.rules as Rule[]) dropDependency(rule, p.name);
      break;
    case "connect": {
      const to = byName(p.to);
      const depends = (to.depends_on as unknown[] | undefined) ?? [];
      if (!depends.includes(p.from)) to.depends_on = [...depends, p.from];
      break;
    }
    case "disconnect":
      dropDependency(byName(p.to), p.from);
      break;
    case "update_rule":
      mergePatch(byName(p.name), p.patch as Doc);
      break;
    case "update_workflow":
      mergePatch(doc, p.patch as Doc);
      break;
    case "rename_rule":
      for (const rule of rules) {
        if (rule.name === p.from) rule.name = p.to;
        if (Array.isArray(rule.depends_on)) rule.depends_on = rule.depends_on.map((entry) => (entry === p.from ? p.to : entry));
        if (rule.extends === p.from) rule.extends = p.to;
        if (isTable(rule.scatter) && rule.scatter.gather === p.from) rule.scatter.gather = p.to;
      }
      for (const group of Array.isArray(doc.execution_group) ? (doc.execution_group as Doc[]) : []) {
        if (Array.isArray(group.rules)) group.rules = group.rules.map((entry) => (entry === p.from ? p.to : entry));
      }
      break;
  }
  return doc;
}

/** A document as plain JSON (dates as their text), for comparing meanings. */
export function plain(doc: unknown): unknown {
  return JSON.parse(JSON.stringify(doc, (_key, value: unknown) => (typeof value === "bigint" ? `${value}n` : value)));
}
