/**
 * Which instances a rule expands into: one per pair, per (group, sample), or per combination of
 * `[[values]]`, named `<rule><values suffix>_<pair_id>` / `_<group>_<sample>` as real pipelines expect.
 */
import { EngineError } from "../findings.js";
import { valueText } from "../format/config.js";
import { compileLinearRegex, type LinearRegex } from "../format/linear-regex.js";
import type { Pair, Pipeline, Rule, SampleGroup, TomlValue } from "../format/model.js";
import { mentionsWildcard, type Bindings } from "./template.js";

const RESERVED_VALUE_NAMES = new Set([
  "sample",
  "group",
  "pair_id",
  "experiment",
  "control",
  "tumor",
  "normal",
  "experiment_type",
  "tumor_type",
  "input",
  "output",
  "log",
  "threads",
  "memory",
]);

/**
 * Most jobs one expansion may create, and the largest cartesian product (of value tables, samples, pairs,
 * scatter and split values, `expand_inputs` variables) it will build on the way: a bigger plan would take
 * minutes and gigabytes, so it is refused up front.
 */
export const MAX_EXPANDED_JOBS = 5_000_000;

/** The LIMIT_ERROR for a rule whose expansion would pass MAX_EXPANDED_JOBS. */
export function expansionLimitError(rule: Rule, count: number, what: string): EngineError {
  return new EngineError("LIMIT_ERROR", `rule '${rule.name}' would expand into ${formatCount(count)} ${what}; at most ${formatCount(MAX_EXPANDED_JOBS)} are accepted`, {
    rule: rule.name,
    at: rule.origin.source.locate(rule.origin.path),
    suggestion: "plan fewer jobs at a time (--samples, -t), or fan the rule out over fewer samples, pairs or values",
  });
}

function formatCount(count: number): string {
  return count < 1e15 ? Math.round(count).toLocaleString("en-US") : count.toExponential(1);
}

/** The fixed pair wildcards (metadata keys of each pair are wildcards too). */
export const PAIR_WILDCARDS = ["pair_id", "experiment", "control", "tumor", "normal", "experiment_type", "tumor_type"] as const;

export interface ResolvedValues {
  name: string;
  values: string[];
}

/**
 * Resolves `[[values]]` tables (reading `values_from` from config) and checks their names: a table naming a
 * config key that does not exist is E005, a bad name EXPAND_ERROR. Validate and expansion both call this.
 */
export function resolveValuesTables(pipeline: Pipeline): ResolvedValues[] {
  const seen = new Set<string>();
  return pipeline.values.map((table, index) => {
    const at = pipeline.source.locate(["values", index]);
    if (table.name.trim() === "") throw new EngineError("EXPAND_ERROR", "a [[values]] table has an empty name", { at });
    if (RESERVED_VALUE_NAMES.has(table.name)) {
      throw new EngineError("EXPAND_ERROR", `[[values]] table '${table.name}' uses a reserved wildcard name`, { at, suggestion: "rename the table, e.g. to 'chrom' or 'param'" });
    }
    if (seen.has(table.name)) throw new EngineError("EXPAND_ERROR", `duplicate [[values]] table '${table.name}'`, { at });
    seen.add(table.name);
    let values = table.values;
    if (values.length === 0 && table.values_from) {
      const key = table.values_from.replace(/^config\./, "");
      const source = pipeline.config[key];
      if (source === undefined) {
        throw new EngineError("E005", `[[values]] table '${table.name}' reads values_from = "${table.values_from}", but config has no key '${key}'`, {
          at: pipeline.source.locate(["values", index, "values_from"]),
          suggestion: `add ${key} = ["a", "b"] to [config]`,
        });
      }
      values = listValue(source);
    }
    // An empty table is allowed: the rules that use it expand to no jobs (a branch switched off, W027).
    return { name: table.name, values };
  });
}

/** A config value as a list: arrays item by item, text split at commas. */
export function listValue(value: TomlValue): string[] {
  if (Array.isArray(value)) return value.map(valueText);
  return valueText(value)
    .split(",")
    .map((item) => item.trim())
    .filter(Boolean);
}

/**
 * The values of one `expand_inputs` variable (docs/reference/pipeline-format.md §2.6): a config key first (with
 * or without `config.`; arrays or comma strings), then a `[a, b]` literal, else the text itself as the one
 * value.
 */
export function expandInputValues(spec: string, config: Record<string, TomlValue>): string[] {
  const key = spec.replace(/^config\./, "");
  const trimmed = spec.trim();
  if (config[key] !== undefined) return listValue(config[key]!);
  if (trimmed.startsWith("[") && trimmed.endsWith("]")) {
    return trimmed
      .slice(1, -1)
      .split(",")
      .map((item) => item.trim().replace(/^["']|["']$/g, ""))
      .filter(Boolean);
  }
  return [spec];
}

/** One combination of value-table bindings and its instance-name suffix. */
interface ValueCombo {
  bindings: Record<string, string>;
  suffix: string;
}

function valueCombos(tables: ResolvedValues[]): ValueCombo[] {
  let combos: ValueCombo[] = [{ bindings: {}, suffix: "" }];
  for (const table of tables) {
    const next: ValueCombo[] = [];
    for (const combo of combos) {
      for (const value of table.values) {
        next.push({ bindings: { ...combo.bindings, [table.name]: value }, suffix: `${combo.suffix}_${table.name}_${value.replace(/[^A-Za-z0-9]/g, "_")}` });
      }
    }
    combos = next;
  }
  return combos;
}

export interface Instance {
  /** Suffix appended to the rule name ("" for a rule that does not fan out). */
  suffix: string;
  bindings: Bindings;
}

const SINGLE: Instance[] = [{ suffix: "", bindings: {} }];

/** How a rule fans out: over pairs, (group, sample), value combinations only, or not at all. */
export type FanOutKind = "pair" | "group" | "values" | "single";

/** A rule's fan-out: its kind and the value tables it uses. */
export interface FanOut {
  kind: FanOutKind;
  active: ResolvedValues[];
}

/** Which sample sources the pipeline declares, even when they turned out empty. */
export interface DeclaredSources {
  groups: boolean;
  pairs: boolean;
}

/** The sample sources a pipeline declares: inline tables, sheets and patterns (empty ones included). */
export function declaredSources(pipeline: Pipeline): DeclaredSources {
  const workflow = pipeline.workflow;
  return {
    groups: pipeline.sample_groups.length > 0 || Boolean(workflow.sample_groups_file || workflow.sample_pattern),
    pairs: pipeline.pairs.length > 0 || Boolean(workflow.pairs_file || workflow.pairs_pattern),
  };
}

/** The instance source of a pipeline whose value tables are already resolved. */
export function instanceSourceOf(pipeline: Pipeline, tables: ResolvedValues[]): InstanceSource {
  return new InstanceSource(pipeline.sample_groups, pipeline.pairs, tables, pipeline.wildcard_constraints, declaredSources(pipeline));
}

/** What every rule's expansion shares: sample/pair sources, value tables, constraints, and binding caches. */
export class InstanceSource {
  private readonly pairKeys: Set<string>;
  private readonly constraints: [string, LinearRegex][];
  private readonly cache = new Map<string, Instance[]>();

  constructor(
    private readonly groups: SampleGroup[],
    private readonly pairs: Pair[],
    readonly tables: ResolvedValues[],
    constraints: Record<string, string>,
    /**
     * A declared source that holds nothing (a header-only sheet, a pattern that matched no files) still
     * fans its rules out: into no jobs, instead of one job with a literal `{sample}` in its paths.
     */
    private readonly declared: DeclaredSources = { groups: groups.length > 0, pairs: pairs.length > 0 },
  ) {
    this.pairKeys = new Set<string>(PAIR_WILDCARDS);
    for (const pair of pairs) for (const key of Object.keys(pair.metadata)) this.pairKeys.add(key);
    this.constraints = Object.entries(constraints).map(([name, pattern]) => [name, compileLinearRegex(pattern)]);
  }

  /** The instances of a rule (one with an empty suffix when nothing fans it out); shared, do not modify. */
  instancesOf(rule: Rule): Instance[] {
    const { kind, active } = this.fanOutOf(rule);
    if (kind === "single") return SINGLE;
    // Rules with the same fan-out share binding objects (and their memory) across all their instances.
    const key = `${kind}\u0000${active.map((table) => table.name).join("\u0000")}`;
    let shared = this.cache.get(key);
    if (!shared) {
      shared = this.buildInstances(rule, kind, active);
      this.cache.set(key, shared);
    }
    return shared;
  }

  /**
   * How a rule fans out (docs/reference/pipeline-format.md §3.4): which wildcards its input, output and
   * shell texts mention.
   */
  fanOutOf(rule: Rule): FanOut {
    const triggers = [...rule.input.paths, ...rule.output.paths, rule.shell ?? ""];
    const mentions = (name: string): boolean => triggers.some((text) => mentionsWildcard(text, name));
    const active = this.tables.filter((table) => mentions(table.name) || rule.expand_inputs.some((entry) => mentionsWildcard(entry.pattern, table.name)));
    let kind: FanOutKind = "single";
    if (this.declared.pairs && [...this.pairKeys].some(mentions)) kind = "pair";
    else if (this.declared.groups && (mentions("group") || mentions("sample"))) kind = "group";
    else if (active.length > 0) kind = "values";
    return { kind, active };
  }

  /** How many instances a fan-out gives before wildcard constraints: 0 when a list it ranges over is empty. */
  countOf(fanOut: FanOut): number {
    let count = fanOut.active.reduce((product, table) => product * table.values.length, 1);
    if (fanOut.kind === "pair") count *= this.pairs.length;
    else if (fanOut.kind === "group") count *= this.sampleCount();
    return count;
  }

  private sampleCount(): number {
    return this.groups.reduce((sum, group) => sum + group.samples.length, 0);
  }

  /** Instances (name suffixes and bindings), filtered by the wildcard constraints. */
  private buildInstances(rule: Rule, kind: "pair" | "group" | "values", active: ResolvedValues[]): Instance[] {
    const count = this.countOf({ kind, active });
    if (count > MAX_EXPANDED_JOBS) throw expansionLimitError(rule, count, "instances");
    const instances: Instance[] = [];
    for (const combo of valueCombos(active)) {
      if (kind === "values") {
        this.keep(instances, combo.suffix, combo.bindings);
      } else if (kind === "pair") {
        for (const pair of this.pairs) {
          const bindings: Record<string, string> = {
            ...pair.metadata,
            pair_id: pair.pair_id,
            experiment: pair.experiment,
            tumor: pair.experiment,
            control: pair.control ?? "",
            normal: pair.control ?? "",
            ...combo.bindings,
          };
          if (pair.experiment_type !== undefined) {
            bindings.experiment_type = pair.experiment_type;
            bindings.tumor_type = pair.experiment_type;
          }
          this.keep(instances, `${combo.suffix}_${pair.pair_id}`, bindings);
        }
      } else {
        for (const group of this.groups) {
          for (const sample of group.samples) {
            this.keep(instances, `${combo.suffix}_${group.name}_${sample}`, { ...group.metadata, group: group.name, sample, ...combo.bindings });
          }
        }
      }
    }
    return instances;
  }

  private keep(instances: Instance[], suffix: string, bindings: Record<string, string>): void {
    for (const [name, regex] of this.constraints) {
      const value = bindings[name];
      if (value !== undefined && !regex.test(value)) return;
    }
    instances.push({ suffix, bindings: Object.freeze(bindings) });
  }
}
