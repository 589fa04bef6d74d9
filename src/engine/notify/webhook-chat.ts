/**
 * The chat-service form of a notification (`format = "chat"`): `{text, blocks}` as incoming-webhook chat
 * services accept it. `text` is the one-line fallback shown in notifications; `blocks` is the laid-out
 * message (a header, the counts as fields, the error, and a context line with the sender and time).
 */
import type { WebhookEvent } from "./webhook-config.js";
import type { WebhookPayload } from "./webhook-payload.js";

/** A text object inside a block. */
export interface ChatText {
  type: "plain_text" | "mrkdwn";
  text: string;
  emoji?: boolean;
}

/** One layout block of a chat message. */
export type ChatBlock =
  | { type: "header"; text: ChatText }
  | { type: "section"; text: ChatText }
  | { type: "section"; fields: ChatText[] }
  | { type: "context"; elements: ChatText[] };

/** A chat-service message. */
export interface ChatMessage {
  text: string;
  blocks: ChatBlock[];
}

const SUCCESS_MARK = "✅";
const FAILURE_MARK = "❌";
const STARTED_MARK = "▶️";

// Chat services reject blocks over these lengths, and a whole stderr dump is no use in a chat anyway.
const HEADER_LIMIT = 150;
const ERROR_LIMIT = 2000;

const HEADLINES: Readonly<Record<WebhookEvent, { mark: string; verb: string }>> = {
  workflow_started: { mark: STARTED_MARK, verb: "started" },
  workflow_completed: { mark: SUCCESS_MARK, verb: "completed" },
  workflow_failed: { mark: FAILURE_MARK, verb: "failed" },
  rule_completed: { mark: SUCCESS_MARK, verb: "completed" },
  rule_failed: { mark: FAILURE_MARK, verb: "failed" },
};

/** Renders a payload as a chat message: a green mark for success, a red mark for failure. */
export function chatMessage(payload: WebhookPayload): ChatMessage {
  const { mark, verb } = HEADLINES[payload.event];
  const subject = payload.data.rule !== undefined ? `Rule ${payload.data.rule} of ${payload.workflow_name}` : `Workflow ${payload.workflow_name}`;
  const headline = `${mark} ${subject} ${verb}`;
  const fields = summaryFields(payload);
  const error = payload.data.error;

  const blocks: ChatBlock[] = [{ type: "header", text: { type: "plain_text", text: truncate(headline, HEADER_LIMIT), emoji: true } }];
  if (fields.length > 0) blocks.push({ type: "section", fields: fields.map(([name, value]) => ({ type: "mrkdwn", text: `*${name}*\n${escapeMrkdwn(value)}` })) });
  if (error !== undefined) {
    // A literal ``` inside the error would close the code block early.
    const quoted = escapeMrkdwn(truncate(error, ERROR_LIMIT)).replaceAll("```", "`\u200b``");
    blocks.push({ type: "section", text: { type: "mrkdwn", text: `*Error*\n\`\`\`${quoted}\`\`\`` } });
  }
  blocks.push({ type: "context", elements: [{ type: "mrkdwn", text: escapeMrkdwn(`strand ${payload.version} · ${payload.timestamp}`) }] });

  const summary = fields.map(([name, value]) => `${name.toLowerCase()} ${value}`).join(", ");
  const firstErrorLine = error?.split("\n", 1)[0];
  const text = headline + (summary ? `: ${summary}` : "") + (firstErrorLine ? ` — ${truncate(firstErrorLine, 200)}` : "");
  return { text: escapeMrkdwn(text), blocks };
}

function summaryFields(payload: WebhookPayload): [string, string][] {
  const data = payload.data;
  const fields: [string, string][] = [];
  if (data.total_rules !== undefined) fields.push(["Rules", String(data.total_rules)]);
  if (data.succeeded !== undefined) fields.push(["Succeeded", String(data.succeeded)]);
  if (data.failed !== undefined) fields.push(["Failed", String(data.failed)]);
  if (data.skipped !== undefined) fields.push(["Skipped", String(data.skipped)]);
  if (data.exit_code !== undefined) fields.push(["Exit code", String(data.exit_code)]);
  if (data.duration_ms !== undefined) fields.push(["Duration", formatDuration(data.duration_ms)]);
  return fields;
}

/** A duration for people: "850 ms", "42 s", "3 min 05 s", "2 h 07 min". */
function formatDuration(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ${String(seconds % 60).padStart(2, "0")} s`;
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, "0")} min`;
}

/** Chat markup treats &, < and > as control characters (links, mentions), so text from the run is escaped. */
function escapeMrkdwn(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
}

function truncate(text: string, limit: number): string {
  const characters = Array.from(text);
  return characters.length <= limit ? text : `${characters.slice(0, limit - 1).join("")}…`;
}
