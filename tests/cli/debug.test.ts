/**
 * `strand debug`: every expanded job with its wildcards, paths and fully rendered command; `-r RULE`.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COHORT } from "../support/cli-pipelines.js";
import { parseEnvelope, runStrand, tempFolder, type TempFolder } from "../support/strand-cli.js";

interface DebugJob {
  name: string;
  rule: string;
  bindings: Record<string, string>;
  inputs: string[];
  outputs: string[];
  log: string | null;
  depends_on: string[];
  environment: string;
  command: string | null;
  error: unknown;
}

let folder: TempFolder;
beforeAll(() => {
  folder = tempFolder({ "main.oxoflow": COHORT });
});
afterAll(() => folder.remove());

const debug = (...args: string[]) => runStrand(["debug", ...args], { cwd: folder.dir });

describe.concurrent("strand debug", () => {
  it("shows every job with wildcards, paths, log and the rendered command", async () => {
    const result = await debug("main.oxoflow");
    expect(result.exitCode).toBe(0);
    const headers = [...result.stdout.matchAll(/^── (\S+)/gm)].map((match) => match[1]);
    expect(headers).toEqual(["align_cohort_S1", "align_cohort_S2", "align_cohort_S3", "merge", "report"]);
    expect(result.stdout).toContain("── align_cohort_S2  (rule align)");
    expect(result.stdout).toContain("   wildcards: group=cohort sample=S2");
    expect(result.stdout).toContain("   inputs:    raw/S2.fq");
    expect(result.stdout).toContain("   outputs:   aligned/S2.bam");
    expect(result.stdout).toContain("   log:       logs/align_S2.log");
    expect(result.stdout).toContain("   env:       system");
    expect(result.stdout).toContain("     bwa mem -M hg38 raw/S2.fq > aligned/S2.bam");
    expect(result.stdout).toContain("     samtools merge merged/cohort.bam aligned/S1.bam aligned/S2.bam aligned/S3.bam");
    expect(result.stdout.trim().endsWith("5 job(s) from 3 rule(s)")).toBe(true);
  });

  it("leaves no wildcard or config placeholder unexpanded (what the community harness greps for)", async () => {
    const result = await debug("main.oxoflow");
    expect(result.stdout).not.toMatch(/\{(sample|group|pair_id|config\.)/);
  });

  it("config overrides reach the rendered commands", async () => {
    const result = await debug("main.oxoflow", "genome=mm39");
    expect(result.stdout).toContain("bwa mem -M mm39 raw/S1.fq");
  });

  it("-r RULE shows only that rule's jobs", async () => {
    const result = await debug("main.oxoflow", "-r", "align");
    expect(result.exitCode).toBe(0);
    expect([...result.stdout.matchAll(/^── (\S+)/gm)].map((match) => match[1])).toEqual(["align_cohort_S1", "align_cohort_S2", "align_cohort_S3"]);
    expect(result.stdout.trim().endsWith("3 job(s) from 1 rule(s)")).toBe(true);
  });

  it("-r matches job names by prefix and may be repeated", async () => {
    const result = await debug("main.oxoflow", "-r", "align_cohort_S3", "--rule", "merge");
    expect([...result.stdout.matchAll(/^── (\S+)/gm)].map((match) => match[1])).toEqual(["align_cohort_S3", "merge"]);
  });

  it("-r with an unknown rule is a usage error (exit 2) listing the rules", async () => {
    const result = await debug("main.oxoflow", "-r", "nope");
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain("matches no rule");
    expect(result.stderr).toContain("align, merge, report");
  });

  it("--json gives the same jobs as data", async () => {
    const result = await debug("main.oxoflow", "--json", "-r", "merge");
    expect(result.exitCode).toBe(0);
    const envelope = parseEnvelope<DebugJob[]>(result);
    expect(envelope).toMatchObject({ ok: true, command: "debug", findings: [] });
    const jobs = envelope.data;
    expect(jobs).toEqual([
      {
        name: "merge",
        rule: "merge",
        bindings: {},
        inputs: ["aligned/S1.bam", "aligned/S2.bam", "aligned/S3.bam"],
        outputs: ["merged/cohort.bam"],
        log: "logs/merge.log",
        depends_on: [],
        environment: "system",
        command: "samtools merge merged/cohort.bam aligned/S1.bam aligned/S2.bam aligned/S3.bam",
        error: null,
      },
    ]);
  });

  it("--samples limits the jobs", async () => {
    const result = await debug("main.oxoflow", "--samples", "S2");
    expect([...result.stdout.matchAll(/^── (\S+)/gm)].map((match) => match[1])).toEqual(["align_cohort_S2", "merge", "report"]);
  });
});
