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

/** The values a scatter block fans out over. */
export function scatterValues(rule: Rule, pipeline: Pipeline): string[] {
  const scatter = rule.scatter!;
  const at = rule.origin.source.locate([...rule.origin.path, "scatter"]);
  const values = scatter.values ?? (scatter.values_from ? configList(pipeline.config, scatter.values_from) : undefined);
  if (values === undefined) {
    const problem = scatter.values_from ? `reads values_from = "${scatter.values_from}", which is not a config key` : "has neither values nor values_from";
    throw new EngineError("EXPAND_ERROR", `scatter of rule '${rule.name}' ${problem}`, { rule: rule.name, at, suggestion: 'add values = ["chr1", "chr2"] or values_from = "config.chromosomes"' });
  }
  if (values.length === 0) throw new EngineError("EXPAND_ERROR", `scatter of rule '${rule.name}' has no values`, { rule: rule.name, at });
  return values;
}

/** The values a transform splits into. */
export function transformValues(rule: Rule, pipeline: Pipeline): string[] {
  const split = rule.transform!.split;
  const at = rule.origin.source.locate([...rule.origin.path, "transform", "split"]);
  let values: string[] | undefined;
  if (split.values) values = split.values;
  else if (split.values_from) {
    values = configList(pipeline.config, split.values_from);
    if (values === undefined) throw new EngineError("EXPAND_ERROR", `transform of rule '${rule.name}' reads values_from = "${split.values_from}", which is not a config key`, { rule: rule.name, at });
  } else if (split.n !== undefined) {
    const fromConfig = pipeline.config[split.n.replace(/^config\./, "")];
    const count = Number(/^\d+$/.test(split.n) ? split.n : fromConfig);
    if (!Number.isInteger(count) || count < 0) throw new EngineError("EXPAND_ERROR", `transform of rule '${rule.name}': n = "${split.n}" is neither a whole number nor a config key holding one`, { rule: rule.name, at });
    if (count > MAX_EXPANDED_JOBS) throw expansionLimitError(rule, count, "split values");
    values = Array.from({ length: count }, (_, i) => String(i));
  } else if (split.glob) {
    values = globFiles(split.glob, pipeline.dir);
    if (values.length === 0) throw new EngineError("EXPAND_ERROR", `transform of rule '${rule.name}': glob "${split.glob}" matched no files`, { rule: rule.name, at });
  }
  if (!values || values.length === 0) {
    throw new EngineError("EXPAND_ERROR", `transform rule '${rule.name}' has no split values`, { rule: rule.name, at, suggestion: "give split.values, values_from, n or glob" });
  }
  return values;
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
    // The map step reads the template's inputs, so their names stay usable (`{input.reads}`, Decision 1).
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

