/**
 * The package index builder and `npm run knowledge:index`: environment declarations of every kind become
 * packages (conda files with channels and pip sections, pixi manifests, container images, modules, venv
 * requirements); included files count for their host; and the script's output is byte-for-byte
 * deterministic (against the real corpus when it is present, else on the templates alone).
 */
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { execa } from "execa";
import { afterAll, describe, expect, it } from "vitest";
import { buildPackageIndex, commandPrograms, compareVersions, trimCommand } from "../../../../../src/server/domains/ai/knowledge/package-index-builder.js";
import {
  packageOfModule,
  packagesOfCondaFile,
  packagesOfEnvironment,
  packagesOfImage,
  packagesOfPixiFile,
  parseCondaSpec,
  parsePipRequirement,
} from "../../../../../src/server/domains/ai/knowledge/environment-packages.js";
import { removeTempDirs, tempDir, writeFile } from "../../../../support/temp-workspace.js";

afterAll(removeTempDirs);

const PROJECT_ROOT = fileURLToPath(new URL("../../../../../", import.meta.url));
const CORPUS = process.env.STRAND_CORPUS ? resolve(process.env.STRAND_CORPUS) : resolve(PROJECT_ROOT, "../shared/corpus");

describe("environment declarations", () => {
  it("reads conda match specs", () => {
    expect(parseCondaSpec("bioconda::samtools=1.18=h50ea8bc_0")).toEqual({ name: "samtools", version: "1.18", channel: "bioconda" });
    expect(parseCondaSpec("python>=3.9")).toEqual({ name: "python", version: ">=3.9", channel: undefined });
    expect(parseCondaSpec("diamond==2.0.15")).toEqual({ name: "diamond", version: "2.0.15", channel: undefined });
    expect(parseCondaSpec("bowtie2")).toEqual({ name: "bowtie2", version: undefined, channel: undefined });
    expect(parseCondaSpec("  ")).toBeUndefined();
    expect(parsePipRequirement("CIRIquant==1.1.2")).toEqual({ name: "CIRIquant", version: "1.1.2" });
    expect(parsePipRequirement("pandas>=2 # tables")).toEqual({ name: "pandas", version: ">=2" });
    expect(parsePipRequirement("-r other.txt")).toBeUndefined();
  });

  it("reads a conda file's dependencies, channel prefixes and pip section", () => {
    const mentions = packagesOfCondaFile(
      ["channels:", "  - conda-forge", "  - bioconda", "dependencies:", "  - bwa-mem2=2.2.1", "  - conda-forge::pigz=2.8", "  - pip", "  - pip:", "    - CIRIquant==1.1.2"].join("\n"),
    );
    expect(mentions).toEqual([
      { name: "bwa-mem2", version: "2.2.1", channels: ["conda-forge", "bioconda"], via: "conda" },
      { name: "pigz", version: "2.8", channels: ["conda-forge"], via: "conda" },
      { name: "ciriquant", version: "1.1.2", channels: ["pypi"], via: "pip" },
    ]);
  });

  it("reads a pixi manifest", () => {
    const mentions = packagesOfPixiFile('[workspace]\nchannels = ["conda-forge", "bioconda"]\n\n[dependencies]\nsamtools = "1.21.*"\nbcftools = { version = ">=1.20" }\n\n[pypi-dependencies]\ncyvcf2 = "*"\n');
    expect(mentions).toEqual([
      { name: "samtools", version: "1.21.*", channels: ["conda-forge", "bioconda"], via: "pixi" },
      { name: "bcftools", version: ">=1.20", channels: ["conda-forge", "bioconda"], via: "pixi" },
      { name: "cyvcf2", version: undefined, channels: ["pypi"], via: "pip" },
    ]);
  });

  it("reads container images: Biocontainers, vendor images, Wave multi-tool images; not local image files", () => {
    expect(packagesOfImage("docker://quay.io/biocontainers/fastqc:0.12.1--hdfd78af_0")).toEqual([
      { name: "fastqc", version: "0.12.1", channels: [], container: "docker://quay.io/biocontainers/fastqc:0.12.1--hdfd78af_0", via: "container" },
    ]);
    expect(packagesOfImage("broadinstitute/gatk:4.5.0.0")[0]).toMatchObject({ name: "gatk4", version: "4.5.0.0" });
    expect(packagesOfImage("community.wave.seqera.io/library/scanpy:1.10.2--e83da2205b92a538")[0]).toMatchObject({ name: "scanpy", version: "1.10.2" });
    expect(packagesOfImage("docker://community.wave.seqera.io/library/coreutils_grep_gzip_lbzip2_pruned:838ba80435a629f8").map((mention) => mention.name)).toEqual(["coreutils", "grep", "gzip", "lbzip2"]);
    expect(packagesOfImage("ubuntu:latest")[0]).toMatchObject({ name: "ubuntu", version: undefined });
    expect(packagesOfImage("images/tool.sif")).toEqual([]);
  });

  it("reads module specs and venv requirement files, and reports files it cannot read", () => {
    expect(packageOfModule("samtools/1.18")).toEqual({ name: "samtools", version: "1.18", channels: [], via: "module" });
    const files: Record<string, string> = { "requirements.txt": "multiqc==1.25\n# comment\n" };
    const read = (path: string): string | undefined => files[path];
    const result = packagesOfEnvironment({ modules: ["bwa/0.7.17", "gatk"], venv_requirements: "requirements.txt", conda: "envs/missing.yaml", pixi: "envs/varcall/pixi.toml" }, read);
    expect(result.packages.map((mention) => `${mention.via}:${mention.name}@${mention.version ?? ""}`)).toEqual(["module:bwa@0.7.17", "module:gatk4@", "venv:multiqc@1.25"]);
    expect(result.unread).toEqual([
      { kind: "conda", declared: "envs/missing.yaml", stem: "missing" },
      { kind: "pixi", declared: "envs/varcall/pixi.toml", stem: "varcall" },
    ]);
  });

  it("orders versions numerically, names the programs a command starts and trims commands", () => {
    expect(["1.10", "1.9", "1.18", "0.12.1"].sort(compareVersions)).toEqual(["0.12.1", "1.9", "1.10", "1.18"]);
    expect(commandPrograms("set -x\nbwa mem ref.fa r1.fq | samtools sort -o out.bam\nTMP=x STAR --runThreadN 4 && time fastp -i a")).toEqual(["set", "bwa", "samtools", "STAR", "fastp"]);
    expect(trimCommand("\n    samtools index a.bam\n\n    echo done   \n")).toBe("samtools index a.bam\necho done");
    expect(trimCommand("x".repeat(1000)).length).toBe(400);
  });
});

describe("buildPackageIndex", () => {
  it("indexes a host pipeline with its included file's rules, environment files next to the host, and no absolute paths", async () => {
    const dir = tempDir();
    writeFile(dir, "corpus/demo/main.oxoflow", [
      '[workflow]\nname = "demo"',
      '[[include]]\npath = "rules/align.oxoflow"',
      '[[rules]]\nname = "qc"\ninput = ["a.fq"]\noutput = ["qc/a.html"]\nshell = "fastqc {input} -o qc"\n[rules.environment]\ndocker = "quay.io/biocontainers/fastqc:0.12.1--hdfd78af_0"',
    ].join("\n\n"));
    writeFile(dir, "corpus/demo/rules/align.oxoflow", '[workflow]\nname = "align"\n\n[[rules]]\nname = "align"\ninput = ["a.fq"]\noutput = ["a.bam"]\nshell = "bwa mem ref.fa {input} | samtools sort -o {output}"\n[rules.environment]\nconda = "envs/align.yaml"\n');
    writeFile(dir, "corpus/demo/envs/align.yaml", "channels:\n  - bioconda\ndependencies:\n  - bwa=0.7.17\n  - samtools=1.18\n");
    writeFile(dir, "templates/t.oxoflow", '[workflow]\nname = "t"\n\n[[rules]]\nname = "count"\ninput = ["a.bam"]\noutput = ["c.tsv"]\nshell = "featureCounts -a g.gtf -o {output} {input}"\n[rules.environment]\nconda = "envs/subread.yaml"\n\n[[rules]]\nname = "misc"\noutput = ["m.txt"]\nshell = "touch {output}"\n[rules.environment]\nconda = "envs/misc.yaml"\n');
    const index = await buildPackageIndex({ templatesDir: join(dir, "templates"), corpusDir: join(dir, "corpus") });
    expect(index.sources).toEqual({ templates: ["templates/t.oxoflow"], corpus: ["corpus/demo/main.oxoflow"] });
    const byName = new Map(index.packages.map((entry) => [entry.name, entry]));
    expect(byName.get("bwa")).toMatchObject({ versions: ["0.7.17"], channels: ["bioconda"], pipelines: ["corpus/demo/main.oxoflow"], rules: [{ pipeline: "corpus/demo/main.oxoflow", rule: "align" }] });
    expect(byName.get("bwa")!.example!.command).toBe("bwa mem ref.fa {input} | samtools sort -o {output}");
    expect(byName.get("fastqc")).toMatchObject({ versions: ["0.12.1"], containers: ["quay.io/biocontainers/fastqc:0.12.1--hdfd78af_0"], declared_via: ["container"] });
    // A missing env file named after a known tool is that tool; one named after nothing known is listed as unresolved.
    expect(byName.get("subread")).toMatchObject({ pipelines: ["templates/t.oxoflow"], example: { rule: "count", command: expect.stringContaining("featureCounts") } });
    expect(byName.has("misc")).toBe(false);
    expect(index.unresolved_environments).toEqual(["templates/t.oxoflow: conda envs/misc.yaml"]);
    // Well-known tools nobody declares stay findable, with no users.
    expect(byName.get("macs2")).toMatchObject({ pipelines: [], rule_count: 0, example: null });
    expect(JSON.stringify(index)).not.toContain(dir);
  });
});

describe("npm run knowledge:index", () => {
  const withCorpus = existsSync(CORPUS);

  it(`writes the same bytes twice (${withCorpus ? "templates and the real corpus" : "templates only: no corpus here"})`, async () => {
    const dir = tempDir();
    const env = { ...process.env, STRAND_CORPUS: withCorpus ? CORPUS : join(dir, "no-corpus") };
    const outputs: string[] = [];
    for (const name of ["first.json", "second.json"]) {
      const out = join(dir, name);
      const run = await execa("node", ["--import", "tsx", "scripts/build-package-index.ts", "--out", out], { cwd: PROJECT_ROOT, env, reject: false });
      expect(run.exitCode, run.stderr).toBe(0);
      expect(run.stdout).toMatch(/^wrote \d+ packages from 8 templates and \d+ corpus pipelines$/m);
      outputs.push(readFileSync(out, "utf8"));
    }
    expect(outputs[1]).toBe(outputs[0]);
    const index = JSON.parse(outputs[0]!) as { sources: { corpus: string[] }; packages: Array<{ name: string }> };
    if (withCorpus) expect(index.sources.corpus.length).toBeGreaterThan(20);
    else expect(index.sources.corpus).toEqual([]);
    expect(index.packages.map((entry) => entry.name)).toEqual(expect.arrayContaining(["bwa-mem2", "star", "salmon", "gatk4", "multiqc"]));
    expect(outputs[0]).not.toContain(PROJECT_ROOT);
  });
});
