/**
 * Config files given with `--configfile` (Snakemake's habit): a TOML, JSON or YAML mapping whose keys set
 * `[config]` values, typed as written. The format comes from the extension (.toml, .json, .yaml/.yml), else
 * from the first non-blank character (`{` is JSON, otherwise YAML, of which JSON is a subset).
 */
import { readFileSync } from "node:fs";
import { extname } from "node:path";
import { createRequire } from "node:module";
import type * as Yaml from "yaml";
import { EngineError } from "../findings.js";
import type { TomlValue } from "./model.js";
import { parseTomlText } from "./parse-source.js";

// The YAML parser is loaded only when a YAML file is read: every `strand` start loads this module, few read YAML.
let yamlParse: ((text: string) => unknown) | undefined;
function parseYaml(text: string): unknown {
  yamlParse ??= (createRequire(import.meta.url)("yaml") as typeof Yaml).parse;
  return yamlParse(text);
}

/** Reads one config file into config values; throws CONFIG_ERROR naming the file and the problem. */
export function readConfigFile(path: string): Record<string, TomlValue> {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new EngineError("IO_ERROR", `cannot read config file ${path}: ${(error as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : (error as Error).message}`, {
      suggestion: "give --configfile a TOML, JSON or YAML file that exists",
    });
  }
  const extension = extname(path).toLowerCase();
  let document: unknown;
  if (extension === ".toml" || extension === ".oxoflow") {
    document = parseTomlText(text, path);
  } else {
    try {
      document = extension === ".json" || text.trimStart().startsWith("{") ? JSON.parse(text) : parseYaml(text);
    } catch (error) {
      throw new EngineError("CONFIG_ERROR", `config file ${path} cannot be read as ${extension === ".json" ? "JSON" : "YAML/JSON"}: ${(error as Error).message.split("\n")[0]}`, {
        suggestion: "check its syntax; name TOML files *.toml",
      });
    }
  }
  if (document === null || document === undefined) return {};
  if (typeof document !== "object" || Array.isArray(document)) {
    throw new EngineError("CONFIG_ERROR", `config file ${path} must hold a table of KEY = value pairs, not ${Array.isArray(document) ? "a list" : typeof document}`, {
      suggestion: "write one key per config value, e.g. genome: hg38",
    });
  }
  // A [config] table in the file (as in a profile) is read as the config itself.
  const table = document as Record<string, unknown>;
  const values = Object.keys(table).length === 1 && isTable(table.config) ? table.config : table;
  for (const [key, value] of Object.entries(values)) checkValue(path, key, value);
  return values as Record<string, TomlValue>;
}

function isTable(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

/** TOML has no null: a config value that is null (YAML `~`, JSON `null`) is refused rather than guessed. */
function checkValue(path: string, key: string, value: unknown): void {
  if (value === null || value === undefined) {
    throw new EngineError("CONFIG_ERROR", `config file ${path}: '${key}' has no value (null)`, { suggestion: "give it a value, or leave the key out" });
  }
  if (Array.isArray(value)) value.forEach((item, index) => checkValue(path, `${key}[${index}]`, item));
  else if (isTable(value)) for (const [inner, item] of Object.entries(value)) checkValue(path, `${key}.${inner}`, item);
}
