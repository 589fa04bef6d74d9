/**
 * Edge inference: which job produces each input. In order of precedence: an exact output path; for a glob
 * input, every output it matches; otherwise outputs that are still templates (`results/{sample}.bam`) and
 * outputs inside an input that looks like a folder. `depends_on` adds declared edges.
 *
 * Lookups are indexed (a hash map for exact paths, a sorted list for prefixes, built only when needed), so
 * inference stays near-linear in the number of paths.
 */
import type { Job } from "../expand/expand.js";
import { EngineError } from "../findings.js";
import { globPathMatcher, matchesWildcards, wildcardPattern, type WildcardPattern } from "../format/path-patterns.js";

export type EdgeKind = "file" | "declared";

/** Most dependencies a job graph may have (their arrays take about 9 bytes each, plus the adjacency lists). */
export const MAX_EDGES = 20_000_000;

/** Producer → consumer edges as parallel arrays (job indices), without duplicates or self-edges. */
export interface EdgeList {
  from: Int32Array;
  to: Int32Array;
  kind: Uint8Array; // 0 = file, 1 = declared
  count: number;
}

/** File extensions treated as files, not folders, by the directory heuristic. */
const FILE_EXTENSIONS = new Set(
  "fa fasta fq fastq txt tsv csv json yaml yml toml bam sam cram vcf bcf bed gff gff3 gtf gbff dict bai fai tbi csi png pdf html htm log md rst zip tar gz bz2 xz zst".split(" "),
);

/** True when an input path is probably a folder (trailing slash, or no known file extension). */
export function looksLikeDirectory(path: string): boolean {
  if (path.endsWith("/")) return true;
  const last = path.split("/").pop() ?? "";
  if (last === "." || last === "..") return false;
  const dot = last.lastIndexOf(".");
  if (dot <= 0) return true;
  return !FILE_EXTENSIONS.has(last.slice(dot + 1).toLowerCase());
}

interface TemplateOutput {
  pattern: WildcardPattern;
  prefix: string;
  suffix: string;
  job: number;
}

/** Every job output, indexed for exact, prefix and template lookups. */
export class OutputIndex {
  private readonly exact = new Map<string, number | number[]>();
  private readonly templates: TemplateOutput[] = [];
  /** Template outputs by their literal prefix, and the lengths those prefixes have (a concrete input is looked up once per length). */
  private readonly templatesByPrefix = new Map<string, number[]>();
  private readonly prefixLengths: number[] = [];
  private sorted: { paths: string[]; jobs: Int32Array } | undefined;

  constructor(private readonly jobs: Job[]) {
    jobs.forEach((job, index) => {
      for (const path of job.output.paths) {
        this.addExact(path, index);
        if (path.endsWith("/") && path.length > 1) this.addExact(path.slice(0, -1), index);
        const pattern = path.includes("{") ? wildcardPattern(path) : undefined;
        if (pattern) this.templates.push({ pattern, prefix: pattern.literals[0]!, suffix: pattern.literals[pattern.literals.length - 1]!, job: index });
      }
    });
    const lengths = new Set<number>();
    this.templates.forEach((template, i) => {
      const list = this.templatesByPrefix.get(template.prefix);
      if (list) list.push(i);
      else this.templatesByPrefix.set(template.prefix, [i]);
      lengths.add(template.prefix.length);
    });
    this.prefixLengths.push(...[...lengths].sort((a, b) => a - b));
  }

  private addExact(path: string, job: number): void {
    const existing = this.exact.get(path);
    if (existing === undefined) this.exact.set(path, job);
    else if (typeof existing === "number") {
      if (existing !== job) this.exact.set(path, [existing, job]);
    } else if (existing[existing.length - 1] !== job) existing.push(job); // jobs come in order: only the last can repeat
  }

  /** Producers of exactly this path (or of the same folder written with/without a trailing slash). */
  exactProducers(path: string): number | number[] | undefined {
    return this.exact.get(path) ?? (path.endsWith("/") ? this.exact.get(path.slice(0, -1)) : undefined);
  }

  /** Every job with an output starting with `prefix`, via binary search on the sorted outputs. */
  withPrefix(prefix: string, visit: (path: string, job: number) => void): void {
    const sorted = this.sortedOutputs();
    let low = 0;
    let high = sorted.paths.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (sorted.paths[mid]! < prefix) low = mid + 1;
      else high = mid;
    }
    for (let i = low; i < sorted.paths.length && sorted.paths[i]!.startsWith(prefix); i++) visit(sorted.paths[i]!, sorted.jobs[i]!);
  }

  /** Producers whose output is a template that the concrete input matches. */
  templateProducers(input: string, visit: (job: number) => void): void {
    // Only templates whose prefix starts the input are candidates; they are tried in output order.
    let candidates: number[] | undefined;
    let merged = false;
    for (const length of this.prefixLengths) {
      if (length > input.length) break;
      const found = this.templatesByPrefix.get(input.slice(0, length));
      if (!found) continue;
      merged = candidates !== undefined;
      candidates = candidates ? [...candidates, ...found] : found;
    }
    if (!candidates) return;
    if (merged) candidates.sort((a, b) => a - b);
    for (const i of candidates) {
      const template = this.templates[i]!;
      if (input.endsWith(template.suffix) && matchesWildcards(template.pattern, input)) visit(template.job);
    }
  }

  private sortedOutputs(): { paths: string[]; jobs: Int32Array } {
    if (!this.sorted) {
      const entries: [string, number][] = [];
      this.jobs.forEach((job, index) => {
        for (const path of job.output.paths) entries.push([path, index]);
      });
      entries.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
      this.sorted = { paths: entries.map((entry) => entry[0]), jobs: Int32Array.from(entries, (entry) => entry[1]) };
    }
    return this.sorted;
  }
}

const GLOB_CHARS = /[*?[]/;

/** A glob input's matcher (`*` and `?` stay within one path segment) and its literal prefix. */
function globInput(input: string): { matches: (path: string) => boolean; prefix: string } {
  return { matches: globPathMatcher(input), prefix: input.slice(0, input.search(GLOB_CHARS)) };
}

/** Calls `visit` for every job that produces `input`, by the precedence rules above. */
export function forEachProducer(index: OutputIndex, input: string, visit: (job: number) => void): void {
  const exact = index.exactProducers(input);
  if (exact !== undefined) {
    if (typeof exact === "number") visit(exact);
    else for (const producer of exact) visit(producer);
    return;
  }
  if (GLOB_CHARS.test(input)) {
    const glob = globInput(input);
    index.withPrefix(glob.prefix, (path, producer) => {
      if (glob.matches(path)) visit(producer);
    });
    return;
  }
  if (input.includes("{")) return;
  index.templateProducers(input, visit);
  if (looksLikeDirectory(input)) index.withPrefix(input.replace(/\/+$/, "") + "/", (_path, producer) => visit(producer));
}

/** Infers all edges between jobs. */
export function inferEdges(jobs: Job[]): EdgeList {
  const index = new OutputIndex(jobs);
  // Names are only looked up for depends_on; a million-job plan without it skips this map.
  let byName: Map<string, number> | undefined;
  let capacity = Math.max(16, jobs.length * 2);
  let from = new Int32Array(capacity);
  let to = new Int32Array(capacity);
  let kind = new Uint8Array(capacity);
  let count = 0;
  // stamp[p] === consumer + 1 when the edge p → consumer is already recorded.
  const stamp = new Int32Array(jobs.length);

  const push = (producer: number, consumer: number, edgeKind: number): void => {
    if (producer === consumer || stamp[producer] === consumer + 1) return;
    stamp[producer] = consumer + 1;
    if (count === MAX_EDGES) {
      const job = jobs[consumer]!;
      throw new EngineError("LIMIT_ERROR", `the job graph has more than ${MAX_EDGES.toLocaleString("en-US")} dependencies (reached at job '${job.name}' of rule '${job.template}')`, {
        rule: job.template,
        at: job.rule.origin.source.locate(job.rule.origin.path),
        suggestion: "a depends_on or folder input that names an expanded rule links every job to every instance; depend on a rule that gathers them, or plan fewer jobs at a time",
      });
    }
    if (count === capacity) {
      capacity *= 2;
      const nextFrom = new Int32Array(capacity);
      nextFrom.set(from);
      from = nextFrom;
      const nextTo = new Int32Array(capacity);
      nextTo.set(to);
      to = nextTo;
      const nextKind = new Uint8Array(capacity);
      nextKind.set(kind);
      kind = nextKind;
    }
    from[count] = producer;
    to[count] = consumer;
    kind[count] = edgeKind;
    count++;
  };

  for (let consumer = 0; consumer < jobs.length; consumer++) {
    const job = jobs[consumer]!;
    const visit = (producer: number): void => push(producer, consumer, 0);
    for (const input of job.input.paths) forEachProducer(index, input, visit);
    for (const dependency of job.dependsOn) {
      byName ??= new Map(jobs.map((other, i) => [other.name, i]));
      const producer = byName.get(dependency);
      if (producer !== undefined) push(producer, consumer, 1);
    }
  }
  return { from: from.subarray(0, count), to: to.subarray(0, count), kind: kind.subarray(0, count), count };
}
