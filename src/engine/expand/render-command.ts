/**
 * Rendering a job's command: `{log}`, `{output…}`, `{input…}`, `{threads}`, `{memory}`,
 * `{effective_threads}`, `{effective_memory_mb}`, `{params.KEY}` and `{config.KEY}` placeholders, in that
 * order. Other braces (`${VAR}`, awk programs) are left alone.
 *
 * Sample names and values given on the command line are data, not code
 * (docs/reference/pipeline-format.md, decision 12): one that contains shell metacharacters stops rendering with
 * an error naming it. Values written in `[config]` by the pipeline's author are trusted.
 */
import { availableParallelism, totalmem } from "node:os";
import { EngineError } from "../findings.js";
import { isSampleKey, renderConfigValue, substituteConfig } from "../format/config.js";
import type { Defaults, FileSet, Pipeline, TomlValue } from "../format/model.js";
import { effectiveMemory, effectiveThreads, memoryToMegabytes } from "../format/rule-settings.js";
import type { Job } from "./expand.js";
import { fillText, wildcardNames } from "./template.js";

/** Characters that let a value change the meaning of a shell command. */
const SHELL_METACHARACTERS = /[;&|$`<>(){}[\]*?!~#'"\\\s]/;

export interface MachineLimits {
  cpus: number;
  memoryMb: number;
}

/** This machine's CPU count and memory, used for `{effective_threads}` and `{effective_memory_mb}`. */
export function machineLimits(): MachineLimits {
  return { cpus: availableParallelism(), memoryMb: Math.floor(totalmem() / 1024 / 1024) };
}

export interface RenderContext {
  config: Record<string, TomlValue>;
  defaults: Defaults;
  machine: MachineLimits;
  /** Config keys whose values came from outside the pipeline file (command line, profile). */
  untrustedConfig: ReadonlySet<string>;
  /** Untrusted keys already found safe: a value is checked once per context, not once per job. */
  checkedConfig?: Set<string>;
}

/** The render context of a loaded pipeline on this machine. */
export function renderContext(pipeline: Pipeline, machine: MachineLimits = machineLimits()): RenderContext {
  // Keys the engine fills with sample and pair names are data from sample sheets and the command line too.
  const untrustedConfig = new Set(pipeline.overriddenConfig);
  for (const key of pipeline.injectedConfig) if (isSampleKey(key)) untrustedConfig.add(key);
  return { config: pipeline.config, defaults: pipeline.defaults, machine, untrustedConfig, checkedConfig: new Set() };
}

/** Replaces `{name}`, `{name[i]}` and `{name.key}` for a file set. */
function renderFileSet(text: string, name: "input" | "output", set: FileSet): string {
  if (!text.includes(`{${name}`)) return text;
  return text.replace(new RegExp(`\\{${name}(?:\\[(\\d+)\\]|\\.(\\w+))?\\}`, "g"), (whole, index: string | undefined, key: string | undefined) => {
    if (index !== undefined) return set.paths[Number(index)] ?? whole;
    if (key !== undefined) {
      const at = set.names?.indexOf(key) ?? -1;
      return at >= 0 ? set.paths[at]! : whole;
    }
    return set.paths.join(" ");
  });
}

/** Fills a job's own text field (shell, script, log, hooks) with its wildcards, then its placeholders. */
export function renderJobText(text: string, job: Job, context: RenderContext): string {
  checkPathValues(text, job, context);
  let out = fillChecked(text, job);
  const log = job.rule.log !== undefined ? substituteConfig(fillChecked(job.rule.log, job), context.config, "path") : undefined;
  if (log !== undefined) out = out.replaceAll("{log}", log).replaceAll("{log[0]}", log);
  out = renderFileSet(out, "output", job.output);
  out = renderFileSet(out, "input", job.input);
  const threads = effectiveThreads(job.rule, context.defaults);
  const memory = effectiveMemory(job.rule, context.defaults);
  out = out.replaceAll("{threads}", String(threads));
  if (memory !== undefined) out = out.replaceAll("{memory}", memory);
  out = out.replaceAll("{effective_threads}", String(Math.max(1, Math.min(threads, context.machine.cpus))));
  if (out.includes("{effective_memory_mb}")) {
    const requested = memoryToMegabytes(memory);
    const megabytes = requested === undefined ? context.machine.memoryMb : Math.min(Math.floor(requested), context.machine.memoryMb);
    out = out.replaceAll("{effective_memory_mb}", String(megabytes));
  }
  if (out.includes("{params.")) {
    out = out.replace(/\{params\.(\w+)\}/g, (whole, key: string) => {
      const value = job.rule.params[key];
      if (value === undefined) return whole;
      return substituteConfig(fillChecked(renderConfigValue(value, "shell"), job), context.config, "shell");
    });
  }
  if (out.includes("{config.")) {
    checkConfigValues(out, job, context);
    out = substituteConfig(out, context.config, "shell");
  }
  return out;
}

/** The job's command as it would run: the rendered shell, then the script invocation. */
export function renderCommand(job: Job, context: RenderContext, interpreterMap: Record<string, string> = {}): string {
  const parts: string[] = [];
  if (job.rule.shell !== undefined) parts.push(renderJobText(job.rule.shell, job, context));
  if (job.rule.script !== undefined) {
    const script = renderJobText(job.rule.script, job, context);
    const interpreter = scriptInterpreter(job.rule.interpreter, script, interpreterMap);
    parts.push(interpreter ? `${interpreter} ${script}` : script);
  }
  return parts.join("\n");
}

const INTERPRETERS: Record<string, string> = {
  py: "python",
  py3: "python3",
  r: "Rscript",
  jl: "julia",
  sh: "bash",
  bash: "bash",
  pl: "perl",
  rb: "ruby",
  qmd: "quarto render",
  rmd: "quarto render",
  ipynb: "jupyter nbconvert --to notebook --execute",
  smk: "snakemake",
  nextflow: "nextflow run",
  wdl: "miniwdl run",
};

/** The interpreter of a script: the rule's, else the workflow's map by extension, else the built-in one. */
export function scriptInterpreter(explicit: string | undefined, script: string, interpreterMap: Record<string, string>): string | undefined {
  if (explicit) return explicit;
  const first = script.trim().split(/\s+/)[0] ?? "";
  const dot = first.lastIndexOf(".");
  if (dot < 0) return undefined;
  const extension = first.slice(dot + 1);
  return interpreterMap[extension] ?? interpreterMap[`.${extension}`] ?? INTERPRETERS[extension.toLowerCase()];
}

/** Fills wildcards, refusing values (sample, group, pair and value names) that could inject shell code. */
function fillChecked(text: string, job: Job): string {
  checkWildcardValues(text, job);
  return fillText(text, job.bindings);
}

function checkWildcardValues(text: string, job: Job): void {
  for (const name of wildcardNames(text)) {
    const value = job.bindings[name];
    if (value !== undefined && SHELL_METACHARACTERS.test(value)) {
      throw new EngineError("UNSAFE_VALUE", `${name} '${value}' (job ${job.name}) contains shell metacharacters or spaces`, {
        rule: job.template,
        suggestion: `rename the ${name} to letters, digits, '.', '_' or '-', e.g. '${value.replace(/[^A-Za-z0-9._-]+/g, "_")}'`,
      });
    }
  }
}

/**
 * Values also reach a command inside the paths that `{input}`, `{output}` and `{log}` stand for: the
 * wildcards and config keys of those path templates are checked like the text's own.
 */
function checkPathValues(text: string, job: Job, context: RenderContext): void {
  const paths: string[] = [];
  if (text.includes("{input")) {
    paths.push(...job.rule.input.paths);
    for (const entry of job.rule.expand_inputs) {
      paths.push(entry.pattern);
      for (const spec of Object.values(entry.variables)) checkConfigKey(spec.replace(/^config\./, ""), job, context);
    }
  }
  if (text.includes("{output")) paths.push(...job.rule.output.paths);
  if (text.includes("{log") && job.rule.log !== undefined) paths.push(job.rule.log);
  for (const path of paths) {
    checkWildcardValues(path, job);
    if (path.includes("{config.")) checkConfigValues(path, job, context);
  }
}

/** Refuses config values from the command line or a profile that could inject shell code. */
function checkConfigValues(text: string, job: Job, context: RenderContext): void {
  for (const match of text.matchAll(/\{config\.(\w+)\}/g)) checkConfigKey(match[1]!, job, context);
}

function checkConfigKey(key: string, job: Job, context: RenderContext): void {
  const value = context.config[key];
  if (!context.untrustedConfig.has(key) || value === undefined || context.checkedConfig?.has(key)) return;
  const rendered = renderConfigValue(value, "shell");
  if (/[;&|$`<>(){}\\\n]/.test(rendered)) {
    const origin = isSampleKey(key) ? "lists sample or pair names that contain" : "given on the command line contains";
    throw new EngineError("UNSAFE_VALUE", `config '${key}' ${origin} shell metacharacters: ${rendered}`, {
      rule: job.template,
      suggestion: isSampleKey(key) ? "rename the samples to letters, digits, '.', '_' or '-'" : `write the value into [config] of the pipeline if it is meant to be shell code`,
    });
  }
  context.checkedConfig?.add(key);
}
