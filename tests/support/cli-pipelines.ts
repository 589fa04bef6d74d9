/**
 * Small pipelines for the command-line tests: a valid cohort pipeline (groups, expand_inputs aggregation, a
 * `when` branch, config keys), and broken variants for each kind of failure.
 */

/** A valid pipeline: 3 samples aligned one by one, merged, then an optional report. */
export const COHORT = `# Cohort demo
[workflow]
name = "cohort-demo"
version = "1.2.0"
description = "align, merge and report"
author = "Test Author"

[config]
genome = "hg38"
make_report = false
mapper_args = "-M"

[[sample_groups]]
name = "cohort"
samples = ["S1", "S2", "S3"]

[[rules]]
name = "align"
description = "align one sample"
input = ["raw/{sample}.fq"]
output = ["aligned/{sample}.bam"]
log = "logs/align_{sample}.log"
shell = "bwa mem {config.mapper_args} {config.genome} {input} > {output}"

[[rules]]
name = "merge"
description = "merge every sample"
expand_inputs = [{ pattern = "aligned/{sample}.bam", variables = { sample = "config.samples_list" } }]
output = ["merged/cohort.bam"]
log = "logs/merge.log"
shell = "samtools merge {output} {input}"

[[rules]]
name = "report"
description = "summarise the cohort"
input = ["merged/cohort.bam"]
output = ["report/summary.txt"]
log = "logs/report.log"
when = "config.make_report"
shell = "samtools flagstat {input} > {output}"
`;

/** Rule names of COHORT in file order. */
export const COHORT_RULES = ["align", "merge", "report"];

/** A chain of three rules without samples (generate → transform → summarise). */
export const CHAIN = `[workflow]
name = "chain"
version = "0.1.0"
description = "three steps"
author = "Test Author"

[config]
greeting = "hello"

[[rules]]
name = "generate"
description = "write a greeting"
output = ["data/a.txt"]
log = "logs/generate.log"
shell = "echo {config.greeting} > {output[0]}"

[[rules]]
name = "transform"
description = "upper-case it"
input = ["data/a.txt"]
output = ["data/b.txt"]
log = "logs/transform.log"
shell = "tr a-z A-Z < {input[0]} > {output[0]}"

[[rules]]
name = "summarise"
description = "count characters"
input = ["data/b.txt"]
output = ["data/summary.txt"]
log = "logs/summarise.log"
shell = "wc -c {input[0]} > {output[0]}"
`;

/** A pipeline whose only rule uses an undefined config key: E005 at line 7, column 1. */
export const UNDEFINED_CONFIG = `[workflow]
name = "broken"

[[rules]]
name = "a"
output = ["a.txt"]
shell = "echo {config.missing} > {output}"
`;

/** A TOML syntax error: the array on line 5 is never closed (reported at 6:1). */
export const SYNTAX_ERROR = `[workflow]
name = "x"
[[rules]]
name = "a"
output = ["a.txt"
shell = "touch {output}"
`;

/** A pipeline with no description and no author: lint warnings W001/W002, no errors. */
export const WARNINGS_ONLY = `[workflow]
name = "bare"

[[rules]]
name = "only"
description = "one rule"
output = ["out.txt"]
log = "logs/only.log"
shell = "touch {output}"
`;

/** Two rules that need each other's outputs: a cycle (E006). */
export const CYCLE = `[workflow]
name = "loop"

[[rules]]
name = "a"
input = ["b.txt"]
output = ["a.txt"]
shell = "cp {input} {output}"

[[rules]]
name = "b"
input = ["a.txt"]
output = ["b.txt"]
shell = "cp {input} {output}"
`;

/** A pipeline with `count` samples in one group (for large outputs). */
export function manySamples(count: number): string {
  const samples = Array.from({ length: count }, (_, i) => `"S${String(i + 1).padStart(5, "0")}"`).join(", ");
  return `[workflow]
name = "many"

[[sample_groups]]
name = "all"
samples = [${samples}]

[[rules]]
name = "count_reads"
input = ["raw/{sample}.fastq.gz"]
output = ["counts/{sample}.txt"]
shell = "zcat {input} | wc -l > {output}   # a long command line, so the output is large: ${"x".repeat(80)}"
`;
}
