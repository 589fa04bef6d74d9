/**
 * A rule's effective settings: what the legacy keys, `[rules.resources]` and `[defaults]` add up to.
 */
import type { Defaults, Environment, Rule, RuleOrigin } from "./model.js";

/** Environment backends in the order that decides which one a rule uses when several are set. */
export const ENVIRONMENT_PRIORITY = ["mamba", "conda", "pixi", "docker", "singularity", "venv", "modules"] as const;

export type EnvironmentKind = (typeof ENVIRONMENT_PRIORITY)[number] | "system";

/** Threads: legacy `threads`, else `resources.threads`, else `[defaults].threads` when resources keep the default. */
export function effectiveThreads(rule: Rule, defaults: Defaults): number {
  if (rule.threads !== undefined) return rule.threads;
  if (rule.resources.threads <= 1 && defaults.threads !== undefined) return defaults.threads;
  return rule.resources.threads;
}

/** Memory: legacy `memory`, else `resources.memory`, else `[defaults].memory`. */
export function effectiveMemory(rule: Rule, defaults: Defaults): string | undefined {
  return rule.memory ?? rule.resources.memory ?? defaults.memory;
}

/** The backend an environment table selects. */
export function environmentKind(environment: Environment | undefined): EnvironmentKind {
  if (!environment) return "system";
  for (const kind of ENVIRONMENT_PRIORITY) {
    const value = environment[kind];
    if (kind === "modules" ? Array.isArray(value) && value.length > 0 : typeof value === "string" && value !== "") return kind;
  }
  return "system";
}

/** The environment a rule runs in: its own, else `[defaults].environment`. */
export function effectiveEnvironment(rule: Rule, defaults: Defaults): Environment {
  if (environmentKind(rule.environment) !== "system") return rule.environment;
  return defaults.environment ?? rule.environment;
}

/** The spec of the selected backend (an env file, image, prefix or module list), for display. */
export function environmentSpec(environment: Environment): string {
  const kind = environmentKind(environment);
  if (kind === "system") return "";
  if (kind === "modules") return (environment.modules ?? []).join(",");
  return environment[kind] ?? "";
}

/** `kind:spec` of an environment (`conda:envs/qc.yml`), or `system`: how plans and the API show it. */
export function environmentLabel(environment: Environment): string {
  const kind = environmentKind(environment);
  return kind === "system" ? "system" : `${kind}:${environmentSpec(environment)}`;
}

/** A rule with every optional setting at its default, for steps the engine creates (transform map/combine). */
export function syntheticRule(name: string, origin: RuleOrigin, settings: Partial<Rule> = {}): Rule {
  return {
    name,
    input: { paths: [], names: null },
    output: { paths: [], names: null },
    expand_inputs: [],
    resources: { threads: 1, groups: {} },
    environment: {},
    params: {},
    priority: 0,
    target: false,
    optional: false,
    temporary: false,
    scratch: false,
    temp_output: [],
    protected_output: [],
    retries: 0,
    tags: [],
    ancient: [],
    localrule: false,
    envvars: {},
    checkpoint: false,
    required: true,
    depends_on: [],
    origin,
    raw: {},
    ...settings,
  };
}

/** Parses a memory text (`8G`, `512M`, `16384`, `1.5T`; no suffix = MB) to megabytes; undefined when unreadable. */
export function memoryToMegabytes(memory: string | undefined): number | undefined {
  if (memory === undefined) return undefined;
  const match = /^\s*(\d+(?:\.\d+)?)\s*([KMGT])?B?\s*$/i.exec(memory);
  if (!match) return undefined;
  const value = Number(match[1]);
  const unit = (match[2] ?? "M").toUpperCase();
  const factor = unit === "K" ? 1 / 1024 : unit === "M" ? 1 : unit === "G" ? 1024 : 1024 * 1024;
  return value * factor;
}
