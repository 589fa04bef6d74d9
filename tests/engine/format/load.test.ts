import { afterAll, describe, expect, it } from "vitest";
import { loadPipeline, loadPipelineText } from "../../../src/engine/format/load.js";
import { engineError, lineOf, removeTempDirs, tempDir, writeFile } from "../../support/temp-workspace.js";

afterAll(removeTempDirs);

const HEADER = `[workflow]\nname = "demo"\n`;

function load(text: string, options: Parameters<typeof loadPipelineText>[1] = {}) {
  return loadPipelineText(text, { path: "main.oxoflow", dir: tempDir(), ...options });
}

describe("TOML syntax errors", () => {
  it("are PARSE_ERROR at the line and column where reading stopped", async () => {
    const text = `${HEADER}\n[[rules]]\nname = "a"\nthreads = = 4\n`;
    const error = await engineError(load(text));
    expect(error.code).toBe("PARSE_ERROR");
    expect(error.message).toContain("main.oxoflow");
    // The second '=' of `threads = = 4` is the 11th character of line 6.
    expect(error.finding).toMatchObject({ file: "main.oxoflow", line: 6, column: 11 });
  });

  it("point a key set twice at the second assignment, with a hint", async () => {
    const error = await engineError(load(`[workflow]\nname = "a"\nname = "b"\n`));
    expect(error.code).toBe("PARSE_ERROR");
    expect(error.finding).toMatchObject({ line: 3, column: 1 });
    expect(error.finding.suggestion).toMatch(/once per table/);
  });

  it("report a string broken across lines at the end of the line", async () => {
    const error = await engineError(load(`${HEADER}[[rules]]\nname = "a"\nshell = "echo\nhi"\n`));
    expect(error.code).toBe("PARSE_ERROR");
    expect(error.finding).toMatchObject({ line: 5, column: 14 });
    expect(error.finding.suggestion).toContain('"""');
  });
});

describe("invalid UTF-8", () => {
  it("is PARSE_ERROR at the line and column of the first bad byte", async () => {
    const dir = tempDir();
    const bytes = Buffer.concat([Buffer.from('[workflow]\nname = "caf'), Buffer.from([0xe9]), Buffer.from('"\n')]);
    const path = writeFile(dir, "main.oxoflow", bytes);
    const error = await engineError(loadPipeline(path));
    expect(error.code).toBe("PARSE_ERROR");
    expect(error.message).toMatch(/not valid UTF-8.*0xe9/);
    expect(error.finding).toMatchObject({ line: 2, column: 12 });
  });

  it("counts earlier multi-byte characters as one column each", async () => {
    const dir = tempDir();
    const bytes = Buffer.concat([Buffer.from('[workflow]\nname = "é'), Buffer.from([0xff]), Buffer.from('"\n')]);
    const error = await engineError(loadPipeline(writeFile(dir, "main.oxoflow", bytes)));
    expect(error.finding).toMatchObject({ line: 2, column: 10 });
  });
});

describe("type errors", () => {
  it("input written as a string is SCHEMA_ERROR at the input key, with a fix", async () => {
    const text = `${HEADER}\n[[rules]]\nname = "align"\ninput = "reads.fq"\nshell = "true"\n`;
    const error = await engineError(load(text));
    expect(error.code).toBe("SCHEMA_ERROR");
    expect(error.message).toContain('[[rules]] "align" → input');
    expect(error.message).toContain('found a string ("reads.fq")');
    expect(error.finding).toMatchObject({ rule: "align", line: lineOf(text, "input ="), column: 1 });
    expect(error.finding.suggestion).toBe('write input = ["path"] even for a single path');
  });

  it("threads written as text is SCHEMA_ERROR at the threads key", async () => {
    const text = `${HEADER}\n[[rules]]\nname = "sort"\n  threads = "4"\nshell = "true"\n`;
    const error = await engineError(load(text));
    expect(error.code).toBe("SCHEMA_ERROR");
    expect(error.message).toContain("threads: expected number");
    expect(error.finding).toMatchObject({ line: lineOf(text, "threads"), column: 3 });
    expect(error.finding.suggestion).toBe("write the number without quotes");
  });

  it("a file without [workflow] is refused", async () => {
    const error = await engineError(load(`[config]\nx = 1\n`));
    expect(error.code).toBe("SCHEMA_ERROR");
    expect(error.message).toContain("every pipeline file needs a [workflow] table with a name");
    expect(error.finding.suggestion).toBe("add a [workflow] table");
  });

  it("a [workflow] without a name is refused with a hint to add one", async () => {
    const error = await engineError(load(`[workflow]\nversion = "1.0"\n`));
    expect(error.code).toBe("SCHEMA_ERROR");
    expect(error.message).toContain("[workflow] → name: [workflow] needs a name");
    expect(error.finding.line).toBe(1);
    expect(error.finding.suggestion).toBe("add name = …");
  });

  it("a rule without a name is refused with a hint to add one", async () => {
    const text = `${HEADER}\n[[rules]]\nshell = "true"\n`;
    const error = await engineError(load(text));
    expect(error.code).toBe("SCHEMA_ERROR");
    expect(error.finding.line).toBe(lineOf(text, "[[rules]]"));
    expect(error.finding.suggestion).toBe("add name = …");
  });

  it("unknown keys and tables are accepted", async () => {
    const pipeline = await load(`${HEADER}descripton = "typo"\n\n[variables]\nx = 1\n\n[[rules]]\nname = "a"\ntime_limit = "1h"\n`);
    expect(pipeline.rules.map((rule) => rule.name)).toEqual(["a"]);
  });
});

describe("rules", () => {
  it("duplicate rule names are refused at the second definition", async () => {
    const text = `${HEADER}\n[[rules]]\nname = "a"\n\n[[rules]]\nname = "b"\n\n[[rules]]\nname = "a"\n`;
    const error = await engineError(load(text));
    expect(error.code).toBe("SCHEMA_ERROR");
    expect(error.message).toBe(`duplicate rule name: 'a' (first defined at line 4)`);
    // Positioned at the second rule's name.
    expect(error.finding.line).toBe(11);
  });

  it("an invalid wildcard_constraints regex is refused at its key", async () => {
    const text = `${HEADER}\n[wildcard_constraints]\nsample = "^S[0-9]+$"\nchrom = "([a-z"\n`;
    const error = await engineError(load(text));
    expect(error.code).toBe("SCHEMA_ERROR");
    expect(error.message).toContain("wildcard constraint for 'chrom'");
    expect(error.finding.line).toBe(lineOf(text, "chrom ="));
  });

  it("wildcard_constraints are RE2 patterns: nested repetition is accepted (matching is linear), look-around and back-references are refused", async () => {
    const accepted = await load(`${HEADER}\n[wildcard_constraints]\nsample = "^(chr)?[0-9XY]+$"\nnested = "^([a-z]+)+$"\nalternation = "(a|a)*$"\n`);
    expect(Object.keys(accepted.wildcard_constraints)).toEqual(["sample", "nested", "alternation"]);
    const text = `${HEADER}\n[wildcard_constraints]\nsample = "^S"\nbad = "^(?!ctrl)"\n`;
    const error = await engineError(load(text));
    expect(error.code).toBe("SCHEMA_ERROR");
    expect(error.message).toContain("wildcard constraint for 'bad'");
    expect(error.message).toContain("(?!");
    expect(error.finding.suggestion).toContain("RE2");
    expect(error.finding.line).toBe(lineOf(text, "bad ="));
    const long = await engineError(load(`${HEADER}\n[wildcard_constraints]\nsample = "${"a".repeat(1001)}"\n`));
    expect(long.message).toContain("at most 1000");
  });
});

describe("[config]", () => {
  it("a declared entry's runtime value is its default text; the declaration is kept apart", async () => {
    const pipeline = await load(`${HEADER}\n[config]\ngenome = { default = "hg38", help = "reference build", choices = ["hg38", "hg19"] }\nempty = { required = true }\n`);
    expect(pipeline.config.genome).toBe("hg38");
    expect(pipeline.config.empty).toBe("");
    expect(pipeline.configMeta.genome).toMatchObject({ default: "hg38", help: "reference build", choices: ["hg38", "hg19"], required: false });
    expect(pipeline.configMeta.empty).toMatchObject({ required: true });
  });

  it("a table whose default is not a string stays a plain table value", async () => {
    const pipeline = await load(`${HEADER}\n[config]\ndepth = { default = 5, help = "coverage" }\nopts = { a = 1 }\n`);
    expect(pipeline.config.depth).toEqual({ default: 5, help: "coverage" });
    expect(pipeline.config.opts).toEqual({ a: 1 });
    expect(pipeline.configMeta).toEqual({});
  });

  it("command-line overrides take the type of the value they replace", async () => {
    const text = `${HEADER}\n[config]\nmin_cov = 10\nratio = 0.5\npaired = false\nchroms = ["chr1"]\nlabel = "x"\nlevel = { default = "1", type = "int" }\n`;
    const pipeline = await load(text, {
      overrides: { min_cov: "30", ratio: "0.25", paired: "true", chroms: "chr2, chr3", label: "42", level: "7", extra: "new", bad_number: "x" },
    });
    expect(pipeline.config).toMatchObject({ min_cov: 30, ratio: 0.25, paired: true, chroms: ["chr2", "chr3"], label: "42", level: 7, extra: "new", bad_number: "x" });
    expect([...pipeline.overriddenConfig].sort()).toEqual(["bad_number", "chroms", "extra", "label", "level", "min_cov", "paired", "ratio"]);
  });

  it("an override that does not fit the type stays text", async () => {
    const pipeline = await load(`${HEADER}\n[config]\nmin_cov = 10\npaired = false\n`, { overrides: { min_cov: "ten", paired: "yes" } });
    expect(pipeline.config.min_cov).toBe("ten");
    expect(pipeline.config.paired).toBe("yes");
  });
});

describe("profiles", () => {
  const workflow = (mode: string) => `[workflow]\nname = "demo"\nprofile_mode = "${mode}"\n\n[config]\nthreads = 2\nqueue = "short"\nopts = { a = 1, b = 2 }\n\n[defaults]\nthreads = 4\nmemory = "8G"\n`;
  const profile = `[config]\nthreads = 16\naccount = "lab"\nopts = { b = 3, c = 4 }\n\n[defaults]\nthreads = 32\nshell_prelude = "set -eu"\n\n[cluster]\nbackend = "slurm"\nqueue = "long"\n`;

  it("fill mode adds only what the pipeline lacks", async () => {
    const dir = tempDir();
    writeFile(dir, "profiles/hpc.toml", profile);
    const path = writeFile(dir, "main.oxoflow", workflow("fill"));
    const pipeline = await loadPipeline(path, { profile: "hpc" });
    expect(pipeline.config).toMatchObject({ threads: 2, queue: "short", account: "lab", opts: { a: 1, b: 2 } });
    expect(pipeline.defaults).toEqual({ threads: 4, memory: "8G", shell_prelude: "set -eu" });
    expect(pipeline.cluster).toMatchObject({ backend: "slurm", partition: "long" });
    expect([...pipeline.overriddenConfig]).toEqual(["account"]);
  });

  it("override mode replaces values and deep-merges tables", async () => {
    const dir = tempDir();
    writeFile(dir, "profiles/hpc.toml", profile);
    const path = writeFile(dir, "main.oxoflow", workflow("override"));
    const pipeline = await loadPipeline(path, { profile: "hpc" });
    expect(pipeline.config).toMatchObject({ threads: 16, queue: "short", account: "lab", opts: { a: 1, b: 3, c: 4 } });
    expect(pipeline.defaults).toEqual({ threads: 32, memory: "8G", shell_prelude: "set -eu" });
  });

  it("a profile may also be a .oxoflow file, and overrides still win over it", async () => {
    const dir = tempDir();
    writeFile(dir, "profiles/local.oxoflow", `[config]\naccount = "me"\n`);
    const path = writeFile(dir, "main.oxoflow", workflow("fill"));
    const pipeline = await loadPipeline(path, { profile: "local", overrides: { account: "you" } });
    expect(pipeline.config.account).toBe("you");
  });

  it("an unknown profile is an error that lists the available ones", async () => {
    const dir = tempDir();
    writeFile(dir, "profiles/hpc.toml", profile);
    writeFile(dir, "profiles/cloud.oxoflow", `[config]\n`);
    const path = writeFile(dir, "main.oxoflow", workflow("fill"));
    const error = await engineError(loadPipeline(path, { profile: "laptop" }));
    expect(error.code).toBe("CONFIG_ERROR");
    expect(error.message).toContain("profile 'laptop' not found");
    expect(error.finding.suggestion).toMatch(/^available profiles: /);
    expect(error.finding.suggestion).toContain("hpc");
    expect(error.finding.suggestion).toContain("cloud");
  });
});

describe("injected config keys", () => {
  const groups = `[[sample_groups]]\nname = "tumor"\nsamples = ["T2", "T1"]\n\n[[sample_groups]]\nname = "normal"\nsamples = ["N1"]\n`;

  it("samples_list is the sorted union of groups, pairs and the author's own list", async () => {
    const text = `${HEADER}\n[config]\nsamples_list = "Z9, A0"\n\n${groups}\n[[pairs]]\npair_id = "P2"\nexperiment = "T1"\ncontrol = "C7"\n`;
    const pipeline = await load(text);
    expect(pipeline.config.samples_list).toBe("A0,C7,N1,T1,T2,Z9");
    expect(pipeline.injectedConfig.has("samples_list")).toBe(true);
  });

  it("samples_<group> lists a group's samples in order, unless the author set it", async () => {
    const pipeline = await load(`${HEADER}\n[config]\nsamples_normal = "mine"\n\n${groups}`);
    expect(pipeline.config.samples_tumor).toBe("T2,T1");
    expect(pipeline.config.samples_normal).toBe("mine");
    expect(pipeline.injectedConfig.has("samples_normal")).toBe(false);
  });

  it("pairs_list is the sorted union of pair ids and the author's list", async () => {
    const text = `${HEADER}\n[config]\npairs_list = "P0"\n\n[[pairs]]\npair_id = "P3"\nexperiment = "T3"\n\n[[pairs]]\npair_id = "P1"\ntumor = "T1"\nnormal = "N1"\n`;
    const pipeline = await load(text);
    expect(pipeline.config.pairs_list).toBe("P0,P1,P3");
    expect(pipeline.config.samples_list).toBe("N1,T1,T3");
  });

  it("nothing is injected when there are no samples or pairs", async () => {
    const pipeline = await load(`${HEADER}\n[config]\nx = 1\n`);
    expect(Object.keys(pipeline.config)).toEqual(["x"]);
  });
});

describe("reference_dir", () => {
  const derived = {
    reference_fasta: "ref/genome.fa",
    gene_annotation: "ref/genes.gtf",
    bwa_index: "ref/bwa/genome.fa",
    bwamem2_index: "ref/bwamem2/genome.fa",
    bowtie2_index: "ref/bowtie2/genome.fa",
    star_index: "ref/star",
    hisat2_index: "ref/hisat2/genome.fa",
    minimap2_index: "ref/genome.fa.mmi",
    gatk_dict: "ref/genome.dict",
    samtools_faidx: "ref/genome.fa.fai",
  };

  it("derives the ten standard paths, keeping keys the config already sets", async () => {
    const pipeline = await load(`reference_dir = "ref/"\n\n${HEADER}\n[config]\ngatk_dict = "my.dict"\n`);
    expect(pipeline.reference_dir).toBe("ref/");
    expect(pipeline.config).toEqual({ ...derived, gatk_dict: "my.dict" });
    expect(pipeline.injectedConfig.has("gatk_dict")).toBe(false);
    expect(pipeline.injectedConfig.has("star_index")).toBe(true);
  });

  it("is also read from config.reference_dir", async () => {
    const pipeline = await load(`${HEADER}\n[config]\nreference_dir = "ref"\n`);
    expect(pipeline.config).toMatchObject(derived);
  });

  it("synthesises the eight standard reference builds when none are declared", async () => {
    const pipeline = await load(`reference_dir = "ref"\n\n${HEADER}`);
    expect(pipeline.references.map((reference) => reference.name)).toEqual([
      "samtools_faidx",
      "bwa_index",
      "bwamem2_index",
      "bowtie2_index",
      "minimap2_index",
      "star_index",
      "hisat2_index",
      "gatk_dict",
    ]);
    for (const reference of pipeline.references) expect(reference.source).toBe("ref/genome.fa");
    const star = pipeline.references.find((reference) => reference.name === "star_index")!;
    expect(star).toMatchObject({ threads: 16, memory: "64G" });
  });

  it("synthesises nothing when references are declared", async () => {
    const pipeline = await load(`reference_dir = "ref"\n\n${HEADER}\n[[references]]\nname = "genome"\noutput = "ref/genome.fa"\nbuild = "curl -o {output} https://example.org/g.fa"\n`);
    expect(pipeline.references.map((reference) => reference.name)).toEqual(["genome"]);
  });
});

describe("[[references]]", () => {
  it("a bare template name expands to its command, and config.<name> names the output", async () => {
    const text = `${HEADER}\n[[references]]\nname = "fai"\nsource = "g.fa"\noutput = "g.fa.fai"\nbuild = "samtools_faidx"\n\n[[references]]\nname = "star"\nsource = "g.fa"\noutput = "star"\nbuild = "star_index"\nthreads = 8\n`;
    const pipeline = await load(text);
    expect(pipeline.references[0]).toMatchObject({ name: "fai", template: "samtools_faidx", build: 'mkdir -p "$(dirname {output})" && samtools faidx {source}' });
    expect(pipeline.references[1]!.build).toBe("mkdir -p {output} && STAR --runMode genomeGenerate --genomeDir {output} --genomeFastaFiles {source} --runThreadN 8");
    expect(pipeline.config).toMatchObject({ fai: "g.fa.fai", star: "star" });
  });

  it("a shell command is kept as written, and an existing config key is not replaced", async () => {
    const text = `${HEADER}\n[config]\nfai = "elsewhere.fai"\n\n[[references]]\nname = "fai"\nsource = "g.fa"\noutput = "g.fa.fai"\nbuild = "samtools faidx {source}"\n`;
    const pipeline = await load(text);
    expect(pipeline.references[0]!.build).toBe("samtools faidx {source}");
    expect(pipeline.references[0]!.template).toBeUndefined();
    expect(pipeline.config.fai).toBe("elsewhere.fai");
  });

  it("an unknown template is REFERENCE_ERROR at its build key, listing the templates", async () => {
    const text = `${HEADER}\n[[references]]\nname = "idx"\nsource = "g.fa"\noutput = "g.idx"\nbuild = "kallisto_index"\n`;
    const error = await engineError(load(text));
    expect(error.code).toBe("REFERENCE_ERROR");
    expect(error.message).toContain("unknown build template 'kallisto_index'");
    expect(error.finding.line).toBe(lineOf(text, "build ="));
    expect(error.finding.suggestion).toContain("samtools_faidx, picard_dict, bwa_index, star_index, bismark_index");
  });

  it("a template without a source is REFERENCE_ERROR", async () => {
    const error = await engineError(load(`${HEADER}\n[[references]]\nname = "fai"\noutput = "g.fa.fai"\nbuild = "samtools_faidx"\n`));
    expect(error.code).toBe("REFERENCE_ERROR");
    expect(error.message).toContain("needs a source");
  });

  it("two references with one name are REFERENCE_ERROR", async () => {
    const entry = `[[references]]\nname = "fai"\noutput = "x"\nbuild = "touch x"\n`;
    const error = await engineError(load(`${HEADER}\n${entry}\n${entry}`));
    expect(error.code).toBe("REFERENCE_ERROR");
    expect(error.message).toContain("duplicate reference name 'fai'");
  });
});

describe("loading from a file", () => {
  it("resolves the workflow folder from the file and keeps the absolute path", async () => {
    const dir = tempDir();
    const path = writeFile(dir, "sub/main.oxoflow", `${HEADER}\n[[rules]]\nname = "a"\noutput = ["a.txt"]\nshell = "touch {output}"\n`);
    const pipeline = await loadPipeline(path);
    expect(pipeline.path).toBe(path);
    expect(pipeline.dir).toBe(`${dir}/sub`);
    expect(pipeline.workflow).toMatchObject({ name: "demo", version: "0.1.0", profile_mode: "fill" });
  });

  it("a missing file is IO_ERROR", async () => {
    const error = await engineError(loadPipeline(`${tempDir()}/nope.oxoflow`));
    expect(error.code).toBe("IO_ERROR");
  });
});
