/**
 * A conversation with the copilot over `POST /api/chat/send`: the reply's text as it streams, its tool calls,
 * a proposed pipeline with the engine's verdict, and the session it belongs to. Stop aborts the request,
 * which also stops the model call, and what was already said stays on screen. A provider failing midway (`status.restart_round`) drops that
 * round's text before the next provider writes it again.
 */
import { useCallback, useEffect, useRef, useState } from "react";
import type { components } from "../../client/api-types.js";
import { fetchChatMessages, openChatStream, type ChatMessage } from "../api/chat.js";
import { ApiError } from "../api/errors.js";
import { readNamedEvents } from "./event-stream.js";

/** The engine's verdict on a proposed pipeline. */
export type ChatValidation = components["schemas"]["ChatValidation"];

/** One tool the model used while answering. */
export interface ChatToolUse {
  name: string;
  args: unknown;
  /** The tool's answer, cut short; undefined until it comes. */
  summary?: string;
  refused?: boolean;
}

/** A pipeline a reply proposes (never applied or saved by itself). */
export interface ProposedPipeline {
  toml: string;
  validation: ChatValidation | null;
}

/** One bubble of the conversation. */
export interface ChatEntry {
  key: string;
  role: "user" | "assistant";
  text: string;
  tools: ChatToolUse[];
  pipeline?: ProposedPipeline;
  /** streaming: still arriving; stopped: the user pressed Stop; failed: see `error`. */
  state: "streaming" | "done" | "stopped" | "failed";
  error?: Error;
}

/** What goes with a message so the copilot sees what the user sees. */
export interface ChatContext {
  pipeline_id?: string;
  toml_content?: string;
  run_id?: string;
}

let keys = 0;
const nextKey = () => `chat-${++keys}`;

/** The conversation, its session, and the actions on it. */
export function useChat() {
  const [entries, setEntries] = useState<ChatEntry[]>([]);
  const [sessionId, setSessionId] = useState<string | undefined>();
  const [status, setStatus] = useState<string | undefined>();
  const [sending, setSending] = useState(false);
  /** A failure before any reply began (no provider, a session that is gone…). */
  const [problem, setProblem] = useState<Error | undefined>();
  /** Bumped when a reply ends, so a polite live region can say so once (not per token). */
  const [finished, setFinished] = useState<{ count: number; how: ChatEntry["state"] }>({ count: 0, how: "done" });
  const current = useRef<AbortController | null>(null);
  const session = useRef<string | undefined>(undefined);

  // Leaving the page stops the request (and the model call behind it).
  useEffect(() => () => current.current?.abort(), []);

  const send = useCallback(async (message: string, context: ChatContext) => {
    current.current?.abort();
    const abort = new AbortController();
    current.current = abort;
    const replyKey = nextKey();
    const rounds = new Map<number, string>();
    let latestRound = 1;
    const patchReply = (patch: (entry: ChatEntry) => ChatEntry) => setEntries((list) => list.map((entry) => (entry.key === replyKey ? patch(entry) : entry)));
    const textNow = () => rounds.get(latestRound) ?? "";
    setProblem(undefined);
    setSending(true);
    setStatus("sending");
    setEntries((list) => [...list, { key: nextKey(), role: "user", text: message, tools: [], state: "done" }]);
    let started = false;
    const finish = (how: ChatEntry["state"], error?: Error) => {
      if (current.current === abort) {
        setSending(false);
        setStatus(undefined);
        current.current = null;
      }
      if (started) patchReply((entry) => ({ ...entry, state: how, ...(error ? { error } : {}) }));
      setFinished((previous) => ({ count: previous.count + 1, how }));
    };
    try {
      const { run_id, ...editor } = context;
      const stream = await openChatStream({ message, ...(session.current ? { session_id: session.current } : {}), ...(run_id ? { run_id } : {}), context: editor }, abort.signal);
      started = true;
      setEntries((list) => [...list, { key: replyKey, role: "assistant", text: "", tools: [], state: "streaming" }]);
      let ended: "done" | "failed" | undefined;
      await readNamedEvents(stream, ({ event, data }) => {
        if (ended) return;
        const payload = parse(data);
        if (event === "status") {
          const restart = payload.restart_round;
          if (typeof restart === "number") {
            rounds.set(restart, "");
            patchReply((entry) => ({ ...entry, text: textNow() }));
          }
          setStatus(typeof payload.message === "string" ? payload.message : undefined);
        } else if (event === "text") {
          const round = typeof payload.round === "number" ? payload.round : latestRound;
          latestRound = Math.max(latestRound, round);
          rounds.set(round, (rounds.get(round) ?? "") + String(payload.chunk ?? ""));
          setStatus("writing the reply");
          patchReply((entry) => ({ ...entry, text: textNow() }));
        } else if (event === "tool_call") {
          patchReply((entry) => ({ ...entry, tools: [...entry.tools, { name: String(payload.name), args: payload.args }] }));
        } else if (event === "tool_result") {
          patchReply((entry) => ({ ...entry, tools: withResult(entry.tools, String(payload.name), String(payload.summary ?? ""), payload.refused === true) }));
        } else if (event === "action" && payload.action_type === "pipeline_ready") {
          const action = payload.data as { toml_content: string; validation: ChatValidation | null };
          patchReply((entry) => ({ ...entry, pipeline: { toml: action.toml_content, validation: action.validation } }));
        } else if (event === "done") {
          ended = "done";
          session.current = String(payload.session_id);
          setSessionId(session.current);
        } else if (event === "error") {
          ended = "failed";
          finish("failed", new ApiError(400, payload as ApiError["body"]));
        }
      });
      if (ended === "done") finish("done");
      else if (!ended) throw new ApiError(502, { code: "STREAM_ENDED", message: "the service ended the reply before it was complete", suggestion: "try again; if it keeps happening, check the service's log" });
    } catch (error) {
      if (abort.signal.aborted) {
        finish("stopped");
        return;
      }
      const failure = error instanceof Error ? error : new Error(String(error));
      if (started) finish("failed", failure);
      else {
        finish("failed");
        setProblem(failure);
      }
    }
  }, []);

  const stop = useCallback(() => current.current?.abort(), []);

  const newChat = useCallback(() => {
    current.current?.abort();
    session.current = undefined;
    setSessionId(undefined);
    setEntries([]);
    setProblem(undefined);
    setStatus(undefined);
  }, []);

  /** Loads a past session's messages and continues it. */
  const openSession = useCallback(async (id: string) => {
    current.current?.abort();
    setProblem(undefined);
    try {
      const loaded = await fetchChatMessages(id);
      session.current = id;
      setSessionId(id);
      setEntries(loaded.messages.filter((message) => message.role !== "tool").map(entryOf));
    } catch (error) {
      setProblem(error instanceof Error ? error : new Error(String(error)));
    }
  }, []);

  /** Forgets a session the service deleted (a new chat if it was the open one). */
  const forget = useCallback(
    (id: string) => {
      if (session.current === id) newChat();
    },
    [newChat],
  );

  const dismissPipeline = useCallback((key: string) => setEntries((list) => list.map((entry) => (entry.key === key ? { ...entry, pipeline: undefined } : entry))), []);

  return { entries, sessionId, status, sending, problem, finished, send, stop, newChat, openSession, forget, dismissPipeline };
}

function entryOf(message: ChatMessage): ChatEntry {
  const metadata = (message.metadata ?? {}) as { tool_calls?: ChatToolUse[]; toml_content?: string | null; validation?: ChatValidation | null; cancelled?: boolean; error?: string };
  const toml = metadata.toml_content;
  return {
    key: nextKey(),
    role: message.role === "user" ? "user" : "assistant",
    text: message.content,
    tools: message.role === "assistant" ? (metadata.tool_calls ?? []) : [],
    ...(message.role === "assistant" && typeof toml === "string" && toml !== "" ? { pipeline: { toml, validation: metadata.validation ?? null } } : {}),
    state: metadata.cancelled ? "stopped" : metadata.error ? "failed" : "done",
    ...(metadata.error ? { error: new Error(metadata.error) } : {}),
  };
}

function withResult(tools: ChatToolUse[], name: string, summary: string, refused: boolean): ChatToolUse[] {
  const index = tools.findIndex((tool) => tool.name === name && tool.summary === undefined);
  if (index === -1) return [...tools, { name, args: null, summary, refused }];
  return tools.map((tool, at) => (at === index ? { ...tool, summary, refused } : tool));
}

function parse(data: string): Record<string, unknown> {
  try {
    const value = JSON.parse(data) as unknown;
    return value && typeof value === "object" ? (value as Record<string, unknown>) : { message: String(value) };
  } catch {
    return { message: data };
  }
}
