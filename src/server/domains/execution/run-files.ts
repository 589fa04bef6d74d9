/**
 * What a run left in its workspace, read without ever leaving it: the declared outputs that exist there
 * (`GET …/results`) and the size of the workspace. Only regular files and folders inside the workspace
 * count; a path that is absolute, climbs out with `..`, or passes through a symbolic link is never read or
 * even looked at, so a pipeline declaring `/etc/passwd` as an output, or a job replacing its output with a
 * link to a secret, shows nothing. Runs as engine work (see `worker.ts`): expanding a pipeline and walking
 * folders can take long.
 */
import { lstatSync, readdirSync, realpathSync, type Stats } from "node:fs";
import { isAbsolute, join, normalize, sep } from "node:path";
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

/** Looks at `relativePath` under `root` without following a link: its lstat, or undefined when it is outside, a link, or absent. */
export function lstatInside(root: string, relativePath: string): Stats | undefined {
  if (isAbsolute(relativePath)) return undefined;
  const normal = normalize(relativePath);
  if (normal === "." || normal === ".." || normal.startsWith(`..${sep}`)) return undefined;
  let current = root;
  let stat: Stats | undefined;
  for (const part of normal.split(sep)) {
    if (part === "") continue;
    current = join(current, part);
    try {
      stat = lstatSync(current);
    } catch {
      return undefined;
    }
    if (stat.isSymbolicLink()) return undefined;
  }
  return stat;
}

/** Bytes of the regular files under a folder, walking at most `RESULT_LIMITS.walkEntries` entries and never through a link. */
export function folderBytes(root: string): number {
  let total = 0;
  let entries = 0;
  const stack = [root];
  while (stack.length > 0 && entries < RESULT_LIMITS.walkEntries) {
    const dir = stack.pop()!;
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      continue;
    }
    for (const name of names) {
      entries++;
      try {
        const stat = lstatSync(join(dir, name));
        if (stat.isDirectory()) stack.push(join(dir, name));
        else if (stat.isFile()) total += stat.size;
      } catch {
        // removed while walking
      }
    }
  }
  return total;
}

/** The declared outputs of a run's pipeline that exist inside its workspace, with sizes (at most `RESULT_LIMITS.files`). */
export async function existingOutputs(input: {
  text: string;
  workspace: string;
  pipelinePath: string;
  config?: Record<string, string>;
  samples?: string[];
}): Promise<{ files: ResultFile[]; total_size_bytes: number; truncated: boolean }> {
  const samples = input.samples && input.samples.length > 0 ? input.samples.join(",") : undefined;
  const pipeline = await loadPipelineText(input.text, { path: input.pipelinePath, dir: input.workspace, overrides: input.config, samples });
  const root = realpathSync(input.workspace);
  const seen = new Set<string>();
  const files: ResultFile[] = [];
  let total = 0;
  for (const job of expandPipeline(pipeline, "plan").jobs) {
    for (const path of job.output.paths) {
      if (seen.has(path)) continue;
      seen.add(path);
      const stat = lstatInside(root, path);
      if (!stat || !(stat.isFile() || stat.isDirectory())) continue; // not made (yet), outside, or a link
      if (files.length >= RESULT_LIMITS.files) return { files, total_size_bytes: total, truncated: true };
      const size = stat.isDirectory() ? folderBytes(join(root, path)) : stat.size;
      total += size;
      files.push({ path: normalize(path), size_bytes: size, rule: job.template, modified_at: stat.mtime.toISOString() });
    }
  }
  return { files, total_size_bytes: total, truncated: false };
}
