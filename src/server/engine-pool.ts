/**
 * Engine work for requests, off the event loop: one pool of worker threads per process (piscina) running
 * the named tasks of the domains' worker modules (`worker.ts` beside a domain's service, built with
 * `workerEntry`), each task with a deadline and each worker with a heap cap. A task past its deadline or
 * its heap ends with its worker (piscina starts a fresh one) and is answered 422 WORK_LIMIT; a full queue
 * is 503 SERVICE_BUSY with Retry-After. Engine and service errors thrown inside a worker come back as the
 * same classes, so callers handle them as if the work had run here.
 */
import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { Piscina } from "piscina";
import { EngineError, type EngineErrorCode, type Finding } from "../engine/findings.js";
import type { ServiceErrorCode } from "./error-codes.js";
import { ServiceError } from "./errors.js";

/** The limits of request work. */
export interface EngineLimits {
  /** Worker threads. */
  threads: number;
  /** The longest a task may take, waiting for a thread included, in milliseconds. */
  deadlineMs: number;
  /** The heap a worker may use, in MB. */
  memoryMb: number;
  /** Tasks that may wait for a thread; more are refused with 503. */
  maxQueue: number;
  /**
   * Whether checks may look at files of the service's machine that a pipeline names (inputs that must exist,
   * a rule's script). Off in team and hpc modes: the answers would tell any user which files exist there;
   * the run itself checks them inside its sandbox.
   */
  hostPaths: boolean;
}

/** Defaults: a thread per CPU (2 to 8), 20 s, 1 GiB, 32 waiting tasks per thread. */
export function defaultEngineLimits(): EngineLimits {
  const threads = Math.min(8, Math.max(2, availableParallelism()));
  return { threads, deadlineMs: 20_000, memoryMb: 1024, maxQueue: 32 * threads, hostPaths: true };
}

/** A thrown value described in plain data: errors do not cross a thread boundary with their class. */
export type TaskError =
  | { kind: "engine"; finding: Finding }
  | { kind: "service"; code: ServiceErrorCode; message: string; extra: { detail?: string; suggestion?: string; fields?: Record<string, unknown> } }
  | { kind: "internal"; message: string; stack?: string };

/** What a worker answers for one task. */
export type TaskAnswer = { ok: true; value: unknown } | { ok: false; error: TaskError };

/** What the pool sends a worker. */
export interface TaskMessage {
  task: string;
  input: unknown;
}

/** Describes a thrown value for its trip back from a worker. */
export function describeError(error: unknown): TaskError {
  if (error instanceof EngineError) return { kind: "engine", finding: { ...error.finding } };
  if (error instanceof ServiceError) {
    const { detail, suggestion, fields } = error.extra;
    return { kind: "service", code: error.code, message: error.message, extra: { detail, suggestion, fields } };
  }
  return { kind: "internal", message: error instanceof Error ? error.message : String(error), stack: error instanceof Error ? error.stack : undefined };
}

/** The error a worker described, as the class it was. */
function reviveError(error: TaskError): Error {
  if (error.kind === "engine") {
    // The finding came from an EngineError, whose code is always an engine error code.
    const revived = new EngineError(error.finding.code as EngineErrorCode, error.finding.message);
    Object.assign(revived.finding, error.finding);
    return revived;
  }
  if (error.kind === "service") return new ServiceError(error.code, error.message, error.extra);
  const revived = new Error(error.message);
  if (error.stack) revived.stack = error.stack;
  return revived;
}

/**
 * The built JavaScript of a worker module. Running from TypeScript sources (tests, benchmarks), the worker
 * still runs the build, since a worker thread does not get the sources' transformer: `npm run build` first.
 */
export function builtWorkerFile(url: URL): string {
  const path = fileURLToPath(url);
  if (existsSync(path)) return path;
  const built = path.replace(/([\\/])src([\\/])/, "$1dist$2");
  if (built !== path && existsSync(built)) return built;
  throw new Error(`the engine worker ${path} is not built; run npm run build`);
}

/** The worker side: answers task messages with the named function of `tasks`, errors described as data. */
export function workerEntry(tasks: Record<string, (input: never) => unknown>): (message: TaskMessage) => Promise<TaskAnswer> {
  return async ({ task, input }) => {
    const run = tasks[task];
    if (!run) return { ok: false, error: { kind: "internal", message: `no engine task '${task}'` } };
    try {
      return { ok: true, value: await run(input as never) };
    } catch (error) {
      return { ok: false, error: describeError(error) };
    }
  };
}

/** Runs named tasks of worker modules in a pool of threads. */
export class EnginePool {
  private readonly pool: Piscina<TaskMessage, TaskAnswer>;

  constructor(readonly limits: EngineLimits) {
    this.pool = new Piscina({
      minThreads: 1,
      maxThreads: limits.threads,
      maxQueue: limits.maxQueue,
      idleTimeout: 60_000,
      resourceLimits: { maxOldGenerationSizeMb: limits.memoryMb },
      // Workers run at a lower CPU priority (Linux), so a machine busy with engine work still serves requests.
      niceIncrement: 10,
      // The engine's switch for looking at the machine's files (see `hostPaths`).
      env: { ...process.env, STRAND_HOST_PATH_CHECKS: limits.hostPaths ? "on" : "off" },
    });
    // A worker that dies outside a task (out of memory while starting) is replaced; nothing to answer.
    this.pool.on("error", () => undefined);
  }

  /** Runs `task` of the worker module `workerFile` with `input`; `doing` names the work in errors ("validating the pipeline"). */
  async run<T>(workerFile: string, task: string, input: unknown, doing: string): Promise<T> {
    const signal = AbortSignal.timeout(this.limits.deadlineMs);
    let answer: TaskAnswer;
    try {
      answer = await this.pool.run({ task, input }, { signal, filename: workerFile });
    } catch (error) {
      throw this.limitError(error, doing, signal.aborted);
    }
    if (!answer.ok) throw reviveError(answer.error);
    return answer.value as T;
  }

  /** Tasks waiting for a thread, and threads working. */
  get load(): { queued: number; busy: number } {
    return { queued: this.pool.queueSize, busy: this.pool.threads.length - this.pool.idleThreads };
  }

  /** Ends the workers (tasks under way are refused). */
  close(): Promise<void> {
    return this.pool.destroy();
  }

  private limitError(error: unknown, doing: string, timedOut: boolean): Error {
    const seconds = Math.round(this.limits.deadlineMs / 100) / 10;
    const smaller = "a smaller pipeline, fewer samples or a narrower request";
    if (timedOut) {
      return new ServiceError("WORK_LIMIT", `${doing} took longer than ${seconds} s and was stopped`, {
        suggestion: `send ${smaller}; the operator can raise SERVICE_ENGINE_TIMEOUT (seconds)`,
      });
    }
    const code = (error as NodeJS.ErrnoException | undefined)?.code;
    if (code === "ERR_WORKER_OUT_OF_MEMORY") {
      return new ServiceError("WORK_LIMIT", `${doing} needed more than ${this.limits.memoryMb} MB and was stopped`, {
        suggestion: `send ${smaller}; the operator can raise SERVICE_ENGINE_MEMORY_MB`,
      });
    }
    if (error instanceof Error && /queue is at limit/i.test(error.message)) {
      return new ServiceError("SERVICE_BUSY", `the service has ${this.limits.maxQueue} engine tasks waiting; ${doing} was not started`, {
        suggestion: "retry in a few seconds",
        headers: { "Retry-After": "5" },
      });
    }
    return error instanceof Error ? error : new Error(String(error));
  }
}

let shared: EnginePool | undefined;
let sharedLimits: EngineLimits = defaultEngineLimits();

/** Sets the limits of this process's pool (the service does, from its configuration); a running pool is replaced. */
export function configureEnginePool(limits: Partial<EngineLimits>): void {
  const next = { ...defaultEngineLimits(), ...limits };
  if (JSON.stringify(next) === JSON.stringify(sharedLimits)) return;
  sharedLimits = next;
  void shared?.close();
  shared = undefined;
}

/** This process's pool, started on first use. */
export function enginePool(): EnginePool {
  shared ??= new EnginePool(sharedLimits);
  return shared;
}

/** A typed runner of one worker module's tasks, e.g. `engineTasks<ToolingTasks>(new URL("./worker.js", import.meta.url))`. */
export function engineTasks<Tasks extends Record<string, (input: never) => unknown>>(workerUrl: URL) {
  let file: string | undefined;
  return <K extends keyof Tasks & string>(task: K, input: Parameters<Tasks[K]>[0], doing: string): Promise<Awaited<ReturnType<Tasks[K]>>> => {
    file ??= builtWorkerFile(workerUrl);
    return enginePool().run(file, task, input, doing);
  };
}
