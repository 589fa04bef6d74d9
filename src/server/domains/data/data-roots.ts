/**
 * Where a caller may read data: the configured data roots (`SERVICE_DATA_ROOTS`), the caller's own files
 * folder (`<dataDir>/users/<id>/files`, where uploads go) and, on a personal service without data roots,
 * the user's home folder. A request path is absolute (inside a root) or relative to the caller's own
 * folder; it is resolved with realpath (so `..` and links are judged by where they really lead) and must
 * stay inside an allowed root. Everything else — missing or present, another user's folder, the service's
 * own data folder — is the same 404, so an answer never tells whether a path exists.
 *
 * The checks are plain functions over a `Confinement` (plain data), so the engine pool's workers apply the
 * same rule to paths they meet (a sample sheet's files) without the service's objects.
 */
import { mkdirSync, realpathSync } from "node:fs";
import { homedir } from "node:os";
import { isAbsolute, join, normalize, relative, sep } from "node:path";
import type { Caller } from "../../caller.js";
import { ServiceError } from "../../errors.js";
import { userFolder } from "../execution/service.js";

/** One folder a caller may read. */
export interface DataRoot {
  /** `own`: the caller's files folder (relative paths); `data`: a configured data root; `home`: the personal user's home. */
  kind: "own" | "data" | "home";
  /** The folder's real path on the server. */
  real: string;
}

/** The reading rule of one caller, as plain data (it crosses into the engine pool's workers). */
export interface Confinement {
  /** The caller's own files folder (real path); relative request paths start here. */
  own: string;
  /** Every allowed folder (real paths), the own folder included. */
  roots: DataRoot[];
  /** The service's data folder (real path): nothing in it is readable but the caller's own folder. */
  serviceData: string;
}

/** A request path resolved: the real path read, and the path as the caller gave it (shown in answers). */
export interface ResolvedPath {
  real: string;
  shown: string;
}

/** Whether `path` is `folder` or inside it (both real, absolute). */
export function isInside(folder: string, path: string): boolean {
  const inside = relative(folder, path);
  return inside === "" || (!inside.startsWith(`..${sep}`) && inside !== ".." && !isAbsolute(inside));
}

/** Resolves a request path under the rule, or undefined when it is outside, missing or unreadable (never says which). */
export function resolveInside(rule: Confinement, given: string, base?: string): string | undefined {
  if (given === "" || given.includes("\0")) return undefined;
  let candidate: string;
  if (isAbsolute(given)) candidate = given;
  else {
    const normal = normalize(given);
    // A relative path that climbs out of its base is refused before it is looked at.
    if (normal === ".." || normal.startsWith(`..${sep}`)) return undefined;
    candidate = join(base ?? rule.own, normal);
  }
  let real: string;
  try {
    real = realpathSync(candidate);
  } catch {
    return undefined;
  }
  if (!rule.roots.some((root) => isInside(root.real, real))) return undefined;
  // A data root or the home folder may hold the service's data folder: only the caller's own part of it is theirs.
  if (isInside(rule.serviceData, real) && !isInside(rule.own, real)) return undefined;
  return real;
}

/** The one answer for a path the caller may not read, whether or not it exists. */
export function notInYourFolders(given: string): ServiceError {
  return new ServiceError("NOT_FOUND", `${given} is not in your data folders`, {
    suggestion: "GET /api/data/roots lists the folders you may read; a relative path is read inside your own files folder (where uploads go)",
  });
}

/** The folders of the service that callers may read, and each caller's rule. */
export class DataPlaces {
  private readonly dataRoots: string[];

  constructor(
    private readonly options: {
      /** `SERVICE_DATA_DIR`: users' own folders live under `users/<id>/files`. */
      dataDir: string;
      /** `SERVICE_DATA_ROOTS` (absolute). */
      dataRoots: string[];
      /** Personal mode without data roots also reads the home folder. */
      personal: boolean;
      /** The home folder (tests give one). */
      home?: string;
    },
  ) {
    this.dataRoots = options.dataRoots;
  }

  /** The caller's own files folder (made when first needed). */
  ownFolder(caller: Caller): string {
    const folder = join(userFolder(this.options.dataDir, caller.id), "files");
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    return realpathSync(folder);
  }

  /** The caller's rule: the folders it may read, with real paths (roots that do not exist are left out). */
  confinementOf(caller: Caller): Confinement {
    const own = this.ownFolder(caller);
    const roots: DataRoot[] = [{ kind: "own", real: own }];
    for (const root of this.dataRoots) {
      const real = realOrUndefined(root);
      if (real) roots.push({ kind: "data", real });
    }
    if (this.options.personal && this.dataRoots.length === 0) {
      const home = realOrUndefined(this.options.home ?? homedir());
      if (home) roots.push({ kind: "home", real: home });
    }
    mkdirSync(this.options.dataDir, { recursive: true });
    return { own, roots, serviceData: realpathSync(this.options.dataDir) };
  }

  /** Resolves request paths under the caller's rule; the first one outside is a 404 naming it. */
  resolveAll(rule: Confinement, paths: string[], base?: string): ResolvedPath[] {
    return paths.map((given) => {
      const real = resolveInside(rule, given, base);
      if (real === undefined) throw notInYourFolders(given);
      return { real, shown: given };
    });
  }
}

function realOrUndefined(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

/** Shows a real path under the request path it was found through (the longest match wins). */
export function displayThrough(resolved: ResolvedPath[]): (path: string) => string {
  const byLength = [...resolved].sort((a, b) => b.real.length - a.real.length);
  return (path) => {
    for (const entry of byLength) {
      if (!isInside(entry.real, path)) continue;
      const inside = relative(entry.real, path);
      if (inside === "") return entry.shown;
      return entry.shown === "." ? inside : `${entry.shown.replace(/\/+$/, "")}/${inside}`;
    }
    // Never a server path: a file found outside every request path shows by its name only.
    return path.split(sep).pop() ?? "";
  };
}
