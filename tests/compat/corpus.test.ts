/**
 * The real pipeline corpus (gallery, web presets, community ports) through the real command line, when
 * STRAND_CORPUS points at it. Under STRICT_SERVICES=1 a missing STRAND_CORPUS fails instead of skipping.
 *
 * The corpus folder is read-only data: everything runs on a temporary copy.
 */
import { chmodSync, cpSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join, relative, resolve } from "node:path";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, parseData, parseEnvelope, parseJson, runStrand, stackTraceLines, STRAND_BIN, strandEnv, type StrandResult } from "../support/strand-cli.js";

const CORPUS = process.env.STRAND_CORPUS ? resolve(process.env.STRAND_CORPUS) : undefined;
const STRICT = process.env.STRICT_SERVICES === "1";

/**
 * Files whose `validate` errors are real errors in the file, not strand bugs: the exact error codes expected,
 * and why. (lint reports the same errors; dry-run still plans them, as the format specifies.)
 */
const VALIDATE_EXCEPTIONS: Record<string, { codes: string[]; reason: string }> = {
  "web-presets/scatter-gather.oxoflow": {
    codes: ["E003"],
    reason:
      "rule 'split' has input input.txt and output split/{chunk}.txt: {chunk} is in no input and nothing defines it " +
      "(no scatter block, [[values]] table or sample source; the chunk list sits in an unknown top-level [variables] " +
      "table, which the format ignores) — E003 is the specified diagnosis",
  },
};

/** Placeholders the community harness treats as failure when they survive into `debug` output. */
const LEFTOVER = /\{(sample|group|pair_id|experiment|control|config\.)/;

/** Folders whose pipelines rely on fixtures being put in place first (what their test/run.sh does). */
const FIXTURE_SETUP: Record<string, (folder: string) => void> = {
  "community/oxo-flow-circrna": (folder) => {
    mkdirSync(join(folder, "raw"), { recursive: true });
    for (const name of readdirSync(join(folder, "test/fixtures/raw"))) {
      if (name.endsWith(".fastq.gz")) cpSync(join(folder, "test/fixtures/raw", name), join(folder, "raw", name));
    }
  },
};

function oxoflowFiles(folder: string): string[] {
  if (!existsSync(folder)) return [];
  return readdirSync(folder)
    .filter((name) => name.endsWith(".oxoflow"))
    .sort()
    .map((name) => join(folder, name));
}

function communityFolders(root: string): string[] {
  const community = join(root, "community");
  if (!existsSync(community)) return [];
  return readdirSync(community)
    .sort()
    .map((name) => join(community, name))
    .filter((path) => lstatSync(path).isDirectory());
}

/** Top-level workflows: gallery, web presets, and each community folder's own *.oxoflow files. */
function topLevelWorkflows(root: string): string[] {
  const files = [...oxoflowFiles(join(root, "gallery")), ...oxoflowFiles(join(root, "web-presets"))];
  for (const folder of communityFolders(root)) files.push(...oxoflowFiles(folder));
  return files.map((file) => relative(root, file));
}

/** Included module files (community `rules/` and `modules/`), each with its host workflow. */
function moduleFiles(root: string): { module: string; host: string }[] {
  const found: { module: string; host: string }[] = [];
  for (const folder of communityFolders(root)) {
    const hosts = oxoflowFiles(folder);
    if (hosts.length === 0) continue;
    for (const sub of ["rules", "modules"]) {
      for (const file of oxoflowFiles(join(folder, sub))) found.push({ module: relative(root, file), host: relative(root, hosts[0]!) });
    }
  }
  return found;
}

function acceptanceScripts(root: string): string[] {
  return communityFolders(root)
    .filter((folder) => existsSync(join(folder, "test", "run.sh")))
    .map((folder) => relative(root, folder));
}

function makeWritable(path: string): void {
  const stat = lstatSync(path);
  if (stat.isSymbolicLink()) return;
  chmodSync(path, stat.mode | 0o200 | (stat.isDirectory() ? 0o700 : 0));
  if (stat.isDirectory()) for (const name of readdirSync(path)) makeWritable(join(path, name));
}

/** Copies part of the corpus into a fresh writable temporary folder. */
function copyOfCorpus(parts: string[] = ["."]): string {
  const target = mkdtempSync(join(tmpdir(), "strand-corpus-"));
  for (const part of parts) cpSync(join(CORPUS!, part), join(target, part), { recursive: true });
  makeWritable(target);
  return target;
}

interface Finding {
  code: string;
  severity: string;
  message: string;
}

function describeRun(label: string, result: StrandResult): string {
  return `${label} (exit ${result.exitCode})\n--- stdout:\n${result.stdout.slice(0, 4000)}\n--- stderr:\n${result.stderr.slice(0, 4000)}`;
}

function expectClean(label: string, result: StrandResult): void {
  expect(stackTraceLines(result.stderr), describeRun(label, result)).toEqual([]);
  expect(result.stdout + result.stderr, describeRun(label, result)).not.toMatch(/internal error|"code": "INTERNAL"/);
  expect([0, 1, 2], describeRun(label, result)).toContain(result.exitCode);
}

// Registered only when it applies, so a CI run with the corpus shows no skipped test at all.
if (!CORPUS && STRICT) {
  describe("corpus under STRICT_SERVICES=1", () => {
    it("needs STRAND_CORPUS", () => {
      throw new Error("STRAND_CORPUS is not set under STRICT_SERVICES=1");
    });
  });
}

describe.skipIf(!CORPUS)("corpus", () => {
  const workflows = CORPUS ? topLevelWorkflows(CORPUS) : [];
  const modules = CORPUS ? moduleFiles(CORPUS) : [];
  const scripts = CORPUS ? acceptanceScripts(CORPUS) : [];
  let copy: string;

  beforeAll(() => {
    assertBuilt();
    copy = copyOfCorpus();
    for (const [folder, setup] of Object.entries(FIXTURE_SETUP)) if (existsSync(join(copy, folder))) setup(join(copy, folder));
  });
  afterAll(() => {
    if (copy) rmSync(copy, { recursive: true, force: true });
  });

  /** Runs strand on a corpus file of the copy, from the file's folder. */
  const strandOn = (file: string, args: string[]) => runStrand([args[0]!, basename(file), ...args.slice(1)], { cwd: dirname(join(copy, file)) });

  it("holds the expected collections", () => {
    expect(workflows.filter((file) => file.startsWith("gallery/"))).toHaveLength(16);
    expect(workflows.filter((file) => file.startsWith("web-presets/"))).toHaveLength(8);
    expect(workflows.filter((file) => file.startsWith("community/")).length).toBeGreaterThanOrEqual(11);
    expect(scripts.length).toBeGreaterThanOrEqual(9);
    for (const file of Object.keys(VALIDATE_EXCEPTIONS)) expect(workflows).toContain(file);
  });

  describe.concurrent("every top-level workflow: validate, lint, dry-run, debug", () => {
    for (const file of workflows) {
      it(file, async () => {
        const [validate, lint, dryRun, debug] = await Promise.all([
          strandOn(file, ["validate", "--json"]),
          strandOn(file, ["lint", "--json"]),
          strandOn(file, ["dry-run"]),
          strandOn(file, ["debug"]),
        ]);
        for (const [label, result] of [["validate", validate], ["lint", lint], ["dry-run", dryRun], ["debug", debug]] as const) expectClean(`${label} ${file}`, result);

        // It loads, and validate reports no error — except the real errors listed above.
        const report = parseEnvelope<{ valid: boolean; rules: number }>(validate);
        const errorCodes = [...new Set(report.findings.filter((finding) => finding.severity === "error").map((finding) => finding.code))].sort();
        const exception = VALIDATE_EXCEPTIONS[file];
        expect(errorCodes, describeRun(`validate ${file}`, validate)).toEqual(exception?.codes ?? []);
        expect(validate.exitCode).toBe(exception ? 1 : 0);
        expect(report.data.rules).toBeGreaterThan(0);

        // lint runs to the end: a JSON report whose errors are validate's errors.
        const linted = parseEnvelope<{ error_count: number; passed: boolean }>(lint);
        const lintErrors = [...new Set(linted.findings.filter((finding) => finding.severity === "error").map((finding) => finding.code))].sort();
        expect(lintErrors, describeRun(`lint ${file}`, lint)).toEqual(exception?.codes ?? []);
        expect(lint.exitCode).toBe(linted.data.passed ? 0 : 1);

        // dry-run plans.
        expect(dryRun.exitCode, describeRun(`dry-run ${file}`, dryRun)).toBe(0);
        expect(dryRun.stdout).toMatch(/^\d+ jobs would execute/m);
        expect(dryRun.stdout).toMatch(/^ {2}1\. \S+ {2}\[(run|skip): /m);

        // debug renders every job; gallery and community leave no wildcard or config placeholder behind
        // (web presets use {sample} without any sample source, which the format leaves literal).
        expect(debug.exitCode, describeRun(`debug ${file}`, debug)).toBe(0);
        expect(debug.stdout).toMatch(/^\d+ job\(s\) from \d+ rule\(s\)$/m);
        if (!file.startsWith("web-presets/")) {
          const leftovers = debug.stdout.split("\n").filter((line) => LEFTOVER.test(line));
          expect(leftovers, `debug ${file}`).toEqual([]);
        }
      });
    }
  });

  /** What a host workflow provides to its modules: config keys, rule names, wildcards its jobs bind. */
  const hostFacts = new Map<string, Promise<{ config: string[]; rules: string[]; wildcards: Set<string> }>>();
  const factsOf = (host: string) => {
    let facts = hostFacts.get(host);
    if (!facts) {
      const cwd = dirname(join(copy, host));
      facts = Promise.all([
        runStrand(["config", "show", basename(host), "--json"], { cwd }),
        runStrand(["graph", basename(host), "-f", "json"], { cwd }),
        runStrand(["dry-run", basename(host), "--json"], { cwd }),
      ]).then(([config, graph, plan]) => ({
        config: Object.keys(parseData<{ config: Record<string, unknown> }>(config).config),
        rules: parseJson<{ nodes: { id: string }[] }>(graph).nodes.map((node) => node.id),
        wildcards: new Set(parseData<{ plan: { bindings: Record<string, string> }[] }>(plan).plan.flatMap((job) => Object.keys(job.bindings))),
      }));
      hostFacts.set(host, facts);
    }
    return facts;
  };

  describe.concurrent("included module files: validate --as-include", () => {
    for (const { module, host } of modules) {
      it(module, async () => {
        // From the host's folder, as the host's include reads it.
        const checked = await runStrand(["validate", "--as-include", "--json", relative(dirname(host), module)], { cwd: join(copy, dirname(host)) });
        expectClean(`validate --as-include ${module}`, checked);
        const envelope = parseEnvelope<{ valid: boolean; missing_inputs: string[] }>(checked);
        const report = { ...envelope.data, errors: envelope.findings.filter((finding) => finding.severity === "error") as Finding[] };
        expect(checked.exitCode).toBe(report.valid ? 0 : 1);
        expect(report.missing_inputs).toEqual([]);

        // A module alone lacks what its host provides; every error it has must be one the host explains.
        const facts = await factsOf(host);
        for (const error of report.errors) {
          const where = `${module}: [${error.code}] ${error.message}`;
          if (error.code === "E005") {
            const key = /has no key '(\w+)'/.exec(error.message)?.[1];
            expect(key, where).toBeDefined();
            expect(facts.config, `${where} — the host ${host} does not define it either`).toContain(key);
          } else if (error.code === "E007") {
            const name = /unknown rule '([^']+)'/.exec(error.message)?.[1];
            expect(name, where).toBeDefined();
            expect(facts.rules.some((rule) => rule === name || rule.endsWith(`::${name}`)), `${where} — not a rule of ${host}`).toBe(true);
          } else if (error.code === "E003") {
            const wildcard = /wildcard \{(\w+)\}/.exec(error.message)?.[1] ?? "";
            expect(facts.wildcards.has(wildcard), `${where} — no job of ${host} binds {${wildcard}}`).toBe(true);
          } else {
            expect.fail(`${where} — not an error a host could explain`);
          }
        }
      });
    }
  });

  describe.concurrent("community acceptance scripts (test/run.sh) with OXO=strand", () => {
    for (const folder of scripts) {
      it(folder, async () => {
        // Each script gets its own copy: scripts create and delete files (circrna's raw/).
        const own = copyOfCorpus([folder]);
        try {
          const subprocess = execa("bash", ["test/run.sh"], {
            cwd: join(own, folder),
            env: strandEnv({ OXO: STRAND_BIN }),
            reject: false,
            stdin: "ignore",
            timeout: 120_000,
          });
          const pid = subprocess.pid;
          const result = await subprocess;
          removeScriptScratch(pid);
          const run: StrandResult = { exitCode: typeof result.exitCode === "number" ? result.exitCode : -1, stdout: String(result.stdout), stderr: String(result.stderr) };
          expect(run.exitCode, describeRun(`bash ${folder}/test/run.sh`, run)).toBe(0);
          expect(run.stdout).toMatch(/^PASS$/m);
          expect(stackTraceLines(run.stderr)).toEqual([]);
        } finally {
          rmSync(own, { recursive: true, force: true });
        }
      });
    }
  });

  describe.concurrent("semantic spot checks", () => {
    it("genome-tracks: debug lists every ported rule instance", async () => {
      const result = await strandOn("community/oxo-flow-genome-tracks/main.oxoflow", ["debug"]);
      expect(result.exitCode).toBe(0);
      const jobs = [...result.stdout.matchAll(/^── (\S+)/gm)].map((match) => match[1]);
      for (const name of ["merge_bams_cohort_untreated", "merge_bams_cohort_treated", "coverage_cohort_untreated", "plot_tracks_Tmem26", "plot_tracks_chr1-1000-2000", "ucsc_hub"]) {
        expect(jobs).toContain(name);
      }
    });

    it("venus: plans from its TSV sample and pair sheets (quoted cells), [[values]] values_from and includes", async () => {
      const file = "community/oxo-flow-venus/venus.oxoflow";
      const [plan, debug] = await Promise.all([strandOn(file, ["dry-run", "--json"]), strandOn(file, ["debug"])]);
      expect(plan.exitCode, plan.stderr).toBe(0);
      const body = parseData<{ would_run: number; plan: { name: string; bindings: Record<string, string> }[]; sample_groups: { name: string; samples: string[] }[]; pairs: { pair_id: string; experiment: string; control: string }[] }>(plan);
      expect(body.would_run).toBeGreaterThan(0);
      const groups = Object.fromEntries(body.sample_groups.map((group) => [group.name, group.samples]));
      expect(groups.bulkRNA).toHaveLength(10);
      expect(groups.bulkRNA?.[0]).toBe("Pt01-TR");
      expect(groups.scRNA).toHaveLength(10);
      expect(body.pairs).toHaveLength(10);
      expect(body.pairs[0]).toMatchObject({ pair_id: "Pt01", experiment: "Pt01-TD", control: "Pt01-B" });
      for (const job of body.plan) expect(job.name).not.toMatch(/["']/);
      // values_from = "config.chromosomes" drives one Mutect2 job per chromosome and pair.
      expect(body.plan.map((job) => job.name)).toContain("mutect2_paired_chr_chr1_Pt01");
      expect(body.plan.filter((job) => job.name.startsWith("mutect2_paired_chr_") && job.name.endsWith("_Pt01")).length).toBeGreaterThan(20);
      expect(debug.exitCode).toBe(0);
      expect(debug.stdout).not.toContain("{sample}");
      expect(debug.stdout).not.toMatch(LEFTOVER);
    });

    it("rnaseq: every bam_qc::featurecounts job comes before multiqc in the dry-run", async () => {
      const result = await strandOn("community/oxo-flow-rnaseq/main.oxoflow", ["dry-run", "--samples", "first:1"]);
      expect(result.exitCode).toBe(0);
      const order = [...result.stdout.matchAll(/^ {2}(\d+)\. (\S+) {2}\[/gm)].map((match) => match[2]!);
      const multiqc = order.indexOf("multiqc");
      expect(multiqc).toBeGreaterThan(0);
      const featurecounts = order.filter((name) => name.startsWith("bam_qc::featurecounts"));
      expect(featurecounts.length).toBeGreaterThan(0);
      for (const name of featurecounts) expect(order.indexOf(name), name).toBeLessThan(multiqc);
      expect(order.indexOf("multiqc_custom_content")).toBeLessThan(multiqc);
      const full = parseData<{ plan: { name: string }[] }>(await strandOn("community/oxo-flow-rnaseq/main.oxoflow", ["dry-run", "--json"]));
      const names = full.plan.map((job) => job.name);
      for (const name of names.filter((job) => job.startsWith("bam_qc::featurecounts"))) expect(names.indexOf(name)).toBeLessThan(names.indexOf("multiqc"));
    });

    it("auto-sra: the slurm profile loads and the plan still runs", async () => {
      const result = await strandOn("community/oxo-flow-auto-sra-rnaseq-pipeline/main.oxoflow", ["dry-run", "--profile", "slurm"]);
      expect(result.exitCode, result.stderr).toBe(0);
      expect(result.stdout).toMatch(/would execute/);
    });

    it("gallery 15: one job per pair for {experiment}/{control} rules", async () => {
      const body = parseData<{ plan: { name: string; bindings: Record<string, string> }[]; pairs: { pair_id: string }[] }>(
        await strandOn("gallery/15_paired_experiment_control_pairs.oxoflow", ["dry-run", "--json"]),
      );
      expect(body.pairs).toHaveLength(2);
      const paired = body.plan.filter((job) => job.bindings.pair_id !== undefined);
      expect(paired.length).toBeGreaterThan(0);
      for (const job of paired) expect(job.name.endsWith(`_${job.bindings.pair_id}`)).toBe(true);
    });

    it("community pipelines plan with --samples first:1, as their acceptance scripts do", async () => {
      const files = workflows.filter((file) => file.startsWith("community/") && scripts.includes(dirname(file)));
      const results = await Promise.all(files.map((file) => strandOn(file, ["dry-run", "--samples", "first:1"])));
      results.forEach((result, i) => {
        expect(result.exitCode, describeRun(`dry-run --samples first:1 ${files[i]}`, result)).toBe(0);
        expect(result.stdout).toMatch(/would execute/);
      });
    });
  });
});

/** The acceptance scripts write scratch files named /tmp/<name>-<their PID>.txt; remove them. */
function removeScriptScratch(pid: number | undefined): void {
  if (pid === undefined) return;
  for (const name of readdirSync("/tmp")) {
    if (name.endsWith(`-${pid}.txt`) && /^(oxo|circrna)-/.test(name)) rmSync(join("/tmp", name), { force: true });
  }
}
