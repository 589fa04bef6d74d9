import { existsSync } from "node:fs";

/**
 * Command-line parsing. Options are declared per command; anything else that looks like `--KEY VALUE`,
 * `--KEY=VALUE` or a trailing `KEY=VALUE` is kept aside as a possible config override, to be accepted or
 * refused once the pipeline (and so its config keys) is known.
 */

export class UsageError extends Error {
  constructor(
    message: string,
    readonly suggestion?: string,
  ) {
    super(message);
  }
}

export interface OptionSpec {
  /** Long name without dashes. */
  name: string;
  short?: string;
  /** True for options that take a value. */
  value?: boolean;
  /** True for options that may be given more than once. */
  repeat?: boolean;
  description: string;
  placeholder?: string;
}

export interface ParsedArgs {
  positionals: string[];
  options: Map<string, string[]>;
  flags: Set<string>;
  /** `KEY=VALUE` overrides: trailing words and `--arg` (which wins). */
  assignments: Record<string, string>;
  /** `--KEY VALUE` / `--KEY=VALUE` for names that are not options: valid only for config keys. */
  configFlags: { name: string; value: string | undefined }[];
}

/** Options every pipeline command accepts. */
export const GLOBAL_OPTIONS: OptionSpec[] = [
  { name: "json", description: "print a JSON document on stdout" },
  { name: "no-color", description: "do not colour the output" },
  { name: "quiet", short: "q", description: "print less" },
  { name: "verbose", short: "v", description: "print more" },
  { name: "help", short: "h", description: "show help for the command" },
];

/** Parses arguments against a command's option list. */
export function parseArgs(argv: string[], specs: OptionSpec[]): ParsedArgs {
  // A command's own option wins over a global one with the same letter (`cluster submit -q QUEUE`).
  const all = [...GLOBAL_OPTIONS, ...specs];
  const byLong = new Map(all.map((spec) => [spec.name, spec]));
  const byShort = new Map(all.filter((spec) => spec.short).map((spec) => [spec.short!, spec]));
  const parsed: ParsedArgs = { positionals: [], options: new Map(), flags: new Set(), assignments: {}, configFlags: [] };
  const argAssignments: Record<string, string> = {};
  const record = (spec: OptionSpec, value: string | undefined, shown: string): void => {
    if (!spec.value) {
      if (value !== undefined) throw new UsageError(`${shown} does not take a value`);
      parsed.flags.add(spec.name);
      return;
    }
    if (value === undefined) throw new UsageError(`${shown} needs a value${spec.placeholder ? ` (${spec.placeholder})` : ""}`);
    if (spec.name === "arg" || spec.name === "config") {
      const eq = value.indexOf("=");
      if (eq <= 0) throw new UsageError(`--${spec.name} expects KEY=VALUE, got '${value}'`);
      argAssignments[value.slice(0, eq)] = value.slice(eq + 1);
      return;
    }
    const list = parsed.options.get(spec.name) ?? [];
    if (list.length > 0 && !spec.repeat) throw new UsageError(`${shown} was given more than once`);
    list.push(value);
    parsed.options.set(spec.name, list);
  };

  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!;
    if (word === "--") {
      parsed.positionals.push(...argv.slice(i + 1));
      break;
    }
    if (word.startsWith("--")) {
      const eq = word.indexOf("=");
      const name = eq >= 0 ? word.slice(2, eq) : word.slice(2);
      const inline = eq >= 0 ? word.slice(eq + 1) : undefined;
      const spec = byLong.get(name);
      if (spec) {
        const value = spec.value && inline === undefined ? argv[++i] : inline;
        record(spec, value, `--${name}`);
      } else {
        // Not an option: maybe a config key (`--genome hg38`); decided after loading the pipeline.
        let value = inline;
        if (value === undefined && i + 1 < argv.length && !argv[i + 1]!.startsWith("-")) value = argv[++i];
        parsed.configFlags.push({ name, value });
      }
    } else if (word.startsWith("-") && word.length > 1 && !/^-\d/.test(word)) {
      const letters = word.slice(1);
      for (let k = 0; k < letters.length; k++) {
        const spec = byShort.get(letters[k]!);
        if (!spec) throw new UsageError(`unknown option -${letters[k]}`, `run with --help to see the options`);
        if (spec.value) {
          const rest = letters.slice(k + 1);
          record(spec, rest !== "" ? rest : argv[++i], `-${letters[k]}`);
          break;
        }
        record(spec, undefined, `-${letters[k]}`);
      }
    } else if (/^[A-Za-z_]\w*=/.test(word) && !existsSync(word)) {
      // KEY=VALUE sets config wherever it stands (the workflow may be found without being named).
      const eq = word.indexOf("=");
      parsed.assignments[word.slice(0, eq)] = word.slice(eq + 1);
    } else {
      parsed.positionals.push(word);
    }
  }
  Object.assign(parsed.assignments, argAssignments);
  return parsed;
}

/** The single value of an option, if given. */
export function optionValue(args: ParsedArgs, name: string): string | undefined {
  return args.options.get(name)?.[0];
}

/** Every value of a repeatable option (also accepting comma-separated lists). */
export function optionValues(args: ParsedArgs, name: string): string[] {
  return (args.options.get(name) ?? []).flatMap((value) => value.split(",").map((part) => part.trim()).filter(Boolean));
}
