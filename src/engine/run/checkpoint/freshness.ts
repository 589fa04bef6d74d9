/**
 * Output freshness: whether a job's outputs exist and are newer than its inputs. Folder listings are
 * cached, so checking a million outputs in folders that do not exist yet costs one lookup per folder.
 */
import { readdirSync, statSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import type { Job } from "../../expand/expand.js";

/** Modification times of files under a working directory, with folder listings cached. */
export class FileStatCache {
  private readonly listings = new Map<string, { absolute: string; entries: Set<string> } | null>();

  constructor(private readonly workdir: string) {}

  /** Modification time in milliseconds, or undefined when the path does not exist. */
  modifiedAt(path: string): number | undefined {
    // Split by hand: folders are resolved once per folder, not once per file.
    const trimmed = path.length > 1 && path.endsWith("/") ? path.replace(/\/+$/, "") : path;
    const slash = trimmed.lastIndexOf("/");
    const folder = slash < 0 ? "" : slash === 0 ? "/" : trimmed.slice(0, slash);
    const name = trimmed.slice(slash + 1);
    const listing = this.listing(folder);
    if (listing === null || !listing.entries.has(name)) return undefined;
    try {
      return statSync(join(listing.absolute, name)).mtimeMs;
    } catch {
      return undefined;
    }
  }

  /** True when the path exists. */
  exists(path: string): boolean {
    return this.modifiedAt(path) !== undefined;
  }

  private listing(folder: string): { absolute: string; entries: Set<string> } | null {
    let listing = this.listings.get(folder);
    if (listing === undefined) {
      const absolute = isAbsolute(folder) ? folder : join(this.workdir, folder);
      try {
        listing = { absolute, entries: new Set(readdirSync(absolute)) };
      } catch {
        listing = null;
      }
      this.listings.set(folder, listing);
    }
    return listing;
  }
}

const GLOB_CHARS = /[*?[]/;

/** What the files say about a job's outputs. */
export type OutputState =
  | { state: "fresh" }
  /** None of the outputs exists (or the job has none, or its paths cannot be checked). */
  | { state: "absent" }
  | { state: "partial"; missing: string }
  | { state: "stale"; input: string };

const FRESH: OutputState = { state: "fresh" };
const ABSENT: OutputState = { state: "absent" };

/**
 * Whether every output exists and is strictly newer than every input. A job without outputs, with an
 * unresolved placeholder, a glob input or a missing input is never fresh.
 */
export function outputState(job: Job, files: FileStatCache): OutputState {
  const outputs = job.output.paths;
  if (outputs.length === 0) return ABSENT;
  let oldestOutput = Infinity;
  let missing: string | undefined;
  let present = 0;
  for (const output of outputs) {
    if (output.includes("{")) return ABSENT;
    const time = files.modifiedAt(output);
    if (time === undefined) {
      missing ??= output;
      continue;
    }
    present++;
    if (time < oldestOutput) oldestOutput = time;
  }
  if (present === 0) return ABSENT;
  if (missing !== undefined) return { state: "partial", missing };
  for (const input of job.input.paths) {
    if (input.includes("{") || GLOB_CHARS.test(input)) return ABSENT;
    const time = files.modifiedAt(input);
    if (time === undefined) return ABSENT;
    if (time >= oldestOutput) return { state: "stale", input };
  }
  return FRESH;
}
