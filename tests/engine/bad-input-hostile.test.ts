/**
 * Bad input, the hostile specifics: deep nesting, huge arrays and expansions, 10 MB and 64 MiB files,
 * invalid UTF-8, include and DAG cycles, prototype keys, NUL bytes, BOM, CRLF, long lines and names, long
 * chains, and texts that make naive regular expressions or recursion blow up. Each case either works or
 * fails with a coded EngineError (positioned when it is a load or parse problem), within a time bound;
 * never a stack trace, a hang or an out-of-memory crash. The property-based half is bad-input.test.ts.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, symlinkSync, truncateSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lintPipeline } from "../../src/engine/check/lint.js";
import { validatePipeline } from "../../src/engine/check/validate.js";
import { buildGraph } from "../../src/engine/dag/graph.js";
import { MAX_EDGES } from "../../src/engine/dag/edges.js";
import { expandPipeline } from "../../src/engine/expand/expand.js";
import { MAX_EXPANDED_JOBS } from "../../src/engine/expand/instances.js";
import { MAX_CONDITION_TOKENS } from "../../src/engine/expand/when.js";
import { EngineError } from "../../src/engine/findings.js";
import { formatPipelineText } from "../../src/engine/format/canonical-format.js";
import { loadPipeline, loadPipelineText } from "../../src/engine/format/load.js";
import type { Pipeline } from "../../src/engine/format/model.js";
import { MAX_PIPELINE_BYTES } from "../../src/engine/format/parse-source.js";
import { planPipeline } from "../../src/engine/run/plan.js";
import { removeTempDirs, tempDir, writeFile } from "../support/temp-workspace.js";

/** Bound for one stage on an ordinary document. */
const LIMIT_MS = 5_000;
/** Bound for one stage on the giant documents (a million samples, 10 MB): linear work on a slow machine, never a hang. */
const HUGE_LIMIT_MS = 60_000;
const HUGE_TEST_MS = 300_000;

const W = '[workflow]\nname = "hostile"\n';
let work = "";

beforeAll(() => {
  work = tempDir();
});
afterAll(removeTempDirs);

/** Runs a stage within a time bound; an EngineError or a value is returned, anything else fails the test. */
async function timed<T>(what: string, action: () => T | Promise<T>, limitMs = LIMIT_MS): Promise<T | EngineError> {
  const started = performance.now();
  let result: T | EngineError;
  try {
    result = await action();
  } catch (error) {
    if (!(error instanceof EngineError)) throw new Error(`${what} crashed instead of failing with a coded error`, { cause: error });
    result = error;
  }
  const elapsed = performance.now() - started;
  expect(elapsed, `${what} took ${elapsed.toFixed(0)} ms`).toBeLessThan(limitMs);
  return result;
}

/** A coded error with a message; `positioned` also asks for a file, line and column. */
function expectCoded(value: unknown, code: string, positioned: boolean): EngineError {
  if (!(value instanceof EngineError)) throw new Error(`expected ${code}, got ${value === undefined ? "success" : String(value)}`);
  expect(value.code, value.message).toBe(code);
  expect(value.finding.code).toBe(code);
  expect(value.finding.message.length).toBeGreaterThan(0);
  if (positioned) {
    expect(value.finding.file, value.message).toBeTruthy();
    expect(value.finding.line).toBeGreaterThanOrEqual(1);
    expect(value.finding.column).toBeGreaterThanOrEqual(1);
  }
  return value;
}

function ok<T>(value: T | EngineError): T {
  if (value instanceof EngineError) throw new Error(`expected success, got ${value.code}: ${value.message}`, { cause: value });
  return value;
}

const load = (text: string, limitMs = LIMIT_MS, dir = work): Promise<Pipeline | EngineError> =>
  timed("load", () => loadPipelineText(text, { path: "hostile.oxoflow", dir }), limitMs);

/** The whole path for a text: load, validate, lint, plan and format, each bounded. */
async function everyStage(text: string, limitMs = LIMIT_MS, dir = work) {
  const pipeline = await load(text, limitMs, dir);
  const format = await timed("format", () => formatPipelineText(text, "hostile.oxoflow"), limitMs);
  if (pipeline instanceof EngineError) return { pipeline, format };
  const validation = await timed("validate", () => validatePipeline(pipeline), limitMs);
  const lint = await timed("lint", () => lintPipeline(pipeline), limitMs);
  const plan = await timed("plan", () => planPipeline(pipeline), limitMs);
  return { pipeline, format, validation, lint, plan };
}

const rules = (count: number, body: (i: number) => string): string => Array.from({ length: count }, (_, i) => `[[rules]]\nname = "r${i}"\n${body(i)}\n`).join("");

// ---------------------------------------------------------------------------------------------------------

describe("deep nesting", () => {
  it("an array 5,000 levels deep is a positioned PARSE_ERROR, not a stack overflow", async () => {
    const text = `${W}[config]\na = ${"[".repeat(5000)}${"]".repeat(5000)}\n`;
    const { pipeline, format } = await everyStage(text);
    expect(expectCoded(pipeline, "PARSE_ERROR", true).finding.line).toBe(4);
    expectCoded(format, "PARSE_ERROR", true);
  });

  it("inline tables 5,000 levels deep are a positioned PARSE_ERROR", async () => {
    const text = `${W}[config]\na = ${"{ b = ".repeat(5000)}1${" }".repeat(5000)}\n`;
    const { pipeline } = await everyStage(text);
    expect(expectCoded(pipeline, "PARSE_ERROR", true).finding.line).toBe(4);
  });

  it("a dotted key of 10,000 parts is a LIMIT_ERROR", async () => {
    const key = Array.from({ length: 10_000 }, (_, i) => `k${i}`).join(".");
    const { pipeline, format } = await everyStage(`${W}[config]\n${key} = 1\n`);
    expect(expectCoded(pipeline, "LIMIT_ERROR", true).message).toMatch(/nests tables \d+ levels deep/);
    expectCoded(format, "LIMIT_ERROR", true);
  });

  it("a table header and an array of tables with 10,000 parts are LIMIT_ERRORs", async () => {
    const path = Array.from({ length: 10_000 }, (_, i) => `t${i}`).join(".");
    expectCoded((await everyStage(`${W}[${path}]\nx = 1\n`)).pipeline, "LIMIT_ERROR", true);
    expectCoded((await everyStage(`${W}[[${path}]]\nx = 1\n`)).pipeline, "LIMIT_ERROR", true);
  });

  it("nesting within the limit still loads, plans and formats", async () => {
    const { pipeline, format, plan } = await everyStage(`${W}[config]\na = ${"[".repeat(40)}1${"]".repeat(40)}\nb = ${"{ c = ".repeat(40)}1${" }".repeat(40)}\n`);
    ok(pipeline);
    ok(format);
    ok(plan);
  });
});

describe("huge arrays, expansions and graphs", () => {
  it(
    "1,000,000 samples in one sample group plan a million jobs, each stage within the bound",
    async () => {
      const samples = Array.from({ length: 1_000_000 }, (_, i) => `"S${i}"`).join(", ");
      const text = `${W}[[sample_groups]]\nname = "all"\nsamples = [${samples}]\n\n[[rules]]\nname = "align"\ninput = ["raw/{sample}.fq"]\noutput = ["bam/{sample}.bam"]\nshell = "bwa mem {input} > {output}"\n`;
      const { pipeline, format, validation, lint, plan } = await everyStage(text, HUGE_LIMIT_MS);
      ok(pipeline);
      ok(format);
      ok(validation);
      ok(lint);
      expect(ok(plan!).jobs.length).toBe(1_000_000);
    },
    HUGE_TEST_MS,
  );

  it("value tables whose cartesian product is 10^9 are refused with a LIMIT_ERROR naming the rule and the count", async () => {
    const values = (name: string) => `[[values]]\nname = "${name}"\nvalues = [${Array.from({ length: 1000 }, (_, i) => `"${name}${i}"`).join(", ")}]\n`;
    const text = `${W}${values("a")}${values("b")}${values("c")}\n[[rules]]\nname = "grid"\noutput = ["out/{a}/{b}/{c}.txt"]\nshell = "touch {output}"\n`;
    const { pipeline, plan, validation, lint } = await everyStage(text);
    ok(pipeline);
    ok(validation);
    ok(lint);
    const error = expectCoded(plan, "LIMIT_ERROR", true);
    expect(error.message).toContain("rule 'grid'");
    expect(error.message).toContain("1,000,000,000");
    expect(error.finding.rule).toBe("grid");
    expect(error.finding.suggestion).toBeTruthy();
  });

  it("samples × values, scatter, split and expand_inputs products past the limit are LIMIT_ERRORs", async () => {
    const list = (n: number, prefix: string) => `[${Array.from({ length: n }, (_, i) => `"${prefix}${i}"`).join(", ")}]`;
    const group = `[[sample_groups]]\nname = "g"\nsamples = ${list(3000, "S")}\n`;
    const cases = [
      `${group}[[values]]\nname = "chr"\nvalues = ${list(2000, "c")}\n[[rules]]\nname = "call"\noutput = ["{sample}.{chr}.vcf"]\nshell = "x"\n`,
      `${group}[config]\nchroms = ${list(2000, "c")}\n[[rules]]\nname = "call"\ninput = ["{sample}.bam"]\noutput = ["{sample}.{chr}.vcf"]\nscatter = { variable = "chr", values_from = "config.chroms" }\nshell = "x"\n`,
      `[[rules]]\nname = "call"\noutput = ["o.txt"]\ntransform = { split = { by = "i", n = "1000000000" }, map = "x {i}" }\n`,
      `[config]\nx = ${list(1000, "x")}\n[[rules]]\nname = "call"\noutput = ["o.txt"]\nshell = "cat {input}"\nexpand_inputs = [{ pattern = "in/{a}/{b}/{c}.txt", variables = { a = "config.x", b = "config.x", c = "config.x" } }]\n`,
    ];
    for (const body of cases) {
      const pipeline = ok(await load(W + body));
      const error = expectCoded(await timed("plan", () => planPipeline(pipeline)), "LIMIT_ERROR", true);
      expect(error.message).toContain(`at most ${MAX_EXPANDED_JOBS.toLocaleString("en-US")}`);
      expect(error.finding.rule).toBe("call");
    }
    // A split count that is not a number is still an EXPAND_ERROR.
    const pipeline = ok(await load(`${W}[[rules]]\nname = "s"\noutput = ["o.txt"]\ntransform = { split = { by = "i", n = "1e999" }, map = "x" }\n`));
    expectCoded(await timed("plan", () => planPipeline(pipeline)), "EXPAND_ERROR", true);
  });

  it("depends_on between two per-sample rules past the dependency limit is a LIMIT_ERROR", async () => {
    const samples = Array.from({ length: 5000 }, (_, i) => `"S${i}"`).join(", ");
    const text = `${W}[[sample_groups]]\nname = "g"\nsamples = [${samples}]\n[[rules]]\nname = "a"\noutput = ["a/{sample}.txt"]\nshell = "x"\n[[rules]]\nname = "b"\noutput = ["b/{sample}.txt"]\nshell = "x"\ndepends_on = ["a"]\n`;
    const pipeline = ok(await load(text));
    const error = expectCoded(await timed("plan", () => planPipeline(pipeline), 30_000), "LIMIT_ERROR", true);
    expect(error.message).toContain(MAX_EDGES.toLocaleString("en-US"));
    expect(error.finding.rule).toBe("b");
  });

  it(
    "scatter-gather per sample over 800 samples × 800 regions (640,000 jobs) plans within the bound",
    async () => {
      const list = (n: number, prefix: string) => Array.from({ length: n }, (_, i) => `"${prefix}${i}"`).join(", ");
      const text = `${W}[config]\nregions = [${list(800, "r")}]\n[[sample_groups]]\nname = "g"\nsamples = [${list(800, "S")}]\n[[rules]]\nname = "call"\ninput = ["bam/{sample}.bam"]\noutput = ["vcf/{sample}.{region}.vcf"]\nscatter = { variable = "region", values_from = "config.regions", gather = "merge" }\nshell = "call {input} {region} > {output}"\n[[rules]]\nname = "merge"\noutput = ["vcf/{sample}.vcf"]\nshell = "cat {input} > {output}"\n`;
      const pipeline = ok(await load(text));
      const plan = ok(await timed("plan", () => planPipeline(pipeline), 30_000));
      expect(plan.jobs).toHaveLength(640_800);
      const merge = plan.jobs.find((planned) => planned.job.name === "merge_g_S7")!;
      expect(merge.job.input.paths).toHaveLength(800);
      expect(merge.job.input.paths[0]).toBe("vcf/S7.r0.vcf");
    },
    HUGE_TEST_MS,
  );

  it("200,000 jobs writing the same path, and 50,000 template outputs against 50,000 inputs, stay fast", async () => {
    const samples = (n: number) => Array.from({ length: n }, (_, i) => `"S${i}"`).join(", ");
    const same = ok(await load(`${W}[[sample_groups]]\nname = "g"\nsamples = [${samples(200_000)}]\n[[rules]]\nname = "a"\ninput = ["in/{sample}"]\noutput = ["same.txt"]\nshell = "x {sample}"\n[[rules]]\nname = "b"\ninput = ["same.txt"]\noutput = ["b.txt"]\nshell = "x"\n`, 30_000));
    const graph = ok(await timed("graph", () => buildGraph(expandPipeline(same)), 30_000));
    expect(graph.edges.count).toBe(200_000);
    // Outputs with a wildcard no sample fills stay templates; every concrete input is looked up among them.
    const templates = ok(await load(`${W}[[sample_groups]]\nname = "g"\nsamples = [${samples(50_000)}]\n[[rules]]\nname = "a"\noutput = ["t/{sample}/{part}.txt"]\nshell = "x"\n[[rules]]\nname = "b"\ninput = ["t/{sample}/p1.txt"]\noutput = ["b/{sample}.txt"]\nshell = "x"\n`, 30_000));
    const templateGraph = ok(await timed("graph", () => buildGraph(expandPipeline(templates)), 30_000));
    expect(templateGraph.edges.count).toBe(50_000);
  });
});

describe("big files", () => {
  it(
    "a 10 MB comment and 10 MB of rules load, validate, lint, plan and format within the bound",
    async () => {
      const comment = `# ${"x".repeat(10 * 1024 * 1024)}\n${W}[[rules]]\nname = "a"\noutput = ["a.txt"]\nshell = "touch {output}"\n`;
      const small = await everyStage(comment, HUGE_LIMIT_MS);
      expect(ok(small.plan!).jobs).toHaveLength(1);
      ok(small.format);
      const shell = "echo step && ".repeat(400);
      const body = rules(2000, (i) => `input = ["f${i}.txt"]\noutput = ["f${i + 1}.txt"]\nshell = """\n${shell}true\n"""`);
      const big = W + body;
      expect(big.length).toBeGreaterThan(10 * 1024 * 1024);
      const result = await everyStage(big, HUGE_LIMIT_MS);
      expect(ok(result.plan!).graph.levelCount).toBe(2000);
      ok(result.format);
    },
    HUGE_TEST_MS,
  );

  it("a file over 64 MiB is a LIMIT_ERROR before it is read; so is text over the limit", async () => {
    const path = writeFile(work, "huge.oxoflow", W);
    truncateSync(path, MAX_PIPELINE_BYTES + 1);
    const error = expectCoded(await timed("load", () => loadPipeline(path)), "LIMIT_ERROR", true);
    expect(error.message).toMatch(/64\.0 MiB/);
    const text = W + "#".repeat(MAX_PIPELINE_BYTES);
    expectCoded(await load(text), "LIMIT_ERROR", true);
    expectCoded(await timed("format", () => formatPipelineText(text)), "LIMIT_ERROR", true);
  });

  it("extremely long lines: a 5 MB value works, a syntax error at column 1,000,001 is reported there", async () => {
    const long = await everyStage(`${W}[config]\nx = "${"a".repeat(5_000_000)}"\n[[rules]]\nname = "a"\noutput = ["{config.x}"]\nshell = "x"\n`, HUGE_LIMIT_MS);
    ok(long.plan!);
    const broken = await load(`${W}[config]\nx = ${"1".repeat(1_000_000)}x\n`);
    const error = expectCoded(broken, "PARSE_ERROR", true);
    expect(error.finding.line).toBe(4);
    expect(error.finding.column).toBeGreaterThan(1_000_000);
  });

  it("a rule named with 100,000 characters loads and plans; one with characters that are not allowed is E002", async () => {
    const name = "r".repeat(100_000);
    const { plan, validation } = await everyStage(`${W}[[rules]]\nname = "${name}"\noutput = ["o.txt"]\nshell = "x"\n`);
    expect(ok(plan!).jobs[0]!.job.name).toBe(name);
    expect(ok(validation!).valid).toBe(true);
    const odd = await everyStage(`${W}[[rules]]\nname = "${"é $".repeat(33_000)}"\noutput = ["o.txt"]\nshell = "x"\n`);
    const finding = ok(odd.validation!).findings.find((item) => item.code === "E002");
    expect(finding?.line).toBe(4);
  });

  it("10,000 rules in a chain (by files and by depends_on) plan without a stack overflow", async () => {
    const byFiles = rules(10_000, (i) => `${i > 0 ? `input = ["f${i - 1}.txt"]\n` : ""}output = ["f${i}.txt"]\nshell = "touch {output}"`);
    const files = await everyStage(W + byFiles, 30_000);
    expect(ok(files.plan!).graph.levelCount).toBe(10_000);
    const byName = rules(10_000, (i) => `${i > 0 ? `depends_on = ["r${i - 1}"]\n` : ""}shell = "echo ${i}"`);
    const named = await everyStage(W + byName, 30_000);
    expect(ok(named.plan!).graph.levelCount).toBe(10_000);
  });
});

describe("encodings and bytes", () => {
  const bytes = (...parts: (string | number[])[]): Buffer => Buffer.concat(parts.map((part) => (typeof part === "string" ? Buffer.from(part, "utf8") : Buffer.from(part))));
  const cases: [string, Buffer, number, number][] = [
    ["a lone 0xff", bytes(W, 'x = "ab', [0xff], '"\n'), 3, 8],
    ["a lone continuation byte", bytes(W, "# ", [0x80], "\n"), 3, 3],
    ["a truncated three-byte sequence", bytes(W, "\n\ny = \"é", [0xe2, 0x82], '"\n'), 5, 7],
    ["a sequence cut off by the end of the file", bytes(W, "# ", [0xf0, 0x9f, 0x98]), 3, 3],
    ["an overlong two-byte form", bytes(W, 'z = "', [0xc0, 0xaf], '"\n'), 3, 6],
    ["an overlong three-byte form", bytes(W, 'z = "', [0xe0, 0x80, 0xaf], '"\n'), 3, 6],
    ["an encoded surrogate half", bytes(W, 'z = "😀', [0xed, 0xa0, 0x80], '"\n'), 3, 8],
    ["a code point beyond U+10FFFF", bytes(W, 'z = "', [0xf4, 0x90, 0x80, 0x80], '"\n'), 3, 6],
    ["invalid bytes after a BOM and CRLF lines", bytes([0xef, 0xbb, 0xbf], "[workflow]\r\nname = \"x\"\r\n", [0xfe]), 3, 1],
  ];

  it.each(cases)("%s is a PARSE_ERROR at its line and column", async (_label, content, line, column) => {
    const path = writeFile(work, "utf8.oxoflow", content);
    const error = expectCoded(await timed("load", () => loadPipeline(path)), "PARSE_ERROR", true);
    expect(error.message).toMatch(/not valid UTF-8/);
    expect({ file: error.finding.file, line: error.finding.line, column: error.finding.column }).toEqual({ file: path, line, column });
  });

  it("a BOM and CRLF line endings load and plan; a syntax error after them is on the right line", async () => {
    const text = `\ufeff${W}[[rules]]\nname = "a"\noutput = ["a.txt"]\nshell = "touch {output}"\n`.replace(/\n/g, "\r\n");
    const { plan, format } = await everyStage(text);
    expect(ok(plan!).jobs).toHaveLength(1);
    expect(ok(format)).not.toContain("\r");
    const broken = await load(`\ufeff${W}\r\n[[rules]\r\nname = "a"\r\n`.replace(/(?<!\r)\n/g, "\r\n"));
    expect(expectCoded(broken, "PARSE_ERROR", true).finding.line).toBe(4);
  });

  it("NUL bytes: raw ones are positioned PARSE_ERRORs, escaped ones are text", async () => {
    expect(expectCoded(await load(`${W}\u0000 = 1\n`), "PARSE_ERROR", true).finding.line).toBe(3);
    expect(expectCoded(await load(`${W}a = "x\u0000y"\n`), "PARSE_ERROR", true).finding).toMatchObject({ line: 3, column: 7 });
    const path = writeFile(work, "nul.oxoflow", bytes(W, "# comment ", [0x00], "\n"));
    expect(expectCoded(await timed("load", () => loadPipeline(path)), "PARSE_ERROR", true).finding.line).toBe(3);
    const { plan } = await everyStage(`${W}[[rules]]\nname = "a"\noutput = ["a.txt"]\nshell = "printf 'x\\u0000y' > {output}"\n`);
    ok(plan!);
  });

  it("lone surrogate halves in text given directly do not crash any stage", async () => {
    for (const half of ["\ud800", "\udfff", "\ud83d"]) {
      const result = await everyStage(`${W}[[rules]]\nname = "a"\noutput = ["a${half}.txt"]\nshell = "echo ${half}"\n# ${half}\n`);
      if (!(result.pipeline instanceof EngineError)) ok(result.plan!);
      else expectCoded(result.pipeline, "PARSE_ERROR", true);
    }
  });
});

describe("includes and other files", () => {
  it("a includes b includes a, and a file including itself, are INCLUDE_ERRORs naming the loop", async () => {
    const a = writeFile(work, "inc/a.oxoflow", `${W}[[include]]\npath = "b.oxoflow"\n`);
    writeFile(work, "inc/b.oxoflow", `${W}[[include]]\npath = "a.oxoflow"\n`);
    const loop = expectCoded(await timed("load", () => loadPipeline(a)), "INCLUDE_ERROR", true);
    expect(loop.message).toMatch(/circular include: .*a\.oxoflow → .*b\.oxoflow → .*a\.oxoflow/);
    const self = writeFile(work, "inc/self.oxoflow", `${W}\n[[include]]\npath = "self.oxoflow"\n`);
    const error = expectCoded(await timed("load", () => loadPipeline(self)), "INCLUDE_ERROR", true);
    expect(error.finding).toMatchObject({ file: self, line: 4 });
  });

  it("includes nested deeper than the limit are an INCLUDE_ERROR", async () => {
    for (let i = 0; i < 20; i++) writeFile(work, `deep/m${i}.oxoflow`, `${W}[[include]]\npath = "m${i + 1}.oxoflow"\n`);
    writeFile(work, "deep/m20.oxoflow", W);
    expectCoded(await timed("load", () => loadPipeline(join(work, "deep/m0.oxoflow"))), "INCLUDE_ERROR", true);
  });

  it("devices, pipes and folders as pipeline, include, sample or script files fail fast instead of reading forever", async () => {
    const fifo = join(work, "pipe.oxoflow");
    execFileSync("mkfifo", [fifo]);
    expectCoded(await timed("load", () => loadPipeline(fifo)), "IO_ERROR", false);
    expectCoded(await timed("load", () => loadPipeline("/dev/zero")), "IO_ERROR", false);
    for (const path of ["/dev/zero", fifo, "/dev/stdin", work]) {
      expectCoded(await load(`${W}[[include]]\npath = "${path}"\n`), "INCLUDE_ERROR", true);
      expectCoded(await load(`${W}sample_groups_file = "${path}"\n`), "SOURCE_ERROR", true);
    }
    const lint = await everyStage(`${W}[[rules]]\nname = "a"\nscript = "/dev/zero"\n[[rules]]\nname = "b"\nscript = "${fifo}"\n`);
    ok(lint.lint!);
  });

  it("a glob that walks without end (a folder of symlinks to itself) is a LIMIT_ERROR", async () => {
    mkdirSync(join(work, "loop"));
    for (let i = 0; i < 10; i++) symlinkSync(".", join(work, "loop", `l${i}`));
    const glob = "loop" + "/*".repeat(12);
    const plan = await timed("plan", async () => planPipeline(ok(await load(`${W}[[rules]]\nname = "a"\noutput = ["o.txt"]\ntransform = { split = { by = "f", glob = "${glob}" }, map = "x" }\n`))), 30_000);
    expect(expectCoded(plan, "LIMIT_ERROR", false).message).toContain(`glob '${glob}'`);
    expectCoded(await load(`${W}pairs_pattern = "${glob}/{pair_id}/{experiment}_{control}"\n`, 30_000), "LIMIT_ERROR", true);
  });

  it("sample and pair patterns with many wildcards, or wildcards named by digits, match folder entries fast", async () => {
    for (let i = 0; i < 30; i++) writeFile(work, `long/${"x".repeat(60 + i)}`, "");
    writeFile(work, "long/1_S1.fq", "");
    const holes = Array.from({ length: 12 }, (_, i) => `{h${i}}`).join("");
    for (const pattern of [`long/${holes}{sample}Z`, "long/{1}_{sample}.fq"]) {
      ok(await load(`${W}sample_pattern = "${pattern}"\n`));
    }
    ok(await load(`${W}pairs_pattern = "long/{9}{pair_id}{experiment}{control}${holes}Z"\n`));
    const samples = ok(await load(`${W}sample_pattern = "long/{1}_{sample}.fq"\n`));
    expect(samples.sample_groups[0]?.samples).toEqual(["S1"]);
  });

  it("an included file with a syntax error or invalid UTF-8 is reported in that file", async () => {
    const broken = writeFile(work, "inc/broken.oxoflow", `${W}\n[[rules]\n`);
    writeFile(work, "inc/bytes.oxoflow", Buffer.concat([Buffer.from(`${W}# `), Buffer.from([0xff])]));
    const syntax = expectCoded(await load(`${W}[[include]]\npath = "inc/broken.oxoflow"\n`), "PARSE_ERROR", true);
    expect(syntax.finding).toMatchObject({ file: broken, line: 4 });
    const utf8 = expectCoded(await load(`${W}[[include]]\npath = "inc/bytes.oxoflow"\n`), "PARSE_ERROR", true);
    expect(utf8.finding).toMatchObject({ file: join(work, "inc/bytes.oxoflow"), line: 3, column: 3 });
  });
});

describe("cycles", () => {
  it("a file cycle is a DAG_ERROR with its path; validate reports it as E006", async () => {
    const text = `${W}${rules(3, (i) => `input = ["f${(i + 2) % 3}.txt"]\noutput = ["f${i}.txt"]\nshell = "x"`)}`;
    const { plan, validation, lint } = await everyStage(text);
    const error = expectCoded(plan, "DAG_ERROR", true);
    expect(error.message).toMatch(/r\d → r\d → r\d → r\d/);
    expect(ok(validation!).findings.some((finding) => finding.code === "E006")).toBe(true);
    ok(lint!);
  });

  it("depends_on cycles, per-sample cycles and a rule depending on itself", async () => {
    const named = await everyStage(`${W}${rules(2, (i) => `depends_on = ["r${1 - i}"]\nshell = "x"`)}`);
    expect(expectCoded(named.plan, "DAG_ERROR", true).message).toContain("r0 → r1 → r0");
    const perSample = await everyStage(`${W}[[sample_groups]]\nname = "g"\nsamples = ["S1"]\n${rules(2, (i) => `input = ["{sample}.${1 - i}"]\noutput = ["{sample}.${i}"]\nshell = "x"`)}`);
    expect(expectCoded(perSample.plan, "DAG_ERROR", true).message).toMatch(/r0_g_S1 → r1_g_S1 → r0_g_S1|r1_g_S1 → r0_g_S1 → r1_g_S1/);
    const self = await everyStage(`${W}[[rules]]\nname = "a"\ninput = ["x.txt"]\noutput = ["x.txt"]\nshell = "x"\ndepends_on = ["a"]\n`);
    ok(self.plan!);
  });

  it("a cycle through 10,000 rules is found without a stack overflow", async () => {
    const text = W + rules(10_000, (i) => `input = ["f${(i + 9999) % 10_000}.txt"]\noutput = ["f${i}.txt"]\nshell = "x"`);
    const { plan } = await everyStage(text, 30_000);
    expect(expectCoded(plan, "DAG_ERROR", true).message.split(" → ")).toHaveLength(10_001);
  });
});

describe("prototype names", () => {
  it("__proto__ and constructor as keys are positioned PARSE_ERRORs wherever they are written", async () => {
    const texts = [
      `${W}[config]\n__proto__ = 1\n`,
      `${W}[config]\nconstructor = { a = 1 }\n`,
      `${W}[[rules]]\nname = "a"\n__proto__ = "x"\n`,
      `${W}[__proto__]\nx = 1\n`,
      `${W}[config.constructor]\nx = 1\n`,
      `${W}[config]\na.__proto__.b = 1\n`,
      `${W}[config]\na = { __proto__ = { polluted = true } }\n`,
      `${W}[[constructor]]\nx = 1\n`,
    ];
    for (const text of texts) {
      const { pipeline, format } = await everyStage(text);
      expectCoded(pipeline, "PARSE_ERROR", true);
      expectCoded(format, "PARSE_ERROR", true);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("other prototype names are ordinary keys, and references to undefined ones are not found on Object.prototype", async () => {
    const defined = await everyStage(`${W}[config]\ntoString = "ts"\nhasOwnProperty = "x"\n[[rules]]\nname = "a"\noutput = ["{config.toString}.txt"]\nshell = "x"\n`);
    expect(ok(defined.plan!).jobs[0]!.job.output.paths).toEqual(["ts.txt"]);
    const text = `${W}[[rules]]\nname = "a"\noutput = ["o_{config.toString}.txt"]\nshell = "echo {config.constructor} {config.__proto__}"\nenv_group = "toString"\nwhen = "config.valueOf"\n`;
    const { validation, plan } = await everyStage(text);
    const codes = ok(validation!).findings.map((finding) => finding.code);
    expect(codes.filter((code) => code === "E005")).toHaveLength(4);
    expect(codes).toContain("E010");
    expectCoded(plan, "E005", true);
  });

  it("rules, samples, groups and value tables named after prototype properties plan normally", async () => {
    const text = `${W}[[sample_groups]]\nname = "__proto__"\nsamples = ["constructor", "toString"]\n[[values]]\nname = "hasOwnProperty"\nvalues = ["valueOf"]\n${["__proto__", "constructor", "toString"].map((name) => `[[rules]]\nname = "${name}"\ninput = ["in/{sample}.txt"]\noutput = ["${name}/{sample}.{hasOwnProperty}.txt"]\nshell = "x"\n${name === "toString" ? 'depends_on = ["__proto__", "constructor"]\n' : ""}`).join("")}`;
    const { plan } = await everyStage(text);
    expect(ok(plan!).jobs.map((planned) => planned.job.name)).toContain("__proto___hasOwnProperty_valueOf___proto___constructor");
  });

  it("a wildcard named after a prototype property gathers like any other", async () => {
    const text = `${W}[[sample_groups]]\nname = "g"\nsamples = ["S1", "S2"]\n[[values]]\nname = "toString"\nvalues = ["a"]\n[[rules]]\nname = "split"\ninput = ["{sample}.bam"]\noutput = ["parts/{sample}.{toString}.{i}.txt"]\nscatter = { variable = "i", values = ["1", "2"], gather = "join" }\nshell = "x"\n[[rules]]\nname = "join"\noutput = ["joined/{sample}.txt"]\nshell = "cat {input} > {output}"\n`;
    const plan = ok((await everyStage(text)).plan!);
    expect(plan.jobs.find((planned) => planned.job.name === "join_g_S2")?.job.input.paths).toEqual(["parts/S2.a.1.txt", "parts/S2.a.2.txt"]);
  });

  it("tables nested in config lists are text, not a TypeError", async () => {
    const text = `${W}[config]\nsamples_list = [[{}], { a = 1 }]\nlist = [{ x = 1 }, 2]\nt = { a = 1 }\n[[sample_groups]]\nname = "g"\nsamples = ["S1"]\n[[rules]]\nname = "a"\noutput = ["o/{chr}.txt"]\nscatter = { variable = "chr", values_from = "config.list" }\nshell = "x"\nwhen = "config.t == 1 || config.list == 2"\n`;
    const { plan } = await everyStage(text);
    expect(ok(plan!).jobs).toHaveLength(2);
  });
});

describe("texts that make naive patterns or recursion blow up", () => {
  const oneRule = (extra: string) => `${W}[[rules]]\nname = "r"\noutput = ["o.txt"]\nshell = "x"\n${extra}\n`;

  it("when conditions: 100,000 `!`, 10,000 parentheses, 100,000 `&&` are E017 at a column, not a stack overflow", async () => {
    for (const condition of ["!".repeat(100_000) + "true", "(".repeat(10_000) + "true" + ")".repeat(10_000), "true && ".repeat(100_000) + "true"]) {
      const { validation, plan, lint } = await everyStage(oneRule(`when = "${condition}"`));
      const finding = ok(validation!).findings.find((item) => item.code === "E017");
      expect(finding?.message).toContain(`more than ${MAX_CONDITION_TOKENS} parts`);
      expect(finding?.line).toBe(7);
      ok(lint!);
      expectCoded(plan, "E017", true);
    }
    // Just under the limit, deep nesting still parses and evaluates.
    const nested = "(".repeat(450) + "!!true" + ")".repeat(450);
    const { plan } = await everyStage(oneRule(`when = "${nested}"`));
    expect(ok(plan!).jobs[0]!.run).toBe(true);
  });

  it("E011 and W023 scans are linear: crafted rm, dd, chmod and wget commands are checked fast and still caught", async () => {
    const commands: [string, boolean][] = [
      ["rm " + "-rrrrrrrr ".repeat(40) + "x", false],
      ["rm " + "-rrrrrrrr ".repeat(40) + "/", true],
      ["rm " + "--recursive ".repeat(20000) + "x", false],
      ["rm " + "-rm ".repeat(100_000) + "x", false],
      ["rm --force -r /", true],
      ["dd ".repeat(200_000), false],
      ["dd ".repeat(200_000) + "of=/dev/null", false],
      ["dd ".repeat(1000) + "if=/dev/zero of=disk.img", true],
      ["chmod " + "-chmod ".repeat(100_000) + "x", false],
      ["wget ".repeat(200_000) + "| x", false],
      ["wget -qO- http://x |\n sudo bash", true],
      ["curl " + "| x ".repeat(100_000), false],
    ];
    for (const [command, dangerous] of commands) {
      const pipeline = ok(await load(oneRule(`pre_exec = ${JSON.stringify(command)}`)));
      const validation = ok(await timed("validate", () => validatePipeline(pipeline), 2_000));
      expect(validation.findings.some((finding) => finding.code === "E011"), command.slice(0, 40)).toBe(dangerous);
      ok(await timed("lint", () => lintPipeline(pipeline), 2_000));
    }
  });

  it("template outputs with many wildcards, and globs with many stars, match in linear time", async () => {
    const holes = Array.from({ length: 12 }, (_, i) => `{w${i}}`).join("");
    const text = `${W}[[rules]]\nname = "a"\noutput = ["${holes}-{z}.txt", "${"a".repeat(300)}"]\nshell = "x"\n[[rules]]\nname = "b"\ninput = ["${"x".repeat(3000)}.txt", "${"*a".repeat(30)}b"]\noutput = ["b.txt"]\nshell = "x"\n`;
    const { validation, plan, lint } = await everyStage(text);
    expect(ok(validation!).dependencies).toBe(0);
    ok(lint!);
    ok(plan!);
  });

  it("template matching keeps its meaning: repeated wildcards must agree, holes hold no spaces", async () => {
    const text = `${W}[[rules]]\nname = "a"\noutput = ["{x}/{y}/{x}.txt", "{p} q/{p}.txt"]\nshell = "x"\n${["s/t/s.txt", "s/t/u.txt", "s t/t/s t.txt", "m q/m.txt", "m q/n.txt"].map((input, i) => `[[rules]]\nname = "b${i}"\ninput = ["${input}"]\noutput = ["b${i}.txt"]\nshell = "x"\n`).join("")}`;
    const pipeline = ok(await load(text));
    const validation = ok(await timed("validate", () => validatePipeline(pipeline)));
    expect(validation.dependencies).toBe(2);
  });

  it("glob inputs with a reversed range or an unclosed class do not crash edge inference", async () => {
    const text = `${W}[[rules]]\nname = "a"\noutput = ["data/b.txt", "data/z.txt"]\nshell = "x"\n[[rules]]\nname = "b"\ninput = ["data/[z-a].txt", "data/[!a].txt", "data/[.txt"]\noutput = ["c.txt"]\nshell = "x"\ntransform = { split = { by = "f", glob = "data/[z-a]*" }, map = "x" }\n`;
    const { validation, plan } = await everyStage(text);
    const checked = ok(validation!);
    expect(checked.dependencies).toBe(1);
    // A split whose glob matches nothing switches the rule off (W027), in validate and the plan alike.
    expect(checked.findings.map((finding) => finding.code)).toContain("W027");
    const planned = ok(plan!);
    expect(planned.jobs.map((entry) => entry.job.rule.name)).toEqual(["a"]);
    expect(planned.warnings.map((finding) => finding.code)).toContain("W027");
  });
});
