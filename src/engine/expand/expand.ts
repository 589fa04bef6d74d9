/**
 * Expansion: from the pipeline's rules (templates) to jobs. In "plan" mode every rule fans out over its
 * pairs, samples and values, scatter and transform steps are created, gathered and aggregated inputs are
 * appended and `depends_on` is rewritten to instance names. In "template" mode (validate, lint, plain
 * graph) each rule is one node with its paths as written.
 *
 * Work is linear in the number of jobs: path templates are compiled once per rule, bindings are shared
 * between rules, and a job's command is rendered only when someone asks for it.
 */
import { EngineError, type Finding } from "../findings.js";
import { substituteConfig } from "../format/config.js";
import type { FileSet, Pipeline, Rule, TomlValue } from "../format/model.js";
import { emptyFanOutFindings } from "./empty-fan-outs.js";
import { expandInputValues, expansionLimitError, instanceSourceOf, MAX_EXPANDED_JOBS, resolveValuesTables, type Instance } from "./instances.js";
import { checkGatherTarget, scatterValues, transformJobs, transformValues } from "./split.js";
import { compileTemplate, fillTemplate, fillText, NO_BINDINGS, type Bindings, type Template } from "./template.js";

export interface Job {
  /** Instance name: the rule name plus the values/pair/sample/scatter suffixes. */
  name: string;
  /** The rule the job runs (the pipeline's rule, or a synthetic transform step). */
  rule: Rule;
  /** Name of the rule as written in the pipeline. */
  template: string;
  bindings: Bindings;
  input: FileSet;
  output: FileSet;
  /** Explicit dependencies, as job names. */
  dependsOn: readonly string[];
}

export type ExpansionMode = "plan" | "template";

export interface Expansion {
  pipeline: Pipeline;
  mode: ExpansionMode;
  jobs: Job[];
  /** Rule name as written → indices of its jobs. */
  instancesOf: Map<string, number[]>;
  /** Rules and inputs switched off by an empty list (W027), in plan mode; validate reports the same. */
  warnings: Finding[];
}

/** Expands a loaded pipeline into jobs. */
export function expandPipeline(pipeline: Pipeline, mode: ExpansionMode = "plan"): Expansion {
  return mode === "template" ? templateExpansion(pipeline) : planExpansion(pipeline);
}

/** One node per rule, paths as written; scatter outputs feed their gather rule, aggregated patterns are inputs. */
function templateExpansion(pipeline: Pipeline): Expansion {
  const jobs: Job[] = pipeline.rules.map((rule) => ({
    name: rule.name,
    rule,
    template: rule.name,
    bindings: NO_BINDINGS,
    input: appendPaths(rule.input, rule.expand_inputs.map((entry) => entry.pattern)),
    output: rule.output,
    dependsOn: rule.depends_on,
  }));
  const index = new Map(jobs.map((job, i) => [job.name, i]));
  for (const rule of pipeline.rules) {
    const gather = rule.scatter?.gather;
    const target = gather === undefined ? undefined : index.get(gather);
    if (target !== undefined) jobs[target]!.input = appendPaths(jobs[target]!.input, rule.output.paths);
  }
  return { pipeline, mode: "template", jobs, instancesOf: new Map(jobs.map((job, i) => [job.name, [i]])), warnings: [] };
}

function planExpansion(pipeline: Pipeline): Expansion {
  const config = pipeline.config;
  const source = instanceSourceOf(pipeline, resolveValuesTables(pipeline));
  const ruleNames = new Set(pipeline.rules.map((rule) => rule.name));
  const warnings: Finding[] = [];
  const jobs: Job[] = [];
  const instancesOf = new Map<string, number[]>();
  const byName = new Map<string, number>();
  const gathers: { target: string; outputs: string[]; bindings: Bindings; rule: Rule }[] = [];

  const addJob = (job: Job): number => {
    if (byName.has(job.name)) {
      const other = jobs[byName.get(job.name)!]!;
      throw new EngineError("EXPAND_ERROR", `duplicate rule name: '${job.name}' (expanded from rules '${other.template}' and '${job.template}')`, {
        rule: job.template,
        at: job.rule.origin.source.locate(job.rule.origin.path),
        suggestion: "instance names are <rule>_<group>_<sample> or <rule>_<pair_id>; rename a rule, group or sample so they differ",
      });
    }
    byName.set(job.name, jobs.length);
    jobs.push(job);
    return jobs.length - 1;
  };

  const shared = new SharedPaths();
  for (const rule of pipeline.rules) {
    const inputTemplates = compilePaths(rule.input.paths, config);
    const outputTemplates = compilePaths(rule.output.paths, config);
    const indices: number[] = [];
    checkGatherTarget(rule, ruleNames);
    const scatter = rule.scatter ? scatterValues(rule, pipeline) : null;
    const split = rule.transform ? transformValues(rule, pipeline) : null;
    warnings.push(...emptyFanOutFindings(pipeline, source, rule, scatter, split));
    // A transform that splits into nothing has nothing to combine either: the rule makes no jobs.
    const instances = split && split.length === 0 ? [] : source.instancesOf(rule);
    const perInstance = scatter ? scatter.length : split ? split.length + (rule.transform!.combine ? 1 : 0) : 1;
    if (jobs.length + instances.length * perInstance > MAX_EXPANDED_JOBS) {
      throw expansionLimitError(rule, instances.length * perInstance, jobs.length > 0 ? `jobs (${jobs.length.toLocaleString("en-US")} more from the rules before it)` : "jobs");
    }
    for (let k = 0; k < instances.length; k++) {
      const instance = instances[k]!;
      const name = rule.name + instance.suffix;
      if (scatter) {
        const variable = rule.scatter!.variable;
        for (const value of scatter) {
          const bindings = Object.freeze({ ...instance.bindings, [variable]: value });
          const outputs = fillAll(outputTemplates, bindings);
          indices.push(addJob(makeJob(`${name}_${value}`, rule, bindings, fillAll(inputTemplates, bindings), outputs)));
          if (rule.scatter!.gather) gathers.push({ target: rule.scatter!.gather, outputs, bindings: instance.bindings, rule });
        }
      } else if (split) {
        const inputs = fillAll(inputTemplates, instance.bindings);
        const outputs = fillAll(outputTemplates, instance.bindings);
        for (const step of transformJobs(rule, name, instance.bindings, inputs, outputs, split)) {
          indices.push(
            addJob({
              name: step.name,
              rule: step.rule,
              template: rule.name,
              bindings: step.bindings,
              input: { paths: step.inputs, names: step.inputNames },
              output: { paths: step.outputs, names: step.outputNames },
              dependsOn: rule.depends_on,
            }),
          );
        }
      } else {
        indices.push(addJob(makeJob(name, rule, instance.bindings, shared.fillAll(inputTemplates, instances, k), shared.fillAll(outputTemplates, instances, k))));
      }
    }
    instancesOf.set(rule.name, indices);
  }

  applyGathers(gathers, jobs, byName, instancesOf);
  rewriteDependsOn(jobs, instancesOf);
  appendExpandedInputs(jobs, config);
  return { pipeline, mode: "plan", jobs, instancesOf, warnings };
}

/**
 * Paths filled from the same template for the same instance are the same text: one rule's output is the
 * next rule's input (`trimmed/{sample}.fq`). Handing both jobs one string object, rather than two equal
 * ones, halves those strings' memory and lets edge inference find the producer by identity, with the hash
 * already computed. Kept per (template, shared instance list) as an array by instance index: no hashing.
 */
class SharedPaths {
  private readonly filled = new Map<Template, Map<readonly Instance[], string[]>>();

  fillAll(templates: Template[], instances: readonly Instance[], k: number): string[] {
    const out = new Array<string>(templates.length);
    for (let i = 0; i < templates.length; i++) {
      const template = templates[i]!;
      if (template.parts.length === 1) {
        out[i] = template.parts[0]!;
        continue;
      }
      let byList = this.filled.get(template);
      if (!byList) this.filled.set(template, (byList = new Map()));
      let strings = byList.get(instances);
      if (!strings) byList.set(instances, (strings = new Array<string>(instances.length)));
      out[i] = strings[k] ??= fillTemplate(template, instances[k]!.bindings);
    }
    return out;
  }
}

function makeJob(name: string, rule: Rule, bindings: Bindings, inputs: string[], outputs: string[]): Job {
  return {
    name,
    rule,
    template: rule.name,
    bindings,
    input: { paths: inputs, names: rule.input.names },
    output: { paths: outputs, names: rule.output.names },
    dependsOn: rule.depends_on,
  };
}

function compilePaths(paths: string[], config: Record<string, TomlValue>): Template[] {
  return paths.map((path) => compileTemplate(substituteConfig(path, config, "path")));
}

function fillAll(templates: Template[], bindings: Bindings): string[] {
  const out = new Array<string>(templates.length);
  for (let i = 0; i < templates.length; i++) out[i] = fillTemplate(templates[i]!, bindings);
  return out;
}

function appendPaths(set: FileSet, extra: string[]): FileSet {
  if (extra.length === 0) return set;
  return { paths: [...set.paths, ...extra], names: set.names ? [...set.names, ...extra.map(() => "")] : null };
}

/** Scatter outputs become inputs of the gather rule: the exact job, or the instances with matching bindings. */
function applyGathers(gathers: { target: string; outputs: string[]; bindings: Bindings; rule: Rule }[], jobs: Job[], byName: Map<string, number>, instancesOf: Map<string, number[]>): void {
  const extra = new Map<number, string[]>();
  const finder = new GatherTargets(jobs, instancesOf);
  let appended = 0;
  for (const gather of gathers) {
    const exact = byName.get(gather.target);
    // A gather rule switched off itself (no instances) receives nothing; an unknown name was refused earlier.
    if (exact === undefined && instancesOf.get(gather.target)?.length === 0) continue;
    const targets = exact !== undefined ? [exact] : finder.compatible(gather.target, gather.bindings);
    appended += targets.length * gather.outputs.length;
    if (appended > MAX_EXPANDED_JOBS) throw expansionLimitError(gather.rule, appended, `gathered inputs of '${gather.target}'`);
    if (targets.length === 0) {
      throw new EngineError("EXPAND_ERROR", `scatter of rule '${gather.rule.name}' gathers into '${gather.target}', which is not a rule`, {
        rule: gather.rule.name,
        at: gather.rule.origin.source.locate([...gather.rule.origin.path, "scatter", "gather"]),
        suggestion: "set gather to the name of the rule that merges the scattered outputs",
      });
    }
    for (const target of targets) {
      const list = extra.get(target);
      if (list) list.push(...gather.outputs);
      else extra.set(target, [...gather.outputs]);
    }
  }
  for (const [index, paths] of extra) jobs[index]!.input = appendPaths(jobs[index]!.input, paths);
}

function compatible(a: Bindings, b: Bindings): boolean {
  for (const key of Object.keys(b)) if (Object.hasOwn(a, key) && a[key] !== b[key]) return false;
  return true;
}

/**
 * The instances of a gather rule whose bindings agree with a scattered job's. Scanning every instance for
 * every scattered job is quadratic (a thousand samples × a thousand regions gathered per sample took
 * minutes), so the instances are bucketed by their values of the keys all of them share, and answers are
 * kept per bindings object (all jobs of one scattered instance share theirs).
 */
class GatherTargets {
  private readonly rules = new Map<string, { instances: number[]; shared: string[]; buckets: Map<string, Map<string, number[]>> }>();
  private readonly answers = new Map<string, WeakMap<Bindings, number[]>>();

  constructor(
    private readonly jobs: Job[],
    private readonly instancesOf: Map<string, number[]>,
  ) {}

  compatible(target: string, bindings: Bindings): number[] {
    let answers = this.answers.get(target);
    if (!answers) this.answers.set(target, (answers = new WeakMap()));
    let found = answers.get(bindings);
    if (!found) {
      const rule = this.rule(target);
      const keys = rule.shared.filter((key) => Object.hasOwn(bindings, key));
      let buckets = rule.buckets.get(keys.join("\u0000"));
      if (!buckets) {
        buckets = new Map();
        for (const i of rule.instances) {
          const signature = keys.map((key) => this.jobs[i]!.bindings[key]).join("\u0000");
          const bucket = buckets.get(signature);
          if (bucket) bucket.push(i);
          else buckets.set(signature, [i]);
        }
        rule.buckets.set(keys.join("\u0000"), buckets);
      }
      const bucket = buckets.get(keys.map((key) => bindings[key]).join("\u0000")) ?? [];
      found = bucket.filter((i) => compatible(this.jobs[i]!.bindings, bindings));
      answers.set(bindings, found);
    }
    return found;
  }

  private rule(target: string) {
    let rule = this.rules.get(target);
    if (!rule) {
      const instances = this.instancesOf.get(target) ?? [];
      // Keys every instance binds: agreeing on them is necessary, so they can pick the bucket.
      let shared = instances.length > 0 ? Object.keys(this.jobs[instances[0]!]!.bindings) : [];
      for (const i of instances) {
        const own = this.jobs[i]!.bindings;
        if (shared.some((key) => !Object.hasOwn(own, key))) shared = shared.filter((key) => Object.hasOwn(own, key));
      }
      rule = { instances, shared: shared.sort(), buckets: new Map() };
      this.rules.set(target, rule);
    }
    return rule;
  }
}

/** `depends_on` naming a rule that expanded is replaced by all of its instances (computed once per rule). */
function rewriteDependsOn(jobs: Job[], instancesOf: Map<string, number[]>): void {
  const rewritten = new Map<readonly string[], string[]>();
  for (const job of jobs) {
    if (job.dependsOn.length === 0) continue;
    let names = rewritten.get(job.dependsOn);
    if (!names) {
      names = [];
      for (const dependency of job.dependsOn) {
        const indices = instancesOf.get(dependency);
        // A rule switched off by an empty list has no jobs to wait for: the dependency is met.
        if (indices) for (const i of indices) names.push(jobs[i]!.name);
        else names.push(dependency);
      }
      rewritten.set(job.dependsOn, names);
    }
    job.dependsOn = names;
  }
}

/** Resolves `expand_inputs` per job and appends the paths to its inputs. */
function appendExpandedInputs(jobs: Job[], config: Record<string, TomlValue>): void {
  const lists = new Map<string, string[]>();
  const valuesFor = (spec: string): string[] => {
    let values = lists.get(spec);
    if (!values) lists.set(spec, (values = expandInputValues(spec, config)));
    return values;
  };
  let total = 0;
  for (const job of jobs) {
    const entries = job.rule.expand_inputs;
    if (entries.length === 0) continue;
    const paths: string[] = [];
    for (const entry of entries) {
      // The combinations are built for every job: bound the product and the sum over all jobs.
      const combinations = Object.values(entry.variables).reduce((product, spec) => product * Math.max(1, valuesFor(spec).length), 1);
      total += combinations;
      if (total > MAX_EXPANDED_JOBS) {
        throw expansionLimitError(job.rule, combinations > MAX_EXPANDED_JOBS ? combinations : total, combinations > MAX_EXPANDED_JOBS ? "expand_inputs paths per job" : "expand_inputs paths (counting every job's)");
      }
      // The instance's own bindings fill only the names the entry does not declare as variables.
      const own = Object.keys(entry.variables).some((name) => name in job.bindings)
        ? Object.fromEntries(Object.entries(job.bindings).filter(([name]) => !(name in entry.variables)))
        : job.bindings;
      // A variable over an empty list adds no paths (oxo-flow leaves the placeholder in; W027 says so).
      if (Object.values(entry.variables).some((spec) => valuesFor(spec).length === 0)) continue;
      const pattern = fillText(substituteConfig(entry.pattern, config, "path"), own);
      let combos: Record<string, string>[] = [{}];
      for (const [name, spec] of Object.entries(entry.variables)) {
        const values = valuesFor(spec);
        const next: Record<string, string>[] = [];
        for (const combo of combos) for (const value of values) next.push({ ...combo, [name]: value });
        combos = next;
      }
      const template = compileTemplate(pattern);
      for (const combo of combos) paths.push(fillTemplate(template, combo));
    }
    job.input = appendPaths(job.input, paths);
  }
}
