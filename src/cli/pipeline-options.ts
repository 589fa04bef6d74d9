/**
 * Loading the pipeline a command names: workflow discovery, config overrides (`--arg K=V`, trailing `K=V`,
 * `--KEY VALUE` for keys the pipeline's [config] declares), `--configfile`, `--samples`, `--profile` and `-d/--workdir`.
 */
import { resolve } from "node:path";
import { nearestKey } from "../engine/nearest-key.js";
import { discoverWorkflow, loadPipeline, type LoadOptions } from "../engine/format/load.js";
import type { Pipeline } from "../engine/format/model.js";
import { GLOBAL_OPTIONS, optionValue, optionValues, UsageError, type OptionSpec, type ParsedArgs } from "./args.js";

/** Options of commands that load a pipeline. */
export const PIPELINE_OPTIONS: OptionSpec[] = [
  { name: "arg", value: true, repeat: true, placeholder: "KEY=VALUE", description: "set a config value (repeatable)" },
  { name: "config", value: true, repeat: true, placeholder: "KEY=VALUE", description: "the same as --arg (Snakemake's name)" },
  { name: "configfile", value: true, repeat: true, placeholder: "FILE", description: "config values from a TOML, JSON or YAML file (repeatable; later files win)" },
  { name: "samples", value: true, placeholder: "LIST", description: "samples to use: names, first:N, @file or +@file" },
  { name: "profile", value: true, repeat: true, placeholder: "NAME[,NAME…]", description: "merge profiles/NAME.toml into config, defaults and cluster; several apply in order, later wins" },
  { name: "workdir", short: "d", value: true, placeholder: "DIR", description: "working folder (default: the workflow's folder)" },
];

/** `--until RULE`: only that rule's jobs and what they need (Snakemake's --until). */
export const UNTIL_OPTION: OptionSpec = { name: "until", value: true, repeat: true, placeholder: "RULE", description: "stop at this rule: only its jobs and what they need (repeatable)" };

/** `-R/--forcerun RULE`: run that rule's jobs and everything downstream, up to date or not. */
export const FORCERUN_OPTION: OptionSpec = { name: "forcerun", short: "R", value: true, repeat: true, placeholder: "RULE", description: "run this rule's jobs and everything downstream of them (repeatable, or RULE,RULE)" };

/** Options that select part of the graph. */
export const SELECTION_OPTIONS: OptionSpec[] = [
  { name: "target", short: "t", value: true, repeat: true, placeholder: "RULE", description: "plan only these rules (prefix match) and what they need" },
  { name: "module", value: true, placeholder: "NAME", description: "plan only an include module (plus producers of its inputs)" },
];

export interface LoadedPipeline {
  pipeline: Pipeline;
  path: string;
}

/** Resolves and loads the workflow a command names, applying every config and sample option. */
export async function loadFromArgs(args: ParsedArgs, specs: OptionSpec[]): Promise<LoadedPipeline> {
  if (args.positionals.length > 1) {
    throw new UsageError(`expected one workflow, got: ${args.positionals.join(" ")}`, "give one .oxoflow file or folder; set config values as KEY=VALUE");
  }
  const path = discoverWorkflow(args.positionals[0]);
  const workdir = optionValue(args, "workdir");
  const options: LoadOptions = {
    overrides: { ...args.assignments },
    samples: optionValue(args, "samples"),
    profile: optionValues(args, "profile").join(",") || undefined,
    configFiles: (args.options.get("configfile") ?? []).map((file) => resolve(file)),
    workdir: workdir ? resolve(workdir) : undefined,
  };
  let pipeline = await loadPipeline(path, options);
  if (args.configFlags.length > 0) {
    const flags: Record<string, string> = {};
    for (const flag of args.configFlags) {
      const declared = flag.name in pipeline.config && !pipeline.injectedConfig.has(flag.name);
      if (!declared) {
        const configKeys = Object.keys(pipeline.config).filter((key) => !pipeline.injectedConfig.has(key));
        const near = nearestKey(flag.name, [...[...specs, ...GLOBAL_OPTIONS].map((spec) => spec.name), ...configKeys]);
        throw new UsageError(
          `unknown option --${flag.name}`,
          near ? `did you mean --${near}?` : `to set a config value the pipeline does not declare, use --arg ${flag.name}=VALUE`,
        );
      }
      flags[flag.name] = flag.value ?? "true";
    }
    // Flags for declared keys rank below --arg and trailing KEY=VALUE.
    pipeline = await loadPipeline(path, { ...options, overrides: { ...flags, ...options.overrides } });
  }
  return { pipeline, path };
}
