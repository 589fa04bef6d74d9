/**
 * The tooling's engine tasks by name: what `worker.ts` runs in an engine worker and what `service.ts`
 * asks for. Inputs and answers are plain data (they cross a thread).
 */
import * as tooling from "./tooling.js";

type Config = Record<string, string>;

export const tasks = {
  parse: (input: { text: string }) => tooling.parsePipeline(input.text),
  validate: (input: { text: string }) => tooling.validateText(input.text),
  prepare: (input: { text: string; samples?: string[]; config?: Config; limit?: number; cursor?: string }) => tooling.prepareText(input.text, input),
  dag: (input: { text: string; expanded?: boolean; limit?: number; cursor?: string }) => tooling.dagOf(input.text, input),
  format: (input: { text: string }) => tooling.formatText(input.text),
  lint: (input: { text: string; strict?: boolean }) => tooling.lintText(input.text, input.strict ?? false),
  stats: (input: { text: string }) => tooling.statsOf(input.text),
  diff: (input: { a: string; b: string }) => tooling.diffTexts(input.a, input.b),
  export: (input: { text: string; format: "docker" | "singularity" }) => tooling.exportText(input.text, input.format),
  describe: (input: { text: string; source?: string; lenient?: boolean }) => tooling.describeText(input.text, input),
  validateForRun: (input: { text: string; config?: Config; samples?: string[] }) => tooling.validateForRun(input.text, input),
  ruleMemory: (input: { text: string }) => tooling.ruleMemory(input.text),
};

export type ToolingTasks = typeof tasks;
