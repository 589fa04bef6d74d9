/**
 * Moving a run's files between the service and a login node over SFTP, only what changed: a file whose
 * size differs is copied; one of the same size is copied when its SHA-256 differs (hashed on both sides).
 * Going up (staging) takes the run's local workspace — the pipeline, its sample sheets and inputs — without
 * the `.strand` bookkeeping; coming back (pull) takes the remote workspace's results and the run's own
 * folder (job logs), never another run's.
 *
 * Both sides are treated as hostile: local files are read only as regular files reached without a link
 * (workspace-reader.ts) and written only along link-free paths (link-guard.ts); remote entries that are
 * links or anything but files and folders are skipped, and remote files are written under a new name and
 * renamed into place, so a link there is replaced, never followed.
 */
import { createHash } from "node:crypto";
import { closeSync, createReadStream, fstatSync, lstatSync, mkdirSync } from "node:fs";
import { join, posix } from "node:path";
import type { Client } from "ssh2";
import { runRemote, type RemoteFiles } from "../../outbound/ssh.js";
import { assertLinkFree, openLinkFree } from "../link-guard.js";
import { folderEntries, openFolderInWorkspace, openInWorkspace } from "../workspace-reader.js";
import { hashCommand } from "./remote-commands.js";

/** The most files one side of a run may list (more is refused with a reason, not copied in part). */
export const SYNC_MAX_FILES = 100_000;

/** The most one file brought back may hold (a larger one is cut there, and the log says so). */
const PULL_FILE_MAX_BYTES = 64 * 1024 ** 3;

/** Paths hashed by one remote command (its length stays far below the limits of a command line). */
const HASH_BATCH = 200;

/** A file on one side: its path relative to the workspace (with `/`), its size, and (remote side) when it changed. */
interface Listed {
  path: string;
  size: number;
  mtime?: number;
}

/** What a sync did, for the run's log. */
export interface SyncSummary {
  copied: number;
  bytes: number;
  unchanged: number;
  skipped: string[];
  /** Coming back: the remote workspace's files outside `.strand` (what stays there when results are left remote). */
  remote?: { path: string; size_bytes: number; modified_at: string | null }[];
}

/** Which relative paths take part: `.strand/…` only under `keepUnderStrand` (a run's own folder). */
function included(path: string, keepUnderStrand: string | undefined): boolean {
  if (path !== ".strand" && !path.startsWith(".strand/")) return true;
  if (keepUnderStrand === undefined) return false;
  return path === ".strand" || keepUnderStrand.startsWith(`${path}/`) || path === keepUnderStrand || path.startsWith(`${keepUnderStrand}/`);
}

/** The regular files of a local workspace, walked without following links. */
function listLocal(workspace: string, keepUnderStrand?: string): Listed[] {
  const found: Listed[] = [];
  const walk = (folder: string) => {
    const opened = openFolderInWorkspace(workspace, folder);
    if (!opened) return;
    try {
      const { entries } = folderEntries(opened.path, SYNC_MAX_FILES);
      for (const entry of entries) {
        const path = folder === "" ? entry.name : `${folder}/${entry.name}`;
        if (!included(path, keepUnderStrand)) continue;
        if (entry.isDirectory()) walk(path);
        else if (entry.isFile()) {
          const stats = lstatSync(join(opened.path, entry.name), { throwIfNoEntry: false });
          if (stats?.isFile()) found.push({ path, size: stats.size });
        }
        if (found.length > SYNC_MAX_FILES) throw new Error(`the workspace holds more than ${SYNC_MAX_FILES} files; a run on a cluster takes at most that many`);
      }
    } finally {
      opened.close();
    }
  };
  walk("");
  return found;
}

/**
 * The regular files of a remote folder, walked over SFTP (links and special files are left out), at most
 * SYNC_MAX_FILES of them (`truncated` says when there were more).
 */
async function listRemote(files: RemoteFiles, root: string, keepUnderStrand?: string): Promise<Listed[] & { truncated?: boolean }> {
  const found: Listed[] & { truncated?: boolean } = [];
  const walk = async (folder: string) => {
    if (found.truncated) return;
    let entries;
    try {
      entries = await files.list(folder === "" ? root : posix.join(root, folder));
    } catch {
      return; // not there (yet)
    }
    for (const entry of entries) {
      const path = folder === "" ? entry.name : `${folder}/${entry.name}`;
      if (!included(path, keepUnderStrand)) continue;
      if (entry.kind === "folder") await walk(path);
      else if (entry.kind === "file") found.push({ path, size: entry.size, mtime: entry.mtime });
      if (found.length >= SYNC_MAX_FILES) {
        found.truncated = true;
        return;
      }
    }
  };
  await walk("");
  return found;
}

/** SHA-256 of a local workspace file (undefined when it is not a regular file reached without a link). */
async function localHash(workspace: string, path: string): Promise<string | undefined> {
  const fd = openInWorkspace(workspace, path);
  if (fd === undefined) return undefined;
  return new Promise((resolve) => {
    const hash = createHash("sha256");
    const stream = createReadStream("", { fd, autoClose: true });
    stream.on("data", (chunk) => hash.update(chunk));
    stream.once("error", () => resolve(undefined));
    stream.once("close", () => resolve(hash.digest("hex")));
  });
}

/** SHA-256 of remote files, in order (undefined for one that is not a regular file). */
async function remoteHashes(client: Client, root: string, paths: string[]): Promise<(string | undefined)[]> {
  const hashes: (string | undefined)[] = [];
  for (let at = 0; at < paths.length; at += HASH_BATCH) {
    const batch = paths.slice(at, at + HASH_BATCH);
    const result = await runRemote(client, hashCommand(batch.map((path) => posix.join(root, path))), { timeoutMs: 600_000, maxBytes: batch.length * 80 + 1024 });
    const lines = result.stdout.split("\n");
    for (let index = 0; index < batch.length; index++) {
      const line = lines[index]?.trim();
      hashes.push(line && /^[0-9a-f]{64}$/.test(line) ? line : undefined);
    }
  }
  return hashes;
}

/** The paths of `from` that `to` lacks or holds differently (by size, then by hash). */
async function changed(from: Listed[], to: Listed[], hashFrom: (paths: string[]) => Promise<(string | undefined)[]>, hashTo: (paths: string[]) => Promise<(string | undefined)[]>): Promise<{ copy: Listed[]; unchanged: number }> {
  const there = new Map(to.map((file) => [file.path, file.size]));
  const copy: Listed[] = [];
  const sameSize: Listed[] = [];
  for (const file of from) (there.get(file.path) === file.size ? sameSize : copy).push(file);
  if (sameSize.length === 0) return { copy, unchanged: 0 };
  const paths = sameSize.map((file) => file.path);
  const [a, b] = await Promise.all([hashFrom(paths), hashTo(paths)]);
  let unchanged = 0;
  sameSize.forEach((file, index) => {
    if (a[index] !== undefined && a[index] === b[index]) unchanged++;
    else copy.push(file);
  });
  return { copy, unchanged };
}

/** Copies the local workspace (without `.strand`) to the remote workspace: what is missing there or differs. */
export async function stageWorkspace(client: Client, files: RemoteFiles, local: string, remote: string): Promise<SyncSummary> {
  const [mine, theirs] = [listLocal(local), await listRemote(files, remote)];
  const { copy, unchanged } = await changed(
    mine,
    theirs,
    async (paths) => Promise.all(paths.map((path) => localHash(local, path))),
    (paths) => remoteHashes(client, remote, paths),
  );
  const summary: SyncSummary = { copied: 0, bytes: 0, unchanged, skipped: [] };
  const made = new Set<string>();
  for (const file of copy) {
    const fd = openInWorkspace(local, file.path);
    if (fd === undefined) {
      summary.skipped.push(file.path);
      continue;
    }
    try {
      const folder = posix.dirname(posix.join(remote, file.path));
      if (!made.has(folder)) {
        await files.mkdirs(folder);
        made.add(folder);
      }
      await files.upload(fd, posix.join(remote, file.path));
      summary.copied++;
      summary.bytes += fstatSync(fd).size;
    } finally {
      closeSync(fd);
    }
  }
  return summary;
}

/**
 * Brings a finished run's files back: the remote workspace's results (unless `logsOnly`) and the run's own
 * folder, `.strand/runs/<id>` (its job logs), into the local workspace — what is missing or differs.
 */
export async function pullWorkspace(client: Client, files: RemoteFiles, remote: string, local: string, runId: string, options: { logsOnly?: boolean } = {}): Promise<SyncSummary> {
  const runFolder = `.strand/runs/${runId}`;
  const listed = await listRemote(files, remote, runFolder);
  const results = listed.filter((file) => !file.path.startsWith(".strand/")).map((file) => ({ path: file.path, size_bytes: file.size, modified_at: file.mtime === undefined ? null : new Date(file.mtime * 1000).toISOString() }));
  const theirs = listed.filter((file) => !options.logsOnly || file.path.startsWith(`${runFolder}/`));
  const mine = listLocal(local, runFolder);
  const { copy, unchanged } = await changed(
    theirs,
    mine,
    (paths) => remoteHashes(client, remote, paths),
    async (paths) => Promise.all(paths.map((path) => localHash(local, path))),
  );
  const summary: SyncSummary = { copied: 0, bytes: 0, unchanged, skipped: listed.truncated ? [`(the remote workspace holds more than ${SYNC_MAX_FILES} files: those past them stay there)`] : [], remote: results };
  for (const file of copy) {
    // The mirror of the event log is the service's own (with local paths): the engine's copy stays remote.
    if (file.path === `${runFolder}/events.jsonl` || file.path === `${runFolder}/engine.log`) continue;
    const target = join(local, ...file.path.split("/"));
    try {
      assertLinkFree(local, target);
      mkdirSync(join(target, ".."), { recursive: true });
      const fd = openLinkFree(local, target, "truncate");
      try {
        summary.bytes += await files.download(posix.join(remote, file.path), fd, PULL_FILE_MAX_BYTES);
        summary.copied++;
      } finally {
        closeSync(fd);
      }
    } catch {
      summary.skipped.push(file.path);
    }
  }
  return summary;
}
