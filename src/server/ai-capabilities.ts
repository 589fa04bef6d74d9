/**
 * The read-only capabilities handed to the AI domain, built from the service's own read paths with the
 * caller bound in: every pipeline and run goes through the same access checks as the API (anything the
 * caller may not read is NOT_FOUND), and engine work runs in the engine pool. Only reads are wired here;
 * the object is frozen so nothing can be added to it later.
 */
import { closeSync } from "node:fs";
import { isAbsolute } from "node:path";
import { constants, gunzipSync } from "node:zlib";
import type { Caller } from "./caller.js";
import { ServiceError } from "./errors.js";
import type { AiReader, JobFacts } from "./domains/ai/reader.js";
import { readableRun, type ExecutionReadContext } from "./domains/execution/service.js";
import { runDiagnostics, runJobs, runLogs, runPipelineText, runResults, runStatus } from "./domains/execution/views.js";
import { openInWorkspace, readAt } from "./runner/workspace-reader.js";
import { readable } from "./domains/pipelines/service.js";
import { allTemplates } from "./domains/templates/service.js";
import { dagOf, parsePipeline, prepareText, validateText } from "./domains/workflow/service.js";
import type { PipelineReads } from "./store/pipelines/contract.js";
import type { RunReads } from "./store/runs/contract.js";
import type { TemplateReads } from "./store/templates/contract.js";

/** How far the capabilities read: bounds on every answer, so a prompt never grows without limit. */
export const READ_LIMITS = { logLines: 200, headBytes: 16 * 1024, historyRuns: 10, jobs: 100, commandPages: 5 } as const;

/**
 * What the AI's capabilities are built from: the run views' context with a store that offers only reads of
 * runs, pipelines and templates — the "reads only" promise is this type, not a convention.
 */
export type AiReadContext = Omit<ExecutionReadContext, "store"> & { store: RunReads & PipelineReads & TemplateReads };

/** The AI's read-only view of the service for one caller. */
export function aiReaderFor(context: AiReadContext, caller: Caller): AiReader {
  const { store } = context;
  const reader: AiReader = {
    async templates() {
      return (await allTemplates(store)).map((template) => ({ name: template.name, description: template.description }));
    },
    async pipeline(id) {
      const pipeline = await readable(store, caller, id);
      return { id: pipeline.id, name: pipeline.name, toml_content: pipeline.toml_content, revision: pipeline.revision };
    },
    async validate(text) {
      const { valid, errors, warnings } = await validateText(text);
      return { valid, errors, warnings };
    },
    async rules(text) {
      const parsed = await parsePipeline(text);
      return parsed.rules.map((rule) => ({
        name: rule.name,
        description: rule.description,
        input: rule.input,
        output: rule.output,
        shell: rule.shell,
        threads: rule.threads,
        memory: rule.memory === null ? null : String(rule.memory),
        environment: rule.environment,
        depends_on: rule.depends_on,
      }));
    },
    async graph(text) {
      const dag = await dagOf(text);
      return { nodes: dag.nodes.map((node) => ({ rule: node.rule })), edges: dag.edges.map((edge) => ({ from: edge.from, to: edge.to })) };
    },
    async run(id) {
      const run = await readableRun(context, caller, id);
      return { id: run.id, workflow: run.workflow_name, status: run.status, pipeline_id: run.pipeline_id, started_at: run.started_at, finished_at: run.finished_at, error: run.error };
    },
    async runJobs(id, query = {}) {
      const page = await runJobs(context, caller, id, { status: query.status, limit: Math.min(query.limit ?? 20, READ_LIMITS.jobs) });
      const items: JobFacts[] = page.items.map((row) => ({ job: row.job, rule: row.rule, status: row.status, exit_code: row.exit_code, duration_ms: row.duration_ms }));
      return { items, total: page.total };
    },
    async runDiagnostics(id) {
      const diagnosis = await runDiagnostics(context, caller, id);
      return { failures: diagnosis.failures };
    },
    async jobLogTail(id, job, stream, lines) {
      const wanted = Math.max(1, Math.min(lines, READ_LIMITS.logLines));
      // Pages from the start: find the length first, then read the last page.
      const first = await runLogs(context, caller, id, { job, stream, offset: 0, limit: 1 });
      if (first.eof) return first.lines;
      let offset = 0;
      let last: string[] = [];
      for (let page = 0; page < 50; page++) {
        const answer = await runLogs(context, caller, id, { job, stream, offset, limit: 1000 });
        last = [...last, ...answer.lines].slice(-wanted);
        if (answer.eof || answer.next_offset === offset) break;
        offset = answer.next_offset;
      }
      return last;
    },
    async jobCommand(id, job) {
      const { text, samples, config } = await runPipelineText(context, caller, id);
      if (text === undefined) return null;
      let cursor: string | undefined;
      for (let page = 0; page < READ_LIMITS.commandPages; page++) {
        const prepared = await prepareText(text, { samples, config, limit: 1000, cursor }).catch(() => undefined);
        if (!prepared) return null;
        const found = prepared.jobs.find((candidate) => candidate.name === job);
        if (found) return found.command ?? null;
        if (!prepared.next_cursor) return null;
        cursor = prepared.next_cursor;
      }
      return null;
    },
    async runResults(id) {
      const results = await runResults(context, caller, id);
      return results.files.slice(0, 200).map((file) => ({ path: file.path, size_bytes: file.size_bytes }));
    },
    async resultHead(id, path, bytes) {
      const run = await readableRun(context, caller, id);
      if (!run.workspace) return null;
      // Confined like GET …/files: relative, inside the workspace, no link on the way, a regular file (never a FIFO).
      const fd = isAbsolute(path) ? undefined : openInWorkspace(run.workspace, path);
      if (fd === undefined) throw new ServiceError("NOT_FOUND", `run ${id} has no file '${path}'`);
      try {
        return readHead(fd, Math.min(bytes, READ_LIMITS.headBytes));
      } finally {
        closeSync(fd);
      }
    },
    async pipelineHistory(pipelineId, count) {
      await readable(store, caller, pipelineId);
      const wanted = Math.min(count, READ_LIMITS.historyRuns);
      const history = [];
      let cursor: string | null = null;
      for (let page = 0; page < 5 && history.length < wanted; page++) {
        const listing = await store.listRuns({ owner: caller.admin ? undefined : caller.id, limit: 100, cursor });
        for (const run of listing.items) {
          if (run.pipeline_id !== pipelineId || history.length >= wanted) continue;
          if (run.status !== "completed" && run.status !== "failed") continue;
          const status = await runStatus(context, caller, run.id, { jobs: false }).catch(() => undefined);
          if (!status) continue;
          history.push({ run_id: run.id, status: run.status, rules: status.nodes.map((node) => ({ rule: node.rule, jobs: node.jobs.total, duration_ms: node.duration_ms })) });
        }
        cursor = listing.next_cursor;
        if (!cursor) break;
      }
      return history;
    },
  };
  return Object.freeze(reader);
}

/** The first bytes of an open file as text: gzip is inflated (as far as the bytes go), binary content is null. */
function readHead(fd: number, bytes: number): string | null {
  let data = readAt(fd, 0, bytes);
  if (data[0] === 0x1f && data[1] === 0x8b) {
    try {
      data = gunzipSync(data, { finishFlush: constants.Z_SYNC_FLUSH, maxOutputLength: bytes });
    } catch {
      return null;
    }
  }
  const sample = data.subarray(0, Math.min(data.length, 4096));
  if (sample.includes(0)) return null;
  return data.toString("utf8");
}
