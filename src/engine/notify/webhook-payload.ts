/**
 * The JSON payload of a webhook notification. `data` holds only the keys that belong to the event and
 * were given, so a receiver can tell "not applicable" (absent) from zero.
 */
import type { WebhookEvent } from "./webhook-config.js";

/** Event details; which keys are sent depends on the event. */
export interface WebhookData {
  total_rules?: number;
  succeeded?: number;
  failed?: number;
  skipped?: number;
  duration_ms?: number;
  rule?: string;
  exit_code?: number;
  error?: string;
}

/** What the run knows when it notifies; the event, timestamp and sender version are added when the payload is built. */
export interface WebhookPayloadInput {
  workflow_name: string;
  data: WebhookData;
  /** When the event happened; the time of building the payload when absent. */
  at?: Date;
}

/** The payload as sent, keys in the documented order. */
export interface WebhookPayload {
  event: WebhookEvent;
  workflow_name: string;
  /** ISO 8601, UTC. */
  timestamp: string;
  data: WebhookData;
  version: string;
}

type DataKey = keyof WebhookData;

const RUN_COUNTS: readonly DataKey[] = ["total_rules", "succeeded", "failed", "skipped", "duration_ms"];

/** Which data keys each event carries, in the order they are written. */
export const EVENT_DATA_KEYS: Readonly<Record<WebhookEvent, readonly DataKey[]>> = {
  workflow_started: ["total_rules"],
  workflow_completed: RUN_COUNTS,
  workflow_failed: [...RUN_COUNTS, "error"],
  rule_completed: ["rule", "exit_code", "duration_ms"],
  rule_failed: ["rule", "exit_code", "duration_ms", "error"],
};

const TEXT_KEYS: ReadonlySet<DataKey> = new Set<DataKey>(["rule", "error"]);

/** Builds the payload of one event, keeping only the data keys relevant to it that are set. */
export function buildWebhookPayload(event: WebhookEvent, input: WebhookPayloadInput, version: string): WebhookPayload {
  const data: Record<string, string | number> = {};
  for (const key of EVENT_DATA_KEYS[event]) {
    const value = input.data[key];
    if (TEXT_KEYS.has(key)) {
      if (typeof value === "string") data[key] = value;
    } else if (typeof value === "number" && Number.isFinite(value)) {
      // The documented type is integer; a fractional duration from a timer must not leak through as 12.5.
      data[key] = Math.round(value);
    }
  }
  return {
    event,
    workflow_name: input.workflow_name,
    timestamp: (input.at ?? new Date()).toISOString(),
    data: data as WebhookData,
    version,
  };
}
