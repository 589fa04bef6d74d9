/**
 * The scheduling loop: starts jobs whose predecessors are done, highest aged priority first, within `-j`,
 * the executor's in-flight limit and the resource pools (strictly first come, first served: a smaller
 * job never overtakes the job at the head of the line). A failed job blocks everything downstream of it;
 * a failed required job stops new starts unless keep-going. Pause stops dispatch; cancel stops it for good.
 */
import type { JobGraph } from "../dag/graph.js";
import { ReadyQueue } from "./ready-queue.js";
import type { ResourcePool, ResourceRequest } from "./resource-pool.js";

export interface SchedulerTask {
  /** Index of the job in the graph. */
  index: number;
  name: string;
  priority: number;
  required: boolean;
  resources: ResourceRequest;
}

/** How one job ended, as the job runner reports it. */
export type TaskOutcome = "succeeded" | "failed" | "skipped" | "cancelled";

export interface SchedulerOptions {
  /** Jobs at once (`-j`); 0 or less counts as 1. */
  jobs: number;
  /** The executor's own limit (max_submitted), when it has one. */
  maxInFlight?: number;
  keepGoing: boolean;
}

export interface SchedulerHooks {
  /** Runs the job; must not reject. */
  runTask(task: SchedulerTask): Promise<TaskOutcome>;
  /** A job that will not start, with the reason ("blocked by failed dependency X", "run stopped", …). */
  notStarted(task: SchedulerTask, reason: { code: string; text: string }): void;
  /** A job whose resource request can never be met fails without starting. */
  impossible(task: SchedulerTask, message: string): void;
  /**
   * A required job failed without keep-going: the caller stops the jobs still running
   * (docs/reference/pipeline-format.md §5.2).
   */
  stopRunning(failed: SchedulerTask): void;
}

export interface SchedulerSummary {
  succeeded: number;
  failed: number;
  nonRequiredFailed: number;
  skipped: number;
  blocked: number;
  notStarted: number;
  cancelled: number;
}

const enum TaskState {
  Waiting,
  Ready,
  Running,
  Done,
}

/** Runs a set of jobs of a graph; predecessors outside the set count as done. */
export class Scheduler {
  private readonly state: Uint8Array;
  private readonly remaining: Int32Array;
  private readonly taskAt: (SchedulerTask | undefined)[];
  private readonly queue = new ReadyQueue();
  private round = 0;
  private running = 0;
  private unfinished: number;
  private paused = false;
  private stopping: "failure" | "cancel" | undefined;
  private finish!: () => void;
  private readonly summary: SchedulerSummary = { succeeded: 0, failed: 0, nonRequiredFailed: 0, skipped: 0, blocked: 0, notStarted: 0, cancelled: 0 };

  constructor(
    private readonly graph: JobGraph,
    tasks: SchedulerTask[],
    private readonly pool: ResourcePool,
    private readonly options: SchedulerOptions,
    private readonly hooks: SchedulerHooks,
  ) {
    const n = graph.jobs.length;
    this.state = new Uint8Array(n);
    this.remaining = new Int32Array(n);
    this.taskAt = new Array<SchedulerTask | undefined>(n);
    for (const task of tasks) this.taskAt[task.index] = task;
    this.unfinished = tasks.length;
  }

  /** Runs until every task has finished, been blocked or stopped. */
  run(): Promise<SchedulerSummary> {
    const done = new Promise<void>((resolve) => (this.finish = resolve));
    const { graph } = this;
    for (let index = 0; index < graph.jobs.length; index++) {
      if (!this.taskAt[index]) continue;
      let count = 0;
      for (let k = graph.predStart[index]!; k < graph.predStart[index + 1]!; k++) if (this.taskAt[graph.pred[k]!]) count++;
      this.remaining[index] = count;
    }
    for (const index of graph.order) {
      const task = this.taskAt[index];
      if (task && this.remaining[index] === 0) this.makeReady(task);
    }
    this.dispatch();
    this.checkFinished();
    return done.then(() => this.summary);
  }

  /** Stops starting jobs (running ones are the executor's business). */
  pause(): void {
    this.paused = true;
  }

  resume(): void {
    this.paused = false;
    this.dispatch();
    this.checkFinished();
  }

  /** Starts nothing more; waiting jobs are reported as not started. The caller cancels running jobs. */
  cancel(): void {
    if (this.stopping === "cancel") return;
    this.stopping = "cancel";
    this.stopWaiting({ code: "cancelled", text: "not started: the run was cancelled" });
    this.checkFinished();
  }

  /** Jobs running now. */
  get runningCount(): number {
    return this.running;
  }

  private makeReady(task: SchedulerTask): void {
    this.state[task.index] = TaskState.Ready;
    this.queue.push(task.index, task.name, task.priority, this.round);
  }

  private dispatch(): void {
    if (this.paused || this.stopping) return;
    const limit = Math.min(Math.max(1, this.options.jobs), this.options.maxInFlight ?? Infinity);
    while (this.running < limit && this.queue.size > 0) {
      const task = this.taskAt[this.queue.peek()!]!;
      const impossible = this.pool.impossible(task.resources);
      if (impossible) {
        this.queue.pop();
        this.hooks.impossible(task, impossible);
        this.completed(task, "failed");
        continue;
      }
      if (!this.pool.fits(task.resources)) break;
      this.queue.pop();
      this.pool.take(task.resources);
      this.state[task.index] = TaskState.Running;
      this.running++;
      void this.hooks.runTask(task).then(
        (outcome) => this.afterRun(task, outcome),
        () => this.afterRun(task, "failed"),
      );
    }
    if (this.queue.size > 0) this.round++;
  }

  private afterRun(task: SchedulerTask, outcome: TaskOutcome): void {
    this.running--;
    this.pool.give(task.resources);
    this.completed(task, outcome);
    this.dispatch();
    this.checkFinished();
  }

  private completed(task: SchedulerTask, outcome: TaskOutcome): void {
    this.state[task.index] = TaskState.Done;
    this.unfinished--;
    if (outcome === "succeeded" || outcome === "skipped") {
      if (outcome === "succeeded") this.summary.succeeded++;
      else this.summary.skipped++;
      this.releaseSuccessors(task.index);
      return;
    }
    if (outcome === "cancelled") {
      this.summary.cancelled++;
      this.blockDownstream(task, { code: "cancelled", text: "not started: the run was cancelled" });
      return;
    }
    if (task.required) this.summary.failed++;
    else this.summary.nonRequiredFailed++;
    this.blockDownstream(task, { code: "blocked", text: `blocked by failed dependency ${task.name}` });
    if (task.required && !this.options.keepGoing && !this.stopping) {
      this.stopping = "failure";
      this.stopWaiting({ code: "stopped", text: `not started: the run stopped after ${task.name} failed (use -k to keep going)` });
      if (this.running > 0) this.hooks.stopRunning(task);
    }
  }

  private releaseSuccessors(index: number): void {
    const { graph } = this;
    for (let k = graph.succStart[index]!; k < graph.succStart[index + 1]!; k++) {
      const next = graph.succ[k]!;
      const task = this.taskAt[next];
      if (!task || this.state[next] !== TaskState.Waiting) continue;
      if (--this.remaining[next]! === 0) this.makeReady(task);
    }
  }

  /** Marks every waiting job downstream of a failed one as blocked (iteratively: chains can be long). */
  private blockDownstream(from: SchedulerTask, reason: { code: string; text: string }): void {
    const { graph } = this;
    const stack = [from.index];
    while (stack.length > 0) {
      const index = stack.pop()!;
      for (let k = graph.succStart[index]!; k < graph.succStart[index + 1]!; k++) {
        const next = graph.succ[k]!;
        const task = this.taskAt[next];
        if (!task || this.state[next] === TaskState.Done || this.state[next] === TaskState.Running) continue;
        this.state[next] = TaskState.Done;
        this.unfinished--;
        if (reason.code === "cancelled") this.summary.notStarted++;
        else this.summary.blocked++;
        this.hooks.notStarted(task, reason);
        stack.push(next);
      }
    }
  }

  /** Reports every job that has not started as not started, and forgets them. */
  private stopWaiting(reason: { code: string; text: string }): void {
    this.queue.drain();
    for (const index of this.graph.order) {
      const task = this.taskAt[index];
      if (!task) continue;
      const state = this.state[index];
      if (state !== TaskState.Waiting && state !== TaskState.Ready) continue;
      this.state[index] = TaskState.Done;
      this.unfinished--;
      this.summary.notStarted++;
      this.hooks.notStarted(task, reason);
    }
  }

  private checkFinished(): void {
    if (this.running > 0) return;
    if (this.unfinished === 0 || this.stopping) {
      this.finish();
      return;
    }
    if (this.paused) return;
    if (this.queue.size === 0) {
      // Cannot happen on an acyclic graph; kept so a bug shows as an error instead of a hang.
      this.stopWaiting({ code: "deadlock", text: `deadlock detected: ${this.unfinished} jobs stuck` });
      this.finish();
    }
  }
}
