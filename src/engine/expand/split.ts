/**
 * Fan-out inside one rule instance: `scatter` (one job per value, outputs gathered by another rule) and
 * `transform` (split values → one map job each → an optional combine job).
 */
import { EngineError } from "../findings.js";
import type { Pipeline, Rule, TomlValue } from "../format/model.js";
import { syntheticRule } from "../format/rule-settings.js";
import { globFiles } from "../format/sample-sources.js";
import { expansionLimitError, listValue, MAX_EXPANDED_JOBS } from "./instances.js";
import { fillText, type Bindings } from "./template.js";
import { shellWord } from "./shell-quote.js";

/** Where transform chunks go: `.strand/chunks/<rule instance>/<split name>/`. */
export const CHUNK_DIR = ".strand/chunks";

/** Reads a list from config by key (with or without the `config.` prefix). */
function configList(config: Record<string, TomlValue>, key: string): string[] | undefined {
  const value = config[key.replace(/^config\./, "")];
  return value === undefined ? undefined : listValue(value);
}

/**
 * The values a scatter block fans out over. An empty list (`values = []`, or `values_from` naming an empty
 * config array) is allowed: the rule expands to no jobs, a branch switched off on purpose (W027).
 */
export function scatterValues(rule: Rule, pipeline: Pipeline): string[] {
  const scatter = rule.scatter!;
  const at = rule.origin.source.locate([...rule.origin.path, "scatter"]);
  const values = scatter.values ?? (scatter.values_from ? configList(pipeline.config, scatter.values_from) : undefined);
  if (values === undefined) {
    const suggestion = 'add values = ["chr1", "chr2"] or values_from = "config.chromosomes"';
    if (scatter.values_from) {
      throw new EngineError("E005", `scatter of rule '${rule.name}' reads values_from = "${scatter.values_from}", which is not a config key`, {
        rule: rule.name,
        at: rule.origin.source.locate([...rule.origin.path, "scatter", "values_from"]),
        suggestion: `add ${scatter.values_from.replace(/^config\./, "")} = ["chr1", "chr2"] to [config], or list the values in the scatter: values = ["chr1", "chr2"]`,
      });
    }
    throw new EngineError("EXPAND_ERROR", `scatter of rule '${rule.name}' has neither values nor values_from`, { rule: rule.name, at, suggestion });
  }
  return values;
}

/**
 * The gather target of a scatter must be a rule of the pipeline, or one of its instances (`<rule>_…`);
 * checked even when nothing is scattered, so an empty scatter cannot hide a misspelt name.
 */
export function checkGatherTarget(rule: Rule, ruleNames: ReadonlySet<string>): void {
  const gather = rule.scatter?.gather;
  if (gather === undefined || ruleNames.has(gather)) return;
  for (const name of ruleNames) if (gather.startsWith(`${name}_`)) return;
  throw new EngineError("EXPAND_ERROR", `scatter of rule '${rule.name}' gathers into '${gather}', which is not a rule`, {
    rule: rule.name,
    at: rule.origin.source.locate([...rule.origin.path, "scatter", "gather"]),
    suggestion: "set gather to the name of the rule that merges the scattered outputs",
  });
}

/**
 * The values a transform splits into. An explicitly empty split (`values = []`, an empty config list,
 * `n = 0`, a glob that matches no file) is allowed: the rule expands to no jobs, map and combine (W027).
 */
export function transformValues(rule: Rule, pipeline: Pipeline): string[] {
  const split = rule.transform!.split;
  const at = rule.origin.source.locate([...rule.origin.path, "transform", "split"]);
  checkCombine(rule);
  let values: string[] | undefined;
  if (split.values) values = split.values;
  else if (split.values_from) {
    values = configList(pipeline.config, split.values_from);
    if (values === undefined) {
      throw new EngineError("E005", `transform of rule '${rule.name}' reads values_from = "${split.values_from}", which is not a config key`, {
        rule: rule.name,
        at,
        suggestion: `add ${split.values_from.replace(/^config\./, "")} = ["a", "b"] to [config]`,
      });
    }
  } else if (split.n !== undefined) {
    const fromConfig = pipeline.config[split.n.replace(/^config\./, "")];
    const raw = /^\d+$/.test(split.n) ? split.n : fromConfig;
    // Only a number or a digit string counts: a table or list in config must not reach Number() (a TOML table
    // has no prototype, and Number() of it throws instead of giving NaN).
    const count = typeof raw === "number" || typeof raw === "bigint" || (typeof raw === "string" && /^\d+$/.test(raw)) ? Number(raw) : NaN;
    if (!Number.isInteger(count) || count < 0) throw new EngineError("EXPAND_ERROR", `transform of rule '${rule.name}': n = "${split.n}" is neither a whole number nor a config key holding one`, { rule: rule.name, at });
    if (count > MAX_EXPANDED_JOBS) throw expansionLimitError(rule, count, "split values");
    values = Array.from({ length: count }, (_, i) => String(i));
  } else if (split.glob) {
    // A detached pipeline lists no folder: the glob is the sender's to choose (load notes it as not read).
    values = pipeline.detached ? [] : globFiles(split.glob, pipeline.dir);
  }
  if (!values) {
    throw new EngineError("EXPAND_ERROR", `transform rule '${rule.name}' has no split values`, { rule: rule.name, at, suggestion: "give split.values, values_from, n or glob" });
  }
  return values;
}

/** A transform's combine step must say how to combine: a shell command, or aggregate with a known method. */
function checkCombine(rule: Rule): void {
  const combine = rule.transform!.combine;
  if (!combine || combine.shell !== undefined) return;
  if (!combine.aggregate) {
    throw new EngineError("EXPAND_ERROR", `transform of rule '${rule.name}': combine needs a shell command or aggregate = true`, {
      rule: rule.name,
      at: rule.origin.source.locate([...rule.origin.path, "transform", "combine"]),
    });
  }
  const method = combine.method ?? "concat";
  if (method !== "concat" && method !== "json_merge") {
    throw new EngineError("EXPAND_ERROR", `transform of rule '${rule.name}': unknown combine method '${method}'`, {
      rule: rule.name,
      at: rule.origin.source.locate([...rule.origin.path, "transform", "combine", "method"]),
      suggestion: "use method = \"concat\" or \"json_merge\"",
    });
  }
}

/** A job produced by splitting: its rule (the original or a synthetic step), name, bindings and paths. */
export interface SplitJob {
  name: string;
  rule: Rule;
  bindings: Bindings;
  inputs: string[];
  outputs: string[];
  inputNames: string[] | null;
  outputNames: string[] | null;
}

/** The map and combine steps of one transform instance. */
export function transformJobs(rule: Rule, instanceName: string, bindings: Bindings, inputs: string[], outputs: string[], values: string[]): SplitJob[] {
  const transform = rule.transform!;
  const by = transform.split.by;
  const chunkDir = `${CHUNK_DIR}/${instanceName}/${by}`;
  const first = outputs[0];
  const extension = first ? (first.split("/").pop() ?? "").split(".").slice(1).join(".") : "";
  const mapRule = syntheticRule(rule.name, rule.origin, {
    shell: transform.map,
    input: rule.input,
    threads: rule.threads,
    memory: rule.memory,
    resources: rule.resources,
    environment: rule.environment,
    required: rule.required,
    retries: rule.retries,
    log: rule.log,
  });
  const jobs: SplitJob[] = [];
  const chunks: string[] = [];
  for (const value of values) {
    const valueBindings = Object.freeze({ ...bindings, [by]: value });
    let chunk: string;
    if (!first) chunk = `${chunkDir}/${value}.out`;
    else if (first.includes(`{${by}}`)) chunk = fillText(first, { [by]: value });
    else chunk = `${chunkDir}/${value.replace(/\//g, "_")}${extension ? `.${extension}` : ""}`;
    chunks.push(chunk);
    // The map step reads the template's inputs, so their names stay usable (`{input.reads}`,
    // docs/reference/pipeline-format.md, decision 1).
    jobs.push({ name: `${instanceName}_${value}`, rule: mapRule, bindings: valueBindings, inputs, outputs: [chunk], inputNames: rule.input.names, outputNames: null });
  }
  if (transform.combine) {
    const combine = transform.combine;
    const outputText = outputs.join(" ");
    const chunkText = chunks.join(" ");
    let shell: string;
    if (combine.shell !== undefined) {
      shell = combine.shell.replaceAll("{chunks}", chunkText).replaceAll("{input}", chunkText).replaceAll("{output}", outputText);
    } else if (combine.aggregate) {
      const method = combine.method ?? "concat";
      if (method === "concat") {
        const header = combine.header !== undefined ? `echo ${shellWord(combine.header)}; ` : "";
        shell = `{ ${header}cat ${chunkText}; } > ${outputText}`;
      } else if (method === "json_merge") {
        shell = `jq -s 'add' ${chunkText} > ${outputText}`;
      } else {
        throw new EngineError("EXPAND_ERROR", `transform of rule '${rule.name}': unknown combine method '${method}'`, {
          rule: rule.name,
          at: rule.origin.source.locate([...rule.origin.path, "transform", "combine", "method"]),
          suggestion: "use method = \"concat\" or \"json_merge\"",
        });
      }
    } else {
      throw new EngineError("EXPAND_ERROR", `transform of rule '${rule.name}': combine needs a shell command or aggregate = true`, {
        rule: rule.name,
        at: rule.origin.source.locate([...rule.origin.path, "transform", "combine"]),
      });
    }
    const combineRule = syntheticRule(`${rule.name}_combine`, rule.origin, {
      shell,
      input: { paths: chunks, names: null },
      output: rule.output,
      environment: rule.environment,
      required: rule.required,
      log: rule.log,
      temporary: false,
    });
    jobs.push({ name: `${instanceName}_combine`, rule: combineRule, bindings, inputs: chunks, outputs, inputNames: null, outputNames: rule.output.names });
  }
  return jobs;
}

