import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, renameSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadPipeline } from "../../../src/engine/format/load.js";
import { engineError, lineOf, removeTempDirs, tempDir, writeFile } from "../../support/temp-workspace.js";

afterAll(removeTempDirs);

const workflow = (name: string, body = ""): string => `[workflow]\nname = "${name}"\n\n${body}`;

const rule = (name: string, fields: string): string => `[[rules]]\nname = "${name}"\n${fields}\n`;

describe("local includes", () => {
  it("resolve relative to the including file, also when nested", async () => {
    const dir = tempDir();
    writeFile(dir, "modules/qc.oxoflow", workflow("qc", `[[include]]\npath = "lib/trim.oxoflow"\n\n${rule("fastqc", 'output = ["qc/a.html"]\nshell = "fastqc"')}`));
    writeFile(dir, "modules/lib/trim.oxoflow", workflow("trim", rule("trim", 'output = ["trimmed.fq"]\nshell = "trim"')));
    const main = writeFile(dir, "pipelines/main.oxoflow", workflow("main", `[[include]]\npath = "../modules/qc.oxoflow"\n\n${rule("align", 'output = ["a.bam"]\nshell = "bwa"')}`));
    const pipeline = await loadPipeline(main);
    // Host rules first, then included ones in include order (a module's own includes after its rules).
    expect(pipeline.rules.map((r) => r.name)).toEqual(["align", "fastqc", "trim"]);
    // A rule belongs to the innermost module that defines it; the outer module lists it too.
    expect(pipeline.rules.map((r) => r.origin.module)).toEqual([null, "qc", "trim"]);
    expect(pipeline.modules.map((m) => [m.name, m.rules])).toEqual([
      ["qc", ["fastqc", "trim"]],
      ["trim", ["trim"]],
    ]);
    expect(pipeline.rules[2]!.origin.source.path).toBe(join(dir, "modules/lib/trim.oxoflow"));
  });

  it("only rules and config cross the boundary; the module's other sections are ignored", async () => {
    const dir = tempDir();
    const module = workflow(
      "mod",
      `[config]\nmodule_only = "m"\n\n[defaults]\nthreads = 9\n\n[[sample_groups]]\nname = "g"\nsamples = ["S1"]\n\n${rule("m", 'output = ["m.txt"]\nshell = "touch m.txt"')}`,
    );
    writeFile(dir, "mod.oxoflow", module);
    const pipeline = await loadPipeline(writeFile(dir, "main.oxoflow", workflow("main", `[[include]]\npath = "mod.oxoflow"\n`)));
    expect(pipeline.workflow.name).toBe("main");
    expect(pipeline.config).toEqual({ module_only: "m" });
    expect(pipeline.defaults).toEqual({});
    expect(pipeline.sample_groups).toEqual([]);
    expect(pipeline.include.map((include) => include.path)).toEqual(["mod.oxoflow"]);
  });

  it("an included file must have its own [workflow] name", async () => {
    const dir = tempDir();
    writeFile(dir, "mod.oxoflow", rule("m", 'shell = "true"'));
    const error = await engineError(loadPipeline(writeFile(dir, "main.oxoflow", workflow("main", `[[include]]\npath = "mod.oxoflow"\n`))));
    expect(error.code).toBe("SCHEMA_ERROR");
    expect(error.finding.file).toBe(join(dir, "mod.oxoflow"));
  });

  it("a missing include file is INCLUDE_ERROR at the [[include]] entry", async () => {
    const dir = tempDir();
    const text = workflow("main", `[[include]]\npath = "nowhere.oxoflow"\n`);
    const error = await engineError(loadPipeline(writeFile(dir, "main.oxoflow", text)));
    expect(error.code).toBe("INCLUDE_ERROR");
    expect(error.message).toContain("nowhere.oxoflow");
    expect(error.finding.line).toBe(lineOf(text, "[[include]]"));
  });
});

describe("namespaces", () => {
  it("prefix rule names and rewrite depends_on only for rules of the same module", async () => {
    const dir = tempDir();
    writeFile(
      dir,
      "align.oxoflow",
      workflow(
        "align",
        rule("index", 'output = ["idx"]\nshell = "index"') +
          "\n" +
          rule("map", 'output = ["a.bam"]\nshell = "map"\ndepends_on = ["index", "prepare"]') +
          "\n" +
          rule("stats", 'shell = "stats"\n\n[rules.scatter]\nvariable = "chrom"\nvalues = ["1"]\ngather = "map"'),
      ),
    );
    const main = workflow("main", `[[include]]\npath = "align.oxoflow"\nnamespace = "alignment"\n\n${rule("prepare", 'output = ["p"]\nshell = "prep"')}`);
    const pipeline = await loadPipeline(writeFile(dir, "main.oxoflow", main));
    expect(pipeline.rules.map((r) => r.name)).toEqual(["prepare", "alignment::index", "alignment::map", "alignment::stats"]);
    const map = pipeline.rules.find((r) => r.name === "alignment::map")!;
    // "index" is the module's own rule, "prepare" belongs to the host and keeps its name.
    expect(map.depends_on).toEqual(["alignment::index", "prepare"]);
    expect(pipeline.rules.find((r) => r.name === "alignment::stats")!.scatter!.gather).toBe("alignment::map");
    expect(pipeline.modules).toEqual([
      { name: "align", namespace: "alignment", path: "align.oxoflow", inputs: [], outputs: [], rules: ["alignment::index", "alignment::map", "alignment::stats"] },
    ]);
  });

  it("the include's name names the module", async () => {
    const dir = tempDir();
    writeFile(dir, "x.oxoflow", workflow("x", rule("a", 'shell = "true"')));
    const pipeline = await loadPipeline(writeFile(dir, "main.oxoflow", workflow("main", `[[include]]\npath = "x.oxoflow"\nname = "preprocessing"\n`)));
    expect(pipeline.modules[0]!.name).toBe("preprocessing");
    expect(pipeline.rules[0]!.origin.module).toBe("preprocessing");
  });
});

describe("merging", () => {
  it("the host wins a rule-name clash, with an INCLUDE_SHADOWED warning", async () => {
    const dir = tempDir();
    const module = workflow("mod", rule("fastqc", 'shell = "module version"') + "\n" + rule("extra", 'shell = "extra"'));
    writeFile(dir, "mod.oxoflow", module);
    const pipeline = await loadPipeline(writeFile(dir, "main.oxoflow", workflow("main", `[[include]]\npath = "mod.oxoflow"\n\n${rule("fastqc", 'shell = "host version"')}`)));
    expect(pipeline.rules.map((r) => [r.name, r.shell])).toEqual([
      ["fastqc", "host version"],
      ["extra", "extra"],
    ]);
    const warning = pipeline.warnings.find((finding) => finding.code === "INCLUDE_SHADOWED")!;
    expect(warning).toMatchObject({ severity: "warning", rule: "fastqc", file: join(dir, "mod.oxoflow"), line: lineOf(module, "[[rules]]") });
    expect(pipeline.modules[0]!.rules).toEqual(["extra"]);
  });

  it("params, then the module's config, fill only keys the host lacks", async () => {
    const dir = tempDir();
    writeFile(dir, "mod.oxoflow", workflow("mod", `[config]\ngenome = "module.fa"\nmin_q = 20\nmodule_key = "m"\n`));
    const main = workflow("main", `[config]\ngenome = "host.fa"\n\n[[include]]\npath = "mod.oxoflow"\n\n[include.params]\nmin_q = 30\nthreads = 4\ngenome = "param.fa"\n`);
    const pipeline = await loadPipeline(writeFile(dir, "main.oxoflow", main));
    expect(pipeline.config).toEqual({ genome: "host.fa", min_q: 30, threads: 4, module_key: "m" });
  });

  it("declared config of a module keeps its declaration", async () => {
    const dir = tempDir();
    writeFile(dir, "mod.oxoflow", workflow("mod", `[config]\nadapter = { default = "AGATC", help = "adapter sequence" }\n`));
    const pipeline = await loadPipeline(writeFile(dir, "main.oxoflow", workflow("main", `[[include]]\npath = "mod.oxoflow"\n`)));
    expect(pipeline.config.adapter).toBe("AGATC");
    expect(pipeline.configMeta.adapter).toMatchObject({ help: "adapter sequence" });
  });

  it("an include cycle is INCLUDE_ERROR naming the chain", async () => {
    const dir = tempDir();
    writeFile(dir, "a.oxoflow", workflow("a", `[[include]]\npath = "b.oxoflow"\n`));
    writeFile(dir, "b.oxoflow", workflow("b", `[[include]]\npath = "a.oxoflow"\n`));
    const main = writeFile(dir, "main.oxoflow", workflow("main", `[[include]]\npath = "a.oxoflow"\n`));
    const error = await engineError(loadPipeline(main));
    expect(error.code).toBe("INCLUDE_ERROR");
    const [a, b] = [join(dir, "a.oxoflow"), join(dir, "b.oxoflow")];
    expect(error.message).toBe(`circular include: ${main} → ${a} → ${b} → ${a}`);
  });

  it("a file including itself is a cycle too", async () => {
    const dir = tempDir();
    const main = writeFile(dir, "main.oxoflow", workflow("main", `[[include]]\npath = "main.oxoflow"\n`));
    const error = await engineError(loadPipeline(main));
    expect(error.code).toBe("INCLUDE_ERROR");
    expect(error.message).toBe(`circular include: ${main} → ${main}`);
  });
});

describe("interface contracts", () => {
  const module = workflow("calling", rule("call", 'input = ["aligned/s.bam"]\noutput = ["calls/s.vcf", "calls/s.tmp"]\nshell = "call"'));

  it("a declared input that no rule produces is an error", async () => {
    const dir = tempDir();
    writeFile(dir, "calling.oxoflow", module);
    const main = workflow("main", `[[include]]\npath = "calling.oxoflow"\ninputs = ["aligned/s.bam"]\n`);
    const error = await engineError(loadPipeline(writeFile(dir, "main.oxoflow", main)));
    expect(error.code).toBe("INCLUDE_ERROR");
    expect(error.message).toBe("module 'calling' expects input aligned/s.bam, but no rule produces it");
    expect(error.finding.line).toBe(lineOf(main, "[[include]]"));
  });

  it("a declared output that the module's rules do not produce is an error, even if the host does", async () => {
    const dir = tempDir();
    writeFile(dir, "calling.oxoflow", module);
    const main = workflow("main", `[[include]]\npath = "calling.oxoflow"\noutputs = ["report.html"]\n\n${rule("report", 'output = ["report.html"]\nshell = "r"')}`);
    const error = await engineError(loadPipeline(writeFile(dir, "main.oxoflow", main)));
    expect(error.code).toBe("INCLUDE_ERROR");
    expect(error.message).toBe("module 'calling' promises output report.html, but none of its rules produces it");
  });

  it("paths with wildcards are not checked", async () => {
    const dir = tempDir();
    writeFile(dir, "calling.oxoflow", module);
    const main = workflow("main", `[[include]]\npath = "calling.oxoflow"\ninputs = ["aligned/{sample}.bam"]\noutputs = ["calls/{sample}.vcf"]\n`);
    await expect(loadPipeline(writeFile(dir, "main.oxoflow", main))).resolves.toBeDefined();
  });

  it("a host rule reading an undeclared module output gets a warning; declared ones do not", async () => {
    const dir = tempDir();
    writeFile(dir, "calling.oxoflow", module);
    const main = workflow(
      "main",
      `[[include]]\npath = "calling.oxoflow"\ninputs = ["aligned/s.bam"]\noutputs = ["calls/s.vcf"]\n\n` +
        rule("align", 'output = ["aligned/s.bam"]\nshell = "a"') +
        "\n" +
        rule("annotate", 'input = ["calls/s.vcf", "calls/s.tmp"]\noutput = ["ann.vcf"]\nshell = "b"'),
    );
    const pipeline = await loadPipeline(writeFile(dir, "main.oxoflow", main));
    const warnings = pipeline.warnings.filter((finding) => finding.code === "INCLUDE_CONTRACT");
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ severity: "warning", rule: "annotate", line: lineOf(main, 'input = ["calls') });
    expect(warnings[0]!.message).toContain("calls/s.tmp");
  });
});

describe("repo + ref includes", () => {
  const git = (cwd: string, ...args: string[]): string =>
    execFileSync("git", ["-c", "user.name=Test", "-c", "user.email=test@example.org", "-c", "init.defaultBranch=main", ...args], { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });

  /** A bare repository holding `modules/qc.oxoflow` at tag v1 (and a different version at v2). */
  function moduleRepository(): string {
    const dir = tempDir();
    const bare = join(dir, "qc-module.git");
    git(dir, "init", "--quiet", "--bare", bare);
    const work = join(dir, "work");
    git(dir, "clone", "--quiet", bare, work);
    writeFile(work, "modules/qc.oxoflow", workflow("qc", `[config]\nqc_version = "1"\n\n${rule("fastqc", 'output = ["qc/report.html"]\nshell = "fastqc v1"')}`));
    git(work, "add", ".");
    git(work, "commit", "--quiet", "-m", "qc module");
    git(work, "tag", "v1");
    writeFile(work, "modules/qc.oxoflow", workflow("qc", rule("fastqc", 'output = ["qc/report.html"]\nshell = "fastqc v2"')));
    git(work, "commit", "--quiet", "-am", "qc module v2");
    git(work, "tag", "v2");
    git(work, "push", "--quiet", "origin", "HEAD", "--tags");
    return bare;
  }

  const includeText = (bare: string, ref: string): string => workflow("main", `[[include]]\npath = "modules/qc.oxoflow"\nrepo = "${bare}"\nref = "${ref}"\nnamespace = "qc"\n`);

  it("clones the pinned ref into <cacheDir>/modules and reuses the clone", async () => {
    const bare = moduleRepository();
    const cacheDir = tempDir();
    const dir = tempDir();
    const main = writeFile(dir, "main.oxoflow", includeText(bare, "v1"));

    const pipeline = await loadPipeline(main, { cacheDir });
    expect(pipeline.rules.map((r) => [r.name, r.shell])).toEqual([["qc::fastqc", "fastqc v1"]]);
    expect(pipeline.config.qc_version).toBe("1");
    const clones = readdirSync(join(cacheDir, "modules"));
    expect(clones).toHaveLength(1);
    expect(clones[0]).toMatch(/qc-module\.git@v1$/);
    const checkout = join(cacheDir, "modules", clones[0]!);
    expect(readFileSync(join(checkout, "modules/qc.oxoflow"), "utf8")).toContain("fastqc v1");
    expect(pipeline.rules[0]!.origin.source.path).toBe(join(checkout, "modules/qc.oxoflow"));

    // With the repository gone, the second load can only succeed from the cached clone.
    renameSync(bare, `${bare}.moved`);
    const again = await loadPipeline(main, { cacheDir });
    expect(again.rules.map((r) => r.shell)).toEqual(["fastqc v1"]);
    expect(readdirSync(join(cacheDir, "modules"))).toEqual(clones);
  });

  it("another ref is another clone", async () => {
    const bare = moduleRepository();
    const cacheDir = tempDir();
    const dir = tempDir();
    const v2 = await loadPipeline(writeFile(dir, "main.oxoflow", includeText(bare, "v2")), { cacheDir });
    expect(v2.rules.map((r) => r.shell)).toEqual(["fastqc v2"]);
    const v1 = await loadPipeline(writeFile(dir, "old.oxoflow", includeText(bare, "v1")), { cacheDir });
    expect(v1.rules.map((r) => r.shell)).toEqual(["fastqc v1"]);
    expect(readdirSync(join(cacheDir, "modules")).sort()).toHaveLength(2);
  });

  it("a ref that does not exist is INCLUDE_ERROR and leaves no partial clone", async () => {
    const bare = moduleRepository();
    const cacheDir = tempDir();
    const error = await engineError(loadPipeline(writeFile(tempDir(), "main.oxoflow", includeText(bare, "v9")), { cacheDir }));
    expect(error.code).toBe("INCLUDE_ERROR");
    expect(error.message).toContain("v9");
    expect(readdirSync(join(cacheDir, "modules"))).toEqual([]);
  });

  it("repo without ref is INCLUDE_ERROR asking to pin the module", async () => {
    const cacheDir = tempDir();
    const text = workflow("main", `[[include]]\npath = "modules/qc.oxoflow"\nrepo = "https://example.org/qc.git"\n`);
    const error = await engineError(loadPipeline(writeFile(tempDir(), "main.oxoflow", text), { cacheDir }));
    expect(error.code).toBe("INCLUDE_ERROR");
    expect(error.message).toContain("needs a ref");
    expect(error.finding.suggestion).toContain("ref = ");
    expect(error.finding.line).toBe(lineOf(text, "[[include]]"));
    expect(existsSync(join(cacheDir, "modules"))).toBe(false);
  });
});
