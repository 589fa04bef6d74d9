/**
 * Where runs work: every user's runs live under that user's folder, `<dataDir>/users/<owner>/` (the owner
 * is the run's owner id: a user id in team and hpc modes, `local` in personal mode), so a job sandbox can
 * show a run its own workspace and nothing of anyone else's. Runs of one saved pipeline by one owner share
 * `users/<owner>/pipelines/<pipeline>/`, so the engine's checkpoint carries over from run to run and only
 * what changed runs again (as a re-run of `strand run` in one folder does). A run of pipeline text, and a
 * run asked to start `fresh`, gets `users/<owner>/runs/<run id>/` of its own. Runs made before this layout
 * keep the workspace recorded in their row. Owner and pipeline ids become folder names only when they are
 * plain names; any other id is named by its digest, so no id can climb out of the data folder, clash with
 * another after case folding of a file system, or hide in a dot folder.
 */
import { createHash } from "node:crypto";
import { join, posix, relative, sep } from "node:path";

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

/** The folder of one owner's runs and pipeline workspaces. */
export function userFolder(dataDir: string, owner: string): string {
  return join(dataDir, "users", idFolderName(owner));
}

/** The workspace every run of a saved pipeline by one owner shares. */
export function pipelineWorkspace(dataDir: string, owner: string, pipelineId: string): string {
  return join(userFolder(dataDir, owner), "pipelines", idFolderName(pipelineId));
}

/** The workspace of a run that has its own: pipeline text, or a run asked to start fresh. */
export function ownWorkspace(dataDir: string, owner: string, runId: string): string {
  return join(userFolder(dataDir, owner), "runs", idFolderName(runId));
}

/**
 * A run's workspace on a remote cluster: the local workspace's place under `<dataDir>/users/`, under the
 * cluster's remote folder (`<remote_dir>/users/<owner>/pipelines/<pipeline>` or `…/runs/<run id>`), so
 * runs there are per user and per run as they are here, and a saved pipeline's runs share theirs.
 */
export function remoteWorkspace(remoteDir: string, dataDir: string, workspace: string): string {
  const below = relative(join(dataDir, "users"), workspace);
  if (below === "" || below.startsWith("..")) throw new Error(`the workspace ${workspace} is not under ${join(dataDir, "users")}`);
  return posix.join(remoteDir, "users", ...below.split(sep));
}
