/**
 * What a run left in its workspace, read without ever leaving it: the declared outputs that exist there
 * (`GET …/results`) and the size of the workspace. Only regular files and folders inside the workspace
 * count; a path that is absolute, climbs out with `..`, or passes through a symbolic link is never read or
 * even looked at, so a pipeline declaring `/etc/passwd` as an output, or a job replacing its output with a
 * link to a secret, shows nothing. Runs as engine work (see `worker.ts`): reading a big event log and
 * walking folders can take long.
 *
 * The declared outputs come from what the run's sandboxed engine wrote — its event log names each planned
 * job's outputs, a dry run's plan too — never from loading the pipeline here: loading reads the files,
 * URLs and repositories a pipeline names (sample sheets, includes), which only the engine, inside the job
 * sandbox, may do. A run recorded before events named outputs falls back to its pipeline text expanded
 * "detached" (nothing outside the text is read; jobs of file-based samples are then not listed).
 */
import { lstatSync, realpathSync } from "node:fs";
import { isAbsolute, join, normalize } from "node:path";
import { folderEntries, forEachWorkspaceLine, lstatInWorkspace, openFolderInWorkspace, readWorkspaceJson } from "../../runner/workspace-reader.js";
import { EVENT_LINE_MAX_BYTES, EVENT_LOG_MAX_BYTES } from "../../runner/event-log-follower.js";
import { PLAN_MAX_BYTES } from "../../runner/dry-run-plan.js";
import { parseEventLine } from "../../../engine/run/event-log.js";
import { expandPipeline } from "../../../engine/expand/expand.js";
import { loadPipelineText } from "../../../engine/format/load.js";

/** One result file as the API shows it. */
export interface ResultFile {
  path: string;
  size_bytes: number;
  rule: string;
  modified_at: string;
}

/** The most result entries listed, and the most entries a folder walk counts. */
export const RESULT_LIMITS = { files: 10_000, walkEntries: 100_000 } as const;

/**
 * Bytes of the regular files under a folder of a workspace (`folder` relative to it, "" for all of it),
 * walking at most `RESULT_LIMITS.walkEntries` entries, never through a link: each folder is listed as it
 * was opened (workspace-reader.ts), so one swapped for a link mid-walk counts nothing of the link's target.
 */
export function folderBytes(workspace: string, folder = ""): number {
  let total = 0;
  let entries = 0;
  const stack = [folder];
  while (stack.length > 0 && entries < RESULT_LIMITS.walkEntries) {
    const relative = stack.pop()!;
    const opened = openFolderInWorkspace(workspace, relative);
    if (!opened) continue;
    try {
      // Read a batch at a time, never more names than the walk may still take.
      for (const { name } of folderEntries(opened.path, RESULT_LIMITS.walkEntries - entries + 1).entries) {
        if (++entries > RESULT_LIMITS.walkEntries) break;
        try {
          const stat = lstatSync(join(opened.path, name));
          if (stat.isDirectory()) stack.push(relative === "" ? name : join(relative, name));
          else if (stat.isFile()) total += stat.size;
        } catch {
          // removed while walking
        }
      }
    } catch {
      // not listable (removed, or not a folder any more)
    } finally {
      opened.close();
    }
  }
  return total;
}

/** Where a run's declared outputs are written down, in the order they are tried. */
export interface OutputSources {
  workspace: string;
  /** The run's event log (`job_queued` and `job_skipped` name the job's outputs). */
  eventsPath: string;
  /** A dry run's saved plan (each planned job names its outputs). */
  planPath: string;
  /** The pipeline text the run ran, for a run recorded before events named outputs; expanded detached. */
  text?: string;
  config?: Record<string, string>;
  samples?: string[];
  /** Results left on a remote cluster: what its workspace holds there, used instead of the local workspace. */
  remoteFiles?: { path: string; size_bytes: number; modified_at: string | null }[];
}

const isStringList = (value: unknown): value is string[] => Array.isArray(value) && value.every((item) => typeof item === "string");

/** The declared outputs found in a listing of a remote workspace (a declared folder: the files under it). */
function remoteOutputs(declared: Map<string, string>, listing: NonNullable<OutputSources["remoteFiles"]>): { files: ResultFile[]; total_size_bytes: number; truncated: boolean } {
  const byPath = new Map(listing.map((file) => [file.path, file]));
  const files: ResultFile[] = [];
  let total = 0;
  for (const [path, rule] of declared) {
    if (isAbsolute(path)) continue;
    const name = normalize(path);
    const file = byPath.get(name);
    const under = file ? [] : listing.filter((entry) => entry.path.startsWith(`${name}/`));
    if (!file && under.length === 0) continue;
    if (files.length >= RESULT_LIMITS.files) return { files, total_size_bytes: total, truncated: true };
    const size = file ? file.size_bytes : under.reduce((sum, entry) => sum + entry.size_bytes, 0);
    const modified = file ? file.modified_at : under.map((entry) => entry.modified_at ?? "").sort().at(-1) || null;
    total += size;
    files.push({ path: name, size_bytes: size, rule, modified_at: modified ?? "" });
  }
  return { files, total_size_bytes: total, truncated: false };
}

/** Declared output path → the rule of the job that declares it, from the event log, else the dry run's plan. */
function writtenDownOutputs(sources: OutputSources): Map<string, string> {
  const outputs = new Map<string, string>();
  const note = (paths: unknown, rule: unknown) => {
    if (!isStringList(paths) || typeof rule !== "string") return;
    for (const path of paths) if (!outputs.has(path)) outputs.set(path, rule);
  };
  forEachWorkspaceLine(sources.workspace, sources.eventsPath, { maxBytes: EVENT_LOG_MAX_BYTES, maxLineBytes: EVENT_LINE_MAX_BYTES }, (line) => {
    if (!line.includes('"outputs"')) return;
    const event = parseEventLine(line);
    if (event && (event.type === "job_queued" || event.type === "job_skipped")) note(event.outputs, event.rule);
  });
  if (outputs.size > 0) return outputs;
  // `strand dry-run --json`: the plan is the envelope's `data`.
  const document = readWorkspaceJson(sources.workspace, sources.planPath, PLAN_MAX_BYTES) as { data?: { plan?: unknown }; plan?: unknown } | undefined;
  const plan = document && typeof document === "object" ? (document.data?.plan ?? document.plan) : undefined;
  if (Array.isArray(plan)) for (const entry of plan as { outputs?: unknown; rule?: unknown }[]) if (entry && typeof entry === "object") note(entry.outputs, entry.rule);
  return outputs;
}

/** Declared outputs of a run recorded before events named them: its text expanded detached (nothing outside the text is read). */
async function detachedOutputs(sources: OutputSources): Promise<Map<string, string>> {
  const outputs = new Map<string, string>();
  if (sources.text === undefined) return outputs;
  const samples = sources.samples && sources.samples.length > 0 ? sources.samples.join(",") : undefined;
  const pipeline = await loadPipelineText(sources.text, { path: "workflow.oxoflow", dir: sources.workspace, overrides: sources.config, samples, detached: true });
  for (const job of expandPipeline(pipeline, "plan").jobs) for (const path of job.output.paths) if (!outputs.has(path)) outputs.set(path, job.template);
  return outputs;
}

/** The declared outputs of a run that exist inside its workspace, with sizes (at most `RESULT_LIMITS.files`). */
export async function existingOutputs(sources: OutputSources): Promise<{ files: ResultFile[]; total_size_bytes: number; truncated: boolean }> {
  let declared = writtenDownOutputs(sources);
  if (declared.size === 0) declared = await detachedOutputs(sources);
  if (sources.remoteFiles) return remoteOutputs(declared, sources.remoteFiles);
  const root = realpathSync(sources.workspace);
  const files: ResultFile[] = [];
  let total = 0;
  for (const [path, rule] of declared) {
    const stat = isAbsolute(path) ? undefined : lstatInWorkspace(root, path);
    if (!stat || !(stat.isFile() || stat.isDirectory())) continue; // not made (yet), outside, or a link
    if (files.length >= RESULT_LIMITS.files) return { files, total_size_bytes: total, truncated: true };
    const size = stat.isDirectory() ? folderBytes(root, normalize(path)) : stat.size;
    total += size;
    files.push({ path: normalize(path), size_bytes: size, rule, modified_at: stat.mtime.toISOString() });
  }
  return { files, total_size_bytes: total, truncated: false };
}
