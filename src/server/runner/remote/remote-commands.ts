/**
 * Every shell command the service sends to a login node for a run, built here and nowhere else. Each one is
 * fixed text with values in it single-quoted one by one (`shellQuote`) from argument lists — never a value
 * pasted into a command — so a sample named `$(rm -rf ~)`, a path with a quote or a config value with a new
 * line reaches the engine as that text. Process ids are numbers, checked before they are written.
 *
 * A run's engine starts detached from the SSH connection: `setsid` makes the run's wrapper script lead a
 * session and process group of its own, with its input, output and errors on files, so a dropped
 * connection, a restarted service or a killed sshd leaves it running. The wrapper starts the engine, passes
 * the signals the service sends on to it (cancel, pause, resume), and writes the engine's exit code beside
 * the event log when it ends.
 */
import { posix } from "node:path";
import { shellQuote } from "../../../engine/expand/shell-quote.js";

/** A run's files on the cluster: its workspace there and the run's own folder inside it. */
export interface RemoteRunFiles {
  workspace: string;
  /** `.strand/runs/<id>` in the remote workspace. */
  dir: string;
  events: string;
  engineLog: string;
  wrapper: string;
  /** The wrapper's own process id, written as it starts (a start whose answer was lost is found by it). */
  wrapperPid: string;
  exitCode: string;
  pipeline: string;
}

/** The remote file names of a run, as the engine lays them out (see runFiles in engine-command.ts). */
export function remoteRunFiles(workspace: string, runId: string): RemoteRunFiles {
  const dir = posix.join(workspace, ".strand", "runs", runId);
  return {
    workspace,
    dir,
    events: posix.join(dir, "events.jsonl"),
    engineLog: posix.join(dir, "engine.log"),
    wrapper: posix.join(dir, "remote-engine.sh"),
    wrapperPid: posix.join(dir, "wrapper.pid"),
    exitCode: posix.join(dir, "exit-code"),
    pipeline: posix.join(workspace, "workflow.oxoflow"),
  };
}

/** Where the service keeps its bundled engine on a cluster, per version. */
export function stagedEnginePath(remoteDir: string, version: string): string {
  return posix.join(remoteDir, ".strand-engine", version, "strand-engine.mjs");
}

/**
 * The wrapper script (written to the run's folder, run by `sh`). Its first argument is the run's folder,
 * the rest the engine's command. Signals go to the engine, and the wrapper waits until the engine has
 * really ended (a `wait` interrupted by a signal returns early) before it records the exit code.
 */
export const WRAPPER_SCRIPT = `#!/bin/sh
# Written by the strand service: runs this run's engine detached from the SSH connection,
# passes the service's signals on to it and keeps its exit code (exit-code) when it ends.
dir=$1
shift
printf '%s\n' "$$" > "$dir/wrapper.pid"
"$@" &
engine=$!
trap 'kill -TERM "$engine" 2>/dev/null' TERM INT HUP
trap 'kill -USR1 "$engine" 2>/dev/null' USR1
trap 'kill -USR2 "$engine" 2>/dev/null' USR2
while :; do
  wait "$engine"
  code=$?
  kill -0 "$engine" 2>/dev/null || break
done
printf '%s\\n' "$code" > "$dir/exit-code.part" && mv -f "$dir/exit-code.part" "$dir/exit-code"
`;

/** Joins words into one command line, each single-quoted. */
export function commandLine(words: readonly string[]): string {
  return words.map(shellQuote).join(" ");
}

/**
 * Starts the run's engine detached and prints the wrapper's process id. `env` is set for the engine only
 * (names are checked: letters, digits and `_`); its output goes to the engine log, or to `stdout` when given
 * (a dry run's plan).
 */
export function startCommand(files: RemoteRunFiles, engine: readonly string[], env: Record<string, string>, stdout?: string): string {
  const assignments = Object.entries(env).map(([name, value]) => {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new Error(`not an environment variable name: ${JSON.stringify(name)}`);
    return `${name}=${shellQuote(value)}`;
  });
  const launch = commandLine(["setsid", "sh", files.wrapper, files.dir, ...engine]);
  return [
    `cd ${shellQuote(files.workspace)} || exit 111`,
    `${assignments.length > 0 ? `env ${assignments.join(" ")} ` : ""}${launch} </dev/null ${stdout === undefined ? `>>${shellQuote(files.engineLog)} 2>&1` : `>${shellQuote(stdout)} 2>>${shellQuote(files.engineLog)}`} &`,
    `echo "$!"`,
  ].join("\n");
}

function checkedPid(pid: number): number {
  if (!Number.isSafeInteger(pid) || pid <= 1) throw new Error(`not a process id: ${pid}`);
  return pid;
}

/** Sends a signal to the wrapper (which passes TERM, USR1 and USR2 on to the engine). */
export function signalCommand(pid: number, signal: "TERM" | "USR1" | "USR2"): string {
  return `kill -${signal} ${checkedPid(pid)}`;
}

/** Kills the wrapper's whole process group (the last step of a cancel that was not heard). */
export function killGroupCommand(pid: number): string {
  return `kill -KILL -- -${checkedPid(pid)} 2>/dev/null; true`;
}

/**
 * Prints `alive` when the wrapper still runs (and, where /proc says, is this run's: a reused pid is not),
 * else `gone`.
 */
export function aliveCommand(pid: number, runDir: string): string {
  const id = checkedPid(pid);
  return `if kill -0 ${id} 2>/dev/null && { [ ! -r /proc/${id}/cmdline ] || tr '\\0' '\\n' </proc/${id}/cmdline | grep -qxF -- ${shellQuote(runDir)}; }; then echo alive; else echo gone; fi`;
}

/**
 * Prints one SHA-256 per path, in order (`-` for a path that is not a regular file): the remote half of
 * "only what changed" when sizes agree.
 */
export function hashCommand(paths: readonly string[]): string {
  return `for f in ${commandLine(paths)}; do if [ -f "$f" ] && [ ! -L "$f" ]; then sha256sum <"$f" | cut -c1-64; else echo -; fi; done`;
}
