/**
 * Built-in pipeline templates: the `templates/` folder at the package root holds one `.oxoflow` file per
 * template and `index.json` (id, file, title, tags, features, runnable). Name and description come from each
 * file's `[workflow]` table, so they cannot drift from the TOML. Read once per process; every template is
 * valid and lint-clean (tests/engine/tools/templates.test.ts). `strand template` and GET /api/templates serve them.
 */
import { readFileSync } from "node:fs";
import { parse } from "smol-toml";
import { EngineError } from "../findings.js";

/** The templates folder: three levels up from this module, the same from src/engine/tools and dist/engine/tools. */
export const TEMPLATES_DIR = new URL("../../../templates/", import.meta.url);

export interface TemplateSummary {
  /** Stable identifier, e.g. `hello-world` (what `strand template NAME` takes). */
  id: string;
  /** The pipeline's `[workflow].name`. */
  name: string;
  /** A short human title, e.g. "Hello world". */
  title: string;
  /** The pipeline's `[workflow].description`. */
  description: string;
  tags: string[];
  /** Format features the template shows, e.g. "[[pairs]]", "scatter". */
  features: string[];
  /** True when it runs on a bare machine (only bash and coreutils; it makes its own input data). */
  runnable: boolean;
}

export interface Template extends TemplateSummary {
  /** The template's `.oxoflow` text. */
  toml_content: string;
}

interface IndexEntry {
  id: string;
  file: string;
  title: string;
  tags?: string[];
  features?: string[];
  runnable?: boolean;
}

let cache: Template[] | undefined;

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : [];
}

function readText(name: string): string {
  try {
    return readFileSync(new URL(name, TEMPLATES_DIR), "utf8");
  } catch (error) {
    throw new EngineError("IO_ERROR", `cannot read the built-in template file ${name}: ${(error as Error).message}`, {
      suggestion: "the strand installation is incomplete: its templates/ folder is missing or damaged",
    });
  }
}

function loadAll(): Template[] {
  const index = JSON.parse(readText("index.json")) as { templates?: IndexEntry[] };
  return (index.templates ?? []).map((entry) => {
    if (!/^[a-z0-9][a-z0-9-]*$/.test(entry.id) || !/^[A-Za-z0-9._-]+\.oxoflow$/.test(entry.file)) {
      throw new EngineError("IO_ERROR", `templates/index.json has a bad entry: id '${entry.id}', file '${entry.file}'`);
    }
    const text = readText(entry.file);
    const workflow = (parse(text) as { workflow?: { name?: unknown; description?: unknown } }).workflow ?? {};
    return {
      id: entry.id,
      name: typeof workflow.name === "string" ? workflow.name : entry.id,
      title: entry.title,
      description: typeof workflow.description === "string" ? workflow.description : "",
      tags: strings(entry.tags),
      features: strings(entry.features),
      runnable: entry.runnable === true,
      toml_content: text,
    };
  });
}

function templates(): Template[] {
  cache ??= loadAll();
  return cache;
}

function summary(template: Template): TemplateSummary {
  return { id: template.id, name: template.name, title: template.title, description: template.description, tags: [...template.tags], features: [...template.features], runnable: template.runnable };
}

/** Every built-in template, in catalogue order, without its text. */
export function listTemplates(): TemplateSummary[] {
  return templates().map(summary);
}

/** The ids of the built-in templates, in catalogue order. */
export function templateIds(): string[] {
  return templates().map((template) => template.id);
}

/**
 * One template with its TOML text, or undefined. The id is matched case-insensitively, and a trailing
 * `.oxoflow` is allowed (`Hello-World.oxoflow` finds `hello-world`).
 */
export function getTemplate(id: string): Template | undefined {
  const wanted = id.trim().toLowerCase().replace(/\.oxoflow$/, "");
  const found = templates().find((template) => template.id === wanted);
  return found ? { ...summary(found), toml_content: found.toml_content } : undefined;
}
