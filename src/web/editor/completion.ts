/**
 * Completion while writing a pipeline, from the last parse of the text: rule names where a rule is named
 * (`depends_on`, `extends`, an execution group's `rules`), other rules' outputs inside `input`, wildcards and
 * placeholders inside `{…}`, and config keys after `config.` (in commands, paths and `when`).
 */
import type { Completion, CompletionContext, CompletionResult, CompletionSource } from "@codemirror/autocomplete";
import type { ParseResult, PipelineStats } from "../api/workflow-tooling.js";
import type { ParsedRule } from "./pipeline-checks.js";

/** What completion knows about the pipeline. */
export interface CompletionVocabulary {
  rules: { name: string; outputs: string[]; description: string | null }[];
  configKeys: string[];
  wildcards: string[];
}

/** What completion knows from the last parse and stats of the text (the wildcard `sample` always). */
export function completionVocabulary(parse: ParseResult | undefined, stats: PipelineStats | undefined): CompletionVocabulary {
  if (!parse) return { rules: [], configKeys: [], wildcards: ["sample"] };
  const rules = (parse.rules as unknown as ParsedRule[]).map((rule) => ({
    name: rule.name,
    description: rule.description,
    outputs: Array.isArray(rule.output) ? rule.output : Object.values(rule.output),
  }));
  const wildcards = new Set(["sample", ...(stats?.wildcard_names ?? [])]);
  return { rules, configKeys: Object.keys(parse.config), wildcards: [...wildcards] };
}

const RULE_NAME_KEYS = new Set(["depends_on", "extends", "rules"]);
const BUILTIN_PLACEHOLDERS: Completion[] = [
  { label: "input", type: "variable", detail: "all inputs, space-joined" },
  { label: "output", type: "variable", detail: "all outputs, space-joined" },
  { label: "threads", type: "variable", detail: "the rule's threads" },
  { label: "memory", type: "variable", detail: "the rule's memory" },
  { label: "log", type: "variable", detail: "the log path" },
  { label: "params.", type: "variable", detail: "a rule parameter" },
  { label: "config.", type: "variable", detail: "a config value" },
];

/** The key whose value the position is in: the nearest `key =` above it on a line of its own. */
function enclosingKey(context: CompletionContext): string | undefined {
  const doc = context.state.doc;
  const here = doc.lineAt(context.pos);
  for (let number = here.number; number >= Math.max(1, here.number - 40); number--) {
    const line = doc.line(number);
    const text = number === here.number ? line.text.slice(0, context.pos - line.from) : line.text;
    const match = /^\s*([A-Za-z_][\w-]*)\s*=/.exec(text);
    if (match) return match[1];
    if (/^\s*\[/.test(text) && number !== here.number) return undefined;
  }
  return undefined;
}

/** A completion source reading the vocabulary at the moment it is asked (it changes as the text does). */
export function pipelineCompletion(vocabulary: () => CompletionVocabulary): CompletionSource {
  return (context: CompletionContext): CompletionResult | null => {
    const words = vocabulary();
    const configKey = context.matchBefore(/config\.[\w-]*$/);
    if (configKey) {
      return {
        from: configKey.from + "config.".length,
        options: words.configKeys.map((key) => ({ label: key, type: "property", detail: "config" })),
        validFor: /^[\w-]*$/,
      };
    }
    const placeholder = context.matchBefore(/\{[\w.]*$/);
    if (placeholder) {
      return {
        from: placeholder.from + 1,
        options: [...words.wildcards.map((name) => ({ label: name, type: "constant", detail: "wildcard", apply: `${name}}` })), ...BUILTIN_PLACEHOLDERS],
        validFor: /^[\w]*$/,
      };
    }
    const key = enclosingKey(context);
    if (key && RULE_NAME_KEYS.has(key)) {
      const quoted = context.matchBefore(/"[\w:-]*$/);
      const bare = context.matchBefore(/[\w:-]+$/);
      if (!quoted && !bare && !context.explicit) return null;
      const currentRule = currentRuleName(context);
      const options = words.rules
        .filter((rule) => rule.name !== currentRule)
        .map((rule) => ({ label: rule.name, type: "function", detail: "rule", info: rule.description ?? undefined, apply: quoted ? rule.name : `"${rule.name}"` }));
      return { from: quoted ? quoted.from + 1 : (bare?.from ?? context.pos), options, validFor: /^[\w:-]*$/ };
    }
    if (key === "input") {
      const quoted = context.matchBefore(/"[^"]*$/);
      if (!quoted) return null;
      const currentRule = currentRuleName(context);
      const options = words.rules
        .filter((rule) => rule.name !== currentRule)
        .flatMap((rule) => rule.outputs.map((output) => ({ label: output, type: "text", detail: `output of ${rule.name}` })));
      return options.length > 0 ? { from: quoted.from + 1, options, validFor: /^[^"]*$/ } : null;
    }
    return null;
  };
}

/** The `name` of the [[rules]] table the position is in, to leave it out of its own suggestions. */
function currentRuleName(context: CompletionContext): string | undefined {
  const doc = context.state.doc;
  for (let number = doc.lineAt(context.pos).number; number >= 1; number--) {
    const text = doc.line(number).text;
    const name = /^\s*name\s*=\s*"([^"]*)"/.exec(text);
    if (name) return name[1];
    if (/^\s*\[\[rules\]\]/.test(text)) return undefined;
  }
  return undefined;
}
