/**
 * The AI's system prompts: generated from the engine's own schema (every key `strand schema` prints is named, so
 * a key the engine gains reaches the prompt; needs `npm run build` for the command line), carrying a worked example the engine validates, the safety rules and each
 * task's output contract; and the readers of those contracts (extractToml, parseSections, parseChanges).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { lintPipeline } from "../../../../../src/engine/check/lint.js";
import { validatePipeline } from "../../../../../src/engine/check/validate.js";
import { loadPipelineText } from "../../../../../src/engine/format/load.js";
import { KNOWN_KEYS } from "../../../../../src/engine/format/schema.js";
import { formatReference, pipelineJsonSchema } from "../../../../../src/server/domains/ai/knowledge/format-reference.js";
import {
  CHANGES_SECTION,
  extractToml,
  INTERPRET_SECTIONS,
  parseChanges,
  parseSections,
  PROMPT_TASKS,
  systemPrompt,
} from "../../../../../src/server/domains/ai/knowledge/prompts.js";
import { runStrand } from "../../../../support/strand-cli.js";

type PrintedSchema = { properties: Record<string, { items?: { properties?: Record<string, unknown> } }>; required?: string[] };

/** The JSON Schema `strand schema` prints, read from the command line itself (independent of the module under test). */
async function printedSchema(): Promise<PrintedSchema> {
  const result = await runStrand(["schema"]);
  expect(result.exitCode, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as PrintedSchema;
}

/** The part of the prompt between the [[rules]] outline line and the next top-level outline line. */
function rulesOutline(prompt: string): string {
  const start = prompt.indexOf("\n[[rules]]:");
  expect(start).toBeGreaterThan(0);
  const rest = prompt.slice(start + 1);
  const end = rest.slice(1).search(/\n\S/);
  return rest.slice(0, end + 1);
}

describe("system prompts from the engine's format reference", () => {
  let top: string[] = [];
  let rule: string[] = [];

  beforeAll(async () => {
    const schema = await printedSchema();
    top = Object.keys(schema.properties);
    rule = Object.keys(schema.properties.rules!.items!.properties!);
  });

  it("outlines the very schema `strand schema` prints", async () => {
    const printed = await printedSchema();
    const generated = pipelineJsonSchema() as unknown as PrintedSchema;
    expect(generated.properties).toEqual(printed.properties);
    expect(generated.required).toEqual(printed.required);
  });

  it("derives a non-trivial key list from the engine's schema", () => {
    expect(top).toContain("workflow");
    expect(top).toContain("rules");
    expect(rule).toContain("shell");
    expect(rule).toContain("environment");
    expect(rule.length).toBeGreaterThan(30);
  });

  for (const task of PROMPT_TASKS) {
    it(`the ${task} prompt names every top-level key and every rule key of the schema`, () => {
      const prompt = systemPrompt(task);
      for (const key of top) expect(prompt, `top-level key ${key}`).toMatch(new RegExp(`^(\\[\\[${key}\\]\\]|\\[${key}\\]|${key}):`, "m"));
      const rules = rulesOutline(prompt);
      for (const key of rule) expect(rules, `rule key ${key}`).toMatch(new RegExp(`^  ${key}: `, "m"));
      // Keys lint accepts beyond the schema are named too, so the model is never told they are unknown.
      for (const key of KNOWN_KEYS.rule) expect(prompt, `lint-known rule key ${key}`).toContain(key);
    });
  }

  it("carries the hello-world template as a worked example that the engine validates", async () => {
    const prompt = systemPrompt("translate");
    const example = extractToml(prompt.slice(prompt.indexOf("## Worked example")));
    expect(example).not.toBeNull();
    expect(example).toContain('name = "hello-world"');
    const pipeline = await loadPipelineText(example!, { detached: true });
    const result = validatePipeline(pipeline);
    expect(result.findings.filter((finding) => finding.severity === "error")).toEqual([]);
  });

  it("gives the authoring tasks a realistic example that validates and lints without warnings", async () => {
    for (const task of ["translate", "chat", "optimize"] as const) expect(systemPrompt(task)).toContain("## A realistic example (the rnaseq-quant template)");
    for (const task of ["explain", "interpret"] as const) expect(systemPrompt(task)).not.toContain("## A realistic example");
    const prompt = systemPrompt("translate");
    const example = extractToml(prompt.slice(prompt.indexOf("## A realistic example")))!;
    expect(example).toContain('name = "rnaseq-quant"');
    const pipeline = await loadPipelineText(example, { detached: true });
    expect(validatePipeline(pipeline).findings.filter((finding) => finding.severity === "error")).toEqual([]);
    expect(lintPipeline(pipeline).findings.filter((finding) => finding.severity !== "info")).toEqual([]);
  });

  it("states the safety rules in every prompt", () => {
    for (const task of PROMPT_TASKS) {
      const prompt = systemPrompt(task);
      expect(prompt).toContain("[rules.environment]");
      expect(prompt).toMatch(/threads and memory/);
      expect(prompt).toMatch(/Never drop quality control/);
      expect(prompt).toMatch(/inside the working directory/);
      expect(prompt).toContain("rm -rf");
      expect(prompt).toMatch(/No network access in commands/);
      expect(prompt).toMatch(/explicit download step/);
    }
  });

  it("gives each task its output contract", () => {
    expect(systemPrompt("translate")).toMatch(/exactly one ```toml fenced code block/);
    expect(systemPrompt("chat")).toMatch(/exactly one ```toml fenced code block/);
    expect(systemPrompt("chat")).toMatch(/cannot change anything/);
    const explain = systemPrompt("explain");
    expect(explain).toMatch(/quote the stderr lines/);
    expect(explain).toMatch(/exit code and the command/);
    expect(explain).toMatch(/plain language/);
    expect(explain).toMatch(/numbered list/);
    const interpret = systemPrompt("interpret");
    for (const name of INTERPRET_SECTIONS) expect(interpret).toContain(`## ${name}\n`);
    expect(interpret).toContain('starting with "- "');
    const optimize = systemPrompt("optimize");
    expect(optimize).toMatch(/exactly one ```toml fenced code block/);
    expect(optimize).toContain(`## ${CHANGES_SECTION}`);
    expect(optimize).toContain("- <rule>: <what> → <new> (<why>)");
  });

  it("computes the reference once and reuses it", () => {
    expect(formatReference()).toBe(formatReference());
    expect(systemPrompt("chat")).toBe(systemPrompt("chat"));
    const started = performance.now();
    for (let i = 0; i < 1000; i++) systemPrompt("optimize");
    expect(performance.now() - started).toBeLessThan(50);
  });

  it("refuses an unknown task", () => {
    expect(() => systemPrompt("delete" as never)).toThrow(/no system prompt/);
  });
});

const PIPELINE = '[workflow]\nname = "demo"\n\n[[rules]]\nname = "a"\noutput = ["a.txt"]\nshell = "touch {output}"\n';

describe("extractToml", () => {
  it("takes the first ```toml fence, ignoring the prose around it and later fences", () => {
    const reply = `Here is your pipeline:\n\n\`\`\`toml\n${PIPELINE}\`\`\`\n\nAnd another:\n\`\`\`toml\n[workflow]\nname = "second"\n\`\`\`\n`;
    expect(extractToml(reply)).toBe(PIPELINE);
  });

  it("accepts an upper-case language tag and tilde fences", () => {
    expect(extractToml(`\`\`\`TOML\n${PIPELINE}\`\`\``)).toBe(PIPELINE);
    expect(extractToml(`~~~toml\n${PIPELINE}~~~`)).toBe(PIPELINE);
  });

  it("returns a ```toml fence even when it does not parse, so the correction loop can report the error", () => {
    expect(extractToml("```toml\n[workflow\nname = \n```")).toBe("[workflow\nname =\n");
  });

  it("falls back to a fence of any language that parses as TOML with a [workflow] table", () => {
    const reply = `\`\`\`bash\necho hi\n\`\`\`\n\n\`\`\`\n${PIPELINE}\`\`\`\n`;
    expect(extractToml(reply)).toBe(PIPELINE);
    expect(extractToml(`\`\`\`ini\n${PIPELINE}\`\`\``)).toBe(PIPELINE);
  });

  it("does not take a fence that parses as TOML but has no [workflow] table", () => {
    expect(extractToml('```\n[tool]\nname = "x"\n```')).toBeNull();
  });

  it("takes a whole unfenced reply that starts with a TOML table (after comments)", () => {
    expect(extractToml(`\n# drafted pipeline\n${PIPELINE}`)).toBe(`# drafted pipeline\n${PIPELINE}`);
    expect(extractToml('[[rules]]\nname = "a"\n')).toBe('[[rules]]\nname = "a"\n');
  });

  it("keeps an unterminated ```toml fence of a reply cut off at the output limit", () => {
    expect(extractToml(`\`\`\`toml\n${PIPELINE}`)).toBe(PIPELINE);
  });

  it("returns null for junk", () => {
    expect(extractToml("I'm sorry, I can't help with that.")).toBeNull();
    expect(extractToml("")).toBeNull();
    expect(extractToml("name = \"x\"\n[workflow]")).toBeNull();
    expect(extractToml("```python\nprint('hi')\n```")).toBeNull();
    expect(extractToml(undefined as unknown as string)).toBeNull();
  });
});

describe("parseSections and parseChanges", () => {
  it("reads the four interpret sections with their bullets, whatever heading style the model used", () => {
    const reply = [
      "Sure, here is the interpretation.",
      "## Narrative",
      "The run quantified four samples; counts look consistent.",
      "",
      "**Highlights:**",
      "- 92% of reads assigned (counts/gene_counts.tsv.summary)",
      "* treated_2 has the highest depth",
      "",
      "Caveats:",
      "- only two replicates per group",
      "### Suggested next",
      "1. run differential expression",
      "- check strandedness",
      "## Appendix",
      "- not part of any section",
    ].join("\n");
    const sections = parseSections(reply, INTERPRET_SECTIONS);
    expect(sections.Narrative!.text).toBe("The run quantified four samples; counts look consistent.");
    expect(sections.Highlights!.bullets).toEqual(["92% of reads assigned (counts/gene_counts.tsv.summary)", "treated_2 has the highest depth"]);
    expect(sections.Caveats!.bullets).toEqual(["only two replicates per group"]);
    expect(sections["Suggested next"]!.bullets).toEqual(["run differential expression", "check strandedness"]);
  });

  it("gives every asked-for section, empty when the reply lacks it", () => {
    const sections = parseSections("## Narrative\nShort.", INTERPRET_SECTIONS);
    expect(Object.keys(sections)).toEqual([...INTERPRET_SECTIONS]);
    expect(sections.Caveats).toEqual({ text: "", bullets: [] });
  });

  it("does not read headings inside a fenced block", () => {
    const reply = "```toml\n## Changes\n- fake: a → b\n```\n## Changes\n- star_align: threads 4 → 12 (CPU-bound in the run history)\n";
    expect(parseSections(reply, [CHANGES_SECTION]).Changes!.bullets).toEqual(["star_align: threads 4 → 12 (CPU-bound in the run history)"]);
  });

  it("reads optimize change lines, with -> as well as →, and skips lines not in the form", () => {
    const reply = [
      "```toml",
      PIPELINE.trim(),
      "```",
      "## Changes",
      "- star_align: threads 4 → 12 (the longest job (by far) and CPU-bound)",
      "- `fastp`: memory 8G -> 4G (peak memory was 1.2G)",
      "- workflow: [defaults] shell_prelude none → set -euo pipefail",
      "- I also tidied things up",
    ].join("\n");
    expect(parseChanges(reply)).toEqual([
      { rule: "star_align", what: "threads 4", to: "12", why: "the longest job (by far) and CPU-bound" },
      { rule: "fastp", what: "memory 8G", to: "4G", why: "peak memory was 1.2G" },
      { rule: "workflow", what: "[defaults] shell_prelude none", to: "set -euo pipefail", why: "" },
    ]);
    expect(extractToml(reply)).toBe(PIPELINE);
  });
});
