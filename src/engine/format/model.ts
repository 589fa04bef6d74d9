/**
 * The in-memory model of a loaded pipeline. Field names that mirror the file format keep the format's
 * snake_case spelling, so that checks, messages and tools speak the user's vocabulary.
 */
import type { Finding } from "../findings.js";
import type { SourceFile, ValuePath } from "./source-positions.js";

/** Any value a TOML document can hold. */
export type TomlValue = string | number | boolean | Date | TomlValue[] | { [key: string]: TomlValue };

/** An input or output list; `names[i]` is the name of `paths[i]` when the file used a named table. */
export interface FileSet {
  paths: string[];
  names: string[] | null;
}

export interface Environment {
  conda?: string;
  mamba?: string;
  pixi?: string;
  docker?: string;
  singularity?: string;
  venv?: string;
  modules?: string[];
  conda_prefix?: string;
  mamba_prefix?: string;
  venv_requirements?: string;
}

export interface GpuSpec {
  count?: number;
  model?: string;
  memory_gb?: number;
  compute_capability?: string;
}

export interface Resources {
  threads: number;
  memory?: string;
  gpu?: number;
  gpu_spec?: GpuSpec;
  disk?: string;
  time_limit?: string;
  partition?: string;
  groups: Record<string, number>;
}

export interface ExpandInput {
  pattern: string;
  variables: Record<string, string>;
}

export interface Scatter {
  variable: string;
  values?: string[];
  values_from?: string;
  gather?: string;
}

export interface TransformSplit {
  by: string;
  values?: string[];
  values_from?: string;
  n?: string;
  glob?: string;
}

export interface TransformCombine {
  shell?: string;
  aggregate?: boolean;
  method?: string;
  header?: string;
}

export interface Transform {
  split: TransformSplit;
  map?: string;
  combine?: TransformCombine;
  cleanup: boolean;
}

/** Where a rule was written: the file, its index in that file's `[[rules]]`, and its include module. */
export interface RuleOrigin {
  source: SourceFile;
  /** Value path of the rule table in its file, e.g. `["rules", 3]`. */
  path: ValuePath;
  module: string | null;
  namespace: string | null;
}

export interface Rule {
  name: string;
  input: FileSet;
  output: FileSet;
  expand_inputs: ExpandInput[];
  shell?: string;
  script?: string;
  threads?: number;
  memory?: string;
  resources: Resources;
  environment: Environment;
  env_group?: string;
  log?: string;
  benchmark?: string;
  params: Record<string, TomlValue>;
  priority: number;
  target: boolean;
  optional: boolean;
  group?: string;
  description?: string;
  when?: string;
  temporary: boolean;
  scratch: boolean;
  scatter?: Scatter;
  transform?: Transform;
  temp_output: string[];
  protected_output: string[];
  input_function?: string;
  retries: number;
  tags: string[];
  shadow?: string;
  ancient: string[];
  localrule: boolean;
  envvars: Record<string, string>;
  checkpoint: boolean;
  checkpoint_manifest?: string;
  required: boolean;
  depends_on: string[];
  extends?: string;
  retry_delay?: string;
  pre_exec?: string;
  on_success?: string;
  on_failure?: string;
  interpreter?: string;
  origin: RuleOrigin;
  /** The rule table as written, for checks that look at keys (unknown keys, legacy keys). */
  raw: Record<string, unknown>;
}

export interface WorkflowMeta {
  name: string;
  version: string;
  description?: string;
  author?: string;
  min_version?: string;
  format_version?: string;
  genome_build?: string;
  interpreter_map: Record<string, string>;
  pairs_file?: string;
  sample_groups_file?: string;
  pairs_pattern?: string;
  sample_pattern?: string;
  profile_mode: "fill" | "override";
}

/** A `[config]` entry written in declared form. */
export interface ConfigDeclaration {
  default?: string;
  required: boolean;
  help?: string;
  sensitive: boolean;
  type?: "string" | "int" | "float" | "bool" | "path";
  choices?: string[];
  range?: string;
  must_exist: boolean;
}

export interface Reference {
  name: string;
  source?: string;
  output: string;
  build: string;
  /** The built-in template the build names, when it names one. */
  template?: string;
  threads?: number;
  memory?: string;
  environment: Environment;
  description?: string;
}

export interface Defaults {
  threads?: number;
  memory?: string;
  environment?: Environment;
  shell_prelude?: string;
}

export interface Include {
  path: string;
  namespace?: string;
  name?: string;
  repo?: string;
  ref?: string;
  inputs: string[];
  outputs: string[];
  params: Record<string, TomlValue>;
}

export interface ExecutionGroup {
  name: string;
  rules: string[];
  mode: "sequential" | "parallel";
}

export interface Cluster {
  backend?: string;
  partition?: string;
  account?: string;
  walltime?: string;
  max_submitted?: number;
  max_array_size?: number;
  poll_interval?: string;
  extra_args: string[];
}

export interface ResourceGroup {
  max: number;
  wait: string;
}

export interface Pair {
  pair_id: string;
  experiment: string;
  control?: string;
  experiment_type?: string;
  metadata: Record<string, string>;
}

export interface SampleGroup {
  name: string;
  samples: string[];
  metadata: Record<string, string>;
}

export interface ValuesTable {
  name: string;
  values: string[];
  values_from?: string;
}

/** An include module: its rules keep their module name for `--module`. */
export interface Module {
  name: string;
  namespace: string | null;
  path: string;
  inputs: string[];
  outputs: string[];
  rules: string[];
}

/** A fully loaded pipeline: includes merged, sample and pair sources read, config injected. */
export interface Pipeline {
  /** Absolute path of the workflow file (or the virtual name of a text given directly). */
  path: string;
  /** The workflow's working directory: relative paths in rules and checks resolve here. */
  dir: string;
  /**
   * Loaded from text on its own (LoadOptions.detached): nothing outside the text is looked at later either —
   * transform globs list no folder, `file_exists` conditions are false, `must_exist` config is not checked.
   */
  detached?: boolean;
  source: SourceFile;
  workflow: WorkflowMeta;
  config: Record<string, TomlValue>;
  configMeta: Record<string, ConfigDeclaration>;
  /** Config keys the engine added (samples_list, reference-derived paths, …). */
  injectedConfig: Set<string>;
  /** Config keys set from the command line or a profile. */
  overriddenConfig: Set<string>;
  references: Reference[];
  reference_dir?: string;
  defaults: Defaults;
  report?: Record<string, TomlValue>;
  rules: Rule[];
  plugins?: Record<string, TomlValue>;
  include: Include[];
  execution_group: ExecutionGroup[];
  citation?: Record<string, TomlValue>;
  cluster?: Cluster;
  resource_budget?: Record<string, TomlValue>;
  resource_groups: Record<string, ResourceGroup>;
  reference_db: Record<string, TomlValue>[];
  env_groups: Record<string, Environment>;
  wildcard_constraints: Record<string, string>;
  pairs: Pair[];
  sample_groups: SampleGroup[];
  values: ValuesTable[];
  /** Webhook endpoints as written (`[webhook]` or `[[webhook]]`); interpreted by the run stage. */
  webhook: Record<string, TomlValue>[];
  modules: Module[];
  /** Non-fatal problems met while loading (no files matched a sample pattern, …). */
  warnings: Finding[];
  /** The top-level table of the workflow file as written. */
  raw: Record<string, unknown>;
}
