/**
 * The generated reference pages under `docs/reference/`, each written from the code's own table: the
 * configuration from `src/server/settings.ts`, the error codes from `src/server/error-codes.ts`, the finding
 * codes from `src/engine/check/finding-codes.ts` and `FATAL_CODES`, the command line from the commands of
 * `src/cli/main.ts`, and the events from the run's event log, the service's event bus and the webhook
 * configuration. `npm run docs:generate` writes them (`scripts/docs-generate.ts`);
 * `tests/docs/generated-references.test.ts` fails when one on disk differs.
 */
import { GLOBAL_OPTIONS, type OptionSpec } from "../src/cli/args.js";
import { COMMANDS } from "../src/cli/main.js";
import { FINDING_CODES, type FindingCodeEntry, type FindingSource } from "../src/engine/check/finding-codes.js";
import { FATAL_CODE_MEANING, FATAL_CODES } from "../src/engine/findings.js";
import { EVENT_DATA_KEYS } from "../src/engine/notify/webhook-payload.js";
import { WEBHOOK_EVENT_SENT, WEBHOOK_EVENTS } from "../src/engine/notify/webhook-config.js";
import { RUN_EVENT_FIELDS } from "../src/engine/run/event-log.js";
import { SERVICE_ERROR_MEANING, SERVICE_ERROR_STATUS, SERVICE_ERROR_CODES } from "../src/server/error-codes.js";
import { EVENT_TYPE_MEANING, EVENT_TYPES } from "../src/server/events/event-bus.js";
import { SETTING_GROUP_TITLES, SETTING_GROUPS, SETTING_NAMES, settingsTable } from "../src/server/settings.js";

/** A generated page: its path from the repository root and its text. */
export interface GeneratedPage {
  path: string;
  text: string;
}

function banner(source: string): string {
  return `<!-- Generated from ${source} by \`npm run docs:generate\`: edit the source, not this page. -->`;
}

/** A table cell: pipes escaped, line breaks turned into spaces. */
function cell(text: string): string {
  return text.replaceAll("|", "\\|").replaceAll("\n", " ");
}

function configurationPage(): GeneratedPage {
  const lines = [
    banner("`src/server/settings.ts`"),
    "",
    "# Configuration",
    "",
    `The service is configured by these ${SETTING_NAMES.length} environment variables. Each is read once, at start, and a`,
    "value it cannot use stops the start with a message naming the variable. `strand serve` flags",
    "(`--host`, `--port`, `--mode`) win over `SERVICE_HOST`, `SERVICE_PORT` and `SERVICE_MODE`. How to run the",
    "service: [the service and its API](../guide/service-api.md) and [operating it](../guide/operating.md).",
    "",
    ...SETTING_GROUPS.map((group) => `- [${SETTING_GROUP_TITLES[group].title}](#${SETTING_GROUP_TITLES[group].title.toLowerCase()})`),
  ];
  for (const group of SETTING_GROUPS) {
    lines.push("", `## ${SETTING_GROUP_TITLES[group].title}`, "", SETTING_GROUP_TITLES[group].about, "", settingsTable(group));
  }
  return { path: "docs/reference/configuration.md", text: `${lines.join("\n")}\n` };
}

function errorCodesPage(): GeneratedPage {
  const lines = [
    banner("`src/server/error-codes.ts`"),
    "",
    "# Error codes",
    "",
    "Every failure of the HTTP service answers with one JSON body and the HTTP status of its code:",
    "",
    "```json",
    '{"code": "MISSING_FIELD", "message": "toml_content is required", "suggestion": "send {\\"toml_content\\": \\"…\\"}"}',
    "```",
    "",
    "`message` says what went wrong in a sentence, `suggestion` (when there is one) what to do about it, and",
    "`detail` adds what helps find it (an internal error's request id, which the service's log also has). Some",
    "answers carry more: `findings` for pipeline problems, `running_run` for a run in the way, `Retry-After` on",
    "429 and 503, `Allow` on 405. The",
    "engine's own codes (a pipeline that does not load, a job that fails)",
    "appear in `findings` and in run errors: they are listed in [finding codes](finding-codes.md).",
    "",
    "| code | HTTP status | meaning |",
    "|---|---|---|",
    ...SERVICE_ERROR_CODES.map((code) => `| \`${code}\` | ${SERVICE_ERROR_STATUS[code]} | ${cell(SERVICE_ERROR_MEANING[code])} |`),
  ];
  return { path: "docs/reference/error-codes.md", text: `${lines.join("\n")}\n` };
}

const SOURCE_TITLES: Record<FindingSource, { title: string; about: string }> = {
  validate: {
    title: "Validation",
    about: "Reported by `strand validate` and by every command that plans (`lint`, `dry-run`, `run`), and by the service's checks; an error stops a run before anything starts.",
  },
  lint: {
    title: "Lint",
    about: "Reported by `strand lint` (and the editor in the browser app) in addition to the validation codes; `lint --strict` fails on warnings too, info never fails.",
  },
  load: { title: "Loading", about: "Warnings reported while a pipeline is read, before any check." },
  run: { title: "Running", about: "Errors a run reports when a checkpoint rule's manifest adds samples or pairs." },
};

function findingTable(entries: [string, FindingCodeEntry][]): string[] {
  return ["| code | severity | meaning |", "|---|---|---|", ...entries.map(([code, entry]) => `| \`${code}\` | ${entry.severity} | ${cell(entry.meaning)} |`)];
}

function findingCodesPage(): GeneratedPage {
  const entries = Object.entries(FINDING_CODES) as [string, FindingCodeEntry][];
  const lines = [
    banner("`src/engine/check/finding-codes.ts` and `src/engine/findings.ts`"),
    "",
    "# Finding codes",
    "",
    "A finding is one problem the engine reports, with a code, a severity, a message, the file, line and column",
    "where it is, the rule it concerns and, where it helps, a suggestion. `--json` gives them as",
    "`{code, severity, message, rule, suggestion, line, column, file}`. The codes of the pipeline format",
    "(E001–E014, W001–W025) keep their meanings, so tools written for `.oxoflow` files read them unchanged;",
    "W014 and W015 are never reported (E007 and E008 say the same), and E012 is unused.",
    "How checking fits in: [the command line](../guide/command-line.md).",
  ];
  for (const source of ["validate", "lint", "load", "run"] as const) {
    lines.push("", `## ${SOURCE_TITLES[source].title}`, "", SOURCE_TITLES[source].about, "", ...findingTable(entries.filter(([, entry]) => entry.source === source)));
  }
  lines.push(
    "",
    "## Problems that stop the engine",
    "",
    "A problem that stops loading, planning or running is reported as one error finding with one of these",
    "codes (or a validation E code), naming the file, line and column and, where it helps, the fix. The",
    "command line exits with 1 (2 for `USAGE_ERROR`).",
    "",
    "| code | meaning |",
    "|---|---|",
    ...FATAL_CODES.map((code) => `| \`${code}\` | ${cell(FATAL_CODE_MEANING[code])} |`),
  );
  return { path: "docs/reference/finding-codes.md", text: `${lines.join("\n")}\n` };
}

function optionRow(option: OptionSpec): string {
  const flag = `${option.short ? `\`-${option.short}\`, ` : ""}\`--${option.name}${option.value ? ` ${option.placeholder ?? "VALUE"}` : ""}\``;
  return `| ${flag} | ${cell(option.description)}${option.repeat && !/repeat/.test(option.description) ? " (may be repeated)" : ""} |`;
}

async function cliPage(): Promise<GeneratedPage> {
  const lines = [
    banner("the commands of `src/cli/main.ts`"),
    "",
    "# Command line",
    "",
    "`strand <command> [WORKFLOW] [options]`. WORKFLOW is a `.oxoflow` file or a folder (its `main.oxoflow`,",
    "else its first `*.oxoflow`); the default is the current folder. `strand help <command>` (or",
    "`strand <command> --help`) prints a command's options. Exit codes: 0 ok, 1 pipeline problems, 2 usage",
    "errors. The task-shaped tour is [the command-line guide](../guide/command-line.md).",
    "",
    "| command | what it does |",
    "|---|---|",
    ...COMMANDS.map((entry) => `| [\`${entry.name}\`](#strand-${entry.name}) | ${cell(entry.summary)} |`),
    "",
    "## Options of every command",
    "",
    "| option | meaning |",
    "|---|---|",
    ...GLOBAL_OPTIONS.map(optionRow),
    "",
    "Commands that load a pipeline also take config values: `--arg KEY=VALUE`, a trailing `KEY=VALUE`, or",
    "`--KEY VALUE` for keys the pipeline's `[config]` declares.",
  ];
  for (const entry of COMMANDS) {
    const command = await entry.load();
    lines.push("", `## strand ${entry.name}`, "", `${entry.summary[0]!.toUpperCase()}${entry.summary.slice(1)}.`, "", "```", command.usage, "```");
    if (command.options.length > 0) lines.push("", "| option | meaning |", "|---|---|", ...command.options.map(optionRow));
  }
  return { path: "docs/reference/cli.md", text: `${lines.join("\n")}\n` };
}

function eventsPage(): GeneratedPage {
  const lines = [
    banner("`src/engine/run/event-log.ts`, `src/server/events/event-bus.ts` and `src/engine/notify/`"),
    "",
    "# Events",
    "",
    "strand reports what a run does in three places: the run's event log (a file the engine writes), the",
    "service's event stream (`GET /api/events`), and webhooks (HTTP requests a run sends).",
    "",
    "## The run's event log",
    "",
    "`.strand/runs/<run id>/events.jsonl` (or `strand run --events FILE`): one JSON object per line, written as",
    "it happens. Every event has `seq` (1, 2, 3 … within the file), `time` (ISO 8601), `type` and `run_id`, and",
    "the fields below. `run_finished` is always the last line of a run that ended normally. How to use it:",
    "[running pipelines](../guide/running.md).",
    "",
    "| type | further fields |",
    "|---|---|",
    ...(Object.entries(RUN_EVENT_FIELDS) as [string, string][]).map(([type, fields]) => `| \`${type}\` | ${cell(fields)} |`),
    "",
    "## The service's event stream",
    "",
    "`GET /api/events` is a server-sent event stream: each message has `id:` (a sequence number) and `data:`",
    "`{type, time, data}`. A subscriber sees only events of runs it may read; `?run_id=` narrows it to one run.",
    "Reconnecting, replay and limits: [the service and its API](../guide/service-api.md).",
    "",
    "| type | when, and its `data` |",
    "|---|---|",
    ...EVENT_TYPES.map((type) => `| \`${type}\` | ${cell(EVENT_TYPE_MEANING[type])} |`),
    "",
    "## Webhook events",
    "",
    "The events a `[webhook]` table may subscribe to. Each delivery's payload is",
    "`{event, workflow_name, timestamp, data, version}`; configuration, signatures and delivery:",
    "[webhooks](../guide/webhooks.md).",
    "",
    "| event | sent | `data` keys |",
    "|---|---|---|",
    ...WEBHOOK_EVENTS.map((event) => `| \`${event}\` | ${cell(WEBHOOK_EVENT_SENT[event])} | ${EVENT_DATA_KEYS[event].map((key) => `\`${key}\``).join(", ")} |`),
  ];
  return { path: "docs/reference/events.md", text: `${lines.join("\n")}\n` };
}

/** Every generated page, as it should be on disk. */
export async function generatedPages(): Promise<GeneratedPage[]> {
  return [configurationPage(), errorCodesPage(), findingCodesPage(), await cliPage(), eventsPage()];
}
