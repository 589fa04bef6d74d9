/**
 * The benchmarks' large pipeline: trim and align per sample (two wildcard rules), then one summary over all
 * samples — 2 × samples + 1 jobs. `bench:engine` plans it from a file; `bench:api` sends it over HTTP.
 */
export function wildcardPipelineText(samples: number): string {
  const names: string[] = new Array<string>(samples);
  for (let i = 0; i < samples; i++) names[i] = `"S${i}"`;
  return `[workflow]
name = "bench-wildcard"
version = "1.0.0"
description = "two wildcard rules over ${samples} samples plus an aggregate"

[[rules]]
name = "trim"
input = ["data/{sample}.fastq"]
output = ["trimmed/{sample}.fq"]
shell = "cutadapt -j {threads} -o {output[0]} {input[0]}"

[[rules]]
name = "align"
input = ["trimmed/{sample}.fq"]
output = ["aligned/{sample}.bam"]
shell = "bwa mem -t {threads} ref.fa {input[0]} > {output[0]}"

[[rules]]
name = "summary"
expand_inputs = [{ pattern = "aligned/{sample}.bam", variables = { sample = "config.samples_list" } }]
output = ["summary.txt"]
shell = "samtools flagstat {input} > {output}"

[[sample_groups]]
name = "cohort"
samples = [${names.join(", ")}]
`;
}
