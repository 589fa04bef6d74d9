/** The chat domain as the app mounts it: the copilot, reading through the AI's context and writing only its own history. */
import type { DomainMount } from "../../domain-mount.js";
import type { AiContext } from "../ai/service.js";
import { chatRoutes } from "./routes.js";
import type { ChatHistoryStore } from "./service.js";

/** The copilot's endpoints over the AI's context and the chat history. */
export function chatDomain(deps: { ai: AiContext; history: ChatHistoryStore }): DomainMount {
  return { routers: [chatRoutes(deps.ai, deps.history)] };
}
