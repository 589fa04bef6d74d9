/**
 * Results left on a remote cluster (`results = "remote"`): when such a run ends, the service keeps a listing
 * of its remote workspace beside the run's mirror, and the results view lists the run's declared outputs
 * from it, with where they are — they are not copied here, so they cannot be previewed or downloaded here.
 */
import { join } from "node:path";
import type { RunFiles } from "../engine-command.js";
import { readWorkspaceJson } from "../workspace-reader.js";

/** The most files of a remote workspace a listing keeps. */
export const REMOTE_LISTING_MAX = 100_000;

/** The listing's size limit when it is read back (about 100 bytes a file). */
const LISTING_MAX_BYTES = 32 * 1024 * 1024;

/** What stays on the cluster. */
export interface RemoteResultsListing {
  cluster_id: string;
  /** The remote workspace the paths are relative to. */
  workspace: string;
  files: RemoteResultFile[];
}

/** One file left on the cluster. */
export interface RemoteResultFile {
  path: string;
  size_bytes: number;
  modified_at: string | null;
}

/** `.strand/runs/<id>/remote-results.json`. */
export function remoteResultsPath(files: RunFiles): string {
  return join(files.dir, "remote-results.json");
}

/** The listing of a run whose results stayed remote; undefined when there is none (or it is not well formed). */
export function readRemoteResults(files: RunFiles): RemoteResultsListing | undefined {
  const read = readWorkspaceJson(files.workspace, remoteResultsPath(files), LISTING_MAX_BYTES) as Partial<RemoteResultsListing> | undefined;
  if (!read || typeof read.cluster_id !== "string" || typeof read.workspace !== "string" || !Array.isArray(read.files)) return undefined;
  const entries = read.files
    .filter((file): file is RemoteResultFile => typeof file?.path === "string" && typeof file.size_bytes === "number")
    .map((file) => ({ path: file.path, size_bytes: file.size_bytes, modified_at: typeof file.modified_at === "string" ? file.modified_at : null }));
  return { cluster_id: read.cluster_id, workspace: read.workspace, files: entries };
}
