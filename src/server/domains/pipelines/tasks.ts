/**
 * The pipelines domain's engine tasks by name: what `worker.ts` runs in an engine worker. Inputs and
 * answers are plain data (they cross a thread).
 */
import { rankHits } from "./ranking.js";

export const tasks = {
  rank: rankHits,
};

export type SearchTasks = typeof tasks;
