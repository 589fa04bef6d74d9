/**
 * The pipeline format reference the AI's system prompts carry, generated from the engine's own definitions so
 * it cannot drift from what the engine accepts: the key outline comes from the JSON Schema that `strand schema`
 * prints (the same zod schema the loader decodes with), the extra keys from lint's known-key table, the wildcard
 * names, environment backends, reference builds and derived reference keys from the engine's constants, and
 * the worked example is the `hello-world` template itself. Computed once per process.
 */
import { z } from "zod";
import { PAIR_WILDCARDS } from "../../../../engine/expand/instances.js";
import { REFERENCE_LAYOUT } from "../../../../engine/format/config.js";
import { REFERENCE_TEMPLATES } from "../../../../engine/format/references.js";
import { ENVIRONMENT_PRIORITY } from "../../../../engine/format/rule-settings.js";
import { KNOWN_KEYS, pipelineFileSchema } from "../../../../engine/format/schema.js";
import { getTemplate } from "../../../../engine/tools/templates.js";

/** A JSON Schema node, as far as the outline reads it. */
interface SchemaNode {
  type?: string | string[];
  properties?: Record<string, SchemaNode>;
  required?: string[];
  additionalProperties?: SchemaNode | boolean;
  items?: SchemaNode;
  anyOf?: SchemaNode[];
  oneOf?: SchemaNode[];
  enum?: unknown[];
  minimum?: number;
}

/** The JSON Schema of a pipeline file exactly as `strand schema` derives it (input side of the decoder). */
export function pipelineJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(pipelineFileSchema, { io: "input", unrepresentable: "any" }) as Record<string, unknown>;
}

/** Integer bounds zod adds for safe integers say nothing to a reader; a real lower bound (retries ≥ 0) does. */
function bound(node: SchemaNode): string {
  return typeof node.minimum === "number" && node.minimum > -1_000_000 ? ` (≥ ${node.minimum})` : "";
}

/** A one-line description of a node's type: `string`, `integer (≥ 0)`, `"fill" | "override"`, `array of string`. */
function typeText(node: SchemaNode): string {
  if (node.enum) return node.enum.map((value) => JSON.stringify(value)).join(" | ");
  const variants = node.anyOf ?? node.oneOf;
  if (variants) return variants.map(typeText).join(", or ");
  const type = node.type;
  if (type === "array") {
    const items = node.items;
    if (items?.properties) return "array of tables";
    return `array of ${items ? typeText(items) : "any"}`;
  }
  if (type === "object") {
    if (node.properties) return "table";
    const values = node.additionalProperties;
    if (values && typeof values === "object" && values.properties) return "table of named tables, each:";
    return values && typeof values === "object" && Object.keys(values).length > 0 ? `table of ${typeText(values)}` : "table of any TOML values";
  }
  if (Array.isArray(type)) return type.join("|");
  return type ? `${type}${bound(node)}` : "any";
}

/** The table-shaped part of a node (itself, an array's items, or one of its variants), if any. */
function tableOf(node: SchemaNode): SchemaNode | undefined {
  if (node.properties) return node;
  if (node.items?.properties) return node.items;
  if (typeof node.additionalProperties === "object" && node.additionalProperties.properties) return node.additionalProperties;
  for (const variant of node.anyOf ?? node.oneOf ?? []) {
    const table = tableOf(variant);
    if (table) return table;
  }
  return undefined;
}

/** Outline lines for a table's keys, nested tables indented under their key; a table already shown is referred to. */
function outlineKeys(table: SchemaNode, path: string, indent: string, lines: string[], shown: Map<string, string>): void {
  const required = new Set(table.required ?? []);
  for (const [key, node] of Object.entries(table.properties ?? {})) {
    const nested = tableOf(node);
    const seen = nested ? shown.get(JSON.stringify(nested)) : undefined;
    const type = seen ? `${typeText(node)} (the same keys as ${seen})` : typeText(node);
    lines.push(`${indent}${key}: ${type}${required.has(key) ? " (required)" : ""}`);
    if (nested && !seen) {
      shown.set(JSON.stringify(nested), `${path}.${key}`);
      outlineKeys(nested, `${path}.${key}`, `${indent}  `, lines, shown);
    }
  }
}

/** The key outline of the whole file, top-level tables in the engine's canonical order. */
export function schemaOutline(schema: Record<string, unknown> = pipelineJsonSchema()): string {
  const root = schema as SchemaNode;
  const required = new Set(root.required ?? []);
  const lines: string[] = [];
  const shown = new Map<string, string>();
  for (const [key, node] of Object.entries(root.properties ?? {})) {
    const table = tableOf(node);
    const isArray = node.type === "array" || (node.anyOf ?? []).some((variant) => variant.type === "array");
    const header = isArray ? `[[${key}]]` : node.type === "object" || table ? `[${key}]` : key;
    lines.push(`${header}: ${typeText(node)}${required.has(key) ? " (required)" : ""}`);
    if (table) {
      shown.set(JSON.stringify(table), key);
      outlineKeys(table, key, "  ", lines, shown);
    }
  }
  return lines.join("\n");
}

/** Keys lint accepts without a warning although the schema does not decode them (parsed, no effect). */
export function inertRuleKeys(schema: Record<string, unknown> = pipelineJsonSchema()): string[] {
  const rules = (schema as SchemaNode).properties?.rules?.items?.properties ?? {};
  return KNOWN_KEYS.rule.filter((key) => !(key in rules));
}

/** Every top-level key and every `[[rules]]` key the engine's schema defines. */
export function schemaKeys(schema: Record<string, unknown> = pipelineJsonSchema()): { top: string[]; rule: string[] } {
  const root = schema as SchemaNode;
  return { top: Object.keys(root.properties ?? {}), rule: Object.keys(root.properties?.rules?.items?.properties ?? {}) };
}

/** The worked example: the `hello-world` template's text. */
export function workedExample(): string {
  const template = getTemplate("hello-world");
  if (!template) throw new Error("the hello-world template is missing from templates/");
  return template.toml_content.trim();
}

function semantics(): string {
  const pairNames = PAIR_WILDCARDS.map((name) => `{${name}}`).join(", ");
  const referenceKeys = REFERENCE_LAYOUT.map(([key, path]) => `config.${key} = <reference_dir>/${path}`).join("; ");
  return `## How the engine reads it
- TOML 1.1. Only [workflow] with name is required. Unknown keys are ignored by the engine but \`strand lint\` reports each one (W026); never invent keys: use only those above.
- Rules are an array of tables: each rule starts with [[rules]]; its sub-tables follow it as [rules.resources] and [rules.environment] (or inline: resources = { threads = 4, memory = "8G" }).
- input and output are arrays of paths (["a.bam", "a.bam.bai"]) or tables of named paths ({ bam = "x.bam", bai = "x.bam.bai" }); a single string is not accepted. Paths are relative to the workflow's working directory.
- Edges are inferred: a rule whose input matches another rule's output runs after it. depends_on = ["rule"] adds an explicit edge (for rules with no file between them).
- Every declared output must exist after the command succeeds; that is how the engine decides a job worked.

## Placeholders in shell, script, log and paths
- {input}, {output} (all paths, space-joined in declaration order), {input[0]}, {output[1]}, {input.reads}, {output.bam} (named), {log}.
- {threads} and {memory}: the rule's effective threads and memory; {effective_threads} and {effective_memory_mb}: capped to the machine.
- {params.KEY} from the rule's params table; {config.KEY} from [config] (arrays render space-joined in commands).
- Anything else in braces that is not a wildcard (bash \${VAR}, awk '{print $1}') is left as written.

## Wildcards and fan-out
- {sample} and {group} come from [[sample_groups]] (name, samples), workflow.sample_groups_file or workflow.sample_pattern. A rule whose input, output or shell mentions {sample} runs once per sample (instance name <rule>_<group>_<sample>).
- Pair wildcards ${pairNames} come from [[pairs]] (pair_id, experiment or tumor, control or normal), workflow.pairs_file or workflow.pairs_pattern; a rule mentioning one runs once per pair. Pair instances do not bind {sample}.
- [[values]] tables (name, values) define {name} (or {values.name}); several active tables fan out over their cartesian product. A [[values]] table cannot be named like a built-in wildcard (sample, group, the pair names, input, output, log, threads, memory).
- A wildcard in an output must appear in that rule's inputs or be defined by one of the sources above (E003). Without any source, {sample} stays literal (W024): always declare the samples.
- Aggregate over samples with expand_inputs = [{ pattern = "counts/{sample}.txt", variables = { sample = "config.samples_list" } }]. The engine injects config.samples_list (every sample), config.samples_<group> and config.pairs_list.
- scatter = { variable = "chrom", values = [...] or values_from = "config.KEY", gather = "<rule>" } runs one instance per value and feeds all outputs to the gather rule.
- wildcard_constraints = { sample = "^[A-Za-z0-9_]+$" } drops combinations that do not match (unanchored search: write ^…$).
- when = "config.KEY == 'x'" skips a rule instance when false. Conditions use config.KEY, wildcard.NAME, file_exists("path"), true/false, !, &&, || and comparisons (== != < <= > >=); a config key used in a condition must exist in [config].

## Resources, environments, references
- Threads and memory go in [rules.resources] (threads = 4, memory = "8G"); rule-level threads/memory are legacy (W025). [defaults] sets threads, memory, environment and shell_prelude for every rule that lacks them.
- Environment backends, in the order that decides which one runs when several are set: ${ENVIRONMENT_PRIORITY.join(", ")}. conda/mamba take an environment file (envs/tool.yaml), pixi a manifest, docker/singularity an image (quay.io/biocontainers/samtools:1.21--h50ea8bc_0 or docker://…), modules a list of module names.
- [[references]] entries (name, source, output, build) build indexes before the rules; build is a shell command or one of the built-in builds ${Object.keys(REFERENCE_TEMPLATES).join(", ")}. Each reference is available as config.<name>.
- reference_dir = "ref" derives, unless already set: ${referenceKeys}.`;
}

let cached: string | undefined;

/** The whole format reference as Markdown: key outline, inert keys, engine semantics and the worked example. Computed once. */
export function formatReference(): string {
  if (cached !== undefined) return cached;
  const schema = pipelineJsonSchema();
  cached = `# The strand pipeline format (.oxoflow, TOML)

## Every key the engine knows (from its JSON Schema; types as TOML values)
${schemaOutline(schema)}

Also accepted in a rule without a lint warning, but without effect: ${inertRuleKeys(schema).join(", ")}.

${semantics()}

## Worked example (the hello-world template; it validates and runs)
It only runs the shell's echo, so it needs no environment; a rule that runs any other tool declares one.
\`\`\`toml
${workedExample()}
\`\`\``;
  return cached;
}
