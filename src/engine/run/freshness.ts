/**
 * Output freshness: whether a job's outputs exist and are newer than its inputs. Folder listings are
 * cached, so checking a million outputs in folders that do not exist yet costs one lookup per folder.
 */
import { readdirSync, statSync } from "node:fs";
import { basename, dirname, isAbsolute, join } from "node:path";
import type { Job } from "../expand/expand.js";

/** Modification times of files under a working directory, with folder listings cached. */
export class FileStatCache {
  private readonly listings = new Map<string, Set<string> | null>();

  constructor(private readonly workdir: string) {}

  /** Modification time in milliseconds, or undefined when the path does not exist. */
  modifiedAt(path: string): number | undefined {
    const absolute = isAbsolute(path) ? path : join(this.workdir, path);
    const trimmed = absolute.length > 1 ? absolute.replace(/\/+$/, "") : absolute;
    const listing = this.listing(dirname(trimmed));
    if (listing === null || !listing.has(basename(trimmed))) return undefined;
    try {
      return statSync(trimmed).mtimeMs;
    } catch {
      return undefined;
    }
  }

  /** True when the path exists. */
  exists(path: string): boolean {
    return this.modifiedAt(path) !== undefined;
  }

  private listing(folder: string): Set<string> | null {
    let listing = this.listings.get(folder);
    if (listing === undefined) {
      try {
        listing = new Set(readdirSync(folder));
      } catch {
        listing = null;
      }
      this.listings.set(folder, listing);
    }
    return listing;
  }
}

const GLOB_CHARS = /[*?[]/;

/**
 * True when every output exists and is strictly newer than every input. A job without outputs, with an
 * unresolved placeholder, a glob input or a missing input is never up to date.
 */
export function outputsUpToDate(job: Job, files: FileStatCache): boolean {
  const outputs = job.output.paths;
  if (outputs.length === 0) return false;
  let oldestOutput = Infinity;
  for (const output of outputs) {
    if (output.includes("{")) return false;
    const time = files.modifiedAt(output);
    if (time === undefined) return false;
    if (time < oldestOutput) oldestOutput = time;
  }
  for (const input of job.input.paths) {
    if (input.includes("{") || GLOB_CHARS.test(input)) return false;
    const time = files.modifiedAt(input);
    if (time === undefined || time >= oldestOutput) return false;
  }
  return true;
}
