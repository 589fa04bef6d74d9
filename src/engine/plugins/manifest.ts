/**
 * The fields of a plugin manifest and their checks. Each problem names the field by its JSON path
 * (`name`, `permissions[1]`, `signature.value`), says what is wrong and how to fix it; fields this
 * version does not know are warnings, so newer manifests still load. The signature itself is checked in
 * service.ts; here only the manifest's own fields.
 */
import { nearestKey } from "../nearest-key.js";
import { checkLicenseExpression } from "./spdx-licenses.js";
import { parseSemVer, satisfies, VersionRangeError, type SemVer } from "./version-range.js";

/** One problem with a manifest: where, what, and how to fix it. */
export interface ManifestProblem {
  /** The field's JSON path, e.g. `permissions[1]` or `signature.value`. */
  field: string;
  message: string;
  suggestion: string;
}

/** What a plugin is (the predecessor's three kinds). */
export const PLUGIN_TYPES = ["rule", "executor", "report"] as const;

/** What a plugin may ask to do; a manifest lists the ones it needs. */
export const PLUGIN_PERMISSIONS = ["read-inputs", "write-outputs", "network", "run-processes", "read-environment", "use-gpu"] as const;

/** Every field a manifest may have. */
export const MANIFEST_FIELDS = [
  "name",
  "version",
  "plugin_type",
  "description",
  "author",
  "license",
  "entry",
  "command_template",
  "environment",
  "strand_version",
  "permissions",
  "homepage",
  "repository",
  "signature",
] as const;

const SLUG = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/;
const MAX_NAME = 64;
const MAX_TEXT = 1000;

/** What the checks found. */
export interface ManifestCheck {
  errors: ManifestProblem[];
  warnings: ManifestProblem[];
}

/** A slug made from a name, for the suggestion ("My Plugin" → "my-plugin"). */
function slugOf(text: string): string {
  const slug = text
    .normalize("NFKD")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^[^a-z]+/, "")
    .replace(/-+$/, "")
    .slice(0, MAX_NAME)
    .replace(/-+$/, "");
  return slug || "my-plugin";
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}

/** Checks a manifest's fields against this service's version. */
export function checkManifest(manifest: Record<string, unknown>, strandVersion: string): ManifestCheck {
  const errors: ManifestProblem[] = [];
  const warnings: ManifestProblem[] = [];
  const error = (field: string, message: string, suggestion: string) => errors.push({ field, message, suggestion });
  const warn = (field: string, message: string, suggestion: string) => warnings.push({ field, message, suggestion });

  /** A string field: its text, or undefined after reporting absence (when required) or a wrong type. */
  const text = (field: string, required: "error" | "warning" | "optional", missingHint: string): string | undefined => {
    const value = manifest[field];
    if (value === undefined || value === null || (typeof value === "string" && value.trim() === "")) {
      const what = value === undefined ? "is missing" : "is empty";
      if (required === "error") error(field, `${field} ${what}`, missingHint);
      else if (required === "warning") warn(field, `${field} ${what}`, missingHint);
      return undefined;
    }
    if (typeof value !== "string") {
      error(field, `${field} must be a string, not ${describe(value)}`, missingHint);
      return undefined;
    }
    return value;
  };

  const name = text("name", "error", 'add "name": a lowercase slug such as "my-plugin"');
  if (name !== undefined) {
    if (name.length > MAX_NAME) error("name", `name is ${name.length} characters long; at most ${MAX_NAME} are allowed`, `shorten it, e.g. "${slugOf(name)}"`);
    else if (!SLUG.test(name)) error("name", `name "${name}" is not a lowercase slug`, `use lowercase letters, digits and single hyphens, starting with a letter: "${slugOf(name)}"`);
  }

  const version = text("version", "error", 'add "version": a semantic version such as "1.0.0"');
  if (version !== undefined && !parseSemVer(version)) {
    const padded = /^v?\d+(\.\d+)?$/.test(version) ? version.replace(/^v/, "").concat(".0.0").split(".").slice(0, 3).join(".") : null;
    const unprefixed = /^v\d/.test(version) && parseSemVer(version.slice(1)) ? version.slice(1) : null;
    error("version", `version "${version}" is not a semantic version (MAJOR.MINOR.PATCH, see https://semver.org)`, `write it as three numbers without leading zeros or a "v", e.g. "${unprefixed ?? padded ?? "1.0.0"}"`);
  }

  const pluginType = text("plugin_type", "error", `add "plugin_type": one of ${PLUGIN_TYPES.join(", ")}`);
  if (pluginType !== undefined && !(PLUGIN_TYPES as readonly string[]).includes(pluginType)) {
    const near = nearestKey(pluginType.toLowerCase(), PLUGIN_TYPES);
    error("plugin_type", `plugin_type "${pluginType}" is not a kind of plugin strand knows`, `${near ? `did you mean "${near}"? ` : ""}use one of ${PLUGIN_TYPES.join(", ")}`);
  }

  for (const field of ["description", "author"] as const) {
    const hint = field === "description" ? 'add "description": one sentence saying what the plugin does' : 'add "author": a name, optionally with an address ("Ada Lovelace <ada@example.org>")';
    const value = text(field, "warning", hint);
    if (value !== undefined && value.length > MAX_TEXT) error(field, `${field} is ${value.length} characters long; at most ${MAX_TEXT} are allowed`, "shorten it; put longer documentation at the homepage");
  }

  const license = text("license", "warning", 'add "license": an SPDX license id such as "MIT" or "Apache-2.0"');
  if (license !== undefined) {
    const checked = checkLicenseExpression(license);
    if (checked.error) error("license", `license "${license}" ${checked.error.message}`, checked.error.suggestion);
    for (const note of checked.notes) warn("license", `license "${license}" ${note.message}`, note.suggestion);
  }

  const entry = text("entry", manifest.command_template === undefined ? "error" : "optional", 'add "entry": the plugin\'s main file, relative to the plugin folder (e.g. "bin/run.sh"), or a "command_template"');
  if (entry !== undefined) checkEntry(entry, error);
  text("command_template", "optional", 'a shell command template, e.g. "mytool --in {input} --out {output}"');
  text("environment", "optional", 'an environment specification, e.g. "conda:envs/tool.yaml"');

  const range = text("strand_version", "warning", `add "strand_version": the strand versions the plugin works with, e.g. "^${strandVersion}"`);
  if (range !== undefined) checkStrandVersion(range, strandVersion, error);

  checkPermissions(manifest.permissions, error, warn);
  for (const field of ["homepage", "repository"] as const) {
    const url = text(field, "optional", `an https:// address`);
    if (url !== undefined) checkHttpsUrl(field, url, error);
  }

  for (const key of Object.keys(manifest)) {
    if ((MANIFEST_FIELDS as readonly string[]).includes(key)) continue;
    const near = nearestKey(key, MANIFEST_FIELDS);
    warn(key, `${key} is not a manifest field strand knows; it is ignored (but still covered by the signature)`, near ? `did you mean "${near}"?` : `remove it, or check the spelling; known fields: ${MANIFEST_FIELDS.join(", ")}`);
  }
  return { errors, warnings };
}

type Report = (field: string, message: string, suggestion: string) => void;

/** An entry point: a relative path inside the plugin folder. */
function checkEntry(entry: string, error: Report): void {
  const fix = 'give a path relative to the plugin folder with forward slashes, e.g. "bin/run.sh"';
  if (entry.includes("\0")) error("entry", "entry holds a NUL character", fix);
  else if (entry.includes("\\")) error("entry", `entry "${entry}" uses backslashes`, fix);
  else if (entry.startsWith("/") || /^[A-Za-z]:/.test(entry)) error("entry", `entry "${entry}" is an absolute path`, fix);
  else if (entry.split("/").includes("..")) error("entry", `entry "${entry}" leaves the plugin folder with ".."`, "keep the entry point inside the plugin folder");
  else if (entry.split("/").some((part) => part === "")) error("entry", `entry "${entry}" has an empty path segment (a doubled or trailing "/")`, fix);
  else if (entry.length > 1024) error("entry", `entry is ${entry.length} characters long; at most 1024 are allowed`, "shorten the path");
}

/** A range of strand versions that must include the running one. */
function checkStrandVersion(range: string, strandVersion: string, error: Report): void {
  const running: SemVer | null = parseSemVer(strandVersion);
  try {
    if (running && !satisfies(running, range)) {
      error("strand_version", `the plugin needs strand ${range}; this is strand ${strandVersion}`, `use a release of the plugin made for strand ${strandVersion}, or widen the range if it works here (e.g. "^${strandVersion}")`);
    }
  } catch (problem) {
    if (!(problem instanceof VersionRangeError)) throw problem;
    error("strand_version", `strand_version "${range}" is not a version range: ${problem.message}`, `write an npm-style range such as ">=${strandVersion}", "^${strandVersion}" or ">=0.1.0 <2.0.0"`);
  }
}

function checkPermissions(value: unknown, error: Report, warn: Report): void {
  if (value === undefined) return;
  const fix = `list what the plugin needs from: ${PLUGIN_PERMISSIONS.join(", ")}`;
  if (!Array.isArray(value)) {
    error("permissions", `permissions must be a list of strings, not ${describe(value)}`, fix);
    return;
  }
  const seen = new Set<string>();
  value.forEach((permission: unknown, index) => {
    const field = `permissions[${index}]`;
    if (typeof permission !== "string") {
      error(field, `${field} must be a string, not ${describe(permission)}`, fix);
      return;
    }
    if (!(PLUGIN_PERMISSIONS as readonly string[]).includes(permission)) {
      const near = nearestKey(permission, PLUGIN_PERMISSIONS);
      error(field, `${field} "${permission}" is not a permission strand knows`, near ? `did you mean "${near}"? ${fix}` : fix);
      return;
    }
    if (seen.has(permission)) warn(field, `${field} repeats "${permission}"`, "list each permission once");
    seen.add(permission);
  });
}

function checkHttpsUrl(field: string, text: string, error: Report): void {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    error(field, `${field} "${text}" is not a URL`, "write a full address, e.g. https://github.com/owner/plugin");
    return;
  }
  if (url.protocol !== "https:") error(field, `${field} "${text}" is not an https:// address`, url.protocol === "http:" ? `use https://${text.slice("http://".length)}` : "use an https:// address");
  else if (url.username || url.password) error(field, `${field} carries a user name or password`, "remove the credentials from the address");
}
