/**
 * Printing for the command line: colours (only on a terminal, never with NO_COLOR or --no-color), findings
 * in the `severity [CODE] file:line:col: message` form, and JSON documents on stdout.
 */
import { relative } from "node:path";
import type { Finding } from "../engine/findings.js";

export interface Output {
  out: (text: string) => void;
  err: (text: string) => void;
  color: boolean;
  /** Folder that file names in messages are shown relative to. */
  cwd: string;
}

/** The process's output streams, coloured when stdout is a terminal. */
export function processOutput(noColor: boolean): Output {
  const color = !noColor && !process.env.NO_COLOR && process.stdout.isTTY === true;
  for (const stream of [process.stdout, process.stderr]) {
    if (!stream.listeners("error").includes(stopOnClosedPipe)) stream.on("error", stopOnClosedPipe);
  }
  return {
    out: (text) => process.stdout.write(text.endsWith("\n") ? text : text + "\n"),
    err: (text) => process.stderr.write(text.endsWith("\n") ? text : text + "\n"),
    color,
    cwd: process.cwd(),
  };
}

/**
 * A reader that closes the pipe early (`strand debug | head`, `| grep -q`) has seen enough: stop quietly
 * instead of dying on an unhandled EPIPE with a stack trace.
 */
function stopOnClosedPipe(error: NodeJS.ErrnoException): void {
  if (error.code === "EPIPE") process.exit(process.exitCode ?? 0);
  throw error;
}

const CODES = { red: 31, green: 32, yellow: 33, blue: 34, magenta: 35, cyan: 36, gray: 90, bold: 1 } as const;

/** Wraps text in an ANSI colour when colour is on. */
export function paint(output: Output, colour: keyof typeof CODES, text: string): string {
  return output.color ? `\u001b[${CODES[colour]}m${text}\u001b[0m` : text;
}

/** A path as the user would type it from the current folder. */
export function displayPath(output: Output, path: string | null): string {
  if (!path) return "";
  if (!path.startsWith("/")) return path;
  const shown = relative(output.cwd, path);
  return shown === "" ? "." : shown.startsWith("../../..") ? path : shown;
}

/** Formats one finding for people: a header line, then rule and hint lines. */
export function formatFinding(output: Output, finding: Finding): string {
  const colour = finding.severity === "error" ? "red" : finding.severity === "warning" ? "yellow" : "blue";
  const where = finding.file ? `${displayPath(output, finding.file)}${finding.line != null ? `:${finding.line}:${finding.column ?? 1}` : ""}: ` : "";
  const lines = [`  ${paint(output, colour, finding.severity)} [${finding.code}] ${where}${finding.message}${finding.rule ? paint(output, "gray", ` (rule: ${finding.rule})`) : ""}`];
  if (finding.suggestion) lines.push(`    ${paint(output, "gray", "hint:")} ${finding.suggestion}`);
  return lines.join("\n");
}

/** A finding as JSON, with file paths shown relative to the current folder. */
export function findingJson(output: Output, finding: Finding): Finding {
  return { ...finding, file: finding.file ? displayPath(output, finding.file) : null };
}

/** Prints a JSON document on stdout. */
export function printJson(output: Output, value: unknown): void {
  output.out(JSON.stringify(value, null, 2));
}
