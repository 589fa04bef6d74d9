/**
 * The table of fan-out cases that `validate` and expansion (`dry-run`, `graph --expanded`, `run`) must
 * agree on: lists that are empty on purpose (a branch switched off: W027, fewer jobs) and lists that cannot
 * be resolved (an error both report the same way). Shared by the engine and the command-line tests.
 */

/** One case: a pipeline (and its data files), the jobs it plans, and the findings both sides report. */
export interface FanOutCase {
  name: string;
  pipeline: string;
  files?: Record<string, string>;
  /** Job names a plan holds, in order; absent for an error case. */
  jobs?: string[];
  /** The W027 warnings as [rule, line], in order. */
  switchedOff?: [string, number][];
  /** The error both stop at: its code and line. */
  error?: { code: string; line: number; message: string };
}

const head = (name: string, extra = ""): string => `[workflow]\nname = "${name}"\n${extra}`;

const GATHER = `
[[rules]]
name = "merge"
output = ["merged.vcf"]
shell = "cat {input} > {output}"

[[rules]]
name = "report"
input = ["merged.vcf"]
output = ["report.txt"]
shell = "wc -l < {input} > {output}"
`;

const PER_SAMPLE = `
[[rules]]
name = "align"
input = ["raw/{sample}.fq"]
output = ["bam/{sample}.bam"]
shell = "touch {output}"

[[rules]]
name = "summary"
output = ["summary.txt"]
shell = "echo {input} > {output}"
expand_inputs = [{ pattern = "bam/{sample}.bam", variables = { sample = "config.samples_list" } }]
`;

const transform = (split: string, config = ""): string =>
  `${head("transform")}${config}
[[rules]]
name = "count"
output = ["total.txt"]

[rules.transform]
split = { by = "part", ${split} }
map = "echo {part} > {output}"
combine = { aggregate = true, method = "concat" }

[[rules]]
name = "after"
output = ["after.txt"]
shell = "touch {output}"
`;

export const FAN_OUT_CASES: FanOutCase[] = [
  {
    name: "scatter values = [] with a gather: no scattered jobs, the gather runs with no scattered inputs",
    pipeline: `${head("scatter")}
[[rules]]
name = "call"
output = ["calls/{chr}.vcf"]
shell = "touch {output}"
scatter = { variable = "chr", values = [], gather = "merge" }
${GATHER}`,
    jobs: ["merge", "report"],
    switchedOff: [["call", 8]],
  },
  {
    name: "scatter values_from an empty config array",
    pipeline: `${head("scatter-config")}
[config]
chromosomes = []

[[rules]]
name = "call"
output = ["calls/{chr}.vcf"]
shell = "touch {output}"

[rules.scatter]
variable = "chr"
values_from = "config.chromosomes"
gather = "merge"
${GATHER}`,
    jobs: ["merge", "report"],
    switchedOff: [["call", 14]],
  },
  {
    name: "scatter values_from an empty comma-separated string",
    pipeline: `${head("scatter-text")}
[config]
regions = ""

[[rules]]
name = "call"
output = ["calls/{r}.vcf"]
shell = "touch {output}"
scatter = { variable = "r", values_from = "regions" }
`,
    jobs: [],
    switchedOff: [["call", 11]],
  },
  {
    name: "scatter with values (control): no warning",
    pipeline: `${head("scatter-full")}
[[rules]]
name = "call"
output = ["calls/{chr}.vcf"]
shell = "touch {output}"
scatter = { variable = "chr", values = ["1", "2"], gather = "merge" }
${GATHER}`,
    jobs: ["call_1", "call_2", "merge", "report"],
    switchedOff: [],
  },
  {
    name: "[[values]] values = []: the rules that use the table make no jobs, depends_on on them is met",
    pipeline: `${head("values")}
[[values]]
name = "tool"
values = []

[[rules]]
name = "assemble"
output = ["asm/{tool}.fa"]
shell = "touch {output}"

[[rules]]
name = "after"
output = ["after.txt"]
shell = "touch {output}"
depends_on = ["assemble"]
`,
    jobs: ["after"],
    switchedOff: [["assemble", 8]],
  },
  {
    name: "[[values]] values_from an empty config array",
    pipeline: `${head("values-config")}
[config]
chromosomes = []

[[values]]
name = "chr"
values_from = "config.chromosomes"

[[rules]]
name = "call"
output = ["calls/{chr}.vcf"]
shell = "touch {output}"
`,
    jobs: [],
    switchedOff: [["call", 11]],
  },
  {
    name: "a header-only sample sheet: per-sample rules make no jobs, expand_inputs over samples_list adds nothing",
    pipeline: `${head("sheet", 'sample_groups_file = "samples.tsv"\n')}${PER_SAMPLE}`,
    files: { "samples.tsv": "name\tsamples\n" },
    jobs: ["summary"],
    switchedOff: [
      ["align", 5],
      ["summary", 15],
    ],
  },
  {
    name: "an inline sample group with samples = []",
    pipeline: `${head("inline-group")}
[[sample_groups]]
name = "cohort"
samples = []
${PER_SAMPLE}`,
    jobs: ["summary"],
    switchedOff: [
      ["align", 8],
      ["summary", 18],
    ],
  },
  {
    name: "a sample_pattern that matches no files",
    pipeline: `${head("pattern", 'sample_pattern = "raw/{sample}.fq"\n')}${PER_SAMPLE}`,
    jobs: ["summary"],
    switchedOff: [
      ["align", 5],
      ["summary", 15],
    ],
  },
  {
    name: "a header-only pairs file",
    pipeline: `${head("pairs", 'pairs_file = "pairs.csv"\n')}
[[rules]]
name = "call"
input = ["bam/{experiment}.bam"]
output = ["vcf/{pair_id}.vcf"]
shell = "touch {output}"
`,
    files: { "pairs.csv": "pair_id,experiment,control\n" },
    jobs: [],
    switchedOff: [["call", 5]],
  },
  { name: "transform values = []: neither map nor combine", pipeline: transform("values = []"), jobs: ["after"], switchedOff: [["count", 9]] },
  { name: "transform n = 0", pipeline: transform('n = "0"'), jobs: ["after"], switchedOff: [["count", 9]] },
  { name: "transform n from a config key holding 0", pipeline: transform('n = "config.shards"', "[config]\nshards = 0\n"), jobs: ["after"], switchedOff: [["count", 11]] },
  { name: "transform values_from an empty config array", pipeline: transform('values_from = "config.parts"', "[config]\nparts = []\n"), jobs: ["after"], switchedOff: [["count", 11]] },
  { name: "transform glob that matches no files", pipeline: transform('glob = "chunks/*.txt"'), jobs: ["after"], switchedOff: [["count", 9]] },
  {
    name: "expand_inputs over an empty config list adds no paths (not a literal {sample})",
    pipeline: `${head("expand-inputs")}
[config]
samples = []

[[rules]]
name = "summary"
input = ["header.txt"]
output = ["summary.txt"]
shell = "cat {input} > {output}"
expand_inputs = [{ pattern = "bam/{sample}.bam", variables = { sample = "config.samples" } }]
`,
    files: { "header.txt": "h\n" },
    jobs: ["summary"],
    switchedOff: [["summary", 12]],
  },
  {
    name: "error: scatter values_from naming no config key",
    pipeline: `${head("no-key")}
[[rules]]
name = "call"
output = ["calls/{chr}.vcf"]
shell = "touch {output}"
scatter = { variable = "chr", values_from = "config.chromosomes" }
`,
    error: { code: "E005", line: 8, message: `scatter of rule 'call' reads values_from = "config.chromosomes", which is not a config key` },
  },
  {
    name: "error: [[values]] values_from naming no config key",
    pipeline: `${head("no-key-values")}
[[values]]
name = "chr"
values_from = "config.chromosomes"
`,
    error: { code: "E005", line: 6, message: `[[values]] table 'chr' reads values_from = "config.chromosomes", but config has no key 'chromosomes'` },
  },
  {
    name: "error: a [[values]] table with a reserved name",
    pipeline: `${head("reserved")}
[[values]]
name = "sample"
values = ["a"]
`,
    error: { code: "EXPAND_ERROR", line: 4, message: "[[values]] table 'sample' uses a reserved wildcard name" },
  },
  {
    name: "error: an empty scatter gathering into a rule that does not exist",
    pipeline: `${head("ghost")}
[[rules]]
name = "call"
output = ["calls/{chr}.vcf"]
shell = "touch {output}"
scatter = { variable = "chr", values = [], gather = "mrege" }
${GATHER}`,
    error: { code: "EXPAND_ERROR", line: 8, message: "scatter of rule 'call' gathers into 'mrege', which is not a rule" },
  },
  {
    name: "error: transform n that is not a number",
    pipeline: transform('n = "many"'),
    error: { code: "EXPAND_ERROR", line: 9, message: `transform of rule 'count': n = "many" is neither a whole number nor a config key holding one` },
  },
  {
    name: "error: an unknown combine method, even with nothing to combine",
    pipeline: transform("values = []").replace('method = "concat"', 'method = "zip"'),
    error: { code: "EXPAND_ERROR", line: 11, message: "transform of rule 'count': unknown combine method 'zip'" },
  },
];
