/**
 * Which software packages a rule's environment declares: conda/mamba environment files (with their channels
 * and pip sections), pixi manifests, container images (Biocontainers, Seqera Wave multi-tool images, vendor
 * images), environment modules and venv requirement files. Used only by the package index builder; the
 * files are read through a callback so this module stays free of path handling.
 */
import { parse as parseToml } from "smol-toml";
import { parse as parseYaml } from "yaml";
import type { Environment } from "../../../../engine/format/model.js";
import { canonicalPackageName } from "./tool-summaries.js";

/** How a package reached a rule. */
export type DeclaredVia = "conda" | "pip" | "pixi" | "container" | "module" | "venv";

/** One package named by one environment declaration. */
export interface PackageMention {
  name: string;
  version?: string;
  channels: string[];
  container?: string;
  via: DeclaredVia;
}

/** An environment file that was named but could not be read, kept so the builder can still guess its tool. */
export interface UnreadEnvironment {
  kind: "conda" | "pixi" | "venv";
  /** The value as written in the pipeline, e.g. `envs/fastp.yaml`. */
  declared: string;
  /** The file's stem (for `envs/x/pixi.toml`, the folder name), a likely package name. */
  stem: string;
}

/** What one environment table declares. */
export interface EnvironmentPackages {
  packages: PackageMention[];
  unread: UnreadEnvironment[];
}

/** Reads a file named by an environment relative to the pipeline; undefined when it does not exist. */
export type EnvironmentFileReader = (declared: string) => string | undefined;

/** Splits a conda match spec (`bioconda::samtools=1.18=h50ea8bc_0`, `python>=3.9`) into name, version, channel. */
export function parseCondaSpec(spec: string): { name: string; version?: string; channel?: string } | undefined {
  let text = spec.trim().split(/\s+#/)[0]!.trim();
  if (text === "") return undefined;
  let channel: string | undefined;
  const channelSplit = text.indexOf("::");
  if (channelSplit >= 0) {
    channel = text.slice(0, channelSplit);
    text = text.slice(channelSplit + 2);
  }
  const match = /^([A-Za-z0-9_.-]+)\s*(?:\[[^\]]*\])?\s*(.*)$/.exec(text);
  if (!match) return undefined;
  const name = match[1]!;
  let rest = match[2]!.trim();
  let version: string | undefined;
  if (rest !== "") {
    if (rest.startsWith("==")) rest = rest.slice(2);
    else if (rest.startsWith("=")) rest = rest.slice(1);
    // A conda build string follows a second '=' (`1.18=h50ea8bc_0`); the version is what comes before it.
    version = /^[<>!~]/.test(rest) ? rest.replace(/\s+/g, "") : rest.split("=")[0]!.trim();
    if (version === "" || version === "*") version = undefined;
  }
  return { name, version, channel };
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : [];
}

/** Packages of a conda environment file (YAML): `dependencies`, their `channel::` prefixes and the pip list. */
export function packagesOfCondaFile(text: string): PackageMention[] {
  const document = parseYaml(text) as { channels?: unknown; dependencies?: unknown } | null;
  if (!document || typeof document !== "object") return [];
  const channels = strings(document.channels);
  const mentions: PackageMention[] = [];
  for (const dependency of Array.isArray(document.dependencies) ? document.dependencies : []) {
    if (typeof dependency === "string") {
      const spec = parseCondaSpec(dependency);
      // `pip` itself is the installer for the pip section, not a tool the pipeline uses.
      if (!spec || spec.name === "pip") continue;
      mentions.push({ name: canonicalPackageName(spec.name), version: spec.version, channels: spec.channel ? [spec.channel] : channels, via: "conda" });
    } else if (dependency && typeof dependency === "object" && "pip" in dependency) {
      for (const line of strings((dependency as { pip: unknown }).pip)) {
        const spec = parsePipRequirement(line);
        if (spec) mentions.push({ name: canonicalPackageName(spec.name), version: spec.version, channels: ["pypi"], via: "pip" });
      }
    }
  }
  return mentions;
}

/** A pip requirement line (`CIRIquant==1.1.2`, `pandas>=2`); options, URLs and comments give undefined. */
export function parsePipRequirement(line: string): { name: string; version?: string } | undefined {
  const text = line.split("#")[0]!.trim();
  if (text === "" || text.startsWith("-") || text.includes("://")) return undefined;
  const match = /^([A-Za-z0-9_.-]+)(?:\[[^\]]*\])?\s*(?:(==|>=|<=|~=|!=|>|<)\s*([^;\s,]+))?/.exec(text);
  if (!match) return undefined;
  const version = match[3] === undefined ? undefined : match[2] === "==" ? match[3] : `${match[2]}${match[3]}`;
  return { name: match[1]!, version };
}

/** Packages of a pixi manifest: `[dependencies]`, `[pypi-dependencies]` and those of each feature. */
export function packagesOfPixiFile(text: string): PackageMention[] {
  const document = parseToml(text) as Record<string, unknown>;
  const project = (document.workspace ?? document.project ?? {}) as Record<string, unknown>;
  const channels = strings(project.channels);
  const tables: Array<[unknown, DeclaredVia]> = [
    [document.dependencies, "pixi"],
    [document["pypi-dependencies"], "pip"],
  ];
  const features = (document.feature ?? {}) as Record<string, Record<string, unknown>>;
  for (const feature of Object.values(features)) tables.push([feature.dependencies, "pixi"], [feature["pypi-dependencies"], "pip"]);
  const mentions: PackageMention[] = [];
  for (const [table, via] of tables) {
    if (!table || typeof table !== "object") continue;
    for (const [name, spec] of Object.entries(table as Record<string, unknown>)) {
      const raw = typeof spec === "string" ? spec : typeof spec === "object" && spec !== null && typeof (spec as { version?: unknown }).version === "string" ? (spec as { version: string }).version : undefined;
      const version = raw === undefined || raw === "*" ? undefined : raw.replace(/^==?/, "");
      mentions.push({ name: canonicalPackageName(name), version, channels: via === "pip" ? ["pypi"] : channels, via });
    }
  }
  return mentions;
}

/** Wave "community" images name several tools joined by `_`; `pruned` marks a trimmed image, not a tool. */
const WAVE_NON_TOOLS = new Set(["pruned"]);

/**
 * The packages a container image provides, read from its reference: `quay.io/biocontainers/fastqc:0.12.1--hdfd78af_0`
 * is fastqc 0.12.1; `community.wave.seqera.io/library/scanpy:1.10.2--e83d…` is scanpy 1.10.2; a Wave image named
 * `a_b_c` with a hash tag is packages a, b and c (versions unknown); `broadinstitute/gatk:4.5.0.0` is gatk4 4.5.0.0.
 * A local image file (`images/tool.sif`) names no package.
 */
export function packagesOfImage(image: string): PackageMention[] {
  const written = image.trim();
  const schemeless = written.replace(/^(docker|oras|library|shub):\/\//, "");
  if (schemeless === written && /\.(sif|simg|img)$/i.test(written)) return [];
  const reference = schemeless.split("@")[0]!;
  const slash = reference.lastIndexOf("/");
  const host = slash >= 0 ? reference.slice(0, reference.indexOf("/")) : "";
  const last = reference.slice(slash + 1);
  const colon = last.indexOf(":");
  const repository = colon >= 0 ? last.slice(0, colon) : last;
  const tag = colon >= 0 ? last.slice(colon + 1) : undefined;
  if (repository === "") return [];
  let version: string | undefined;
  if (tag !== undefined && tag !== "latest") {
    if (tag.includes("--")) version = tag.slice(0, tag.indexOf("--"));
    else if (!/^[0-9a-f]{12,}$/.test(tag)) version = tag.replace(/^v(?=\d)/, "");
  }
  const names = host.includes("wave.seqera.io") && repository.includes("_") && version === undefined
    ? repository.split("_").filter((name) => name !== "" && !WAVE_NON_TOOLS.has(name))
    : [repository];
  return names.map((name) => ({ name: canonicalPackageName(name), version: names.length === 1 ? version : undefined, channels: [], container: written, via: "container" }));
}

/** A module spec such as `samtools/1.18` (Lmod and Tcl modules). */
export function packageOfModule(spec: string): PackageMention | undefined {
  const text = spec.trim();
  if (text === "") return undefined;
  const [name, ...rest] = text.split("/");
  const version = rest.join("/") || undefined;
  return { name: canonicalPackageName(name!), version, channels: [], via: "module" };
}

function stemOf(declared: string, kind: UnreadEnvironment["kind"]): string {
  const parts = declared.replace(/\\/g, "/").split("/").filter(Boolean);
  const file = parts[parts.length - 1] ?? declared;
  // envs/varcall/pixi.toml: the folder names the environment, the file name is always pixi.toml.
  if (kind === "pixi" && /^pixi\.(toml|lock)$/.test(file)) return parts[parts.length - 2] ?? file;
  return file.replace(/\.(ya?ml|toml|lock|txt)$/i, "");
}

function readWith(read: EnvironmentFileReader, declared: string, parseFile: (text: string) => PackageMention[]): PackageMention[] | undefined {
  const text = read(declared);
  if (text === undefined) return undefined;
  try {
    return parseFile(text);
  } catch {
    // A malformed environment file names no packages we can trust; the builder then falls back to its stem.
    return undefined;
  }
}

/** Every package one environment table declares, reading its files through `read`. */
export function packagesOfEnvironment(environment: Environment, read: EnvironmentFileReader): EnvironmentPackages {
  const packages: PackageMention[] = [];
  const unread: UnreadEnvironment[] = [];
  for (const conda of [environment.conda, environment.mamba]) {
    if (conda === undefined || conda.trim() === "") continue;
    const found = /\.ya?ml$/i.test(conda) ? readWith(read, conda, packagesOfCondaFile) : undefined;
    if (found) packages.push(...found);
    else unread.push({ kind: "conda", declared: conda, stem: stemOf(conda, "conda") });
  }
  if (environment.pixi !== undefined && environment.pixi.trim() !== "") {
    const found = /\.toml$/i.test(environment.pixi) ? readWith(read, environment.pixi, packagesOfPixiFile) : undefined;
    if (found) packages.push(...found);
    else unread.push({ kind: "pixi", declared: environment.pixi, stem: stemOf(environment.pixi, "pixi") });
  }
  for (const image of [environment.docker, environment.singularity]) {
    if (image !== undefined && image.trim() !== "") packages.push(...packagesOfImage(image));
  }
  for (const spec of environment.modules ?? []) {
    const mention = packageOfModule(spec);
    if (mention) packages.push(mention);
  }
  if (environment.venv_requirements !== undefined && environment.venv_requirements.trim() !== "") {
    const found = readWith(read, environment.venv_requirements, (text) =>
      text.split(/\r?\n/).flatMap((line) => {
        const spec = parsePipRequirement(line);
        return spec ? [{ name: canonicalPackageName(spec.name), version: spec.version, channels: ["pypi"], via: "venv" as const }] : [];
      }),
    );
    if (found) packages.push(...found);
    else unread.push({ kind: "venv", declared: environment.venv_requirements, stem: stemOf(environment.venv_requirements, "venv") });
  }
  return { packages, unread };
}
