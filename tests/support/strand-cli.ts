/**
 * Runs the built `strand` command line as a real subprocess (`node bin/strand.js …`), the way users and the
 * community acceptance scripts run it. Colour is always off (NO_COLOR=1) so output can be compared as text.
 */
import { existsSync, mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { execa } from "execa";

/** The project's root folder. */
export const PROJECT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
/** The command's entry point, `bin/strand.js` (executable, with a node shebang). */
export const STRAND_BIN = join(PROJECT_ROOT, "bin", "strand.js");
const COMPILED_MAIN = join(PROJECT_ROOT, "dist", "cli", "main.js");

export interface StrandResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

export interface StrandOptions {
  /** Working folder of the process (default: the project root). */
  cwd?: string;
  /** Extra environment variables; `undefined` removes one. */
  env?: Record<string, string | undefined>;
  /** Milliseconds before the process is killed (default 60 s). */
  timeout?: number;
}

/** Throws a clear error when the command line has not been compiled into dist/. */
export function assertBuilt(): void {
  if (!existsSync(COMPILED_MAIN)) {
    throw new Error(`the strand command line is not built: ${COMPILED_MAIN} is missing — run npm run build`);
  }
}

/** The environment every run gets: no colour, no debug stack traces, plus the caller's additions. */
export function strandEnv(extra: Record<string, string | undefined> = {}): Record<string, string | undefined> {
  return { NO_COLOR: "1", FORCE_COLOR: undefined, STRAND_DEBUG: undefined, ...extra };
}

/** Runs `strand ARGS…` and returns its exit code and output; never throws for a non-zero exit. */
export async function runStrand(args: string[], options: StrandOptions = {}): Promise<StrandResult> {
  assertBuilt();
  const result = await execa(process.execPath, [STRAND_BIN, ...args], {
    cwd: options.cwd ?? PROJECT_ROOT,
    env: strandEnv(options.env),
    extendEnv: true,
    reject: false,
    stdin: "ignore",
    stripFinalNewline: false,
    timeout: options.timeout ?? 60_000,
  });
  if (result.timedOut) throw new Error(`strand ${args.join(" ")} timed out`);
  if (typeof result.exitCode !== "number") throw new Error(`strand ${args.join(" ")} ended without an exit code (signal ${result.signal ?? "?"})`);
  return { exitCode: result.exitCode, stdout: String(result.stdout), stderr: String(result.stderr) };
}

/** Runs a bash script (for pipes and acceptance scripts); `STRAND` in its environment is the entry point. */
export async function runBash(script: string, options: StrandOptions = {}): Promise<StrandResult> {
  assertBuilt();
  const result = await execa("bash", ["-c", script], {
    cwd: options.cwd ?? PROJECT_ROOT,
    env: strandEnv({ STRAND: STRAND_BIN, ...options.env }),
    extendEnv: true,
    reject: false,
    stdin: "ignore",
    stripFinalNewline: false,
    timeout: options.timeout ?? 120_000,
  });
  if (result.timedOut) throw new Error(`bash script timed out: ${script}`);
  return { exitCode: typeof result.exitCode === "number" ? result.exitCode : -1, stdout: String(result.stdout), stderr: String(result.stderr) };
}

/** Lines that look like a JavaScript stack frame (`    at fn (file:…)`); a user should never see one. */
export function stackTraceLines(text: string): string[] {
  return text.split("\n").filter((line) => /^\s+at\s/.test(line));
}

/** Parses a command's JSON stdout, with the output in the error message when it is not JSON. */
export function parseJson<T = Record<string, unknown>>(result: StrandResult): T {
  try {
    return JSON.parse(result.stdout) as T;
  } catch {
    throw new Error(`stdout is not JSON (exit ${result.exitCode}):\n${result.stdout}\n--- stderr:\n${result.stderr}`);
  }
}

/** The common shape of every command's `--json` output (src/cli/json-envelope.ts). */
export interface Envelope<T> {
  ok: boolean;
  command: string;
  data: T;
  findings: { code: string; severity: string; message: string; file: string | null; line: number | null; column: number | null; rule: string | null; suggestion: string | null }[];
}

/** Parses a command's `--json` stdout and checks it is the common envelope, with `ok` matching the exit code. */
export function parseEnvelope<T = Record<string, unknown>>(result: StrandResult): Envelope<T> {
  const document = parseJson<Envelope<T>>(result);
  const keys = Object.keys(document).sort().join(",");
  if (keys !== "command,data,findings,ok") throw new Error(`stdout is not the JSON envelope (keys: ${keys}):\n${result.stdout}`);
  if (typeof document.ok !== "boolean" || typeof document.command !== "string" || !Array.isArray(document.findings)) throw new Error(`malformed JSON envelope:\n${result.stdout}`);
  if (document.ok !== (result.exitCode === 0)) throw new Error(`envelope ok=${document.ok} but exit code ${result.exitCode}`);
  return document;
}

/** The `data` of a command's `--json` envelope. */
export function parseData<T = Record<string, unknown>>(result: StrandResult): T {
  return parseEnvelope<T>(result).data;
}

/** A temporary folder, filled with files (paths relative to it, parent folders created). */
export interface TempFolder {
  dir: string;
  path: (...parts: string[]) => string;
  write: (files: Record<string, string>) => void;
  remove: () => void;
}

/** Creates a temporary folder with the given files. */
export function tempFolder(files: Record<string, string> = {}, prefix = "strand-cli-"): TempFolder {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const folder: TempFolder = {
    dir,
    path: (...parts) => join(dir, ...parts),
    write: (more) => {
      for (const [name, text] of Object.entries(more)) {
        const target = join(dir, name);
        mkdirSync(dirname(target), { recursive: true });
        writeFileSync(target, text);
      }
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
  folder.write(files);
  return folder;
}
