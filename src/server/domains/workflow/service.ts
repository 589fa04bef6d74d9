/**
 * The pipeline tooling as other modules use it: every call is engine work on client text, so each runs as
 * a task in the engine pool (a worker thread with a deadline and a heap cap) and never on the event loop.
 * See `tooling.ts` for what each one does.
 */
import { engineTasks } from "../../engine-pool.js";
import type { ToolingTasks } from "./tasks.js";
import type { TextFacts, Validation } from "./tooling.js";

export { apiFinding, isParseFailure, PAGE_LIMITS, type ApiFinding, type TextFacts, type Validation } from "./tooling.js";

/** The stateless tooling endpoints, `POST /api/pipelines/<name>`. */
export const TOOLING_NAMES = ["parse", "validate", "prepare", "dag", "format", "lint", "stats", "diff", "export"] as const;

/** Runs one tooling task in the engine pool; `doing` names the work in a WORK_LIMIT error. */
const work = engineTasks<ToolingTasks>(new URL("./worker.js", import.meta.url));

type Input<K extends keyof ToolingTasks> = Omit<Parameters<ToolingTasks[K]>[0], "text">;

/** The structure of a pipeline. */
export const parsePipeline = (text: string) => work("parse", { text }, "parsing the pipeline");

/** Validation: a text that cannot be read is a result with one PARSE_ERROR finding, not a failure. */
export const validateText = (text: string) => work("validate", { text }, "validating the pipeline");

/** A page of jobs with rendered commands, counts per rule, environment set-ups. */
export const prepareText = (text: string, options: Input<"prepare"> = {}) => work("prepare", { text, ...options }, "expanding the pipeline into jobs");

/** The rule graph (or the job graph), in pages when large. */
export const dagOf = (text: string, options: Input<"dag"> = {}) => work("dag", { text, ...options }, "building the pipeline's graph");

/** The canonical layout of the text (comments kept). */
export const formatText = (text: string) => work("format", { text }, "formatting the pipeline");

/** Lint: errors, warnings and info findings. */
export const lintText = (text: string, strict = false) => work("lint", { text, strict }, "linting the pipeline");

/** Pipeline statistics. */
export const statsOf = (text: string) => work("stats", { text }, "computing the pipeline's statistics");

/** Structured and textual differences between two pipelines. */
export const diffTexts = (a: string, b: string) => work("diff", { a, b }, "comparing the pipelines");

/** A Dockerfile or Apptainer definition for the pipeline. */
export const exportText = (text: string, format: "docker" | "singularity") => work("export", { text, format }, "exporting the pipeline");

/** What a text to keep says about itself and its lint result; PARSE_ERROR (naming `source`) for text that is not a pipeline. */
export const describeText = async (text: string, source?: string): Promise<{ facts: TextFacts; validation: Validation }> => {
  const { facts, validation } = await work("describe", { text, source }, "reading the pipeline");
  return { facts: facts!, validation }; // without `lenient`, unreadable facts are a PARSE_ERROR
};

/** Like `describeText`, for text accepted earlier: facts that no longer read are null instead of an error. */
export const describeKeptText = (text: string) => work("describe", { text, lenient: true }, "reading the pipeline");

/** The errors that would stop a run of the text with these samples and config, and its workflow name. */
export const validateForRun = (text: string, options: Input<"validateForRun"> = {}) => work("validateForRun", { text, ...options }, "checking the pipeline before the run");

/** Each rule's declared memory in MB; empty for a text that cannot be read. */
export const ruleMemory = (text: string) => work("ruleMemory", { text }, "reading the pipeline's memory settings");
