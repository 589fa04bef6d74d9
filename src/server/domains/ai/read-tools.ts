/**
 * The tools the model may call: lookups in the bundled knowledge and reads through the caller's read-only
 * capabilities. None of them changes anything, fetches a URL or starts a process; a tool the model names
 * that is not here is refused by the harness.
 */
import { tool, type ToolSet } from "ai";
import { z } from "zod";
import type { AiReader, TemplateHint } from "./reader.js";
import type { PromptTask } from "./tasks.js";

/** The knowledge the harness gives the model (from `knowledge/`), as plain functions. */
export interface AiKnowledge {
  systemPrompt(task: PromptTask): string;
  extractToml(reply: string): string | null;
  lookupPackages(query: string, limit?: number): unknown[];
  lookupDomain(query: string): unknown[];
  matchTemplates(intent: string, templates: TemplateHint[]): { name: string; score: number }[];
  /** The named sections of a reply (every name present; a section the reply lacks is empty). */
  parseSections(reply: string, names: readonly string[]): Record<string, { text: string; bullets: string[] }>;
  /** Optimize's "Changes" lines: `- <rule>: <what> → <new> (<why>)`. */
  parseChanges(reply: string): { rule: string; what: string; to: string; why: string }[];
}

/** Longest text a tool hands back to the model. */
const TOOL_ANSWER_CHARS = 8000;

/** The knowledge tools every task may use, plus the run tools when a run is in context. */
export function readTools(knowledge: AiKnowledge, reader: AiReader, options: { runId?: string } = {}): ToolSet {
  const tools: ToolSet = {
    lookup_package: tool({
      description: "Look up bioinformatics tools/packages (conda names, versions, containers, example commands) in strand's bundled index.",
      inputSchema: z.object({ query: z.string().min(1).max(200), limit: z.number().int().min(1).max(20).optional() }),
      execute: async ({ query, limit }) => bounded(knowledge.lookupPackages(query, limit ?? 8)),
    }),
    lookup_domain: tool({
      description: "Look up how an analysis kind is usually done: steps, tools, inputs, references, parameters, QC and pitfalls.",
      inputSchema: z.object({ query: z.string().min(1).max(200) }),
      execute: async ({ query }) => bounded(knowledge.lookupDomain(query)),
    }),
    pipeline_graph: tool({
      description: "The rules and dependency edges of a saved pipeline the user may read, by its id.",
      inputSchema: z.object({ pipeline_id: z.string().min(1).max(100) }),
      execute: async ({ pipeline_id }) => {
        const pipeline = await reader.pipeline(pipeline_id);
        return bounded({ name: pipeline.name, ...(await reader.graph(pipeline.toml_content)) });
      },
    }),
    validate_pipeline: tool({
      description: "Check a pipeline text with the strand engine; returns its errors and warnings with codes and suggestions.",
      inputSchema: z.object({ toml: z.string().min(1).max(200_000) }),
      execute: async ({ toml }) => bounded(await reader.validate(toml)),
    }),
  };
  const runId = options.runId;
  if (runId) {
    tools.get_run_status = tool({
      description: "The state of the run in context and its failed jobs (name, rule, exit code).",
      inputSchema: z.object({}),
      execute: async () => bounded({ run: await reader.run(runId), failed_jobs: (await reader.runJobs(runId, { status: "failed", limit: 20 })).items }),
    });
    tools.get_run_diagnostics = tool({
      description: "The deterministic diagnosis of the run's failed jobs: pattern, likely cause, suggestions, log excerpt.",
      inputSchema: z.object({}),
      execute: async () => bounded(await reader.runDiagnostics(runId)),
    });
    tools.get_job_log = tool({
      description: "The last lines of one job's stderr (or stdout) in the run in context.",
      inputSchema: z.object({ job: z.string().min(1).max(500), stream: z.enum(["stderr", "stdout"]).optional(), lines: z.number().int().min(1).max(200).optional() }),
      execute: async ({ job, stream, lines }) => bounded(await reader.jobLogTail(runId, job, stream ?? "stderr", lines ?? 80)),
    });
  }
  return tools;
}

/** A tool answer cut to a size a prompt can carry. */
function bounded(value: unknown): string {
  const text = JSON.stringify(value);
  return text.length > TOOL_ANSWER_CHARS ? `${text.slice(0, TOOL_ANSWER_CHARS)}… [cut]` : text;
}
