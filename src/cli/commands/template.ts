/**
 * `strand template [NAME] [-o FILE] [--json]`: lists the built-in pipeline templates, or prints one (or writes
 * it to FILE) to start a new pipeline from.
 */
import { existsSync, mkdirSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { EngineError } from "../../engine/findings.js";
import { editDistance, nearestKey } from "../../engine/nearest-key.js";
import { getTemplate, listTemplates, templateIds, type TemplateSummary } from "../../engine/tools/templates.js";
import { optionValue, UsageError, type OptionSpec } from "../args.js";
import { printEnvelope } from "../json-envelope.js";
import { displayPath, paint, type Output } from "../print.js";
import type { Command } from "./command.js";

const TEMPLATE_OPTIONS: OptionSpec[] = [
  { name: "output", short: "o", value: true, placeholder: "FILE", description: "write the template to FILE (a folder gets NAME.oxoflow) instead of stdout" },
  { name: "force", description: "overwrite FILE when it exists" },
];

/**
 * The template id closest to what was typed: a close spelling first, then an id that contains the name (or is
 * contained in it), then the template sharing the most words with it (id, title, tags and features: `somatic`
 * finds `tumor-normal`), else the smallest edit distance.
 */
export function nearestTemplateId(name: string, templates: readonly TemplateSummary[]): string | undefined {
  const wanted = name.trim().toLowerCase().replace(/\.oxoflow$/, "");
  const ids = templates.map((template) => template.id);
  const close = nearestKey(wanted, ids);
  if (close) return close;
  const containing = ids.find((id) => wanted.length > 0 && (id.includes(wanted) || wanted.includes(id)));
  if (containing) return containing;
  const words = wanted.split(/[^a-z0-9]+/).filter((word) => word.length >= 3);
  let best: string | undefined;
  let bestScore = 0;
  for (const template of templates) {
    const vocabulary = [template.id, template.title, ...template.tags, ...template.features].join(" ").toLowerCase().split(/[^a-z0-9]+/);
    const score = words.filter((word) => vocabulary.some((known) => known.startsWith(word) || (known.length >= 3 && word.startsWith(known)))).length;
    if (score > bestScore) {
      best = template.id;
      bestScore = score;
    }
  }
  if (best) return best;
  let bestDistance = Infinity;
  for (const id of ids) {
    const distance = editDistance(wanted, id);
    if (distance < bestDistance) {
      best = id;
      bestDistance = distance;
    }
  }
  return best;
}

function printTable(output: Output): void {
  const templates = listTemplates();
  const idWidth = Math.max(2, ...templates.map((template) => template.id.length));
  const titleWidth = Math.max(5, ...templates.map((template) => template.title.length));
  output.out(paint(output, "bold", `${"ID".padEnd(idWidth)}  ${"TITLE".padEnd(titleWidth)}  DESCRIPTION`));
  for (const template of templates) {
    output.out(`${paint(output, "cyan", template.id.padEnd(idWidth))}  ${template.title.padEnd(titleWidth)}  ${template.description}`);
  }
  output.out("");
  output.out("Print one with `strand template NAME`, or start a pipeline with `strand template NAME -o main.oxoflow`.");
}

/** Where `-o FILE` writes: FILE itself, or NAME.oxoflow inside it when FILE is a folder. */
function targetPath(given: string, id: string): string {
  const path = resolve(given);
  return existsSync(path) && statSync(path).isDirectory() ? join(path, `${id}.oxoflow`) : path;
}

export const templateCommand: Command = {
  usage: "strand template [NAME] [-o FILE] [--force] [--json]",
  options: TEMPLATE_OPTIONS,
  async run(args, output) {
    const unexpected = [...args.configFlags.map((flag) => `--${flag.name}`), ...Object.keys(args.assignments).map((key) => `${key}=…`)];
    if (unexpected.length > 0) throw new UsageError(`unknown option ${unexpected[0]}`, "run `strand template --help` to see the options");
    if (args.positionals.length > 1) throw new UsageError(`template takes one NAME, got ${args.positionals.length}: ${args.positionals.join(" ")}`, "strand template hello-world");
    const name = args.positionals[0];
    const target = optionValue(args, "output");

    if (name === undefined) {
      if (target !== undefined) throw new UsageError("-o needs a template NAME", "strand template hello-world -o main.oxoflow");
      if (args.flags.has("json")) printEnvelope(output, "template", { ok: true, data: { templates: listTemplates() } });
      else printTable(output);
      return 0;
    }

    const template = getTemplate(name);
    if (!template) {
      const ids = templateIds();
      const near = nearestTemplateId(name, listTemplates());
      throw new UsageError(`unknown template '${name}'${near ? ` (did you mean '${near}'?)` : ""}`, `the templates are: ${ids.join(", ")}; run \`strand template\` to see them`);
    }

    let written: string | undefined;
    if (target !== undefined) {
      written = targetPath(target, template.id);
      if (existsSync(written) && !args.flags.has("force")) {
        throw new EngineError("IO_ERROR", `${displayPath(output, written)} already exists`, { suggestion: "choose another file, or add --force to overwrite it" });
      }
      try {
        mkdirSync(dirname(written), { recursive: true });
        writeFileSync(written, template.toml_content);
      } catch (error) {
        throw new EngineError("IO_ERROR", `cannot write ${displayPath(output, written)}: ${(error as Error).message}`, { suggestion: "check the path and that its folder is writable" });
      }
    }

    if (args.flags.has("json")) {
      printEnvelope(output, "template", { ok: true, data: { ...template, written: written ? displayPath(output, written) : null } });
    } else if (written) {
      output.err(`wrote ${displayPath(output, written)} (template ${template.id})`);
      if (!args.flags.has("quiet")) output.err(`next: strand validate ${displayPath(output, written)}`);
    } else {
      output.out(template.toml_content);
    }
    return 0;
  },
};
