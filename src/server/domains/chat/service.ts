/**
 * The chat copilot. Two hands, kept apart on purpose: the chat domain writes its own history (sessions and
 * messages, through `ChatHistoryStore`), while the model and its tools get only the caller's read-only
 * `AiReader` — they can look things up but never change anything. A reply that proposes a pipeline is
 * validated by the engine, corrected by the model at most twice, and handed to the user as a proposal.
 */
import type { ModelMessage } from "ai";
import type { Caller } from "../../caller.js";
import { ServiceError } from "../../errors.js";
import { isStoreError } from "../../store/store-error.js";
import type { ChatMessage, ChatSession } from "../../store/chat/contract.js";
import { ChainFailure, readTools, type AiKnowledge, type AiReader, type DraftValidation, type Harness, type RunFacts } from "../ai/service.js";
import { boundedHistory, type ChatHistoryStore } from "./history.js";

export type { ChatHistoryStore } from "./history.js";

/** Correction rounds after a reply whose pipeline the engine rejects. */
export const MAX_CHAT_CORRECTIONS = 2;
/** Model steps of one reply (tool rounds and the answer). */
const MAX_STEPS = 6;
/** Characters of a session title taken from its first message. */
const TITLE_CHARS = 60;
/** Characters of `context.data` given to the model. */
const DATA_CHARS = 4000;

/** What the user sends. */
export interface ChatRequest {
  message: string;
  session_id?: string;
  run_id?: string;
  context?: { pipeline_id?: string; toml_content?: string; data?: Record<string, unknown> };
}

/** One tool call of a reply, with its outcome. */
export interface ToolCallRecord {
  name: string;
  args: unknown;
  summary: string;
  refused: boolean;
}

/** What happens while the copilot answers, as the stream's events carry it. */
export interface ChatObserver {
  /** Progress; `restartRound` when a provider failed midway and the next one writes that round's text again (drop what came of it). */
  status?(message: string, restartRound?: number): void;
  toolCall?(name: string, args: unknown): void;
  toolResult?(name: string, summary: string, refused: boolean): void;
  /** A piece of the reply as it arrives; `round` grows with each correction. */
  text?(chunk: string, round: number): void;
  /** The reply proposes a pipeline: the last one it proposed and the engine's verdict. */
  pipelineReady?(toml: string, validation: DraftValidation): void;
}

/** The finished answer. */
export interface ChatOutcome {
  session_id: string;
  reply: string;
  toml_content: string | null;
  validation: DraftValidation | null;
  tool_calls: ToolCallRecord[];
  rounds: number;
  provider: { provider: string; model: string };
}

/** A request checked and recorded, ready for the model: everything `converse` needs. */
export interface PreparedChat {
  session: ChatSession;
  /** The stored user message of this request. */
  userMessage: ChatMessage;
  harness: Harness;
  reader: AiReader;
  knowledge: AiKnowledge;
  history: ChatHistoryStore;
  request: ChatRequest;
  run: RunFacts | null;
  pipeline: { id: string; name: string; graph: unknown } | null;
}

/** The 404 of a chat session that is not the caller's (or does not exist). */
export function sessionMissing(id: string): ServiceError {
  return new ServiceError("NOT_FOUND", `no chat session ${id}`, { suggestion: "GET /api/chat/sessions lists your sessions; leave session_id out to start one" });
}

/** The caller's own session; NOT_FOUND for anyone else's, administrators included (a conversation is private). */
export async function ownSession(history: ChatHistoryStore, caller: Caller, id: string): Promise<ChatSession> {
  const session = await history.getChatSession(id).catch((error: unknown) => {
    throw isStoreError(error, "NOT_FOUND") ? sessionMissing(id) : error;
  });
  if (session.owner !== caller.id) throw sessionMissing(id);
  return session;
}

/**
 * Checks everything a request names before any model call or stream — the session is the caller's, the run
 * and the pipeline are readable (NOT_FOUND otherwise) — then opens the session if it is new and stores the
 * user's message.
 */
export async function prepareChat(input: { caller: Caller; request: ChatRequest; harness: Harness; reader: AiReader; knowledge: AiKnowledge; history: ChatHistoryStore }): Promise<PreparedChat> {
  const { caller, request, reader, history } = input;
  const existing = request.session_id ? await ownSession(history, caller, request.session_id) : null;
  const run = request.run_id ? await reader.run(request.run_id) : null;
  const pipelineId = request.context?.pipeline_id;
  let pipeline: PreparedChat["pipeline"] = null;
  if (pipelineId) {
    const saved = await reader.pipeline(pipelineId);
    const graph = await reader.graph(saved.toml_content).catch((error: unknown) => ({ error: `the saved pipeline does not parse: ${error instanceof Error ? error.message : String(error)}` }));
    pipeline = { id: saved.id, name: saved.name, graph };
  }
  const session = existing ?? (await history.createChatSession({ owner: caller.id, title: titleOf(request.message) }));
  const userMessage = await history.appendChatMessage({ session_id: session.id, role: "user", content: request.message, metadata: contextNote(request) });
  return { ...input, session, userMessage, run, pipeline };
}

/**
 * Answers a prepared request: the bounded history and the context go to the model with the read-only tools;
 * a proposed pipeline is validated and corrected; the final reply is stored. A cancelled or failed call keeps
 * what was said so far in the session and rethrows (ChainFailure).
 */
export async function converse(prepared: PreparedChat, observer: ChatObserver = {}, signal?: AbortSignal): Promise<ChatOutcome> {
  const { session, harness, reader, knowledge, history } = prepared;
  const said: string[] = [];
  const toolCalls: ToolCallRecord[] = [];
  let rounds = 0;
  let toml: string | null = null;
  let validation: DraftValidation | null = null;
  try {
    const past = await boundedHistory({ session, beforeSeq: prepared.userMessage.seq, history, harness, signal, onSummarising: () => observer.status?.("summarising the earlier conversation") });
    const system = past.summary ? `${knowledge.systemPrompt("chat")}\n\n## Earlier in this conversation (a summary)\n${past.summary}` : knowledge.systemPrompt("chat");
    const messages: ModelMessage[] = [...past.recent, { role: "user", content: turnPrompt(prepared) }];
    const tools = readTools(knowledge, reader, { runId: prepared.run?.id });
    let reply = "";
    let provider = { provider: harness.primary?.provider ?? "", model: harness.primary?.model ?? "" };
    for (let correction = 0; ; correction++) {
      observer.status?.(correction === 0 ? "thinking" : `correcting the pipeline (round ${correction} of ${MAX_CHAT_CORRECTIONS})`);
      rounds += 1;
      said.push("");
      const answer = await harness.call({
        task: "chat",
        system,
        messages,
        tools,
        maxSteps: MAX_STEPS,
        signal,
        onText: (chunk) => {
          said[said.length - 1] += chunk;
          observer.text?.(chunk, rounds);
        },
        onToolCall: (name, args) => {
          toolCalls.push({ name, args, summary: "", refused: false });
          observer.status?.(`using ${name}`);
          observer.toolCall?.(name, args);
        },
        onToolResult: (name, summary, refused) => {
          const call = toolCalls.find((entry) => entry.name === name && entry.summary === "" && !entry.refused) ?? toolCalls[toolCalls.push({ name, args: null, summary: "", refused }) - 1]!;
          Object.assign(call, { summary, refused });
          observer.toolResult?.(name, summary, refused);
        },
        onFallback: (failure, next) => {
          said[said.length - 1] = "";
          observer.status?.(`${failure.message}; trying ${next.kind}`, rounds);
        },
      });
      reply = answer.text;
      said[said.length - 1] = reply;
      provider = { provider: answer.candidate.kind, model: answer.candidate.model };
      messages.push({ role: "assistant", content: reply });
      const proposed = knowledge.extractToml(reply);
      if (proposed === null) break; // no pipeline in this reply: a correction without one keeps the last verdict
      toml = proposed;
      observer.status?.("validating the proposed pipeline");
      validation = await reader.validate(toml);
      if (validation.valid || correction === MAX_CHAT_CORRECTIONS) break;
      observer.status?.(`the engine found ${validation.errors.length} error(s) in the pipeline`);
      messages.push({ role: "user", content: correctionPrompt(validation) });
    }
    if (toml !== null && validation !== null) observer.pipelineReady?.(toml, validation);
    await history.appendChatMessage({
      session_id: session.id,
      role: "assistant",
      content: reply,
      metadata: { toml_content: toml, validation, tool_calls: toolCalls, rounds, provider },
    });
    return { session_id: session.id, reply, toml_content: toml, validation, tool_calls: toolCalls, rounds, provider };
  } catch (error) {
    // What the user already saw stays in the session, marked as cut short.
    const partial = said.filter((text) => text.trim() !== "").join("\n\n");
    if (partial !== "") {
      const why = signal?.aborted || (error instanceof ChainFailure && error.cancelled) ? { cancelled: true } : { error: error instanceof Error ? error.message : String(error) };
      await history.appendChatMessage({ session_id: session.id, role: "assistant", content: partial, metadata: { ...why, toml_content: toml, tool_calls: toolCalls, rounds } }).catch(() => undefined);
    }
    throw error;
  }
}

/** The error of a reply that could not be made (every provider failed). */
export function chatFailed(error: unknown): ServiceError {
  if (error instanceof ServiceError) return error;
  if (error instanceof ChainFailure) {
    if (error.cancelled) return new ServiceError("CHAT_ERROR", "the request was cancelled");
    return new ServiceError("CHAT_ERROR", `the AI reply failed with every provider: ${error.message}`, { suggestion: "check the provider settings with POST /api/ai/test" });
  }
  return new ServiceError("CHAT_ERROR", error instanceof Error ? error.message : String(error));
}

/** A session's title: the first message's first characters, on one line. */
export function titleOf(message: string): string {
  return Array.from(message.replace(/\s+/g, " ").trim()).slice(0, TITLE_CHARS).join("");
}

/** What the stored user message keeps beside its text: which context came with it (not the editor's text itself). */
function contextNote(request: ChatRequest): Record<string, unknown> | null {
  const note: Record<string, unknown> = {};
  if (request.run_id) note.run_id = request.run_id;
  if (request.context?.pipeline_id) note.pipeline_id = request.context.pipeline_id;
  if (request.context?.toml_content !== undefined) note.editor_chars = request.context.toml_content.length;
  if (request.context?.data) note.data = request.context.data;
  return Object.keys(note).length > 0 ? note : null;
}

/** This turn's user message: the context blocks, then the message. */
function turnPrompt(prepared: PreparedChat): string {
  const { request, run, pipeline } = prepared;
  const parts: string[] = [];
  if (pipeline) parts.push(`## The saved pipeline in context: ${pipeline.name} (id ${pipeline.id})\nIts rules and dependencies:\n${JSON.stringify(pipeline.graph).slice(0, 20_000)}`);
  const editor = request.context?.toml_content;
  if (editor !== undefined && editor.trim() !== "") parts.push(`## The pipeline in the user's editor\n\`\`\`toml\n${editor}\n\`\`\``);
  const data = request.context?.data;
  if (data && Object.keys(data).length > 0) parts.push(`## The data\n${JSON.stringify(data, null, 2).slice(0, DATA_CHARS)}`);
  if (run) parts.push(`## The run in context\nRun ${run.id} of ${run.workflow}: ${run.status}${run.error ? ` (${run.error})` : ""}. The run tools (get_run_status, get_run_diagnostics, get_job_log) read this run.`);
  if (parts.length === 0) return request.message;
  return `${parts.join("\n\n")}\n\n## Message\n${request.message}`;
}

function correctionPrompt(validation: DraftValidation): string {
  const errors = validation.errors.map((error) => `- ${error.code}${error.line ? ` (line ${error.line})` : ""}: ${error.message}${error.suggestion ? ` — ${error.suggestion}` : ""}`);
  return `The strand engine rejected the pipeline in your reply:\n${errors.join("\n")}\n\nFix every error and reply with the whole corrected pipeline as one \`\`\`toml block, and one sentence on what you changed.`;
}
