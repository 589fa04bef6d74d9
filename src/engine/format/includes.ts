/**
 * `[[include]]`: modules merged into the including file. Only rules and config cross the boundary; the host
 * wins on name clashes; a namespace prefixes rule names (`ns::rule`) and rewrites references between the
 * module's own rules.
 */
import { fetchSourceText, publicSourcesOnly, vetRepository } from "./remote-sources.js";
import { basename, dirname, extname, isAbsolute, join, resolve } from "node:path";
import { EngineError, makeFinding, type Finding } from "../findings.js";
import { extractDeclarations } from "./config.js";
import type { ConfigDeclaration, Include, Module, Rule, TomlValue } from "./model.js";
import { checkoutModule } from "./module-cache.js";
import { decodePipelineTable, parseTomlText, readPipelineText } from "./parse-source.js";
import type { DecodedPipelineFile } from "./schema.js";
import { SourceFile } from "./source-positions.js";

/** Includes nested deeper than this are refused as probably circular. */
export const MAX_INCLUDE_DEPTH = 16;
const MAX_REMOTE_INCLUDE_BYTES = 1024 * 1024;

/** A parsed and decoded pipeline file. */
export interface ParsedFile {
  decoded: DecodedPipelineFile;
  source: SourceFile;
  table: Record<string, unknown>;
  /** Folder (or URL base) that the file's relative paths resolve against. */
  base: string;
}

/** What a file contributes once its own includes are merged in. */
export interface MergedFile {
  rules: Rule[];
  config: Record<string, TomlValue>;
  configMeta: Record<string, ConfigDeclaration>;
  modules: Module[];
  warnings: Finding[];
}

export interface IncludeContext {
  cacheDir: string;
  /** Text from an untrusted sender (the HTTP service): includes are not read, only noted. */
  detached?: boolean;
  /** Every source file read, by path, for positions of findings in included files. */
  sources: Map<string, SourceFile>;
}

/** Parses TOML text into a decoded file. */
export function parseFile(text: string, path: string, base: string): ParsedFile {
  const table = parseTomlText(text, path);
  const source = new SourceFile(path, text);
  return { decoded: decodePipelineTable(table, source), source, table, base };
}

/** Builds the model rules of one file (in file order) with their origin. */
export function rulesOf(file: ParsedFile): Rule[] {
  const rawRules = (file.table.rules as Record<string, unknown>[] | undefined) ?? [];
  return (file.decoded.rules ?? []).map((decoded, index) => ({
    ...decoded,
    origin: { source: file.source, path: ["rules", index], module: null, namespace: null },
    raw: rawRules[index] ?? {},
  }));
}

/** Merges a file's includes (recursively) into its own rules and config. */
export async function mergeIncludes(file: ParsedFile, context: IncludeContext, chain: string[] = []): Promise<MergedFile> {
  const chainHere = [...chain, file.source.path];
  const own = extractDeclarations((file.decoded.config ?? {}) as Record<string, TomlValue>);
  const merged: MergedFile = { rules: rulesOf(file), config: own.config, configMeta: own.meta, modules: [], warnings: [] };
  const names = new Set(merged.rules.map((rule) => rule.name));
  const includes = file.decoded.include ?? [];
  for (const [index, include] of includes.entries()) {
    const at = file.source.locate(["include", index]);
    if (context.detached) {
      // No file, repository or URL is read on behalf of a pipeline sent over HTTP.
      merged.warnings.push(
        makeFinding("INCLUDE_NOT_READ", "info", `include ${include.repo ?? include.path} is not read for a pipeline checked on its own; its rules are not part of this check`, {
          at,
          suggestion: "run strand validate on the workflow folder to check it with its includes",
        }),
      );
      continue;
    }
    if (chainHere.length > MAX_INCLUDE_DEPTH) {
      throw new EngineError("INCLUDE_ERROR", `includes nest more than ${MAX_INCLUDE_DEPTH} levels deep (possible circular includes): ${chainHere.join(" → ")}`, { at });
    }
    const child = await readInclude(include, file, context, at);
    if (chainHere.includes(child.source.path)) {
      throw new EngineError("INCLUDE_ERROR", `circular include: ${[...chainHere, child.source.path].join(" → ")}`, {
        at,
        suggestion: "remove one of the [[include]] entries that form the loop",
      });
    }
    const module = await mergeIncludes(child, context, chainHere);
    const moduleName = include.name ?? basename(include.path, extname(include.path));
    const namespace = include.namespace ?? null;
    const renamed = namespace ? applyNamespace(module.rules, namespace) : module.rules;
    const accepted: string[] = [];
    for (const rule of renamed) {
      if (names.has(rule.name)) {
        merged.warnings.push(
          makeFinding("INCLUDE_SHADOWED", "warning", `rule '${rule.name}' from ${include.path} is skipped: a rule of that name already exists`, {
            rule: rule.name,
            at: rule.origin.source.locate(rule.origin.path),
            suggestion: "give the include a namespace, or rename one of the rules",
          }),
        );
        continue;
      }
      names.add(rule.name);
      accepted.push(rule.name);
      merged.rules.push({ ...rule, origin: { ...rule.origin, module: rule.origin.module ?? moduleName, namespace: rule.origin.namespace ?? namespace } });
    }
    for (const [key, value] of Object.entries(include.params)) if (!(key in merged.config)) merged.config[key] = value;
    for (const [key, value] of Object.entries(module.config)) if (!(key in merged.config)) merged.config[key] = value;
    for (const [key, value] of Object.entries(module.configMeta)) if (!(key in merged.configMeta)) merged.configMeta[key] = value;
    merged.modules.push({ name: moduleName, namespace, path: include.path, inputs: include.inputs, outputs: include.outputs, rules: accepted });
    for (const inner of module.modules) {
      merged.modules.push({ ...inner, rules: inner.rules.map((name) => (namespace ? `${namespace}::${name}` : name)).filter((name) => accepted.includes(name)) });
    }
    merged.warnings.push(...module.warnings);
  }
  return merged;
}

async function readInclude(include: Include, host: ParsedFile, context: IncludeContext, at: ReturnType<SourceFile["locate"]>): Promise<ParsedFile> {
  if (include.repo !== undefined && include.ref === undefined) {
    throw new EngineError("INCLUDE_ERROR", `include of ${include.path} from repo ${include.repo} needs a ref`, {
      at,
      suggestion: 'pin the module: add ref = "v1.2.0" (a tag, branch or commit)',
    });
  }
  try {
    if (include.repo !== undefined) {
      const publicOnly = publicSourcesOnly();
      const pin = await vetRepository(include.repo, publicOnly);
      const checkout = await checkoutModule(include.repo, include.ref!, context.cacheDir, { confined: publicOnly, ...(pin ? { pin } : {}) });
      const path = join(checkout, include.path);
      return await readLocal(path, context);
    }
    if (/^https?:\/\//i.test(include.path) || /^https?:\/\//i.test(host.base)) {
      const url = new URL(include.path, /^https?:\/\//i.test(host.base) ? host.base : undefined).href;
      const text = await fetchInclude(url);
      const file = parseFile(text, url, new URL(".", url).href);
      context.sources.set(url, file.source);
      return file;
    }
    const path = isAbsolute(include.path) ? include.path : resolve(host.base, include.path);
    return await readLocal(path, context);
  } catch (error) {
    if (error instanceof EngineError && error.code === "IO_ERROR") {
      throw new EngineError("INCLUDE_ERROR", `include ${include.path}: ${error.message}`, {
        at,
        suggestion: "include paths are relative to the including file's folder",
      });
    }
    throw error;
  }
}

async function readLocal(path: string, context: IncludeContext): Promise<ParsedFile> {
  const text = await readPipelineText(path);
  const file = parseFile(text, path, dirname(path));
  context.sources.set(path, file.source);
  return file;
}

async function fetchInclude(url: string): Promise<string> {
  return fetchSourceText(url, { publicOnly: publicSourcesOnly(), maxBytes: MAX_REMOTE_INCLUDE_BYTES, timeoutMs: 30_000 });
}

/** Prefixes rule names with `ns::` and rewrites references (`depends_on`, `scatter.gather`) among them. */
function applyNamespace(rules: Rule[], namespace: string): Rule[] {
  const own = new Set(rules.map((rule) => rule.name));
  const rename = (name: string): string => (own.has(name) ? `${namespace}::${name}` : name);
  return rules.map((rule) => ({
    ...rule,
    name: `${namespace}::${rule.name}`,
    depends_on: rule.depends_on.map(rename),
    scatter: rule.scatter?.gather ? { ...rule.scatter, gather: rename(rule.scatter.gather) } : rule.scatter,
  }));
}

/**
 * Interface contracts of include modules, for concrete paths: a declared input must be produced by some rule,
 * a declared output by a rule of the module. Host rules reading a module's undeclared outputs get a warning.
 */
export function checkContracts(modules: Module[], rules: Rule[], includes: Include[], source: SourceFile): Finding[] {
  const warnings: Finding[] = [];
  const producers = new Map<string, string[]>();
  for (const rule of rules) {
    for (const output of rule.output.paths) {
      const list = producers.get(output);
      if (list) list.push(rule.name);
      else producers.set(output, [rule.name]);
    }
  }
  const concrete = (path: string): boolean => !path.includes("{");
  for (const module of modules) {
    const hasContract = module.inputs.length > 0 || module.outputs.length > 0;
    if (!hasContract) continue;
    const includeIndex = includes.findIndex((include) => (include.name ?? basename(include.path, extname(include.path))) === module.name);
    const at = includeIndex >= 0 ? source.locate(["include", includeIndex]) : null;
    const members = new Set(module.rules);
    for (const input of module.inputs.filter(concrete)) {
      if (!producers.has(input)) {
        throw new EngineError("INCLUDE_ERROR", `module '${module.name}' expects input ${input}, but no rule produces it`, {
          at,
          suggestion: "add a rule whose output is that path, or correct the module's inputs list",
        });
      }
    }
    for (const output of module.outputs.filter(concrete)) {
      if (!(producers.get(output) ?? []).some((name) => members.has(name))) {
        throw new EngineError("INCLUDE_ERROR", `module '${module.name}' promises output ${output}, but none of its rules produces it`, {
          at,
          suggestion: "correct the module's outputs list, or add the rule to the module",
        });
      }
    }
    const declared = new Set(module.outputs);
    for (const rule of rules) {
      if (members.has(rule.name) || rule.origin.module === module.name) continue;
      for (const input of rule.input.paths) {
        if (!concrete(input) || declared.has(input)) continue;
        const producedBy = producers.get(input) ?? [];
        if (producedBy.some((name) => members.has(name))) {
          warnings.push(
            makeFinding("INCLUDE_CONTRACT", "warning", `rule '${rule.name}' reads ${input}, an internal output of module '${module.name}' that its outputs list does not declare`, {
              rule: rule.name,
              at: rule.origin.source.locate([...rule.origin.path, "input"]),
              suggestion: `add "${input}" to the module's outputs`,
            }),
          );
        }
      }
    }
  }
  return warnings;
}
