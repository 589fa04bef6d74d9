/**
 * The webhook API a run uses: read the `[webhook]` tables once at the start (printing their warnings),
 * then dispatch `workflow_started` and `workflow_completed` or `workflow_failed`. The parts live in
 * their own modules: configuration, payload, chat form, signature and delivery.
 */
export { DISPATCHED_EVENTS, readWebhooks, WEBHOOK_EVENTS } from "./webhook-config.js";
export type { ReadWebhooksOptions, SignatureScheme, WebhookEndpoint, WebhookEvent, WebhookFormat, WebhookMethod, WebhookSettings } from "./webhook-config.js";
export { dispatchWebhooks, WEBHOOK_TARGETS } from "./webhook-dispatch.js";
export type { DeliveryResult, DispatchOptions, WebhookTargets } from "./webhook-dispatch.js";
export type { WebhookData, WebhookPayloadInput } from "./webhook-payload.js";
