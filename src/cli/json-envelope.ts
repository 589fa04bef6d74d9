/**
 * The one shape of every command's `--json` output: `{ok, command, data, findings}`. `ok` is true exactly
 * when the command exits 0; `command` is the command's name (`"cluster status"` for subcommands); `data`
 * is the command's own document (null when it failed before making one); `findings` are the errors,
 * warnings and notes that apply, each with a code, severity, message, file/line/column and a suggestion.
 * Scripts test `.ok` and read `.data` without knowing which command printed it.
 */
import type { Finding } from "../engine/findings.js";
import { findingJson, printJson, type Output } from "./print.js";

/** A finding as it appears in the envelope (file shown relative to the current folder). */
export type EnvelopeFinding = Finding;

/** The document every `--json` output is. */
export interface JsonEnvelope<T = unknown> {
  ok: boolean;
  command: string;
  data: T;
  findings: EnvelopeFinding[];
}

/** What a command hands over to be printed as an envelope. */
export interface EnvelopeParts<T> {
  /** True when the command exits 0. */
  ok: boolean;
  data: T;
  findings?: readonly Finding[];
}

/** Builds the envelope (paths of findings shown relative to the current folder). */
export function jsonEnvelope<T>(output: Output, command: string, parts: EnvelopeParts<T>): JsonEnvelope<T> {
  return { ok: parts.ok, command, data: parts.data, findings: (parts.findings ?? []).map((finding) => findingJson(output, finding)) };
}

/** Prints the envelope on stdout. */
export function printEnvelope<T>(output: Output, command: string, parts: EnvelopeParts<T>): void {
  printJson(output, jsonEnvelope(output, command, parts));
}

/** The `data` of an envelope read back (for the service and tests); a bare document is returned as it is. */
export function envelopeData<T = unknown>(document: unknown): T {
  if (typeof document === "object" && document !== null && "ok" in document && "command" in document && "data" in document && "findings" in document) {
    return (document as JsonEnvelope<T>).data;
  }
  return document as T;
}
