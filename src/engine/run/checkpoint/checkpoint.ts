/**
 * The checkpoint: what earlier runs finished, per job instance, in `<workdir>/.strand/checkpoint.json`.
 *
 * A run may finish tens of thousands of jobs, so finishing one must not rewrite the whole file: each change
 * is appended as one JSON line to `.strand/checkpoint.journal` (written synchronously, so it survives a
 * crash of the engine; not fsync'ed, so a power cut may lose the last lines), and `compact()` folds the journal into `checkpoint.json` (written to a temporary
 * file and renamed, so a reader never sees half a file). Every journal entry sets a value rather than
 * changing one, so replaying entries that a compaction already folded in is harmless.
 *
 * A checkpoint that cannot be read is never fatal: a run sets it aside as `checkpoint.json.corrupt-<time>`,
 * says so, and starts from an empty checkpoint; `dry-run` and `status` only warn.
 */
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeFileSync, writeSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { EngineError } from "../../findings.js";
import type { Pair } from "../../format/model.js";

/** The engine's folder inside a workdir. */
export const ENGINE_DIR = ".strand";
/** The checkpoint file, relative to the workdir. */
export const CHECKPOINT_FILE = `${ENGINE_DIR}/checkpoint.json`;
/** The journal of changes since the last compaction, relative to the workdir. */
export const JOURNAL_FILE = `${ENGINE_DIR}/checkpoint.journal`;

/** One input file as it was when a job finished. */
export interface ManifestEntry {
  /** The path as the job names it (workdir-relative unless written absolute); files found in folders and globs too. */
  path: string;
  size: number;
  mtime_ms: number;
  /** `sha256:<hex>` of the content, for files up to the content-hash limit (64 MiB); larger files compare by size and time. */
  hash?: string;
}

/** What the checkpoint knows about one finished job instance. */
export interface JobRecord {
  status: "completed" | "failed";
  /** The rule as written in the pipeline (`align` for job `align_S1`). */
  rule: string;
  /** `sha256:<hex>` over the rule's definition and the job's own paths and wildcards (see fingerprint.ts). */
  fingerprint: string;
  /** Short digests of each definition field, so a changed fingerprint can name what changed. */
  rule_fields?: Record<string, string>;
  /** The script the rule runs and a digest of its content (null when the file was missing). */
  script?: { path: string; digest: string | null };
  inputs: ManifestEntry[];
  /** The config keys the rule references → their value (or `sha256:<hex>` for sensitive keys). */
  config: Record<string, string>;
  outputs: string[];
  exit_code: number | null;
  wall_time_secs: number;
  cpu_seconds?: number;
  max_memory_mb?: number;
  retries: number;
  /** ISO 8601 time the job ended. */
  finished_at: string;
  /** The command as run, with sensitive config values replaced by `***`. */
  command: string;
  /** The last 2048 characters of the job's stderr. */
  stderr_tail: string;
}

/**
 * One round of dynamic re-entry after a checkpoint rule: the samples and pairs it added
 * (docs/reference/pipeline-format.md §5.8).
 */
export interface Reentry {
  round: number;
  /** The checkpoint job that announced it. */
  rule: string;
  group: string | null;
  samples: string[];
  pairs: Pair[];
}

/** The whole checkpoint, as stored in `checkpoint.json`. */
export interface CheckpointData {
  version: 1;
  workflow_path: string;
  workdir: string;
  /** Config key → value, or `sha256:<hex>` for sensitive keys (sample lists left out). */
  config_snapshot: Record<string, string>;
  /** Job instance name → its last record. */
  jobs: Record<string, JobRecord>;
  /** Job instance name → temporary outputs deleted after the run (they do not by themselves cause a re-run). */
  tombstones: Record<string, string[]>;
  reentries: Reentry[];
  updated_at: string;
}

const manifestEntrySchema = z.object({ path: z.string(), size: z.number(), mtime_ms: z.number(), hash: z.string().optional() });

const jobRecordSchema = z.object({
  status: z.enum(["completed", "failed"]),
  rule: z.string(),
  fingerprint: z.string(),
  rule_fields: z.record(z.string(), z.string()).optional(),
  script: z.object({ path: z.string(), digest: z.string().nullable() }).optional(),
  inputs: z.array(manifestEntrySchema),
  config: z.record(z.string(), z.string()),
  outputs: z.array(z.string()),
  exit_code: z.number().nullable(),
  wall_time_secs: z.number(),
  cpu_seconds: z.number().optional(),
  max_memory_mb: z.number().optional(),
  retries: z.number(),
  finished_at: z.string(),
  command: z.string(),
  stderr_tail: z.string(),
});

const pairSchema = z.object({
  pair_id: z.string(),
  experiment: z.string(),
  control: z.string().optional(),
  experiment_type: z.string().optional(),
  metadata: z.record(z.string(), z.string()).default({}),
});

const reentrySchema = z.object({
  round: z.number(),
  rule: z.string(),
  group: z.string().nullable().default(null),
  samples: z.array(z.string()).default([]),
  pairs: z.array(pairSchema).default([]),
});

const checkpointSchema = z.object({
  version: z.literal(1),
  workflow_path: z.string(),
  workdir: z.string(),
  config_snapshot: z.record(z.string(), z.string()).default({}),
  jobs: z.record(z.string(), jobRecordSchema).default({}),
  tombstones: z.record(z.string(), z.array(z.string())).default({}),
  reentries: z.array(reentrySchema).default([]),
  updated_at: z.string(),
});

const journalEntrySchema = z.discriminatedUnion("op", [
  z.object({ op: z.literal("record"), job: z.string(), record: jobRecordSchema }),
  z.object({ op: z.literal("tombstone"), job: z.string(), paths: z.array(z.string()) }),
  z.object({ op: z.literal("reentries"), reentries: z.array(reentrySchema) }),
  z.object({ op: z.literal("config"), snapshot: z.record(z.string(), z.string()) }),
]);

type JournalEntry = z.infer<typeof journalEntrySchema>;

export interface CheckpointReadOptions {
  /** Receives one line per problem met (a checkpoint set aside, journal lines skipped). */
  warn?: (message: string) => void;
  /**
   * Reads a file's text, undefined when it is absent or may not be read. Default: the file system as it is;
   * a service passes a reader confined to the workspace (jobs can leave links and FIFOs there).
   */
  readText?: (path: string) => string | undefined;
}

/** The file system as it is: the text of a file, undefined when it is absent; other failures throw. */
function readTextPlainly(path: string): string | undefined {
  if (!existsSync(path)) return undefined;
  return readFileSync(path, "utf8");
}

export interface CheckpointOpenOptions extends CheckpointReadOptions {
  /** The workflow file of this run, recorded in the checkpoint. */
  workflowPath?: string;
}

/** Maps keyed by job name have no prototype, so a job called `constructor` is just a job. */
function table<T>(entries: Record<string, T> = {}): Record<string, T> {
  return Object.assign(Object.create(null) as Record<string, T>, entries);
}

/** An empty checkpoint for a workdir. */
export function emptyCheckpoint(workdir: string, workflowPath = ""): CheckpointData {
  return { version: 1, workflow_path: workflowPath, workdir, config_snapshot: table(), jobs: table(), tombstones: table(), reentries: [], updated_at: new Date().toISOString() };
}

function applyEntry(data: CheckpointData, entry: JournalEntry): void {
  switch (entry.op) {
    case "record":
      data.jobs[entry.job] = entry.record;
      // The job made its outputs again: they are no longer deleted temporaries.
      if (entry.record.status === "completed") delete data.tombstones[entry.job];
      break;
    case "tombstone":
      if (entry.paths.length > 0) data.tombstones[entry.job] = entry.paths;
      else delete data.tombstones[entry.job];
      break;
    case "reentries":
      data.reentries = entry.reentries;
      break;
    case "config":
      data.config_snapshot = table(entry.snapshot);
      break;
  }
}

function describeError(error: unknown): string {
  if (error instanceof z.ZodError) {
    const issue = error.issues[0];
    return issue ? `${issue.path.join(".") || "(top level)"}: ${issue.message}` : "not a checkpoint";
  }
  if (error instanceof SyntaxError) return `not valid JSON (${error.message})`;
  return (error as NodeJS.ErrnoException).code ?? (error as Error).message;
}

/** What reading found: the data, whether anything was on disk, and whether checkpoint.json could not be read. */
interface Loaded {
  data: CheckpointData;
  found: boolean;
  unreadable?: string;
  journalLines: number;
}

function load(workdir: string, warn: (message: string) => void, unreadableNote: (reason: string) => void, readText = readTextPlainly): Loaded {
  const path = join(workdir, CHECKPOINT_FILE);
  let data = emptyCheckpoint(workdir);
  let found = false;
  let unreadable: string | undefined;
  let text: string | undefined;
  try {
    text = readText(path);
  } catch (error) {
    found = true;
    unreadable = describeError(error);
    unreadableNote(unreadable);
  }
  if (text !== undefined) {
    found = true;
    try {
      const parsed = checkpointSchema.parse(JSON.parse(text));
      data = { ...parsed, config_snapshot: table(parsed.config_snapshot), jobs: table(parsed.jobs), tombstones: table(parsed.tombstones) };
    } catch (error) {
      unreadable = describeError(error);
      unreadableNote(unreadable);
    }
  }
  const journalLines = replayJournal(workdir, data, warn, readText);
  return { data, found: found || journalLines > 0, unreadable, journalLines };
}

/** Applies the journal to `data`; returns how many lines it had. A torn last line (a crash mid-write) is dropped quietly. */
function replayJournal(workdir: string, data: CheckpointData, warn: (message: string) => void, readText: (path: string) => string | undefined): number {
  const path = join(workdir, JOURNAL_FILE);
  let text: string | undefined;
  try {
    text = readText(path);
  } catch (error) {
    warn(`cannot read ${JOURNAL_FILE} (${describeError(error)}); the jobs it recorded will run again`);
    return 0;
  }
  if (text === undefined) return 0;
  const lines = text.split("\n");
  const torn = !text.endsWith("\n");
  let skipped = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim() === "") continue;
    try {
      applyEntry(data, journalEntrySchema.parse(JSON.parse(line)));
    } catch {
      if (torn && i === lines.length - 1) continue;
      skipped++;
    }
  }
  if (skipped > 0) warn(`${JOURNAL_FILE}: skipped ${skipped} unreadable line(s); the jobs they recorded will run again`);
  return lines.length;
}

/**
 * Reads the checkpoint of a workdir without changing anything (for `dry-run` and `status`); undefined
 * when there is none. An unreadable checkpoint.json is reported through `warn` and read as empty.
 */
export function readCheckpoint(workdir: string, options: CheckpointReadOptions = {}): CheckpointData | undefined {
  const warn = options.warn ?? (() => {});
  const loaded = load(workdir, warn, (reason) => warn(`${CHECKPOINT_FILE} is unreadable (${reason}); ignoring it (a run would set it aside)`), options.readText);
  return loaded.found ? loaded.data : undefined;
}

/** A workdir's checkpoint, open for a run: records are journalled as jobs finish and folded in by `compact()`. */
export class CheckpointStore {
  /** Absolute path of checkpoint.json. */
  readonly path: string;
  /** Absolute path of the journal. */
  readonly journalPath: string;
  /** The journal, open for appending from the first change until the next compaction. */
  private journal: number | undefined;

  constructor(
    readonly workdir: string,
    private readonly state: CheckpointData,
  ) {
    this.path = join(workdir, CHECKPOINT_FILE);
    this.journalPath = join(workdir, JOURNAL_FILE);
  }

  /** The current state (the file plus everything recorded since); treat as read-only. */
  get data(): CheckpointData {
    return this.state;
  }

  /** Records how a job ended: one journal line, durable when this returns. */
  record(name: string, record: JobRecord): void {
    this.apply({ op: "record", job: name, record });
  }

  /** Records the temporary outputs deleted after a job's consumers finished (an empty list clears it). */
  tombstone(name: string, paths: string[]): void {
    this.apply({ op: "tombstone", job: name, paths: [...paths] });
  }

  /** Replaces the recorded re-entry rounds (docs/reference/pipeline-format.md §5.8). */
  setReentries(reentries: Reentry[]): void {
    this.apply({ op: "reentries", reentries: reentries.map((reentry) => ({ ...reentry, samples: [...reentry.samples], pairs: reentry.pairs.map((pair) => ({ ...pair, metadata: { ...pair.metadata } })) })) });
  }

  /** Replaces the config snapshot (see `configSnapshot` in fingerprint.ts). */
  setConfigSnapshot(snapshot: Record<string, string>): void {
    this.apply({ op: "config", snapshot: { ...snapshot } });
  }

  /** Writes checkpoint.json atomically (temporary file, then rename) and removes the journal it now contains. */
  compact(): void {
    this.closeJournal();
    this.state.updated_at = new Date().toISOString();
    const temporary = `${this.path}.tmp-${process.pid}`;
    try {
      mkdirSync(join(this.workdir, ENGINE_DIR), { recursive: true });
      writeFileSync(temporary, JSON.stringify(this.state, null, 2) + "\n");
      renameSync(temporary, this.path);
      rmSync(this.journalPath, { force: true });
    } catch (error) {
      rmSync(temporary, { force: true });
      throw new EngineError("IO_ERROR", `cannot write ${CHECKPOINT_FILE}: ${describeError(error)}`, { suggestion: `check that ${join(this.workdir, ENGINE_DIR)} is writable` });
    }
  }

  /** Closes the journal without compacting (what is recorded stays readable; the next open folds it in). */
  close(): void {
    this.closeJournal();
  }

  private apply(entry: JournalEntry): void {
    try {
      // One descriptor for the whole run: opening the file per record would cost more than the write.
      this.journal ??= openSync(this.journalPath, "a");
      const line = Buffer.from(JSON.stringify(entry) + "\n");
      for (let written = 0; written < line.length; ) written += writeSync(this.journal, line, written);
    } catch (error) {
      throw new EngineError("IO_ERROR", `cannot append to ${JOURNAL_FILE}: ${describeError(error)}`, { suggestion: `check that ${join(this.workdir, ENGINE_DIR)} is writable and the disk is not full` });
    }
    applyEntry(this.state, entry);
  }

  private closeJournal(): void {
    if (this.journal === undefined) return;
    closeSync(this.journal);
    this.journal = undefined;
  }
}

/**
 * Opens a workdir's checkpoint for a run. An unreadable checkpoint.json is set aside as
 * `checkpoint.json.corrupt-<time>` (with a warning) and the run starts from an empty one; a journal left by
 * an interrupted run is replayed and folded in at once, so this run's journal starts clean.
 */
export function openCheckpoint(workdir: string, options: CheckpointOpenOptions = {}): CheckpointStore {
  const warn = options.warn ?? (() => {});
  try {
    mkdirSync(join(workdir, ENGINE_DIR), { recursive: true });
  } catch (error) {
    throw new EngineError("IO_ERROR", `cannot create ${join(workdir, ENGINE_DIR)}: ${describeError(error)}`);
  }
  const path = join(workdir, CHECKPOINT_FILE);
  const loaded = load(workdir, warn, (reason) => {
    const aside = `${path}.corrupt-${new Date().toISOString().replace(/[:.]/g, "-")}`;
    try {
      renameSync(path, aside);
      warn(`${CHECKPOINT_FILE} is unreadable (${reason}); set aside as ${ENGINE_DIR}/${aside.slice(aside.lastIndexOf("/") + 1)}; starting from an empty checkpoint`);
    } catch (error) {
      warn(`${CHECKPOINT_FILE} is unreadable (${reason}) and cannot be set aside (${describeError(error)}); starting from an empty checkpoint`);
    }
  });
  const data = loaded.data;
  data.workdir = workdir;
  if (options.workflowPath !== undefined) data.workflow_path = options.workflowPath;
  const store = new CheckpointStore(workdir, data);
  // A leftover journal may end in a torn line; appending after it would glue the next entry onto it.
  if (loaded.journalLines > 0 || loaded.unreadable !== undefined) store.compact();
  return store;
}
