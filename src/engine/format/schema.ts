/**
 * The shape of a `.oxoflow` file, as zod schemas that decode a parsed TOML table into the model. Unknown
 * keys are accepted (lint names them); wrong types are errors that point at the offending value.
 */
import { z } from "zod";
import type {
  Cluster,
  ConfigDeclaration,
  Defaults,
  Environment,
  ExecutionGroup,
  FileSet,
  Include,
  Pair,
  ResourceGroup,
  Resources,
  SampleGroup,
  Scatter,
  TomlValue,
  Transform,
  ValuesTable,
  WorkflowMeta,
} from "./model.js";
import { controlCharacterProblem, schedulerNameProblem, shownValue } from "./scheduler-values.js";

const text = z.string();
const textList = z.array(z.string());
/** A scalar written as a string, number or boolean, kept as its text. */
const scalarText = z.union([z.string(), z.number(), z.boolean()]).transform((value) => String(value));
/**
 * A list of scalars kept as text. Checked in one loop rather than element by element through a union,
 * because sample lists can hold hundreds of thousands of names.
 */
const scalarTextList = z.array(z.unknown()).transform((items, context) => {
  const out = new Array<string>(items.length);
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    if (typeof item === "string") out[i] = item;
    else if (typeof item === "number" || typeof item === "boolean") out[i] = String(item);
    else {
      context.addIssue({ code: "custom", message: "expected text (or a number)", path: [i], input: item });
      return z.NEVER;
    }
  }
  return out;
});
const integer = z.number().int();
/**
 * A partition, queue, account or GPU model: it goes into a scheduler directive line, where a newline or a
 * space would be a directive (or a shell line on the node) of the author's own (issue 25, finding 3).
 */
const schedulerName = (options: { list?: boolean } = {}) =>
  z.string().superRefine((value, context) => {
    const problem = schedulerNameProblem(value, options);
    if (problem) context.addIssue({ code: "custom", message: `${shownValue(value)} ${problem}`, input: value });
  });
/** Scheduler options, written as they are on one's own machine: one line each. */
const schedulerOptionList = z.array(
  z.string().superRefine((value, context) => {
    const problem = controlCharacterProblem(value);
    if (problem) context.addIssue({ code: "custom", message: `${shownValue(value)} ${problem}`, input: value });
  }),
);
const tomlValue = z.custom<TomlValue>(() => true);
const tomlTable = z.record(z.string(), tomlValue);

const fileSet = z
  .union([z.array(z.string()), z.record(z.string(), z.string())], {
    error: "expected an array of paths (e.g. [\"reads.fq\"]) or a table of named paths (e.g. { reads = \"reads.fq\" })",
  })
  .transform((value): FileSet => {
    if (Array.isArray(value)) return { paths: value, names: null };
    return { paths: Object.values(value), names: Object.keys(value) };
  });

const modulesList = z
  .union([z.array(z.string()), z.string()])
  .transform((value) => (Array.isArray(value) ? value : value.split(",").map((part) => part.trim()).filter(Boolean)));

export const environmentSchema: z.ZodType<Environment> = z.object({
  conda: text.optional(),
  mamba: text.optional(),
  pixi: text.optional(),
  docker: text.optional(),
  singularity: text.optional(),
  venv: text.optional(),
  modules: modulesList.optional(),
  conda_prefix: text.optional(),
  mamba_prefix: text.optional(),
  venv_requirements: text.optional(),
});

const resourcesSchema = z
  .object({
    threads: integer.optional(),
    memory: scalarText.optional(),
    gpu: integer.optional(),
    gpu_spec: z
      .object({ count: integer.optional(), model: schedulerName().optional(), memory_gb: z.number().optional(), compute_capability: scalarText.optional() })
      .optional(),
    disk: scalarText.optional(),
    time_limit: scalarText.optional(),
    partition: schedulerName({ list: true }).optional(),
    groups: z.record(z.string(), integer).optional(),
  })
  .transform((value): Resources => ({ ...value, threads: value.threads ?? 1, groups: value.groups ?? {} }));

const scatterSchema: z.ZodType<Scatter> = z.object({
  variable: text,
  values: scalarTextList.optional(),
  values_from: text.optional(),
  gather: text.optional(),
});

const transformSchema = z
  .object({
    split: z.object({
      by: text,
      values: scalarTextList.optional(),
      values_from: text.optional(),
      n: scalarText.optional(),
      glob: text.optional(),
    }),
    map: text.optional(),
    combine: z
      .object({ shell: text.optional(), aggregate: z.boolean().optional(), method: text.optional(), header: text.optional() })
      .optional(),
    cleanup: z.boolean().optional(),
  })
  .transform((value): Transform => ({ ...value, cleanup: value.cleanup ?? false }));

/** A rule table; the decoded rule still lacks its origin, which the loader adds. */
export const ruleSchema = z
  .object({
    name: text,
    input: fileSet.optional(),
    output: fileSet.optional(),
    expand_inputs: z.array(z.object({ pattern: text, variables: z.record(z.string(), scalarText).optional() })).optional(),
    shell: text.optional(),
    script: text.optional(),
    threads: integer.optional(),
    memory: scalarText.optional(),
    resources: resourcesSchema.optional(),
    environment: environmentSchema.optional(),
    env_group: text.optional(),
    log: text.optional(),
    benchmark: text.optional(),
    params: tomlTable.optional(),
    priority: integer.optional(),
    target: z.boolean().optional(),
    optional: z.boolean().optional(),
    group: text.optional(),
    description: text.optional(),
    when: text.optional(),
    temporary: z.boolean().optional(),
    scratch: z.boolean().optional(),
    scatter: scatterSchema.optional(),
    transform: transformSchema.optional(),
    temp_output: textList.optional(),
    protected_output: textList.optional(),
    input_function: text.optional(),
    retries: integer.min(0, { error: "retries cannot be negative" }).optional(),
    tags: textList.optional(),
    shadow: text.optional(),
    ancient: textList.optional(),
    localrule: z.boolean().optional(),
    envvars: z.record(z.string(), scalarText).optional(),
    checkpoint: z.boolean().optional(),
    checkpoint_manifest: text.optional(),
    required: z.boolean().optional(),
    depends_on: textList.optional(),
    extends: text.optional(),
    retry_delay: scalarText.optional(),
    pre_exec: text.optional(),
    on_success: text.optional(),
    on_failure: text.optional(),
    interpreter: text.optional(),
  })
  .transform((rule) => ({
    ...rule,
    input: rule.input ?? { paths: [], names: null },
    output: rule.output ?? { paths: [], names: null },
    expand_inputs: (rule.expand_inputs ?? []).map((entry) => ({ pattern: entry.pattern, variables: entry.variables ?? {} })),
    resources: rule.resources ?? { threads: 1, groups: {} },
    environment: rule.environment ?? {},
    params: rule.params ?? {},
    priority: rule.priority ?? 0,
    target: rule.target ?? false,
    optional: rule.optional ?? false,
    temporary: rule.temporary ?? false,
    scratch: rule.scratch ?? false,
    temp_output: rule.temp_output ?? [],
    protected_output: rule.protected_output ?? [],
    retries: rule.retries ?? 0,
    tags: rule.tags ?? [],
    ancient: rule.ancient ?? [],
    localrule: rule.localrule ?? false,
    envvars: rule.envvars ?? {},
    checkpoint: rule.checkpoint ?? false,
    required: rule.required ?? true,
    depends_on: rule.depends_on ?? [],
  }));

export type DecodedRule = z.output<typeof ruleSchema>;

const workflowSchema = z
  .object(
    {
      name: z.string({ error: "[workflow] needs a name: add name = \"my-pipeline\"" }),
      version: scalarText.optional(),
      description: text.optional(),
      author: text.optional(),
      min_version: scalarText.optional(),
      format_version: scalarText.optional(),
      genome_build: text.optional(),
      interpreter_map: z.record(z.string(), z.string()).optional(),
      pairs_file: text.optional(),
      sample_groups_file: text.optional(),
      pairs_pattern: text.optional(),
      sample_pattern: text.optional(),
      profile_mode: z.enum(["fill", "override"]).optional(),
    },
    { error: "every pipeline file needs a [workflow] table with a name" },
  )
  .transform(
    (value): WorkflowMeta => ({
      ...value,
      version: value.version ?? "0.1.0",
      interpreter_map: value.interpreter_map ?? {},
      profile_mode: value.profile_mode ?? "fill",
    }),
  );

const referenceSchema = z.object({
  name: text,
  source: text.optional(),
  output: text,
  build: text,
  threads: integer.optional(),
  memory: scalarText.optional(),
  environment: environmentSchema.optional(),
  description: text.optional(),
});

const defaultsSchema: z.ZodType<Defaults> = z.object({
  threads: integer.optional(),
  memory: scalarText.optional(),
  environment: environmentSchema.optional(),
  shell_prelude: text.optional(),
});

const includeSchema = z
  .object({
    path: text,
    namespace: text.optional(),
    name: text.optional(),
    repo: text.optional(),
    ref: scalarText.optional(),
    inputs: textList.optional(),
    outputs: textList.optional(),
    params: tomlTable.optional(),
  })
  .transform((value): Include => ({ ...value, inputs: value.inputs ?? [], outputs: value.outputs ?? [], params: value.params ?? {} }));

const executionGroupSchema = z
  .object({ name: text, rules: textList, mode: z.enum(["sequential", "parallel"]).optional() })
  .transform((value): ExecutionGroup => ({ ...value, mode: value.mode ?? "sequential" }));

const clusterSchema = z
  .object({
    backend: text.optional(),
    partition: schedulerName({ list: true }).optional(),
    queue: schedulerName({ list: true }).optional(),
    account: schedulerName().optional(),
    walltime: scalarText.optional(),
    max_submitted: integer.optional(),
    max_array_size: integer.optional(),
    poll_interval: scalarText.optional(),
    extra_args: schedulerOptionList.optional(),
  })
  .transform((value): Cluster => {
    const { queue, ...rest } = value;
    return { ...rest, partition: rest.partition ?? queue, extra_args: rest.extra_args ?? [] };
  });

const resourceGroupSchema = z
  .object({ max: integer.min(1, { error: "a resource group needs max of at least 1" }), wait: text.optional() })
  .transform((value): ResourceGroup => ({ max: value.max, wait: value.wait ?? "queue" }));

const stringMap = z.record(z.string(), scalarText);

const pairSchema = z
  .object({
    pair_id: scalarText,
    experiment: scalarText.optional(),
    tumor: scalarText.optional(),
    control: scalarText.optional(),
    normal: scalarText.optional(),
    experiment_type: scalarText.optional(),
    tumor_type: scalarText.optional(),
    metadata: stringMap.optional(),
  })
  .superRefine((value, context) => {
    if (value.experiment === undefined && value.tumor === undefined) {
      context.addIssue({ code: "custom", message: `pair '${value.pair_id}' needs an experiment (or tumor) sample`, path: [] });
    }
  })
  .transform(
    (value): Pair => ({
      pair_id: value.pair_id,
      experiment: (value.experiment ?? value.tumor)!,
      control: value.control ?? value.normal,
      experiment_type: value.experiment_type ?? value.tumor_type,
      metadata: value.metadata ?? {},
    }),
  );

const sampleGroupSchema = z
  .object({ name: scalarText, samples: scalarTextList, metadata: stringMap.optional() })
  .transform((value): SampleGroup => ({ ...value, metadata: value.metadata ?? {} }));

const valuesSchema = z
  .object({ name: scalarText, values: scalarTextList.optional(), values_from: text.optional() })
  .transform((value): ValuesTable => ({ name: value.name, values: value.values ?? [], values_from: value.values_from }));

/** The whole file. Every section is optional except `[workflow]`. */
export const pipelineFileSchema = z.object({
  workflow: workflowSchema,
  config: tomlTable.optional(),
  references: z.array(referenceSchema).optional(),
  reference_dir: text.optional(),
  defaults: defaultsSchema.optional(),
  report: tomlTable.optional(),
  rules: z.array(ruleSchema).optional(),
  plugins: tomlTable.optional(),
  include: z.array(includeSchema).optional(),
  execution_group: z.array(executionGroupSchema).optional(),
  citation: tomlTable.optional(),
  cluster: clusterSchema.optional(),
  resource_budget: tomlTable.optional(),
  resource_groups: z.record(z.string(), resourceGroupSchema).optional(),
  reference_db: z.array(tomlTable).optional(),
  env_groups: z.record(z.string(), environmentSchema).optional(),
  wildcard_constraints: z.record(z.string(), z.string()).optional(),
  pairs: z.array(pairSchema).optional(),
  sample_groups: z.array(sampleGroupSchema).optional(),
  values: z.array(valuesSchema).optional(),
  webhook: z.union([tomlTable.transform((table) => [table]), z.array(tomlTable)]).optional(),
});

export type DecodedPipelineFile = z.output<typeof pipelineFileSchema>;

/** A profile file (`profiles/NAME.toml`): config, defaults and cluster settings to merge. */
export const profileSchema = z.object({
  config: tomlTable.optional(),
  defaults: defaultsSchema.optional(),
  cluster: clusterSchema.optional(),
});

/** The declared form of a config entry, recognised only when it has one of its marker keys. */
const configDeclarationSchema = z.object({
  default: z.string().optional(),
  required: z.boolean().optional(),
  help: z.string().optional(),
  sensitive: z.boolean().optional(),
  type: z.enum(["string", "int", "float", "bool", "path"]).optional(),
  choices: scalarTextList.optional(),
  range: z.string().optional(),
  must_exist: z.boolean().optional(),
});

const DECLARATION_MARKERS = ["default", "required", "help", "sensitive"];

/** Reads a config value as a declaration when it is written in the declared form; otherwise undefined. */
export function asConfigDeclaration(value: TomlValue): ConfigDeclaration | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value) || value instanceof Date) return undefined;
  if (!DECLARATION_MARKERS.some((key) => key in value)) return undefined;
  const parsed = configDeclarationSchema.safeParse(value);
  if (!parsed.success) return undefined;
  return { ...parsed.data, required: parsed.data.required ?? false, sensitive: parsed.data.sensitive ?? false, must_exist: parsed.data.must_exist ?? false };
}

/** Every key the format knows, per table, for lint's unknown-key check. */
export const KNOWN_KEYS = {
  top: Object.keys(pipelineFileSchema.shape),
  workflow: [
    "name",
    "version",
    "description",
    "author",
    "min_version",
    "format_version",
    "genome_build",
    "interpreter_map",
    "pairs_file",
    "sample_groups_file",
    "pairs_pattern",
    "sample_pattern",
    "profile_mode",
  ],
  rule: [
    ...Object.keys(ruleSchema.in.shape),
    "format_hint",
    "pipe",
    "checksum",
    "resource_hint",
    "rule_metadata",
    "cache_key",
  ],
  resources: ["threads", "memory", "gpu", "gpu_spec", "disk", "time_limit", "partition", "groups"],
  environment: ["conda", "mamba", "pixi", "docker", "singularity", "venv", "modules", "conda_prefix", "mamba_prefix", "venv_requirements"],
  defaults: ["threads", "memory", "environment", "shell_prelude"],
  include: ["path", "namespace", "name", "repo", "ref", "inputs", "outputs", "params"],
  references: ["name", "source", "output", "build", "threads", "memory", "environment", "description"],
} as const;

export type { Cluster, Defaults, Environment, ExecutionGroup, Include, Pair, ResourceGroup, SampleGroup, ValuesTable };
