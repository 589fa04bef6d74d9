/**
 * `[[references]]`: reference and index builds run before the pipeline. A `build` that is a bare name picks
 * a built-in template; with `reference_dir` and no declared references, the standard builds are synthesised.
 */
import { EngineError } from "../findings.js";
import type { Reference, TomlValue } from "./model.js";
import type { DecodedPipelineFile } from "./schema.js";
import type { SourceFile } from "./source-positions.js";

/** Built-in build templates, by name: `{source}` is the shell-quoted source, `{output}` the output path. */
export const REFERENCE_TEMPLATES: Record<string, (reference: { output: string; threads: number }) => string> = {
  samtools_faidx: () => `mkdir -p "$(dirname {output})" && samtools faidx {source}`,
  picard_dict: () => `picard CreateSequenceDictionary R={source} O={output}`,
  bwa_index: ({ output }) => `bwa index -p ${output.replace(/\.(amb|ann|bwt|pac|sa)$/, "")} {source}`,
  star_index: ({ threads }) => `mkdir -p {output} && STAR --runMode genomeGenerate --genomeDir {output} --genomeFastaFiles {source} --runThreadN ${threads}`,
  bismark_index: ({ threads }) => `bismark_genome_preparation --parallel ${threads} --verbose {source}`,
};

/** Reads the declared references, expanding template names and checking names are unique. */
export function readReferences(decoded: DecodedPipelineFile, source: SourceFile): Reference[] {
  const seen = new Set<string>();
  return (decoded.references ?? []).map((entry, index) => {
    const at = source.locate(["references", index]);
    if (seen.has(entry.name)) throw new EngineError("REFERENCE_ERROR", `duplicate reference name '${entry.name}'`, { at });
    seen.add(entry.name);
    const reference: Reference = { ...entry, environment: entry.environment ?? {} };
    if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(entry.build)) {
      const template = REFERENCE_TEMPLATES[entry.build];
      if (!template) {
        throw new EngineError("REFERENCE_ERROR", `reference '${entry.name}' names an unknown build template '${entry.build}'`, {
          at: source.locate(["references", index, "build"]),
          suggestion: `use one of ${Object.keys(REFERENCE_TEMPLATES).join(", ")}, or write the shell command`,
        });
      }
      if (!entry.source) {
        throw new EngineError("REFERENCE_ERROR", `reference '${entry.name}' uses the ${entry.build} template, which needs a source`, {
          at,
          suggestion: 'add source = "path/to/genome.fa"',
        });
      }
      reference.template = entry.build;
      reference.build = template({ output: entry.output, threads: entry.threads ?? 1 });
    }
    return reference;
  });
}

/** The standard builds synthesised from `reference_dir` when no references are declared. */
export function standardReferenceBuilds(referenceDir: string): Reference[] {
  const dir = referenceDir.replace(/\/+$/, "");
  const fasta = `${dir}/genome.fa`;
  const build = (name: string, output: string, command: string, threads?: number, memory?: string): Reference => ({
    name,
    source: fasta,
    output,
    build: command,
    threads,
    memory,
    environment: {},
  });
  return [
    build("samtools_faidx", `${fasta}.fai`, "samtools faidx {source}"),
    build("bwa_index", `${dir}/bwa/genome.fa.bwt`, `mkdir -p ${dir}/bwa && bwa index -p ${dir}/bwa/genome.fa {source}`),
    build("bwamem2_index", `${dir}/bwamem2/genome.fa.bwt.2bit.64`, `mkdir -p ${dir}/bwamem2 && bwa-mem2 index -p ${dir}/bwamem2/genome.fa {source}`),
    build("bowtie2_index", `${dir}/bowtie2/genome.fa.1.bt2`, `mkdir -p ${dir}/bowtie2 && bowtie2-build {source} ${dir}/bowtie2/genome.fa`),
    build("minimap2_index", `${dir}/genome.fa.mmi`, "minimap2 -d {output} {source}"),
    build("star_index", `${dir}/star/SAindex`, `mkdir -p ${dir}/star && STAR --runMode genomeGenerate --genomeDir ${dir}/star --genomeFastaFiles {source} --runThreadN 16`, 16, "64G"),
    build("hisat2_index", `${dir}/hisat2/genome.fa.1.ht2`, `mkdir -p ${dir}/hisat2 && hisat2-build {source} ${dir}/hisat2/genome.fa`),
    build("gatk_dict", `${dir}/genome.dict`, "gatk CreateSequenceDictionary -R {source} -O {output}"),
  ];
}

/** Adds `config.<name>` = output for each reference whose name is not already a config key. */
export function injectReferenceKeys(config: Record<string, TomlValue>, references: Reference[], injected: Set<string>): void {
  for (const reference of references) {
    if (!(reference.name in config)) {
      config[reference.name] = reference.output;
      injected.add(reference.name);
    }
  }
}
