/**
 * The checkpoint store (`.strand/checkpoint.json` plus its journal) and what a job record holds:
 * fingerprints, script digests, referenced config (secrets hashed, commands masked) and input manifests.
 */
import { appendFileSync, existsSync, readdirSync, readFileSync, truncateSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { expandPipeline, type Job } from "../../../../src/engine/expand/expand.js";
import { loadPipelineText } from "../../../../src/engine/format/load.js";
import type { Pipeline } from "../../../../src/engine/format/model.js";
import { CHECKPOINT_FILE, JOURNAL_FILE, openCheckpoint, readCheckpoint, type JobRecord } from "../../../../src/engine/run/checkpoint/checkpoint.js";
import {
  configSnapshot,
  createJobRecord,
  inputManifest,
  ruleConfigKeys,
  ruleFingerprint,
  scriptDigest,
  type JobOutcome,
} from "../../../../src/engine/run/checkpoint/fingerprint.js";
import { removeTempDirs, tempDir, writeFile } from "../../../support/temp-workspace.js";

afterAll(removeTempDirs);

const OK: JobOutcome = { status: "completed", exit_code: 0, wall_time_secs: 1.5, retries: 0, command: "true", stderr_tail: "" };

async function load(dir: string, body: string, overrides?: Record<string, string>): Promise<Pipeline> {
  return loadPipelineText(`[workflow]\nname = "cp"\n\n${body}`, { path: "main.oxoflow", dir, overrides });
}

function jobsOf(pipeline: Pipeline): Map<string, Job> {
  return new Map(expandPipeline(pipeline, "plan").jobs.map((job) => [job.name, job]));
}

/** A small record, for store tests that do not care about its contents. */
function record(overrides: Partial<JobRecord> = {}): JobRecord {
  return { status: "completed", rule: "r", fingerprint: "sha256:00", inputs: [], config: {}, outputs: ["o.txt"], exit_code: 0, wall_time_secs: 1, retries: 0, finished_at: "2026-01-01T00:00:00.000Z", command: "true", stderr_tail: "", ...overrides };
}

function collectWarnings(): { warn: (message: string) => void; messages: string[] } {
  const messages: string[] = [];
  return { warn: (message) => messages.push(message), messages };
}

describe("checkpoint store", () => {
  it("round-trips through checkpoint.json: pretty JSON, version 1, the documented keys", () => {
    const dir = tempDir();
    const store = openCheckpoint(dir, { workflowPath: join(dir, "main.oxoflow") });
    store.record("align_S1", record({ rule: "align" }));
    store.record("align_S2", record({ rule: "align", status: "failed", exit_code: 2 }));
    store.tombstone("trim_S1", ["trimmed/S1.fq"]);
    store.setReentries([{ round: 1, rule: "discover", group: "cohort", samples: ["S9"], pairs: [] }]);
    store.setConfigSnapshot({ genome: "hg38" });
    store.compact();

    expect(existsSync(join(dir, JOURNAL_FILE))).toBe(false);
    const text = readFileSync(join(dir, CHECKPOINT_FILE), "utf8");
    expect(text).toContain('\n  "version": 1,');
    const stored = JSON.parse(text) as Record<string, unknown>;
    expect(Object.keys(stored).sort()).toEqual(["config_snapshot", "jobs", "reentries", "tombstones", "updated_at", "version", "workdir", "workflow_path"]);
    expect(stored).toMatchObject({ workflow_path: join(dir, "main.oxoflow"), workdir: dir, config_snapshot: { genome: "hg38" }, tombstones: { trim_S1: ["trimmed/S1.fq"] } });

    const read = readCheckpoint(dir)!;
    expect(Object.keys(read.jobs)).toEqual(["align_S1", "align_S2"]);
    expect(read.jobs.align_S2).toMatchObject({ status: "failed", exit_code: 2 });
    expect(read.reentries).toEqual([{ round: 1, rule: "discover", group: "cohort", samples: ["S9"], pairs: [] }]);
  });

  it("no checkpoint at all reads as undefined; opening one for a run starts empty", () => {
    const dir = tempDir();
    expect(readCheckpoint(dir)).toBeUndefined();
    const store = openCheckpoint(dir);
    expect(store.data.jobs).toEqual({});
    expect(existsSync(join(dir, ".strand"))).toBe(true);
  });

  it("each record is one journal line, readable before any compaction (a crashed run loses nothing)", () => {
    const dir = tempDir();
    const store = openCheckpoint(dir);
    store.record("a", record());
    store.record("b", record());
    expect(existsSync(join(dir, CHECKPOINT_FILE))).toBe(false);
    const lines = readFileSync(join(dir, JOURNAL_FILE), "utf8").trim().split("\n");
    expect(lines).toHaveLength(2);
    expect(JSON.parse(lines[0]!)).toMatchObject({ op: "record", job: "a" });
    expect(Object.keys(readCheckpoint(dir)!.jobs)).toEqual(["a", "b"]);
  });

  it("the journal is replayed over checkpoint.json; a torn last line is ignored quietly", () => {
    const dir = tempDir();
    const first = openCheckpoint(dir);
    first.record("a", record({ command: "old" }));
    first.compact();
    const second = openCheckpoint(dir);
    second.record("a", record({ command: "new" }));
    second.record("b", record());
    // The engine died in the middle of writing a line.
    appendFileSync(join(dir, JOURNAL_FILE), '{"op":"record","job":"c","rec');

    const { warn, messages } = collectWarnings();
    const read = readCheckpoint(dir, { warn })!;
    expect(Object.keys(read.jobs).sort()).toEqual(["a", "b"]);
    expect(read.jobs.a!.command).toBe("new");
    expect(messages).toEqual([]);

    // The next run folds the journal in at once, so its own lines never follow a torn one.
    const third = openCheckpoint(dir, { warn });
    expect(existsSync(join(dir, JOURNAL_FILE))).toBe(false);
    third.record("c", record());
    expect(Object.keys(readCheckpoint(dir)!.jobs).sort()).toEqual(["a", "b", "c"]);
    expect(messages).toEqual([]);
  });

  it("an unreadable line in the middle of the journal is skipped with a warning", () => {
    const dir = tempDir();
    const store = openCheckpoint(dir);
    store.record("a", record());
    appendFileSync(join(dir, JOURNAL_FILE), "garbage\n");
    store.record("b", record());
    const { warn, messages } = collectWarnings();
    expect(Object.keys(readCheckpoint(dir, { warn })!.jobs)).toEqual(["a", "b"]);
    expect(messages).toEqual([".strand/checkpoint.journal: skipped 1 unreadable line(s); the jobs they recorded will run again"]);
  });

  it.each([
    ["bad JSON", "{ not json"],
    ["the wrong shape", JSON.stringify({ version: 1, workflow_path: "x", workdir: "y", updated_at: "z", jobs: { a: { status: "done" } } })],
    ["another version", JSON.stringify({ version: 7 })],
  ])("a checkpoint.json with %s is set aside with a warning and the run starts empty", (_, content) => {
    const dir = tempDir();
    writeFile(dir, CHECKPOINT_FILE, content);
    const { warn, messages } = collectWarnings();
    const store = openCheckpoint(dir, { warn });
    expect(store.data.jobs).toEqual({});
    const aside = readdirSync(join(dir, ".strand")).filter((name) => name.startsWith("checkpoint.json.corrupt-"));
    expect(aside).toHaveLength(1);
    expect(readFileSync(join(dir, ".strand", aside[0]!), "utf8")).toBe(content);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toContain(".strand/checkpoint.json is unreadable");
    expect(messages[0]).toContain(`set aside as .strand/${aside[0]}`);
    // The fresh checkpoint is usable.
    store.record("a", record());
    store.compact();
    expect(Object.keys(readCheckpoint(dir)!.jobs)).toEqual(["a"]);
  });

  it("reading a corrupt checkpoint read-only warns and changes nothing", () => {
    const dir = tempDir();
    writeFile(dir, CHECKPOINT_FILE, "[]");
    const { warn, messages } = collectWarnings();
    expect(readCheckpoint(dir, { warn })!.jobs).toEqual({});
    expect(messages[0]).toMatch(/^\.strand\/checkpoint\.json is unreadable \(.*\); ignoring it \(a run would set it aside\)$/);
    expect(readdirSync(join(dir, ".strand"))).toEqual(["checkpoint.json"]);
  });

  it("a completed record clears the job's tombstone; job names like 'constructor' are plain keys", () => {
    const dir = tempDir();
    const store = openCheckpoint(dir);
    store.tombstone("constructor", ["tmp.txt"]);
    expect(store.data.tombstones.constructor).toEqual(["tmp.txt"]);
    expect(readCheckpoint(dir)!.jobs.constructor).toBeUndefined();
    store.record("constructor", record());
    expect(store.data.tombstones.constructor).toBeUndefined();
    store.compact();
    expect(readCheckpoint(dir)!.jobs.constructor).toMatchObject({ status: "completed" });
  });
});

describe("job records", () => {
  const PIPELINE = `[config]
threshold = 5
api_token = "tok-123456"
db_pass = { default = "hunter22", sensitive = true }
genome = "ref/{config.build}.fa"
build = "hg38"

[[rules]]
name = "score"
input = ["data/b.txt", "data/a.txt", "data/a.txt"]
output = ["score.txt"]
script = "scripts/score.py --t {config.threshold} --genome {config.genome}"
envvars = { TOKEN = "{config.api_token}" }
params = { password = "{config.db_pass}" }
`;

  it("holds the fingerprint, script digest, referenced config (secrets hashed) and a masked command", async () => {
    const dir = tempDir();
    writeFile(dir, "data/a.txt", "a");
    writeFile(dir, "data/b.txt", "bb");
    writeFile(dir, "scripts/score.py", "print(1)\n");
    const pipeline = await load(dir, PIPELINE);
    const job = jobsOf(pipeline).get("score")!;
    const stderr = "x".repeat(5000) + " login with tok-123456 failed";
    const result = createJobRecord(job, pipeline, { ...OK, command: "python scripts/score.py --token tok-123456 --pw hunter22", stderr_tail: stderr, cpu_seconds: 0.5, max_memory_mb: 12 });

    expect(result).toMatchObject({ status: "completed", rule: "score", outputs: ["score.txt"], exit_code: 0, wall_time_secs: 1.5, cpu_seconds: 0.5, max_memory_mb: 12, retries: 0 });
    expect(result.fingerprint).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(result.fingerprint).toBe(ruleFingerprint(job, pipeline));
    expect(result.script).toEqual({ path: "scripts/score.py", digest: expect.stringMatching(/^sha256:[0-9a-f]{64}$/) });
    expect(result.command).toBe("python scripts/score.py --token *** --pw ***");
    expect(result.stderr_tail).toHaveLength(2048);
    expect(result.stderr_tail.endsWith("login with *** failed")).toBe(true);
    // Nested references are rendered, so changing `build` shows up as a change of `genome`.
    expect(result.config).toEqual({
      threshold: "5",
      genome: "ref/hg38.fa",
      api_token: expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
      db_pass: expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
    });
    expect(JSON.stringify(result)).not.toContain("tok-123456");
    expect(JSON.stringify(result)).not.toContain("hunter22");
    expect(ruleConfigKeys(job.rule)).toEqual(["api_token", "db_pass", "genome", "threshold"]);
    // Inputs sorted and de-duplicated, each content-hashed.
    expect(result.inputs.map((entry) => [entry.path, entry.size])).toEqual([
      ["data/a.txt", 1],
      ["data/b.txt", 2],
    ]);
    for (const entry of result.inputs) expect(entry.hash).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it("the config snapshot hashes sensitive keys and leaves out the sample lists", async () => {
    const dir = tempDir();
    const pipeline = await load(dir, `${PIPELINE}\n[[sample_groups]]\nname = "g"\nsamples = ["S1"]\n`);
    const snapshot = configSnapshot(pipeline);
    expect(Object.keys(snapshot).sort()).toEqual(["api_token", "build", "db_pass", "genome", "threshold"]);
    expect(snapshot.threshold).toBe("5");
    expect(snapshot.db_pass).toMatch(/^sha256:/);
    expect(snapshot.api_token).toMatch(/^sha256:/);
  });

  it("a failed record keeps no input manifest (the job runs again whatever its inputs)", async () => {
    const dir = tempDir();
    writeFile(dir, "data/a.txt", "a");
    const pipeline = await load(dir, PIPELINE);
    const failed = createJobRecord(jobsOf(pipeline).get("score")!, pipeline, { ...OK, status: "failed", exit_code: 1 });
    expect(failed).toMatchObject({ status: "failed", exit_code: 1, inputs: [] });
    expect(failed.script).toEqual({ path: "scripts/score.py", digest: null });
  });

  it("the fingerprint ignores threads and memory and follows the shell text", async () => {
    const dir = tempDir();
    const body = (shell: string, threads: number) => `[[rules]]\nname = "r"\noutput = ["o"]\nshell = "${shell}"\nthreads = ${threads}\nmemory = "${threads}G"\n`;
    const fingerprint = async (shell: string, threads: number) => {
      const pipeline = await load(dir, body(shell, threads));
      return ruleFingerprint(jobsOf(pipeline).get("r")!, pipeline);
    };
    expect(await fingerprint("echo a", 1)).toBe(await fingerprint("echo a", 8));
    expect(await fingerprint("echo a", 1)).not.toBe(await fingerprint("echo b", 1));
  });

  it("the script digest follows the script file's content", async () => {
    const dir = tempDir();
    writeFile(dir, "scripts/run.sh", "echo 1\n");
    const body = `[[rules]]\nname = "r"\noutput = ["o"]\nscript = "scripts/run.sh"\n`;
    const pipeline = await load(dir, body);
    const job = jobsOf(pipeline).get("r")!;
    const before = scriptDigest(job, pipeline)!;
    writeFile(dir, "scripts/run.sh", "echo 2\n");
    expect(scriptDigest(job, pipeline)!.digest).not.toBe(before.digest);
  });
});

describe("input manifests", () => {
  it("folders and globs are expanded to their files; dot files are left out of globs", async () => {
    const dir = tempDir();
    writeFile(dir, "ref/index/a.bin", "1");
    writeFile(dir, "ref/index/sub/b.bin", "22");
    writeFile(dir, "reads/S1_R1.fq", "r1");
    writeFile(dir, "reads/S1_R2.fq", "r2");
    writeFile(dir, "reads/.hidden.fq", "h");
    writeFile(dir, "reads/nested/S2_R1.fq", "n");
    const pipeline = await load(dir, `[[rules]]\nname = "r"\ninput = ["ref/index/", "reads/S1_R[12].fq", "reads/**/*.fq", "missing.txt", "unresolved/{nothing}.txt"]\noutput = ["o"]\nshell = "x"\n`);
    const manifest = inputManifest(jobsOf(pipeline).get("r")!, dir);
    expect(manifest.map((entry) => entry.path)).toEqual(["reads/S1_R1.fq", "reads/S1_R2.fq", "reads/nested/S2_R1.fq", "ref/index/a.bin", "ref/index/sub/b.bin"]);
  });

  it("files above the content-hash limit are recorded by size and time only", async () => {
    const dir = tempDir();
    writeFile(dir, "small.txt", "small");
    // A sparse 65 MiB file costs nothing to create.
    writeFileSync(join(dir, "big.bam"), "");
    truncateSync(join(dir, "big.bam"), 65 * 1024 * 1024);
    const pipeline = await load(dir, `[[rules]]\nname = "r"\ninput = ["small.txt", "big.bam"]\noutput = ["o"]\nshell = "x"\n`);
    const manifest = inputManifest(jobsOf(pipeline).get("r")!, dir);
    expect(manifest).toEqual([
      { path: "big.bam", size: 65 * 1024 * 1024, mtime_ms: expect.any(Number) },
      { path: "small.txt", size: 5, mtime_ms: expect.any(Number), hash: expect.stringMatching(/^sha256:/) },
    ]);
    // The limit can be lowered.
    expect(inputManifest(jobsOf(pipeline).get("r")!, dir, { hashLimit: 2 }).every((entry) => entry.hash === undefined)).toBe(true);
  });

  it("touching a file keeps its hash; changing it changes the hash", async () => {
    const dir = tempDir();
    writeFile(dir, "a.txt", "one");
    const pipeline = await load(dir, `[[rules]]\nname = "r"\ninput = ["a.txt"]\noutput = ["o"]\nshell = "x"\n`);
    const job = jobsOf(pipeline).get("r")!;
    const [before] = inputManifest(job, dir);
    utimesSync(join(dir, "a.txt"), new Date(Date.now() + 60_000), new Date(Date.now() + 60_000));
    const [touched] = inputManifest(job, dir);
    expect(touched!.mtime_ms).not.toBe(before!.mtime_ms);
    expect(touched!.hash).toBe(before!.hash);
    writeFile(dir, "a.txt", "two");
    expect(inputManifest(job, dir)[0]!.hash).not.toBe(before!.hash);
  });
});
