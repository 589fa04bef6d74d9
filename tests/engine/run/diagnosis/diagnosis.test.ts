/**
 * Failure diagnosis: the pattern table's matching and precedence on known messages (including the
 * predecessor's false positives, which must not fire), and real failing jobs run through the engine's
 * command line, diagnosed from their real event logs and stderr files.
 */
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readEventLog, type RunEvent } from "../../../../src/engine/run/event-log.js";
import { DIAGNOSIS_PATTERNS } from "../../../../src/engine/run/diagnosis/diagnosis-patterns.js";
import { diagnoseFailure, diagnoseRun, type Diagnostics, type FailureDiagnosis } from "../../../../src/engine/run/diagnosis/diagnosis.js";
import { assertBuilt, STRAND_BIN, strandEnv } from "../../../support/strand-cli.js";

// ---------------------------------------------------------------------------------------------------------
// Running a real pipeline

interface PipelineRun {
  dir: string;
  exitCode: number;
  events: RunEvent[];
  diagnostics: Diagnostics;
}

const folders: string[] = [];
afterAll(() => {
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

/** Writes `files` and the pipeline into a fresh folder, runs `strand run` on it, and diagnoses its event log. */
async function runPipeline(pipeline: string, options: { files?: Record<string, string>; args?: string[]; prepare?: (dir: string) => void } = {}): Promise<PipelineRun> {
  assertBuilt();
  const dir = mkdtempSync(join(tmpdir(), "strand-diagnosis-"));
  folders.push(dir);
  for (const [name, content] of Object.entries(options.files ?? {})) writeFileSync(join(dir, name), content);
  writeFileSync(join(dir, "main.oxoflow"), `[workflow]\nname = "diagnosis"\nversion = "1.0.0"\n\n${pipeline}`);
  options.prepare?.(dir);
  const eventsPath = join(dir, "events.jsonl");
  const result = await execa(process.execPath, [STRAND_BIN, "run", join(dir, "main.oxoflow"), "-d", dir, "--events", eventsPath, "--run-id", "diag", ...(options.args ?? [])], {
    cwd: dir,
    env: strandEnv(),
    extendEnv: true,
    reject: false,
    stdin: "ignore",
    timeout: 60_000,
  });
  const events = readEventLog(eventsPath);
  const readLog = (path: string): string | undefined => {
    try {
      return readFileSync(path, "utf8");
    } catch {
      return undefined;
    }
  };
  return { dir, exitCode: typeof result.exitCode === "number" ? result.exitCode : -1, events, diagnostics: diagnoseRun(events, readLog) };
}

function failureOf(run: PipelineRun, job: string): FailureDiagnosis {
  const failure = run.diagnostics.failures.find((entry) => entry.job === job);
  if (!failure) throw new Error(`no diagnosis for job ${job}: ${JSON.stringify(run.diagnostics.failures.map((entry) => entry.job))}`);
  return failure;
}

function rule(name: string, shell: string, extra = ""): string {
  return `[[rules]]\nname = "${name}"\noutput = ["out/${name}.txt"]\nshell = '''${shell}'''\n${extra}\n`;
}

// ---------------------------------------------------------------------------------------------------------
// The pattern table

describe("diagnosis patterns", () => {
  it("has at least 30 patterns with unique ids, each with a category, a cause, suggestions and something to match", () => {
    expect(DIAGNOSIS_PATTERNS.length).toBeGreaterThanOrEqual(30);
    expect(new Set(DIAGNOSIS_PATTERNS.map((pattern) => pattern.id)).size).toBe(DIAGNOSIS_PATTERNS.length);
    for (const pattern of DIAGNOSIS_PATTERNS) {
      expect(pattern.regex.length + (pattern.error_codes?.length ?? 0), pattern.id).toBeGreaterThan(0);
      expect(pattern.likely_cause, pattern.id).not.toBe("");
      expect(pattern.suggestions.length, pattern.id).toBeGreaterThan(0);
      if (pattern.implied_by_exit_code || pattern.exit_code_required) expect(pattern.exit_codes?.length, pattern.id).toBeGreaterThan(0);
    }
  });

  it("lets at most one pattern claim an exit code on its own, and never exit code 1 or 2", () => {
    const claimed = DIAGNOSIS_PATTERNS.filter((pattern) => pattern.implied_by_exit_code).flatMap((pattern) => pattern.exit_codes ?? []);
    expect(new Set(claimed).size).toBe(claimed.length);
    expect(claimed).not.toContain(1);
    expect(claimed).not.toContain(2);
  });

  it("fills in only groups every one of a pattern's expressions captures (or gives a fallback)", () => {
    const builtIn = new Set(["rule", "job", "exit_code"]);
    for (const pattern of DIAGNOSIS_PATTERNS) {
      for (const text of [pattern.likely_cause, ...pattern.suggestions]) {
        for (const [, name] of text.matchAll(/\{(\w+)\}/g)) {
          if (builtIn.has(name!)) continue;
          for (const regex of pattern.regex) expect(regex.source, `${pattern.id}: {${name}} in "${text}"`).toContain(`(?<${name}>`);
          expect(pattern.error_codes, `${pattern.id}: {${name}} cannot come from an error code`).toBeUndefined();
        }
      }
    }
  });
});

// ---------------------------------------------------------------------------------------------------------
// Matching known messages

const fail = (stderr: string, exit_code: number | null = 1, error?: string) => diagnoseFailure({ rule: "step", job: "step_s1", exit_code, stderr, error });

/** One real-world message per pattern: [stderr, exit code, expected pattern, engine error text?]. */
const SAMPLES: [string, number | null, string, string?][] = [
  ["EnvironmentLocationNotFound: Not a conda environment: /opt/envs/qc", 1, "conda_environment"],
  ["bash: line 1: conda: command not found", 127, "conda_environment"],
  ["samtools: error while loading shared libraries: libcrypto.so.1.0.0: cannot open shared object file: No such file or directory", 127, "missing_shared_library"],
  ["./bwa: /lib/x86_64-linux-gnu/libc.so.6: version `GLIBC_2.34' not found (required by ./bwa)", 1, "library_version_mismatch"],
  ["bash: ./run.sh: /bin/bash^M: bad interpreter: No such file or directory", 126, "bad_interpreter"],
  ["bash: line 1: ./tool: cannot execute binary file: Exec format error", 126, "exec_format_error"],
  ["bash: line 1: ./bin/mytool: No such file or directory", 127, "command_path_missing"],
  ["env: ‘python3.12’: No such file or directory", 127, "command_path_missing"],
  ["bash: line 1: fastqc: command not found", 127, "command_not_found"],
  ["sh: 1: multiqc: not found", 127, "command_not_found"],
  ["bash: line 1: ./align.sh: Permission denied", 126, "not_executable"],
  ["slurmstepd: error: Detected 1 oom-kill event(s) in StepId=123.batch. Some of your processes may have been killed by the cgroup out-of-memory handler.", 137, "scheduler_out_of_memory"],
  ["torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB", 1, "gpu_out_of_memory"],
  ["bash: fork: retry: Resource temporarily unavailable", 254, "process_limit"],
  ["terminate called after throwing an instance of 'std::bad_alloc'\n  what():  std::bad_alloc", 134, "out_of_memory"],
  ["Exception in thread \"main\" java.lang.OutOfMemoryError: Java heap space", 1, "out_of_memory"],
  ["Traceback (most recent call last):\n  File \"x.py\", line 3, in <module>\nMemoryError", 1, "out_of_memory"],
  ["numpy.core._exceptions._ArrayMemoryError: Unable to allocate 37.3 GiB for an array with shape (5000000000,)", 1, "out_of_memory"],
  ["Error: cannot allocate vector of size 3.2 Gb\nExecution halted", 1, "out_of_memory"],
  ["bwa: Cannot allocate memory", 1, "out_of_memory"],
  ["bash: line 1:  4242 Killed                  STAR --runThreadN 8", 137, "killed"],
  ["slurmstepd: error: *** JOB 4711 ON node12 CANCELLED AT 2024-05-01T10:00:00 DUE TO TIME LIMIT ***", 15, "scheduler_time_limit"],
  ["", 124, "engine_time_limit", "timed out after 2 h (process group killed)"],
  ["timeout: sending signal TERM to command ‘sleep’", 124, "timeout_command"],
  ["samtools sort: failed writing to \"x.bam\": No space left on device", 1, "disk_full"],
  ["cp: error writing 'big.fastq': Disk quota exceeded", 1, "disk_full"],
  ["OSError: [Errno 24] Too many open files: '/tmp/chunk_1021'", 1, "too_many_open_files"],
  ["touch: cannot touch '/data/ref/x': Read-only file system", 1, "read_only_filesystem"],
  ["cat: /root/secret.txt: Permission denied", 1, "permission_denied"],
  ["PermissionError: [Errno 13] Permission denied: '/results/out.tsv'", 1, "permission_denied"],
  ["gzip: stdout: Broken pipe", 1, "broken_pipe"],
  ["bash: line 1:  7 Terminated              sleep 100", 143, "terminated"],
  ["", 130, "interrupted", "killed by SIGINT"],
  ["curl: (6) Could not resolve host: ftp.ensembl.org", 6, "dns_resolution"],
  ["curl: (7) Failed to connect to localhost port 8080 after 0 ms: Connection refused", 7, "network_unreachable"],
  ["HTTP request sent, awaiting response... 404 Not Found\nERROR 404: Not Found.", 8, "download_http_error"],
  ["gzip: reads_R1.fastq.gz: unexpected end of file", 1, "corrupt_gzip"],
  ["EOFError: Compressed file ended before the end-of-stream marker was reached", 1, "corrupt_gzip"],
  ["[W::bam_hdr_read] EOF marker is absent. The input is probably truncated\n[E::bgzf_read] Read block operation failed with error 4 after 0 of 4 bytes", 1, "truncated_bam"],
  ["[E::hts_idx_load3] Could not load local index file 'sample.bam.bai'\nsamtools view: random alignment retrieval only works for indexed BAM or CRAM files.", 1, "bam_index_missing"],
  ["cutadapt: error: Error in FASTQ file at line 4: Length of sequence and qualities differ\ndnaio.exceptions.FastqFormatError: Error in FASTQ file at line 4", 1, "fastq_format"],
  ["ERROR: input file sample.vcf is empty", 1, "empty_input"],
  ["cat: data/missing.txt: No such file or directory", 1, "missing_file"],
  ["FileNotFoundError: [Errno 2] No such file or directory: 'counts/s1.tsv'", 1, "missing_file"],
  ["bash: -c: line 3: syntax error near unexpected token `fi'", 2, "shell_syntax_error"],
  ['  File "plot.py", line 4\n    print("x"\n         ^\nSyntaxError: \'(\' was never closed', 1, "script_syntax_error"],
  ["bash: line 1: SAMPLE: unbound variable", 1, "unbound_variable"],
  ["usage: tool.py [-h] --input INPUT\ntool.py: error: the following arguments are required: --input", 2, "missing_argument"],
  ["grep: invalid option -- 'Z'\nUsage: grep [OPTION]... PATTERNS [FILE]...", 2, "invalid_option"],
  ["docker: Cannot connect to the Docker daemon at unix:///var/run/docker.sock. Is the docker daemon running?", 125, "container_daemon"],
  ["docker: Error response from daemon: pull access denied for biocontainers/nope, repository does not exist or may require 'docker login'", 125, "container_image_missing"],
  ["FATAL:   could not open image /images/tool.sif: failed to retrieve path for /images/tool.sif: lstat /images/tool.sif: no such file or directory", 255, "apptainer_image"],
  ["Traceback (most recent call last):\n  File \"<string>\", line 1, in <module>\nModuleNotFoundError: No module named 'pysam'", 1, "python_module_missing"],
  ["Traceback (most recent call last):\nImportError: cannot import name 'soft_unicode' from 'markupsafe'", 1, "python_import_error"],
  ["Error in library(DESeq2) : there is no package called ‘DESeq2’\nExecution halted", 1, "r_package_missing"],
  ["Traceback (most recent call last):\n  File \"x.py\", line 9, in <module>\n    int('a')\nValueError: invalid literal for int() with base 10: 'a'", 1, "python_exception"],
  ["Error in read.table(file) : more columns than column names\nCalls: main -> read.table\nExecution halted", 1, "r_error"],
  ["Exception in thread \"main\" java.lang.IllegalArgumentException: Invalid interval chr1:0-10\n\tat htsjdk.X.y(X.java:10)", 1, "java_exception"],
  ["bash: line 1:  99 Segmentation fault      (core dumped) bwa mem ref.fa r1.fq", 139, "segmentation_fault"],
  ["Assertion `n > 0' failed.\nbash: line 1:  12 Aborted                 (core dumped) tool", 134, "aborted"],
  ["bash: line 1:  5 Illegal instruction     (core dumped) ./avx512-tool", 132, "illegal_instruction"],
  ["bash: line 1:  5 Bus error               (core dumped) ./mmap-tool", 138, "bus_error"],
  ["slurmstepd: error: *** JOB 77 ON n1 CANCELLED AT 2024-05-01T10:00:00 DUE TO PREEMPTION ***", 15, "scheduler_preempted"],
  ["slurmstepd: error: *** JOB 78 ON n1 CANCELLED AT 2024-05-01T10:00:00 DUE TO NODE FAILURE ***", 1, "node_failure"],
  ["slurmstepd: error: *** JOB 79 ON n1 CANCELLED AT 2024-05-01T10:00:00 ***", 15, "scheduler_cancelled"],
  ["", null, "engine_missing_input", "missing input file: data/s1.fq (no job in this run makes it, and it does not exist)"],
  ["", -1, "engine_output_missing", "the command exited 0 but declared output out/s1.bam does not exist"],
  ["", null, "engine_environment_setup", "setting up conda environment envs/qc.yml failed: exit code 1"],
  ["", 3, "engine_pre_exec", "pre_exec failed with exit code 3"],
  ["", null, "engine_output_folder", "cannot create the output folder /proc/x: EEXIST"],
  ["", null, "engine_unsafe_value", "sample 'a b' (job x) contains shell metacharacters or spaces"],
  ["", null, "engine_resource_group", "resource group 'gpu' is not declared in [resource_groups]"],
  ["", null, "engine_workdir_locked", "workdir is locked by another strand process (pid 12, strand run r1, since 2024-05-01): /w/.strand/lock"],
  ["", null, "engine_budget", "job a needs 4 threads but --max-threads is 1 (raise --max-threads to 4)"],
  ["", null, "engine_reference_build", "a reference build failed"],
  ["", null, "engine_target", "target 'nosuch' matches no rule (rules: a)"],
  ["", null, "engine_cluster", "sbatch was not found: the scheduler's commands are not installed here"],
  ["", null, "engine_pipeline_invalid", "cycle detected in workflow DAG: a → b → a"],
  ["", null, "engine_io", "cannot write /w/.strand/checkpoint.json: EIO: i/o error"],
];

describe("diagnoseFailure on known messages", () => {
  const cases = SAMPLES.map(([stderr, exitCode, expected, error]) => [expected, (stderr || `[strand] ${error}`).split("\n")[0]!, exitCode, stderr, error] as const);
  it.each(cases)("%s ← %s (exit %s)", (expected, _title, exitCode, stderr, error) => {
    expect(fail(stderr, exitCode, error).pattern).toBe(expected);
  });

  it("has a known message for every pattern but engine_internal, which only an error code selects", () => {
    const covered = new Set(SAMPLES.map(([, , id]) => id));
    expect(DIAGNOSIS_PATTERNS.map((pattern) => pattern.id).filter((id) => !covered.has(id))).toEqual(["engine_internal"]);
    expect(diagnoseFailure({ rule: null, job: null, exit_code: null, stderr: "", error: "boom", error_code: "INTERNAL" }).pattern).toBe("engine_internal");
  });

  it("fills captured text into the cause and suggestions", () => {
    const notFound = fail("bash: line 1: fastqc: command not found", 127);
    expect(notFound).toMatchObject({ pattern: "command_not_found", category: "tool", rule: "step", job: "step_s1", exit_code: 127 });
    expect(notFound.likely_cause).toContain("fastqc");
    expect(notFound.suggestions.join("\n")).toContain("bioconda fastqc");
    expect(notFound.suggestions.join("\n")).toContain("rule 'step'");
    expect(fail("gzip: reads/s1.fq.gz: not in gzip format").suggestions).toContain("test it: `gzip -t reads/s1.fq.gz`");
    expect(fail("[E::hts_idx_load3] Could not load local index file 'x.bam.bai'").suggestions.join("\n")).toContain("samtools index");
    expect(fail("", 124, "timed out after 2 h (process group killed)").suggestions.join("\n")).toContain("resources.time_limit");
    expect(fail("Killed", 137).suggestions.join("\n")).toContain("resources.memory");
    const missing = fail("cat: data/x.txt: No such file or directory");
    expect(missing.likely_cause).toBe("the file data/x.txt does not exist");
    expect(fail("bash: line 1: ./noexec.sh: Permission denied", 126).suggestions.join("\n")).toContain("chmod +x ./noexec.sh");
    // Uncaptured optional parts disappear instead of leaving a placeholder behind.
    for (const diagnosis of [fail("Cannot allocate memory"), fail("Connection refused"), fail("EACCES")]) {
      expect(`${diagnosis.likely_cause} ${diagnosis.suggestions.join(" ")}`).not.toMatch(/\{\w+[?|]?[^}]*\}/);
    }
  });
});

describe("precedence: text and exit code, then text, then exit code alone, then unknown_error", () => {
  it("prefers a text match confirmed by the exit code over an earlier pattern's text alone", () => {
    const stderr = "cat: notes.txt: No such file or directory\nbash: -c: line 4: syntax error near unexpected token `done'";
    expect(fail(stderr, 2).pattern).toBe("shell_syntax_error");
    expect(fail(stderr, 1).pattern).toBe("missing_file");
  });

  it("takes a text match without its usual exit code", () => {
    expect(fail("bash: line 1: 9 Segmentation fault  ./tool", 1).pattern).toBe("segmentation_fault");
  });

  it("falls back to what the exit code alone says when no text matches", () => {
    expect(fail("progress 10%\nprogress 20%", 137)).toMatchObject({ pattern: "killed", category: "resource" });
    expect(fail("", 139).pattern).toBe("segmentation_fault");
    expect(fail("", 141).pattern).toBe("broken_pipe");
    expect(fail("", 127).pattern).toBe("command_not_found");
  });

  it("ends in unknown_error, which every failure gets, even without an exit code", () => {
    const unknown = fail("processing chunk 7\nstatus=3", 3);
    expect(unknown).toMatchObject({ pattern: "unknown_error", category: "unknown", exit_code: 3 });
    expect(unknown.likely_cause).toContain("exit code 3");
    expect(unknown.log_excerpt).toEqual(["processing chunk 7", "status=3"]);
    expect(fail("", null).pattern).toBe("unknown_error");
    expect(fail("", 1).pattern).toBe("unknown_error");
  });

  it("reads the stderr line the engine quotes when the log itself is gone", () => {
    expect(fail("", 1, "exit code 1: ModuleNotFoundError: No module named 'pysam'")).toMatchObject({ pattern: "python_module_missing", log_excerpt: ["[strand] exit code 1: ModuleNotFoundError: No module named 'pysam'"] });
    expect(fail("", 137, "exit code 137: bash: line 1:  12 Killed   bwa mem").pattern).toBe("killed");
  });

  it("needs the exit code where the text alone is ambiguous", () => {
    // "./x: No such file or directory" is a missing program only when bash exits 127.
    expect(fail("bash: line 1: ./bin/tool: No such file or directory", 1).pattern).toBe("missing_file");
    // "Permission denied" on a path is not-executable only with 126.
    expect(fail("bash: line 1: ./x.sh: Permission denied", 1).pattern).toBe("permission_denied");
  });

  it("needs Python's traceback header before calling a line a Python exception", () => {
    expect(fail("ValueError: bad input").pattern).toBe("unknown_error");
    expect(fail("Traceback (most recent call last):\nValueError: bad input").pattern).toBe("python_exception");
  });
});

describe("false positives of the predecessor's substring matching", () => {
  const HEALTHY = [
    "samtools version 2.1 (using htslib 1.17)",
    "linked against libz.so.1 and libdeflate",
    "missing values: 0",
    "connect options: timeout=30 retries=3",
    "network: 2 hosts configured",
    "empty lines skipped: 3",
    "killed 0 duplicate reads",
    "terminated 3 alignments early by --max-hits",
    "required fields present",
    "no matches for optional filter; continuing",
    "conda environment: base",
    "docker image cache ok",
    "interrupt handler installed",
    "5 truncated reads discarded",
    "incompatible reads: 0, unsupported records: 0",
    "cpu time 12.3 s; ulimit ok",
    "per base sequence quality: pass",
    "wildcard {sample} expanded to 4 values",
  ].join("\n");

  it("gives none of their classes to a failure whose stderr only mentions the trigger words", () => {
    const diagnosis = fail(HEALTHY, 1);
    expect(diagnosis.pattern).toBe("unknown_error");
    expect(diagnosis.log_excerpt.length).toBeLessThanOrEqual(10);
  });

  it("does not change the class of a real failure because of them", () => {
    expect(fail(`${HEALTHY}\ngzip: in.gz: not in gzip format`, 1).pattern).toBe("corrupt_gzip");
    expect(fail(HEALTHY, 137).pattern).toBe("killed");
  });

  it("looks only at the end of a long stderr (64 KiB)", () => {
    const early = "bash: line 1: oldtool: command not found\n";
    const noise = "x".repeat(99) + "\n";
    expect(fail(early + noise.repeat(700), 1).pattern).toBe("unknown_error");
    expect(fail(early + noise.repeat(10), 1).pattern).toBe("command_not_found");
  });

  it("looks only at the last attempt of a retried job", () => {
    const stderr = "cat: in.txt: No such file or directory\n[strand] attempt 2\nwaiting for lock\n";
    expect(fail(stderr, 5).pattern).toBe("unknown_error");
    expect(fail(stderr, 5).log_excerpt).toEqual(["waiting for lock"]);
  });
});

describe("log excerpts", () => {
  it("shows the matching line with a little context, at most 10 lines", () => {
    const lines = Array.from({ length: 50 }, (_, index) => `line ${index}`);
    lines[30] = "samtools: error while loading shared libraries: libhts.so.3: cannot open shared object file: No such file or directory";
    const diagnosis = fail(lines.join("\n"), 127);
    expect(diagnosis.pattern).toBe("missing_shared_library");
    expect(diagnosis.log_excerpt).toEqual(["line 28", "line 29", lines[30], "line 31", "line 32"]);
    expect(diagnosis.likely_cause).toContain("libhts.so.3");
  });

  it("shows the last stderr lines and the engine's text when the match was in the engine's text", () => {
    const stderr = Array.from({ length: 30 }, (_, index) => `step ${index}`).join("\n");
    const diagnosis = fail(stderr, 124, "timed out after 1 s (process group killed)");
    expect(diagnosis.pattern).toBe("engine_time_limit");
    expect(diagnosis.log_excerpt).toHaveLength(10);
    expect(diagnosis.log_excerpt.at(-1)).toBe("[strand] timed out after 1 s (process group killed)");
    expect(diagnosis.log_excerpt[0]).toBe("step 21");
  });
});

// ---------------------------------------------------------------------------------------------------------
// diagnoseRun on event sequences the engine cannot easily be made to produce here

function event(seq: number, type: RunEvent["type"], fields: Record<string, unknown> = {}): RunEvent {
  return { seq, time: new Date(Date.UTC(2024, 0, 1, 0, 0, seq)).toISOString(), type, run_id: "r", ...fields };
}

describe("diagnoseRun on synthetic event logs", () => {
  it("reports a job cancelled because the run stopped as a warning, not a failure", () => {
    const diagnostics = diagnoseRun(
      [event(1, "job_started", { job: "a", rule: "a", stderr: "/nowhere" }), event(2, "job_failed", { job: "a", rule: "a", exit_code: 143, error: "cancelled by a signal", cancelled: true, required: true }), event(3, "run_finished", { status: "cancelled" })],
      () => undefined,
    );
    expect(diagnostics.failures).toEqual([]);
    expect(diagnostics.warnings).toEqual([expect.objectContaining({ kind: "cancelled_job", job: "a" })]);
  });

  it("diagnoses a run that failed before any job as one failure without rule or job", () => {
    const diagnostics = diagnoseRun([event(1, "run_finished", { status: "failed", error: "workdir is locked by another strand process (pid 7, strand run r0, since x): /w/.strand/lock", error_code: "LOCKED" })], () => undefined);
    expect(diagnostics.failures).toEqual([expect.objectContaining({ rule: null, job: null, exit_code: null, pattern: "engine_workdir_locked", category: "engine" })]);
    expect(diagnostics.failures[0]!.likely_cause).toContain("pid 7");
    expect(diagnoseRun([event(1, "run_finished", { status: "failed", error: "something new", error_code: "LOCKED" })], () => undefined).failures[0]!.pattern).toBe("engine_workdir_locked");
  });

  it("reports memory bottlenecks when the declared memory is known, and long jobs by their share of the run", () => {
    const events = [
      event(1, "run_started"),
      event(2, "job_completed", { job: "sort", rule: "sort", duration_ms: 40_000, peak_memory_mb: 3900 }),
      event(3, "job_completed", { job: "index", rule: "index", duration_ms: 6_000, peak_memory_mb: 100 }),
      event(4, "job_completed", { job: "qc", rule: "qc", duration_ms: 2_000, peak_memory_mb: 1000, memory_mb: 1100 }),
      event(5, "run_finished", { status: "completed", duration_ms: 50_000 }),
    ];
    const { bottlenecks, failures } = diagnoseRun(events, () => undefined, { declaredMemoryMb: (name) => (name === "sort" ? 4096 : 8192) });
    expect(failures).toEqual([]);
    expect(bottlenecks.map((entry) => [entry.job, entry.metric])).toEqual([
      ["sort", "peak_memory_mb"],
      ["sort", "duration_ms"],
      ["qc", "peak_memory_mb"],
    ]);
    expect(bottlenecks[0]).toMatchObject({ value: 3900, limit: 4096 });
    expect(bottlenecks[1]).toMatchObject({ value: 40_000, limit: 50_000, share: 0.8 });
    expect(diagnoseRun(events, () => undefined).bottlenecks.map((entry) => entry.metric)).toEqual(["duration_ms", "peak_memory_mb"]);
  });

  it("counts only a job's last failure", () => {
    const diagnostics = diagnoseRun(
      [event(1, "job_failed", { job: "a", rule: "a", exit_code: 1, error: "exit code 1", required: true }), event(2, "job_failed", { job: "a", rule: "a", exit_code: 137, error: "killed by SIGKILL", required: true })],
      () => undefined,
    );
    expect(diagnostics.failures.map((entry) => entry.pattern)).toEqual(["killed"]);
  });
});

// ---------------------------------------------------------------------------------------------------------
// Real failing jobs through the engine

describe("real failing jobs", () => {
  let run: PipelineRun;

  beforeAll(async () => {
    const pipeline = [
      rule("not_found", "nosuchtool_xyz --in data.txt > {output[0]}"),
      rule("killed", "kill -9 $$"),
      rule("timeout_command", "timeout 1 sleep 5"),
      rule("time_limit", "sleep 5; echo > {output[0]}", '[rules.resources]\ntime_limit = "1s"'),
      rule("not_executable", "./noexec.sh > {output[0]}"),
      rule("segfault", "sh -c 'kill -SEGV $$'"),
      rule("segfault_python", "python3 -c 'import ctypes; ctypes.string_at(0)'"),
      rule("corrupt_gzip", "gzip -dc bad.gz > {output[0]}"),
      rule("missing_file", "cat data/nothere.txt > {output[0]}"),
      `[[rules]]\nname = "declared_input"\ninput = ["data/declared-missing.txt"]\noutput = ["out/declared_input.txt"]\nshell = "cat {input[0]} > {output[0]}"\n`,
      rule("syntax_error", "if then fi"),
      rule("unclosed_quote", "echo 'unclosed"),
      rule("disk_full", "echo data > /dev/full"),
      rule("broken_pipe", "set -o pipefail; yes | head -1 > {output[0]}"),
      rule("too_many_files", "ulimit -n 16; python3 -c 'files = [open(\"/dev/null\") for _ in range(64)]'"),
      rule("unbound", "set -u; echo $NOPE_VARIABLE > {output[0]}"),
      rule("python_module", "python3 -c 'import no_such_module_xyz'"),
      rule("bad_option", "grep --no-such-flag x data.txt"),
      rule("retried", "echo attempt >&2; exit 3", "retries = 1"),
      rule("optional", "cat nothere.txt > {output[0]}", "required = false"),
      rule("fine", "echo 'samtools version 2.1, libz ok, missing values: 0, timeout=30' >&2; echo ok > {output[0]}"),
    ].join("\n");
    run = await runPipeline(pipeline, {
      files: { "data.txt": "x\n", "bad.gz": "junk", "noexec.sh": "#!/bin/sh\necho hi\n" },
      prepare: (dir) => chmodSync(join(dir, "noexec.sh"), 0o644),
      args: ["-k", "-j", "24"],
    });
  });

  it("ran the pipeline to a failed end with a job_failed event per failing job", () => {
    expect(run.exitCode).not.toBe(0);
    expect(run.events.at(-1)).toMatchObject({ type: "run_finished", status: "failed" });
    // Every required failing job has exactly one diagnosis; the job that worked has none.
    const jobs = run.diagnostics.failures.map((entry) => entry.job);
    expect(new Set(jobs).size).toBe(jobs.length);
    expect(jobs).not.toContain("fine");
    expect(jobs).not.toContain("optional");
    for (const failure of run.diagnostics.failures) expect(failure.log_excerpt.length, failure.job!).toBeLessThanOrEqual(10);
  });

  it("command not found (127)", () => {
    const failure = failureOf(run, "not_found");
    expect(failure).toMatchObject({ rule: "not_found", exit_code: 127, pattern: "command_not_found", category: "tool" });
    expect(failure.likely_cause).toContain("nosuchtool_xyz");
    expect(failure.log_excerpt.join("\n")).toContain("nosuchtool_xyz: command not found");
  });

  it("killed with SIGKILL (137)", () => {
    expect(failureOf(run, "killed")).toMatchObject({ exit_code: 137, pattern: "killed", category: "resource", log_excerpt: ["[strand] killed by SIGKILL"] });
  });

  it("timed out by timeout(1) (124)", () => {
    expect(failureOf(run, "timeout_command")).toMatchObject({ exit_code: 124, pattern: "timeout_command", category: "resource" });
  });

  it("timed out by the rule's own time limit (124)", () => {
    const failure = failureOf(run, "time_limit");
    expect(failure).toMatchObject({ exit_code: 124, pattern: "engine_time_limit", category: "resource" });
    expect(failure.likely_cause).toContain("1 s");
    expect(failure.suggestions.join("\n")).toContain("resources.time_limit");
  });

  it("permission denied: a script without execute bits (126)", () => {
    const failure = failureOf(run, "not_executable");
    expect(failure).toMatchObject({ exit_code: 126, pattern: "not_executable", category: "tool" });
    expect(failure.suggestions.join("\n")).toContain("chmod +x ./noexec.sh");
  });

  it("segmentation fault (139), from a signal and from a real crash", () => {
    expect(failureOf(run, "segfault")).toMatchObject({ exit_code: 139, pattern: "segmentation_fault", category: "tool" });
    expect(failureOf(run, "segfault_python")).toMatchObject({ exit_code: 139, pattern: "segmentation_fault" });
  });

  it("corrupt gzip", () => {
    const failure = failureOf(run, "corrupt_gzip");
    expect(failure).toMatchObject({ exit_code: 1, pattern: "corrupt_gzip", category: "data", log_excerpt: ["gzip: bad.gz: not in gzip format"] });
    expect(failure.suggestions).toContain("test it: `gzip -t bad.gz`");
  });

  it("missing input file read by the command", () => {
    const failure = failureOf(run, "missing_file");
    expect(failure).toMatchObject({ exit_code: 1, pattern: "missing_file", category: "data" });
    expect(failure.likely_cause).toContain("data/nothere.txt");
  });

  it("missing declared input: the engine refuses to start the job", () => {
    const failure = failureOf(run, "declared_input");
    expect(failure).toMatchObject({ exit_code: null, pattern: "engine_missing_input", category: "engine" });
    expect(failure.likely_cause).toContain("data/declared-missing.txt");
    expect(failure.log_excerpt[0]).toMatch(/^\[strand\] missing input file: data\/declared-missing.txt/);
  });

  it("shell syntax error (2)", () => {
    expect(failureOf(run, "syntax_error")).toMatchObject({ exit_code: 2, pattern: "shell_syntax_error", category: "config" });
    expect(failureOf(run, "syntax_error").likely_cause).toContain("`then'");
    expect(failureOf(run, "unclosed_quote")).toMatchObject({ exit_code: 2, pattern: "shell_syntax_error" });
  });

  it("out of disk: writing to /dev/full (ENOSPC)", () => {
    expect(failureOf(run, "disk_full")).toMatchObject({ exit_code: 1, pattern: "disk_full", category: "resource" });
  });

  it("broken pipe (141)", () => {
    expect(failureOf(run, "broken_pipe")).toMatchObject({ exit_code: 141, pattern: "broken_pipe", category: "system" });
  });

  it("too many open files", () => {
    expect(failureOf(run, "too_many_files")).toMatchObject({ exit_code: 1, pattern: "too_many_open_files", category: "resource" });
  });

  it("unbound variable under set -u", () => {
    const failure = failureOf(run, "unbound");
    expect(failure).toMatchObject({ pattern: "unbound_variable", category: "config" });
    expect(failure.likely_cause).toContain("$NOPE_VARIABLE");
  });

  it("missing Python module", () => {
    expect(failureOf(run, "python_module")).toMatchObject({ pattern: "python_module_missing", category: "tool" });
  });

  it("unrecognised command-line option", () => {
    expect(failureOf(run, "bad_option")).toMatchObject({ exit_code: 2, pattern: "invalid_option", category: "config" });
  });

  it("retried attempts are warnings; the final failure is diagnosed from the last attempt only", () => {
    expect(run.diagnostics.warnings).toContainEqual(expect.objectContaining({ kind: "retried_attempt", job: "retried", pattern: "unknown_error" }));
    const failure = failureOf(run, "retried");
    expect(failure).toMatchObject({ exit_code: 3, pattern: "unknown_error" });
    expect(failure.log_excerpt).toEqual(["attempt", "[strand] exit code 3: attempt"]);
  });

  it("a failed job with required = false is a warning with its diagnosis", () => {
    expect(run.diagnostics.warnings).toContainEqual(expect.objectContaining({ kind: "non_required_failure", job: "optional", pattern: "missing_file" }));
  });
});

describe("real runs that fail before any job, or do not fail", () => {
  it("a target that matches no rule is one engine failure without rule or job", async () => {
    const run = await runPipeline(rule("a", "echo > {output[0]}"), { args: ["-t", "nosuch"] });
    expect(run.events).toHaveLength(1);
    expect(run.diagnostics.failures).toEqual([expect.objectContaining({ rule: null, job: null, exit_code: null, pattern: "engine_target", category: "engine" })]);
  });

  it("a job over the thread budget is one engine failure", async () => {
    const run = await runPipeline(rule("a", "echo > {output[0]}", "[rules.resources]\nthreads = 4"), { args: ["--max-threads", "1"] });
    expect(run.diagnostics.failures).toEqual([expect.objectContaining({ rule: null, job: null, pattern: "engine_budget", category: "engine" })]);
  });

  it("a failed reference build is diagnosed from its own stderr, once", async () => {
    const pipeline = `[[references]]\nname = "genome"\noutput = "genome.fa"\nbuild = "printf junk > genome.fa.gz; gzip -dc genome.fa.gz > {output}"\n\n${rule("a", "echo > {output[0]}")}`;
    const run = await runPipeline(pipeline);
    expect(run.diagnostics.failures).toEqual([expect.objectContaining({ rule: null, job: "reference:genome", exit_code: 1, pattern: "corrupt_gzip" })]);
  });

  it("a successful run has no failures, even when stderr mentions the predecessor's trigger words", async () => {
    const run = await runPipeline(rule("ok", "echo 'samtools version 2.1; libz.so.1; missing values: 0; timeout=30; 0 reads killed' >&2; echo ok > {output[0]}"));
    expect(run.exitCode).toBe(0);
    expect(run.diagnostics).toEqual({ failures: [], warnings: [], bottlenecks: [] });
  });
});
