/**
 * Domain knowledge: each analysis kind is complete and names tools the package index knows; lookups find the
 * right kind from plain-language intents; matchTemplates ranks the built-in templates for the "Try the
 * <template> template" hint, deterministically.
 */
import { describe, expect, it } from "vitest";
import { listTemplates } from "../../../../../src/engine/tools/templates.js";
import { ANALYSIS_KINDS, lookupDomain, matchTemplates } from "../../../../../src/server/domains/ai/knowledge/domain.js";
import { hasPackage } from "../../../../../src/server/domains/ai/knowledge/packages.js";

const TEMPLATES = listTemplates().map(({ name, description }) => ({ name, description }));

describe("the analysis table", () => {
  it("covers the expected kinds, each with steps, tools, inputs, references, parameters, QC and pitfalls", () => {
    expect(ANALYSIS_KINDS.map((kind) => kind.id)).toEqual([
      "bulk-rnaseq-quantification",
      "differential-expression",
      "germline-short-variants",
      "somatic-tumor-normal",
      "chip-seq",
      "atac-seq",
      "single-cell-rnaseq",
      "amplicon-16s",
      "methylation-bisulfite",
      "genome-assembly",
      "long-read-alignment",
    ]);
    for (const kind of ANALYSIS_KINDS) {
      expect(kind.steps.length, kind.id).toBeGreaterThanOrEqual(4);
      for (const step of kind.steps) expect(step.tools.length, `${kind.id}: ${step.step}`).toBeGreaterThan(0);
      for (const list of [kind.inputs, kind.references, kind.key_parameters, kind.qc, kind.pitfalls, kind.synonyms]) expect(list.length, kind.id).toBeGreaterThan(0);
    }
  });

  it("names only tools that exist in the package index", () => {
    for (const kind of ANALYSIS_KINDS) for (const step of kind.steps) for (const tool of step.tools) expect(hasPackage(tool), `${kind.id}: ${tool}`).toBe(true);
  });

  it("refers only to built-in templates that exist", () => {
    const names = new Set(TEMPLATES.map((template) => template.name));
    for (const kind of ANALYSIS_KINDS) for (const template of kind.templates) expect(names.has(template), template).toBe(true);
  });
});

describe("lookupDomain", () => {
  it.each([
    ["paired-end RNA-seq quantification with salmon", "bulk-rnaseq-quantification"],
    ["find differentially expressed genes between treated and control", "differential-expression"],
    ["call germline SNPs and indels from whole exome data", "germline-short-variants"],
    ["tumour-normal somatic mutations with Mutect2", "somatic-tumor-normal"],
    ["ChIP-seq peaks for H3K27ac", "chip-seq"],
    ["ATAC-seq open chromatin", "atac-seq"],
    ["10x single cell clustering", "single-cell-rnaseq"],
    ["16S microbiome profiling", "amplicon-16s"],
    ["WGBS bisulfite methylation", "methylation-bisulfite"],
    ["de novo assembly of a bacterial genome", "genome-assembly"],
    ["align nanopore reads with minimap2", "long-read-alignment"],
  ])("finds the analysis for %j", (query, id) => {
    expect(lookupDomain(query)[0]!.id).toBe(id);
  });

  it("finds nothing for an unrelated or empty query, and at most three kinds", () => {
    expect(lookupDomain("make me a sandwich")).toEqual([]);
    expect(lookupDomain("")).toEqual([]);
    expect(lookupDomain(ANALYSIS_KINDS.flatMap((kind) => kind.synonyms).join(" ")).length).toBeLessThanOrEqual(3);
    expect(lookupDomain("ATAC-seq or ChIP-seq peaks").map((hit) => hit.id).sort()).toEqual(["atac-seq", "chip-seq"]);
  });
});

describe("matchTemplates", () => {
  it.each([
    ["RNA-seq quantification of paired-end reads", "rnaseq-quant"],
    ["germline variant calling with GATK", "germline-variants"],
    ["tumor normal somatic calling", "tumor-normal"],
    ["a hello world pipeline", "hello-world"],
    ["scatter the calling over chromosomes and gather", "scatter-gather"],
  ])("ranks the template for %j first", (intent, name) => {
    expect(matchTemplates(intent, TEMPLATES)[0]!.name).toBe(name);
  });

  it("returns only templates that share something, deterministically, ties by name", () => {
    expect(matchTemplates("zzz qqq", TEMPLATES)).toEqual([]);
    expect(matchTemplates("", TEMPLATES)).toEqual([]);
    const first = matchTemplates("variant calling", TEMPLATES);
    expect(first.length).toBeGreaterThan(1);
    expect(matchTemplates("variant calling", [...TEMPLATES].reverse())).toEqual(first);
    for (let i = 1; i < first.length; i++) {
      const [a, b] = [first[i - 1]!, first[i]!];
      expect(a.score > b.score || (a.score === b.score && a.name < b.name)).toBe(true);
    }
  });
});
