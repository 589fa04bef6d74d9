/**
 * The execution domain's engine tasks by name: what `worker.ts` runs in an engine worker. Inputs and
 * answers are plain data (they cross a thread).
 */
import { existingOutputs, folderBytes } from "./run-files.js";

export const tasks = {
  existingOutputs,
  folderBytes: (input: { root: string }) => folderBytes(input.root),
};

export type ExecutionTasks = typeof tasks;
