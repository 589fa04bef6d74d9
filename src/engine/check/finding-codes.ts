/**
 * Every code a check can report, with who reports it, its severity and what it means: the one home of the
 * finding-code reference (`docs/reference/finding-codes.md`, written from this table and from
 * `FATAL_CODE_MEANING` by `npm run docs:generate`). The codes and their meanings follow the pipeline format
 * (docs/reference/pipeline-format.md §4.3 and §4.4), including the two lint codes it gives two meanings.
 * `tests/engine/check/finding-codes.test.ts` fails when a check reports a code this table lacks.
 */
import type { Severity } from "../findings.js";

/** Which step reports a code: `validate` (and so `lint`, `dry-run`, `run`), `lint` only, or loading. */
export type FindingSource = "validate" | "lint" | "load" | "run";

export interface FindingCodeEntry {
  severity: Severity;
  source: FindingSource;
  meaning: string;
}

const entry = (source: FindingSource, severity: Severity, meaning: string): FindingCodeEntry => ({ source, severity, meaning });

/** The codes of `validate`, `lint` and loading, in the reference's order. */
export const FINDING_CODES = {
  E001: entry("validate", "error", "`[workflow] name` is empty"),
  E002: entry("validate", "error", "a rule name that is empty or has characters other than letters, digits, `_`, `-` and `:`; outputs without `shell`, `script` or `transform`; legacy `threads = 0`; a legacy `memory` that is not a size; a `retry_delay` that is not a duration"),
  E003: entry("validate", "error", "an output wildcard that no input, sample source, `[[values]]` table or scatter determines"),
  E004: entry("validate", "error", "a memory size that cannot be read (a whole number with an optional K, M, G or T; no decimals, no `B`)"),
  E005: entry("validate", "error", "`{config.KEY}` or `config.KEY` (in a command, path or `when`), or a `values_from` of a scatter, transform or `[[values]]` table, naming a key `[config]` lacks"),
  E006: entry("validate", "error", "the graph cannot be built: a cycle (its path is shown) or a duplicate"),
  E007: entry("validate", "error", "`depends_on` names an unknown rule (the nearest name is suggested)"),
  E008: entry("validate", "error", "`extends` names an unknown rule"),
  E009: entry("validate", "error", "`..` in an input or output path"),
  E010: entry("validate", "error", "an undefined `env_group`, or an absolute input that does not exist and that no rule produces"),
  E011: entry("validate", "error", "a destructive or download-and-execute command in `shell`, `pre_exec`, `on_success` or `on_failure` (`rm -rf /`, `mkfs`, `curl … | sh`, a fork bomb, …)"),
  E013: entry("validate", "warning", "a checkpoint rule without `checkpoint_manifest` (its run fails when it completes)"),
  E014: entry("validate", "error", "a checkpoint rule fanned out per sample, group or pair (a checkpoint rule runs once)"),
  E015: entry("run", "error", "a checkpoint manifest's pair without `pair_id` and `experiment` (or `tumor`)"),
  E016: entry("run", "error", "a checkpoint re-entry defines a pair again with different samples"),
  E017: entry("validate", "error", "a `when` condition the grammar cannot read (the column is given); never silently true"),
  E018: entry("validate", "error", "a `docker` or `singularity` image that is not an image reference (e.g. one starting with `-`, which a runtime would read as an option)"),
  W001: entry("lint", "warning", "the workflow has no description"),
  W002: entry("lint", "warning", "the workflow has no author"),
  W003: entry("lint", "warning", "a rule has no description"),
  W004: entry("lint", "warning", "a rule has a shell command but no `log`"),
  W005: entry("lint", "warning", "a rule asks for more than 8 threads but no memory"),
  W006: entry("lint", "info", "a rule name contains `-` (prefer `_`)"),
  W007: entry("lint", "info", "a rule makes final outputs (nothing depends on it) without `target = true`"),
  W008: entry("lint", "info", "a rule runs in the system environment (no conda, pixi or container)"),
  W009: entry("lint", "warning", "a rule asks for more than 32 threads but no memory"),
  W010: entry("lint", "warning", "a checkpoint rule has no outputs"),
  W011: entry("lint", "warning", "`shadow` is set on a rule without inputs"),
  W012: entry("lint", "info", "`retries` without `retry_delay`"),
  W013: entry("lint", "info", "`on_failure` without `retries`"),
  W016: entry("lint", "info", "a conda or pixi environment that is not a lock file"),
  W017: entry("validate", "warning", "an absolute input or output path (it ties the pipeline to one machine)"),
  W018: entry("validate", "warning", "an input or output path starting with `~` (the shell does not expand it inside quotes)"),
  W019: entry("lint", "warning", "a rule that executes, has no outputs, and nothing depends on"),
  W020: entry("validate", "warning", "a relative input (or an optional rule's input) that does not exist yet and no rule produces; in lint also: `pre_exec` contains `$(`, a backtick, `;`, a newline or `rm -rf /`"),
  W021: entry("lint", "warning", "`on_success` contains `$(`, a backtick, `;`, a newline or `rm -rf /`; also: a script mentions another rule's output without depending on it"),
  W022: entry("lint", "warning", "`on_failure` contains `$(`, a backtick, `;`, a newline or `rm -rf /`"),
  W023: entry("lint", "warning", "a command uses a risky construct: `$(…)`, backticks, `rm -rf`, `chmod 777`, `eval`, or a download piped to a shell"),
  W024: entry("lint", "warning", "a `{name}` that no sample source, `[[values]]` table or scatter defines (it stays literal)"),
  W025: entry("lint", "info", "the legacy rule-level `threads` or `memory` (move them into `[rules.resources]`)"),
  W026: entry("lint", "warning", "an unknown key, which is ignored (the nearest known key is the hint)"),
  W027: entry("validate", "warning", "a rule, or an `expand_inputs` entry, switched off by an empty list (also printed by `dry-run`)"),
  S008: entry("lint", "warning", "credential-shaped text in the file: cloud access key ids, tokens with known prefixes and lengths, private-key blocks, `password = \"…\"` with a literal value"),
  INCLUDE_SHADOWED: entry("load", "warning", "an included rule is skipped because the host pipeline has a rule of that name"),
  INCLUDE_CONTRACT: entry("load", "warning", "a host rule reads an output of an included module that the module does not declare"),
  SOURCE_EMPTY: entry("load", "warning", "a `sample_pattern` or `pairs_pattern` matched no files"),
} as const satisfies Record<string, FindingCodeEntry>;

/** A code of the table. */
export type FindingCode = keyof typeof FINDING_CODES;
