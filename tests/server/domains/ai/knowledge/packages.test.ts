/**
 * The bundled package index and its lookup: bwa, STAR and salmon are found by name and by a word of their
 * summary; lookups are bounded; every package the built-in templates declare is indexed with the template as
 * a user; the shipped JSON has no machine-specific paths; and the committed file is what the builder makes.
 */
import { existsSync, readFileSync } from "node:fs";
import { basename, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { loadPipeline } from "../../../../../src/engine/format/load.js";
import { effectiveEnvironment } from "../../../../../src/engine/format/rule-settings.js";
import { listTemplates, TEMPLATES_DIR } from "../../../../../src/engine/tools/templates.js";
import { buildPackageIndex, serializePackageIndex } from "../../../../../src/server/domains/ai/knowledge/package-index-builder.js";
import { hasPackage, lookupPackages, MAX_PACKAGE_HITS, packageIndex } from "../../../../../src/server/domains/ai/knowledge/packages.js";
import { canonicalPackageName, PACKAGE_ALIASES, TOOL_SUMMARIES } from "../../../../../src/server/domains/ai/knowledge/tool-summaries.js";

const PROJECT_ROOT = fileURLToPath(new URL("../../../../../", import.meta.url));
const INDEX_FILE = resolve(PROJECT_ROOT, "src/server/domains/ai/knowledge/package-index.json");
const CORPUS = process.env.STRAND_CORPUS ? resolve(process.env.STRAND_CORPUS) : resolve(PROJECT_ROOT, "../shared/corpus");

describe("lookupPackages", () => {
  it.each([
    ["bwa", "bwa"],
    ["STAR", "star"],
    ["salmon", "salmon"],
    ["featureCounts", "subread"],
    ["gatk", "gatk4"],
  ])("finds %s by name first", (query, name) => {
    const hits = lookupPackages(query);
    expect(hits[0]!.name).toBe(name);
    expect(hits[0]!.summary).not.toBeNull();
  });

  it.each([
    ["bwa", "Burrows-Wheeler"],
    ["star", "spliced RNA-seq"],
    ["salmon", "quasi-mapping"],
  ])("finds %s by words of its summary (%s)", (name, words) => {
    const summary = packageIndex().packages.find((entry) => entry.name === name)!.summary!;
    for (const word of words.split(" ")) expect(summary.toLowerCase()).toContain(word.toLowerCase());
    expect(lookupPackages(words).map((hit) => hit.name)).toContain(name);
  });

  it("ranks by plain-language words through shared stems", () => {
    expect(lookupPackages("spliced alignment", 5).map((hit) => hit.name)).toContain("star");
    expect(lookupPackages("peak calling", 5).map((hit) => hit.name)).toContain("macs2");
    expect(lookupPackages("transcript quantification", 5).map((hit) => hit.name)).toContain("salmon");
  });

  it("returns hits with their versions, channels, users and an example command", () => {
    const star = lookupPackages("star")[0]!;
    expect(star.versions.length).toBeGreaterThan(0);
    expect(star.pipelines).toContain("templates/rnaseq-quant.oxoflow");
    expect(star.rules.length).toBeLessThanOrEqual(5);
    expect(star.pipeline_count).toBeGreaterThanOrEqual(star.pipelines.length);
    // Answers stay small enough for a model's tool result even for the most used packages.
    expect(JSON.stringify(lookupPackages("python samtools alignment", 8)).length).toBeLessThan(8000);
    expect(star.example?.command).toMatch(/\bSTAR\b/);
    expect(star.score).toBeGreaterThan(0);
  });

  it("is bounded: at most 20 hits, none for an empty or wordless query, long queries cut", () => {
    expect(lookupPackages("a b c the of", 10)).toEqual([]);
    expect(lookupPackages("")).toEqual([]);
    expect(lookupPackages("r", 50).length).toBeLessThanOrEqual(MAX_PACKAGE_HITS);
    expect(lookupPackages("reads genome variant quality alignment", 100).length).toBe(MAX_PACKAGE_HITS);
    expect(lookupPackages("bwa", 0)).toEqual([]);
    expect(lookupPackages("bwa", -3)).toEqual([]);
    expect(lookupPackages("bwa", Number.NaN).length).toBeGreaterThan(0);
    const started = performance.now();
    expect(lookupPackages(`${"x".repeat(199)} bwa`)).toEqual([]);
    lookupPackages("quality ".repeat(100_000));
    expect(performance.now() - started).toBeLessThan(500);
  });

  it("is deterministic: equal scores are ordered by name", () => {
    const first = lookupPackages("aligner", 20);
    expect(lookupPackages("aligner", 20)).toEqual(first);
    for (let i = 1; i < first.length; i++) {
      const [a, b] = [first[i - 1]!, first[i]!];
      expect(a.score > b.score || (a.score === b.score && a.name < b.name)).toBe(true);
    }
  });
});

describe("the bundled index", () => {
  it("covers every package the built-in templates declare, with the template among its users", async () => {
    let declared = 0;
    for (const template of listTemplates()) {
      const file = `${template.id}.oxoflow`;
      const pipeline = await loadPipeline(fileURLToPath(new URL(file, TEMPLATES_DIR)));
      for (const rule of pipeline.rules) {
        const environment = effectiveEnvironment(rule, pipeline.defaults);
        // The templates name their conda files by tool (envs/<package>.yaml); the files are not shipped.
        const names = [environment.conda, environment.mamba].filter((value): value is string => value !== undefined).map((value) => canonicalPackageName(basename(value).replace(/\.ya?ml$/, "")));
        for (const name of names) {
          declared++;
          expect(hasPackage(name), `${file} rule ${rule.name} declares ${name}`).toBe(true);
          const entry = packageIndex().packages.find((candidate) => candidate.name === name)!;
          expect(entry.pipelines).toContain(`templates/${file}`);
        }
        for (const image of [environment.docker, environment.singularity]) if (image) expect(packageIndex().packages.some((entry) => entry.containers.includes(image))).toBe(true);
      }
    }
    expect(declared).toBeGreaterThan(10);
  });

  it("is sorted and holds only relative paths", () => {
    const index = packageIndex();
    const names = index.packages.map((entry) => entry.name);
    expect(names).toEqual([...names].sort());
    const text = readFileSync(INDEX_FILE, "utf8");
    expect(text).not.toContain(PROJECT_ROOT);
    expect(text).not.toMatch(/"(\/|[A-Za-z]:\\)[^"]*\.oxoflow"/);
    for (const entry of index.packages) {
      for (const pipeline of entry.pipelines) expect(pipeline).toMatch(/^(templates|corpus)\//);
      expect(entry.rules.length).toBeLessThanOrEqual(entry.rule_count);
    }
    expect(index.about).toMatch(/npm run knowledge:index/);
  });

  it("has aliases that point at described tools and never shadow one", () => {
    for (const [alias, target] of Object.entries(PACKAGE_ALIASES)) {
      expect(TOOL_SUMMARIES[target], `${alias} → ${target}`).toBeDefined();
      expect(TOOL_SUMMARIES[alias], alias).toBeUndefined();
      expect(lookupPackages(alias)[0]!.name).toBe(target);
    }
  });

  it("describes the well-known tools in one line each", () => {
    for (const name of ["fastp", "fastqc", "multiqc", "bwa", "bwa-mem2", "bowtie2", "star", "hisat2", "salmon", "kallisto", "samtools", "bcftools", "gatk4", "picard", "subread", "macs2", "deeptools", "bedtools", "trimmomatic", "cutadapt", "minimap2", "freebayes", "ensembl-vep", "snpeff", "bioconductor-deseq2"]) {
      const entry = packageIndex().packages.find((candidate) => candidate.name === name);
      expect(entry?.summary, name).toMatch(/^[A-Z0-9].{20,160}$/);
      expect(entry!.summary).not.toContain("\n");
    }
  });

  it.runIf(existsSync(CORPUS))("is what npm run knowledge:index builds from the templates and the corpus (regenerate it when this fails)", async () => {
    const fresh = serializePackageIndex(await buildPackageIndex({ templatesDir: fileURLToPath(TEMPLATES_DIR), corpusDir: CORPUS }));
    expect(readFileSync(INDEX_FILE, "utf8")).toBe(fresh);
  });
});
