/**
 * Request and response shapes of the chat copilot (`/api/chat/*`), as zod schemas that validate requests
 * and describe every answer in the OpenAPI document.
 */
import { z } from "@hono/zod-openapi";
import { FindingSchema } from "../../openapi-shapes.js";

/** Longest message a user sends (a question or a paragraph, not a document). */
export const MAX_MESSAGE_CHARS = 8000;

/** Longest editor text sent as context (200 KB). */
export const MAX_EDITOR_CHARS = 200 * 1024;

const Id = z.string().min(1).max(128);

export const ChatSendRequest = z
  .object({
    message: z.string().trim().min(1, "write a message").max(MAX_MESSAGE_CHARS),
    session_id: Id.optional().openapi({ description: "continue this session of yours (its earlier messages are fed back to the model); leave out to start one" }),
    run_id: Id.optional().openapi({ description: "a run you may read: the model is offered tools that read this run (status, diagnosis, job logs) and no other" }),
    context: z
      .object({
        pipeline_id: Id.optional().openapi({ description: "a saved pipeline you may read; its rule graph is given to the model" }),
        toml_content: z.string().max(MAX_EDITOR_CHARS).optional().openapi({ description: "the editor's text (at most 200 KB)" }),
        data: z.record(z.string(), z.unknown()).optional().openapi({ description: "what the data looks like (formats, pairing, samples, organism…)" }),
      })
      .optional(),
  })
  .openapi("ChatSendRequest");

export const ChatValidation = z
  .object({ valid: z.boolean(), errors: z.array(FindingSchema), warnings: z.array(FindingSchema) })
  .openapi("ChatValidation", { description: "the engine's verdict on the proposed pipeline" });

export const ChatToolCall = z
  .object({
    name: z.string(),
    args: z.unknown().openapi({ description: "the arguments the model gave" }),
    summary: z.string().openapi({ description: "the tool's answer, cut to 200 characters" }),
    refused: z.boolean().openapi({ description: "true when the model asked for a tool that does not exist (a write, say) and was refused" }),
  })
  .openapi("ChatToolCall");

export const ChatReplySchema = z
  .object({
    session_id: z.string(),
    reply: z.string().openapi({ description: "the assistant's final text (stored in the session)" }),
    toml_content: z.string().nullable().openapi({ description: "the pipeline the reply proposes, or null; never saved by itself" }),
    validation: ChatValidation.nullable(),
    tool_calls: z.array(ChatToolCall),
    rounds: z.number().int().openapi({ description: "model replies it took (1, or more after corrections of a rejected pipeline)" }),
    provider: z.object({ provider: z.string(), model: z.string() }),
  })
  .openapi("ChatReply");

export const ChatSessionSchema = z
  .object({
    id: z.string(),
    title: z.string().openapi({ description: "the first message's first 60 characters; never changes" }),
    created_at: z.string(),
    updated_at: z.string(),
    message_count: z.number().int(),
  })
  .openapi("ChatSession");

export const ChatSessionPage = z.object({ items: z.array(ChatSessionSchema), next_cursor: z.string().nullable() }).openapi("ChatSessionPage");

export const ChatSessionQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).optional().openapi({ description: "page size (default 20, at most 100)" }),
  cursor: z.string().max(500).optional().openapi({ description: "next_cursor of the previous page" }),
});

export const ChatSessionIdParam = z.object({ id: Id.openapi({ param: { name: "id", in: "path" }, description: "chat session id" }) });

export const ChatMessageSchema = z
  .object({
    seq: z.number().int().openapi({ description: "its place in the session, from 1" }),
    role: z.enum(["user", "assistant", "tool"]),
    content: z.string(),
    metadata: z.record(z.string(), z.unknown()).nullable().openapi({ description: "assistant messages: toml_content, validation, tool_calls, rounds, provider (cancelled or error when the reply was cut short); user messages: the context sent" }),
    created_at: z.string(),
  })
  .openapi("ChatMessage");

export const ChatMessagesSchema = z
  .object({
    session: ChatSessionSchema.extend({ summarised_through: z.number().int().openapi({ description: "messages up to this seq reach the model only as a summary" }) }),
    messages: z.array(ChatMessageSchema),
  })
  .openapi("ChatMessages");
