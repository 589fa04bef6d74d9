/**
 * The states of a run and what may move it between them: the one home of both. The store, the execution
 * service, the runner and the run views derive from these lists; the browser reads a run's `actions`
 * instead of re-deriving them.
 */

/** Every run state, in lifecycle order; the last three are terminal. */
export const RUN_STATUSES = ["queued", "running", "paused", "completed", "failed", "cancelled"] as const;

/** The states of a run. */
export type RunStatus = (typeof RUN_STATUSES)[number];

/** The states a run ends in and never leaves. */
export const TERMINAL_RUN_STATUSES = ["completed", "failed", "cancelled"] as const satisfies readonly RunStatus[];

/** The states of a run that has not ended (it holds a workspace and counts against a user's limits). */
export const ACTIVE_RUN_STATUSES = ["queued", "running", "paused"] as const satisfies readonly RunStatus[];

/** Whether a run in this state has ended. */
export function isTerminalRunStatus(status: RunStatus): boolean {
  return (TERMINAL_RUN_STATUSES as readonly RunStatus[]).includes(status);
}

/** What a caller can ask of a run (`POST /api/runs/{id}/<action>`). */
export const RUN_ACTIONS = ["pause", "resume", "cancel", "retry"] as const;

/** One thing a caller can ask of a run. */
export type RunAction = (typeof RUN_ACTIONS)[number];

/** The states each action may be taken from. */
export const RUN_ACTION_FROM = {
  pause: ["running"],
  resume: ["paused"],
  cancel: ACTIVE_RUN_STATUSES,
  retry: ["failed", "cancelled"],
} as const satisfies Record<RunAction, readonly RunStatus[]>;

/** Whether `action` may be taken on a run in `status`. */
export function runActionAllowed(action: RunAction, status: RunStatus): boolean {
  return (RUN_ACTION_FROM[action] as readonly RunStatus[]).includes(status);
}

/** The actions a run allows now: by its state, and no retry of a dry run (nothing ran). */
export function allowedRunActions(run: { status: RunStatus; dry_run: boolean }): RunAction[] {
  return RUN_ACTIONS.filter((action) => runActionAllowed(action, run.status) && !(action === "retry" && run.dry_run));
}
