/**
 * HTTP adapter of the chat copilot: `POST /api/chat/send` (server-sent events), `POST /api/chat/send/json`
 * (the same harness, one JSON answer), and the caller's own sessions and their messages. Every pipeline a
 * reply carries is a proposal: nothing here saves a pipeline or starts a run.
 */
import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import { callerOf } from "../../caller.js";
import type { Context } from "hono";
import { Deleted, failureResponse, jsonBody, jsonResponse } from "../../openapi-shapes.js";
import { harnessFor, namedEventStream, type AiContext } from "../ai/service.js";
import { ChatMessagesSchema, ChatReplySchema, ChatSendRequest, ChatSessionIdParam, ChatSessionPage, ChatSessionQuery } from "./schemas.js";
import { chatFailed, converse, ownSession, prepareChat, type ChatHistoryStore, type ChatRequest } from "./service.js";

const sendResponses = {
  404: failureResponse("the session is not yours, or the run or pipeline named is not one you may read"),
  503: failureResponse("AI_NOT_CONFIGURED: no usable AI provider"),
};

const sendRoute = createRoute({
  method: "post",
  path: "/api/chat/send",
  operationId: "sendChatMessage",
  tags: ["chat"],
  summary: "Ask the copilot; the reply streams as server-sent events (text as it is written, tool calls, a proposed pipeline validated by the engine)",
  description:
    "Named events: `status` {message} (with `restart_round` when a provider failed midway and the next provider writes that round again: drop the text of that round received so far); `tool_call` {name, args}; `tool_result` {name, summary, refused} (refused: the model asked for a tool that does not exist, such as a write); " +
    "`text` {chunk, round} (token deltas as they arrive; round grows with each correction); " +
    "`action` {action_type: \"pipeline_ready\", data: {toml_content, validation: {valid, errors, warnings}}} when the reply proposes a pipeline (validated by the engine, corrected by the model at most twice; sent with valid false when it never validates); " +
    "`done` {session_id, rounds}; `error` {code: CHAT_ERROR…, message} (no `done` after it). Keep-alive `: ping` comments. Leaving the stream cancels the model call; what was said so far is kept in the session. " +
    "The session's earlier messages are fed back to the model (the latest in full, older ones as a summary).",
  request: jsonBody(ChatSendRequest),
  responses: {
    200: { description: "the event stream", content: { "text/event-stream": { schema: z.string() } } },
    ...sendResponses,
  },
});

const sendJsonRoute = createRoute({
  method: "post",
  path: "/api/chat/send/json",
  operationId: "sendChatMessageJson",
  tags: ["chat"],
  summary: "Ask the copilot and get the whole reply at once (the same harness and tools as /api/chat/send)",
  request: jsonBody(ChatSendRequest),
  responses: {
    200: jsonResponse(ChatReplySchema, "the reply, its proposed pipeline (if any) with the engine's verdict, and the tool calls"),
    400: failureResponse("CHAT_ERROR: every provider failed"),
    ...sendResponses,
  },
});

const listSessionsRoute = createRoute({
  method: "get",
  path: "/api/chat/sessions",
  operationId: "listChatSessions",
  tags: ["chat"],
  summary: "Your chat sessions, most recently active first",
  request: { query: ChatSessionQuery },
  responses: { 200: jsonResponse(ChatSessionPage, "a page of sessions"), 400: failureResponse("a cursor this service did not issue") },
});

const listMessagesRoute = createRoute({
  method: "get",
  path: "/api/chat/sessions/{id}/messages",
  operationId: "listChatMessages",
  tags: ["chat"],
  summary: "One of your sessions with its messages, oldest first",
  request: { params: ChatSessionIdParam },
  responses: { 200: jsonResponse(ChatMessagesSchema, "the session and its messages"), 404: failureResponse("no session of yours with this id") },
});

const deleteSessionRoute = createRoute({
  method: "delete",
  path: "/api/chat/sessions/{id}",
  operationId: "deleteChatSession",
  tags: ["chat"],
  summary: "Delete one of your sessions with its messages",
  request: { params: ChatSessionIdParam },
  responses: { 200: jsonResponse(Deleted, "the session is gone"), 404: failureResponse("no session of yours with this id") },
});

/** The chat router: the model reads through `ai.readerFor`; only this domain writes, and only to `history`. */
export function chatRoutes(ai: AiContext, history: ChatHistoryStore): OpenAPIHono {
  const router = new OpenAPIHono();

  /** Everything checked before a model call: a provider (503), the session, run and pipeline (404). */
  const prepare = async (c: Context, request: ChatRequest) => {
    const caller = callerOf(c);
    const harness = await harnessFor(ai, caller);
    return prepareChat({ caller, request, harness, reader: ai.readerFor(caller), knowledge: ai.knowledge, history });
  };

  router.openapi(sendRoute, async (c) => {
    const prepared = await prepare(c, c.req.valid("json"));
    return namedEventStream(c, async (send, signal) => {
      try {
        const outcome = await converse(
          prepared,
          {
            status: (message, restartRound) => send("status", restartRound === undefined ? { message } : { message, restart_round: restartRound }),
            toolCall: (name, args) => send("tool_call", { name, args }),
            toolResult: (name, summary, refused) => send("tool_result", { name, summary, refused }),
            text: (chunk, round) => send("text", { chunk, round }),
            pipelineReady: (toml, validation) => send("action", { action_type: "pipeline_ready", data: { toml_content: toml, validation } }),
          },
          signal,
        );
        send("status", { message: "done" });
        send("done", { session_id: outcome.session_id, rounds: outcome.rounds });
      } catch (error) {
        if (signal.aborted) return;
        send("error", chatFailed(error).body());
      }
    }) as never;
  });

  router.openapi(sendJsonRoute, async (c) => {
    const prepared = await prepare(c, c.req.valid("json"));
    try {
      return c.json(await converse(prepared, {}, c.req.raw.signal), 200);
    } catch (error) {
      throw chatFailed(error);
    }
  });

  router.openapi(listSessionsRoute, async (c) => {
    const { limit, cursor } = c.req.valid("query");
    const page = await history.listChatSessions(callerOf(c).id, { limit, cursor });
    return c.json({ items: page.items.map(sessionView), next_cursor: page.next_cursor }, 200);
  });

  router.openapi(listMessagesRoute, async (c) => {
    const session = await ownSession(history, callerOf(c), c.req.valid("param").id);
    const messages = await history.listChatMessages(session.id);
    return c.json({ session: { ...sessionView(session), summarised_through: session.summarised_through }, messages: messages.map(({ seq, role, content, metadata, created_at }) => ({ seq, role, content, metadata, created_at })) }, 200);
  });

  router.openapi(deleteSessionRoute, async (c) => {
    const session = await ownSession(history, callerOf(c), c.req.valid("param").id);
    await history.deleteChatSession(session.id);
    return c.json({ deleted: session.id }, 200);
  });
  return router;
}

function sessionView(session: { id: string; title: string; created_at: string; updated_at: string; message_count: number }) {
  return { id: session.id, title: session.title, created_at: session.created_at, updated_at: session.updated_at, message_count: session.message_count };
}
