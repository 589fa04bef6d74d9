/**
 * What `strand run` shows while it works, from the engine's events: on a terminal, one line per finished
 * job above a progress bar that is redrawn in place; otherwise plain lines (`  Running: x`, `  ✓ x (1.2s)`,
 * `  ⊝ x (reason)`, `  ⊘ x (blocked …)`, `  ✗ job 'x' failed`). Everything goes to stderr. Plain lines are
 * gathered and written together every 100 ms (and at once when the run ends or the process exits): one
 * write per line cost a run of thousands of short jobs more than its event log and checkpoint together.
 */
import type { RunEvent } from "../../engine/run/event-log.js";
import { paint, type Output } from "../print.js";

/** How long a plain progress line may wait to be written with the next ones. */
const FLUSH_MS = 100;

export class ProgressDisplay {
  private total = 0;
  private done = 0;
  private readonly running = new Set<string>();
  private failed = 0;
  private readonly started = Date.now();
  private barShown = false;
  private timer: NodeJS.Timeout | undefined;
  private paused = false;
  /** Plain lines not written yet, and the timer that writes them. */
  private pending: string[] = [];
  private flushTimer: NodeJS.Timeout | undefined;
  private readonly flushOnExit = (): void => this.flush();

  constructor(
    private readonly output: Output,
    private readonly terminal: boolean,
    private readonly quiet = false,
  ) {
    if (terminal) {
      this.timer = setInterval(() => this.drawBar(), 500);
      this.timer.unref();
    } else process.once("exit", this.flushOnExit);
  }

  /** Shows one event. */
  show(event: RunEvent): void {
    const job = event.job as string | undefined;
    switch (event.type) {
      case "run_started":
        this.total = Number(event.jobs_to_run ?? 0);
        this.line(`${paint(this.output, "bold", "strand run")} ${event.run_id}: ${this.total} job${this.total === 1 ? "" : "s"} to run of ${event.jobs_total} (${event.executor})`);
        break;
      case "job_started":
        this.running.add(job!);
        if (!this.terminal) this.line(`  Running: ${job}${(event.attempt as number) > 1 ? ` (attempt ${event.attempt})` : ""}${event.native_id ? ` [${event.native_id}]` : ""}`);
        break;
      case "job_retrying":
        this.line(`  ${paint(this.output, "yellow", "↻")} ${job} attempt ${event.attempt} of ${event.attempts} failed (${event.error}); retrying`);
        break;
      case "job_completed":
        this.running.delete(job!);
        this.done++;
        this.line(`  ${paint(this.output, "green", "✓")} ${job} (${seconds(event.duration_ms as number)})`);
        break;
      case "job_failed":
        this.running.delete(job!);
        this.done++;
        this.failed++;
        this.line(`  ${paint(this.output, "red", "✗")} job '${job}' failed${event.required === false ? " (not required)" : ""}: ${event.error}`);
        if (event.stderr) this.line(`    log: ${event.stderr as string}`);
        if (event.exit_code !== undefined && event.exit_code !== null) this.line(`    exit code: ${event.exit_code as number}`);
        break;
      case "job_skipped": {
        const reason = event.reason as { code: string; text: string };
        if (reason.code === "up-to-date" || reason.code === "condition-false" || reason.code === "not-selected") {
          if (!this.quiet && !this.terminal) this.line(`  ⊝ ${job} (${reason.text})`);
          break;
        }
        this.done++;
        this.line(`  ${reason.code === "blocked" || reason.code === "stopped" || reason.code === "cancelled" ? "⊘" : "⊝"} ${job} (${reason.text})`);
        break;
      }
      case "reference_build_started":
        this.line(`  ⚙ Building ${event.reference}: ${(event.description as string | undefined) ?? event.output} (${event.reason})`);
        break;
      case "reference_build_completed":
        this.line(`  ${paint(this.output, "green", "✓")} ${event.reference} built`);
        break;
      case "reference_build_failed":
        this.line(`  ${paint(this.output, "red", "✗")} reference ${event.reference} failed: ${event.error}`);
        break;
      case "reentry":
        this.line(`  ↪ checkpoint ${event.rule}: round ${event.round} adds ${(event.samples as string[]).length} sample(s) and ${(event.pairs as string[]).length} pair(s)`);
        break;
      case "run_paused":
        this.paused = true;
        this.line(`  ⏸ paused (send SIGUSR2 to resume)`);
        break;
      case "run_resumed":
        this.paused = false;
        this.line(`  ▶ resumed`);
        break;
      case "run_cancelling":
        this.line(`  ■ cancelling: ${event.reason as string}`);
        break;
      case "warning":
        this.line(`  ${paint(this.output, "yellow", "warning:")} ${event.job ? `${event.job as string}: ` : ""}${event.message as string}`);
        break;
      case "run_finished":
        this.stop();
        break;
      default:
        break;
    }
    this.drawBar();
  }

  /** Removes the bar and stops redrawing. */
  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.clearBar();
    this.flush();
    process.removeListener("exit", this.flushOnExit);
  }

  private line(text: string): void {
    if (!this.terminal) {
      this.pending.push(text);
      this.flushTimer ??= setTimeout(() => this.flush(), FLUSH_MS);
      return;
    }
    this.clearBar();
    this.output.err(text);
  }

  /** Writes the gathered plain lines in one go. */
  private flush(): void {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    if (this.pending.length === 0) return;
    const text = this.pending.join("\n");
    this.pending = [];
    this.output.err(text);
  }

  private clearBar(): void {
    if (this.barShown) process.stderr.write("\r\u001b[2K");
    this.barShown = false;
  }

  private drawBar(): void {
    if (!this.terminal || !this.timer) return;
    const width = 30;
    const filled = this.total > 0 ? Math.round((this.done / this.total) * width) : 0;
    const bar = `${"█".repeat(filled)}${"░".repeat(width - filled)}`;
    const elapsed = Math.round((Date.now() - this.started) / 1000);
    const text = `  ${bar} ${this.done}/${this.total} · ${this.running.size} running${this.failed ? ` · ${this.failed} failed` : ""}${this.paused ? " · paused" : ""} · ${Math.floor(elapsed / 60)}:${String(elapsed % 60).padStart(2, "0")}`;
    process.stderr.write(`\r\u001b[2K${text}`);
    this.barShown = true;
  }
}

function seconds(ms: number | undefined): string {
  return `${((ms ?? 0) / 1000).toFixed(1)}s`;
}
