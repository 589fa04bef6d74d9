/**
 * Where runs work. Runs of one saved pipeline by one owner share `<dataDir>/pipelines/<owner>/<pipeline>/`,
 * so the engine's checkpoint carries over from run to run and only what changed runs again (as a re-run of
 * `strand run` in one folder does). A run of pipeline text, and a run asked to start `fresh`, gets
 * `<dataDir>/runs/<run id>/` of its own. Owner and pipeline ids become folder names only when they are plain
 * names; any other id is named by its digest, so no id can climb out of the data folder, clash with another
 * after case folding of a file system, or hide in a dot folder.
 */
import { createHash } from "node:crypto";
import { join } from "node:path";

/** Ids used as they are: a letter or digit first, then letters, digits, `_` and `-`, at most 64 (lower case, so case-insensitive file systems cannot merge two). */
const PLAIN_ID = /^[a-z0-9][a-z0-9_-]{0,63}$/;

/**
 * One folder name for an id: the id itself when it is plain, else `_` and the first 32 hex digits of its
 * SHA-256 (a plain id never starts with `_`, so the two forms cannot meet).
 */
export function idFolderName(id: string): string {
  if (PLAIN_ID.test(id)) return id;
  return `_${createHash("sha256").update(id, "utf8").digest("hex").slice(0, 32)}`;
}

/** The workspace every run of a saved pipeline by one owner shares. */
export function pipelineWorkspace(dataDir: string, owner: string, pipelineId: string): string {
  return join(dataDir, "pipelines", idFolderName(owner), idFolderName(pipelineId));
}

/** The workspace of a run that has its own: pipeline text, or a run asked to start fresh. */
export function ownWorkspace(dataDir: string, runId: string): string {
  return join(dataDir, "runs", runId);
}
