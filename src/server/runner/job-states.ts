/**
 * The states of one job of a run as the service shows them, and of one rule in the status views: the one
 * home of both lists. The runner folds the engine's job events into these states; a dry run's plan adds what
 * would happen; the job table, the status views and their schemas derive from the lists here.
 */

/** What the runner knows of a job from the engine's events, in lifecycle order. */
export const JOB_STATES = ["queued", "running", "completed", "failed", "skipped"] as const;

/** The state of one job of a run. */
export type JobState = (typeof JOB_STATES)[number];

/** What a dry run's plan says of a job: it would run, or it would be skipped as up to date. */
export const PLANNED_JOB_STATES = ["would_run", "would_skip"] as const;

/** What a dry run would do with one job. */
export type PlannedJobState = (typeof PLANNED_JOB_STATES)[number];

/** A job's status in the job table and the status views: its state, or what a dry run would do. */
export const JOB_ROW_STATUSES = [...JOB_STATES, ...PLANNED_JOB_STATES] as const;

/** One job's status as a row shows it. */
export type JobRowStatus = (typeof JOB_ROW_STATUSES)[number];

/** A rule's state in the status views: pending until one of its jobs starts, then like its jobs, or a plan's verdict. */
export const NODE_STATUSES = ["pending", "running", "completed", "failed", "skipped", ...PLANNED_JOB_STATES] as const;

/** One rule's status in a run's graph. */
export type NodeStatus = (typeof NODE_STATUSES)[number];
