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
 *
 * On a cluster that places engines in scheduler jobs, the same wrapper runs as the job's script on a compute
 * node, where the login node's `kill` cannot reach it: there it also reads the signals the service leaves
 * as files in the run's `signals/` folder (on the shared file system the workspace is on) and passes them on.
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
  /** Signals for an engine that runs as a scheduler job, one file each (`<sequence>.signal`, holding TERM, USR1 or USR2). */
  signals: string;
  /** What the submit command of the engine's job answered (kept there, so an answer lost with the connection is found). */
  engineJobSubmit: string;
  /** The engine job's own output: what the scheduler says about it, and anything before the wrapper starts. */
  engineJobOutput: string;
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
    signals: posix.join(dir, "signals"),
    engineJobSubmit: posix.join(dir, "engine-job.submit"),
    engineJobOutput: posix.join(dir, "engine-job.out"),
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
printf '%s\\n' "$$" > "$dir/wrapper.pid"
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

/**
 * The wrapper of an engine that runs as a scheduler job. Besides what WRAPPER_SCRIPT does (the scheduler's
 * own TERM at a walltime or a cancel is passed on too), a reader in the background passes on the signals
 * the service leaves in `signals/` as `<sequence>.signal` files, in order, each once; files that are not
 * plain files are ignored. It writes the node and its pid to wrapper.pid, for messages.
 */
export const JOB_WRAPPER_SCRIPT = `#!/bin/sh
# Written by the strand service: runs this run's engine as a scheduler job, passes on the signals the
# service leaves in signals/ (the login node cannot signal a compute node's process) and the scheduler's,
# and keeps the engine's exit code (exit-code) when it ends.
dir=$1
shift
printf '%s %s\\n' "$(hostname 2>/dev/null || uname -n)" "$$" > "$dir/wrapper.pid"
mkdir -p "$dir/signals"
"$@" &
engine=$!
trap 'kill -TERM "$engine" 2>/dev/null' TERM INT HUP
trap 'kill -USR1 "$engine" 2>/dev/null' USR1
trap 'kill -USR2 "$engine" 2>/dev/null' USR2
(
  trap - TERM INT HUP USR1 USR2
  while kill -0 "$engine" 2>/dev/null; do
    for f in "$dir"/signals/*.signal; do
      if [ -f "$f" ] && [ ! -L "$f" ]; then
        sig=$(head -c 8 "$f")
        rm -f "$f"
        case $sig in TERM|USR1|USR2) kill -"$sig" "$engine" 2>/dev/null ;; esac
      fi
    done
    sleep 1
  done
) &
reader=$!
while :; do
  wait "$engine"
  code=$?
  kill -0 "$engine" 2>/dev/null || break
done
kill "$reader" 2>/dev/null
printf '%s\\n' "$code" > "$dir/exit-code.part" && mv -f "$dir/exit-code.part" "$dir/exit-code"
`;

/**
 * The script submitted (on stdin, never by a path a job could swap) as the engine's job: the scheduler's
 * directives (name, one core, output file), the login node's PATH (a job's own PATH often lacks Node.js,
 * strand and the scheduler's commands, which the engine needs), then the wrapper in the workspace with the
 * engine's environment, its output on the engine log.
 */
export function engineJobScript(files: RemoteRunFiles, directives: readonly string[], path: string, engine: readonly string[], env: Record<string, string>): string {
  return [
    "#!/bin/sh",
    ...directives,
    "# Written by the strand service: this run's engine, as a job of the cluster's scheduler.",
    `PATH=${shellQuote(path)}`,
    "export PATH",
    `cd ${shellQuote(files.workspace)} || exit 111`,
    `exec ${envAssignments(env)}${commandLine(["sh", files.wrapper, files.dir, ...engine])} </dev/null >>${shellQuote(files.engineLog)} 2>&1`,
    "",
  ].join("\n");
}

/**
 * Submits the engine's job: the submit command (program and arguments, the script on stdin) run in the
 * workspace, its answer kept in the run's folder and printed.
 */
export function submitEngineJobCommand(files: RemoteRunFiles, submit: readonly string[]): string {
  return [
    `cd ${shellQuote(files.workspace)} || exit 111`,
    `${commandLine(submit)} >${shellQuote(files.engineJobSubmit)} 2>&1`,
    "code=$?",
    `cat ${shellQuote(files.engineJobSubmit)}`,
    'exit "$code"',
  ].join("\n");
}

/** The login node's PATH, as a command there sees it. */
export const PATH_COMMAND = `printf '%s' "$PATH"`;

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
  const launch = commandLine(["setsid", "sh", files.wrapper, files.dir, ...engine]);
  return [
    `cd ${shellQuote(files.workspace)} || exit 111`,
    `${envAssignments(env)}${launch} </dev/null ${stdout === undefined ? `>>${shellQuote(files.engineLog)} 2>&1` : `>${shellQuote(stdout)} 2>>${shellQuote(files.engineLog)}`} &`,
    `echo "$!"`,
  ].join("\n");
}

/** `env NAME='value' … ` for a command (names checked: letters, digits and `_`), or nothing. */
function envAssignments(env: Record<string, string>): string {
  const assignments = Object.entries(env).map(([name, value]) => {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new Error(`not an environment variable name: ${JSON.stringify(name)}`);
    return `${name}=${shellQuote(value)}`;
  });
  return assignments.length > 0 ? `env ${assignments.join(" ")} ` : "";
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
