/**
 * What the AI is asked to do: the one home of the task names. The harness logs and counts calls by task,
 * the knowledge builds a system prompt per prompt task, and authoring tasks get a realistic example.
 */

/** Every task a model call is made for (shown in logs and metrics); `test` is the connection check. */
export const AI_TASKS = ["translate", "chat", "explain", "interpret", "optimize", "test"] as const;

/** What one call of the harness is for. */
export type AiTask = (typeof AI_TASKS)[number];

/** The tasks that have a system prompt (every task but the connection check). */
export const PROMPT_TASKS = ["translate", "chat", "explain", "interpret", "optimize"] as const satisfies readonly AiTask[];

/** A task that has a system prompt. */
export type PromptTask = (typeof PROMPT_TASKS)[number];

/** The tasks that write pipelines, whose prompts carry a realistic example. */
export const AUTHORING_TASKS = ["translate", "chat", "optimize"] as const satisfies readonly PromptTask[];
