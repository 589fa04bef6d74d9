/**
 * Durable records of submitted scheduler jobs, `<workdir>/.strand/cluster/<job>.json`, written before the
 * engine waits for a job. After a restart they let the engine find the jobs it already submitted and adopt
 * them instead of submitting twice.
 */
import { createHash } from "node:crypto";
import { mkdir, open, readdir, readFile, rename, rm } from "node:fs/promises";
import { join } from "node:path";
import type { BackendName } from "./scheduler-registry.js";
import { jobNumberOf } from "./scheduler-job-names.js";

/** What the engine knows about a job it submitted. */
export interface SubmissionRecord {
  /** The scheduler's job id. */
  id: string;
  /** The name the scheduler shows (`strand-<run id>-<n>` or `<rule>-<n>`); absent in records of older engines. */
  name?: string;
  backend: BackendName;
  /** JobSpec.fingerprint: a restarted engine adopts the job only when the job is defined the same way. */
  fingerprint: string;
  /** ISO 8601 time of the submission. */
  submitted_at: string;
  attempt: number;
  script: string;
}

/** The records folder of a workdir. */
export function recordsFolder(workdir: string): string {
  return join(workdir, ".strand", "cluster");
}

/** A job name made safe as a file name (instance names can hold any character a sample name can). */
export function jobFileName(name: string): string {
  if (/^[A-Za-z0-9._-]+$/.test(name) && !name.startsWith(".")) return name;
  const digest = createHash("sha256").update(name).digest("hex").slice(0, 8);
  return `${name.replace(/[^A-Za-z0-9._-]/g, "_").replace(/^\./, "_")}-${digest}`;
}

/** The record file of a job. */
export function recordPath(workdir: string, job: string): string {
  return join(recordsFolder(workdir), `${jobFileName(job)}.json`);
}

/** Writes a file so that it survives a crash: temporary file, fsync, then rename over the target. */
export async function writeDurably(path: string, text: string): Promise<void> {
  const temporary = `${path}.${process.pid}.tmp`;
  const handle = await open(temporary, "w");
  try {
    await handle.writeFile(text);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(temporary, path);
}

/** Stores a job's record durably. */
export async function writeRecord(workdir: string, job: string, record: SubmissionRecord): Promise<void> {
  await mkdir(recordsFolder(workdir), { recursive: true });
  await writeDurably(recordPath(workdir, job), JSON.stringify(record, null, 2) + "\n");
}

/** A job's record, or undefined when there is none or it cannot be read. */
export async function readRecord(workdir: string, job: string): Promise<SubmissionRecord | undefined> {
  try {
    const value = JSON.parse(await readFile(recordPath(workdir, job), "utf8")) as Partial<SubmissionRecord>;
    if (typeof value.id !== "string" || typeof value.fingerprint !== "string" || typeof value.backend !== "string") return undefined;
    return value as SubmissionRecord;
  } catch {
    return undefined;
  }
}

/** The highest submission number among the workdir's records (0 when none): a restarted engine numbers on from it. */
export async function highestRecordedJobNumber(workdir: string): Promise<number> {
  let files: string[];
  try {
    files = (await readdir(recordsFolder(workdir))).filter((file) => file.endsWith(".json"));
  } catch {
    return 0;
  }
  let highest = 0;
  for (const file of files) {
    try {
      const { name } = JSON.parse(await readFile(join(recordsFolder(workdir), file), "utf8")) as { name?: unknown };
      if (typeof name === "string") highest = Math.max(highest, jobNumberOf(name));
    } catch {
      // A record being written or left broken says nothing about numbers.
    }
  }
  return highest;
}

/** Forgets a job's record (its result has been delivered). */
export async function removeRecord(workdir: string, job: string): Promise<void> {
  await rm(recordPath(workdir, job), { force: true });
}
