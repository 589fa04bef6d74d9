/**
 * Webhooks sent by `strand run`: configuration, signatures (RFC 4231 vectors), payloads, the chat form,
 * and delivery against a real HTTP receiver on loopback (retries and their spacing, redirects, time-outs).
 */
import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { performance } from "node:perf_hooks";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { loadPipelineText } from "../../../src/engine/format/load.js";
import type { TomlValue } from "../../../src/engine/format/model.js";
import type { ChatMessage } from "../../../src/engine/notify/webhook-chat.js";
import { dispatchWebhooks, readWebhooks, type DeliveryResult, type WebhookEndpoint } from "../../../src/engine/notify/webhook.js";
import { buildWebhookPayload, type WebhookPayloadInput } from "../../../src/engine/notify/webhook-payload.js";
import { hmacSha256Hex, keyedSha256Hex, signatureHeaderValue } from "../../../src/engine/notify/webhook-signature.js";
import { engineError, removeTempDirs, tempDir } from "../../support/temp-workspace.js";

afterAll(removeTempDirs);

// ---------------------------------------------------------------------------------------------------------
// A real receiver on loopback

interface Received {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** performance.now() when the request arrived. */
  at: number;
}

type Handler = (request: Received, response: ServerResponse) => void;

interface Receiver {
  requests: Received[];
  /** An absolute URL on this receiver. */
  url: (path: string) => string;
  port: number;
  setHandler: (handler: Handler) => void;
}

const servers: Server[] = [];

afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

async function startReceiver(handler: Handler = (_request, response) => response.writeHead(204).end()): Promise<Receiver> {
  const requests: Received[] = [];
  let current = handler;
  const server = createServer((request: IncomingMessage, response) => {
    const at = performance.now();
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const received: Received = { method: request.method ?? "", path: request.url ?? "", headers: request.headers, body: Buffer.concat(chunks), at };
      requests.push(received);
      current(received, response);
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return { requests, port, url: (path) => `http://127.0.0.1:${port}${path}`, setHandler: (next) => (current = next) };
}

/** A port with nothing listening on it (a server that listened once and is closed again). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

// ---------------------------------------------------------------------------------------------------------
// Helpers

const VERSION = "0.1.0";

function endpoint(table: Record<string, TomlValue>): WebhookEndpoint {
  return readWebhooks([table], { version: VERSION }).endpoints[0]!;
}

const completedInput: WebhookPayloadInput = {
  workflow_name: "rna-seq",
  data: { total_rules: 12, succeeded: 10, failed: 0, skipped: 2, duration_ms: 65_400 },
};

const failedInput: WebhookPayloadInput = {
  workflow_name: "rna-seq",
  data: { total_rules: 12, succeeded: 8, failed: 1, skipped: 3, duration_ms: 4200, error: "rule 'align' exited with status 137 <oom> & gave up" },
};

async function dispatch(endpoints: WebhookEndpoint[], event: Parameters<typeof dispatchWebhooks>[1], input = completedInput, retryBaseMs = 10) {
  const warnings: string[] = [];
  // The receivers listen on the loopback, which webhooks may reach only when private targets are allowed.
  const results = await dispatchWebhooks(endpoints, event, input, { warn: (message) => warnings.push(message), retryBaseMs, allowPrivate: true });
  return { results, warnings };
}

function json(request: Received): Record<string, unknown> {
  return JSON.parse(request.body.toString("utf8")) as Record<string, unknown>;
}

// ---------------------------------------------------------------------------------------------------------

describe("HMAC-SHA256 against the RFC 4231 test vectors", () => {
  const hex = (text: string) => Buffer.from(text.replace(/\s+/g, ""), "hex");
  const ascii = (text: string) => Buffer.from(text, "ascii");
  const cases: { name: string; key: Buffer; data: Buffer; mac: string; truncateBits?: number }[] = [
    {
      name: "case 1",
      key: Buffer.alloc(20, 0x0b),
      data: ascii("Hi There"),
      mac: "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7",
    },
    {
      name: "case 2 (a key shorter than the block)",
      key: ascii("Jefe"),
      data: ascii("what do ya want for nothing?"),
      mac: "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843",
    },
    {
      name: "case 3",
      key: Buffer.alloc(20, 0xaa),
      data: Buffer.alloc(50, 0xdd),
      mac: "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe",
    },
    {
      name: "case 4",
      key: hex("0102030405060708090a0b0c0d0e0f10111213141516171819"),
      data: Buffer.alloc(50, 0xcd),
      mac: "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b",
    },
    {
      name: "case 5 (output truncated to 128 bits)",
      key: Buffer.alloc(20, 0x0c),
      data: ascii("Test With Truncation"),
      mac: "a3b6167473100ee06e0c796c2955552b",
      truncateBits: 128,
    },
    {
      name: "case 6 (a 131-byte key, hashed first)",
      key: Buffer.alloc(131, 0xaa),
      data: ascii("Test Using Larger Than Block-Size Key - Hash Key First"),
      mac: "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54",
    },
    {
      name: "case 7 (a 131-byte key and data longer than the block)",
      key: Buffer.alloc(131, 0xaa),
      data: ascii(
        "This is a test using a larger than block-size key and a larger than block-size data. " +
          "The key needs to be hashed before being used by the HMAC algorithm.",
      ),
      mac: "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2",
    },
  ];

  for (const vector of cases) {
    it(vector.name, () => {
      const digest = hmacSha256Hex(vector.key, vector.data);
      expect(digest).toMatch(/^[0-9a-f]{64}$/);
      const compared = vector.truncateBits ? digest.slice(0, vector.truncateBits / 4) : digest;
      expect(compared).toBe(vector.mac);
    });
  }

  it("keys a string secret by its UTF-8 bytes and prefixes the scheme in the header value", () => {
    expect(signatureHeaderValue("hmac-sha256", "Jefe", "what do ya want for nothing?")).toBe(
      "hmac-sha256=5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843",
    );
    const body = '{"event":"x"}';
    expect(hmacSha256Hex("clé", body)).toBe(createHmac("sha256", Buffer.from("clé", "utf8")).update(body).digest("hex"));
  });

  it("computes the legacy scheme as SHA-256 of the secret bytes followed by the body bytes", () => {
    const expected = createHash("sha256").update(Buffer.concat([Buffer.from("s3cret"), Buffer.from("{}")])).digest("hex");
    expect(keyedSha256Hex("s3cret", "{}")).toBe(expected);
    expect(signatureHeaderValue("sha256-keyed", "s3cret", "{}")).toBe(`sha256=${expected}`);
    // SHA-256 of "abc": the secret and body really are concatenated, with nothing between them.
    expect(keyedSha256Hex("ab", "c")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  });
});

describe("reading the [webhook] table", () => {
  const secretUrl = "https://notify.corp.test/services/T0KENPATH/x?token=QUERYSECRET";

  it("fills in every default", () => {
    const settings = readWebhooks([{ url: "https://hooks.example.org/in" }], { version: VERSION });
    expect(settings.warnings).toEqual([]);
    expect(settings.endpoints).toEqual([
      {
        label: "webhook #1",
        url: "https://hooks.example.org/in",
        method: "post",
        headers: {},
        events: ["workflow_completed"],
        secret: null,
        timeout_secs: 30,
        max_retries: 3,
        signature_scheme: "hmac-sha256",
        format: "json",
        senderVersion: VERSION,
      },
    ]);
  });

  it("reads a [webhook] table and a [[webhook]] array as the loader fills them", async () => {
    const dir = tempDir();
    const workflow = '[workflow]\nname = "demo"\n\n[[rules]]\nname = "a"\noutput = ["a.txt"]\nshell = "touch a.txt"\n\n';
    const single = await loadPipelineText(
      workflow + '[webhook]\nurl = "http://127.0.0.1:9/hook"\nmethod = "PUT"\nevents = ["workflow_started", "workflow_failed"]\nheaders = { "X-Team" = "genomics" }\ntimeout_secs = 5\nmax_retries = 0\nsecret = "k"\nformat = "chat"\n',
      { path: `${dir}/main.oxoflow`, dir },
    );
    const one = readWebhooks(single.webhook, { version: VERSION });
    expect(one.endpoints).toHaveLength(1);
    expect(one.endpoints[0]).toMatchObject({
      method: "put",
      events: ["workflow_started", "workflow_failed"],
      headers: { "X-Team": "genomics" },
      timeout_secs: 5,
      max_retries: 0,
      secret: "k",
      format: "chat",
    });

    const several = await loadPipelineText(workflow + '[[webhook]]\nurl = "https://a.example/1"\n\n[[webhook]]\nurl = "https://b.example/2"\nsignature_scheme = "sha256-keyed"\n', {
      path: `${dir}/main.oxoflow`,
      dir,
    });
    const two = readWebhooks(several.webhook, { version: VERSION });
    expect(two.endpoints.map((item) => [item.label, item.url, item.signature_scheme])).toEqual([
      ["webhook #1", "https://a.example/1", "hmac-sha256"],
      ["webhook #2", "https://b.example/2", "sha256-keyed"],
    ]);
    expect(two.warnings).toHaveLength(1);
    expect(two.warnings[0]).toMatch(/^webhook #2: signature_scheme "sha256-keyed" is deprecated and will be removed in strand 1\.0/);
  });

  it("reports no webhook at all as an empty list", () => {
    expect(readWebhooks([], { version: VERSION })).toEqual({ endpoints: [], warnings: [] });
  });

  it("warns once for the legacy scheme, naming the next major version", () => {
    const { warnings } = readWebhooks([{ url: secretUrl, secret: "k", signature_scheme: "sha256-keyed" }], { version: "2.4.1" });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain("strand 3.0");
    expect(warnings[0]).toContain('"hmac-sha256"');
    expect(warnings[0]).not.toMatch(/T0KENPATH|QUERYSECRET|notify\.corp/);
  });

  it("warns about unknown keys (with the likely intended one) and about events that are never sent", () => {
    const { warnings } = readWebhooks(
      [
        { url: secretUrl, evnts: ["workflow_failed"], events: ["workflow_failed", "rule_completed"] },
        { url: secretUrl, events: ["rule_failed"] },
        { url: secretUrl, events: [] },
      ],
      { version: VERSION },
    );
    expect(warnings).toEqual([
      'webhook #1: unknown key "evnts" is ignored (did you mean "events"?)',
      "webhook #1: rule_completed is accepted but never sent",
      "webhook #2: will never be called, since it subscribes to no event that is sent (rule_failed is accepted but never sent)",
      "webhook #3: will never be called, since it subscribes to no event that is sent",
    ]);
  });

  it("accepts the method in any case and drops repeated events", () => {
    const read = endpoint({ url: secretUrl, method: "GET", events: ["workflow_failed", "workflow_failed"] });
    expect(read.method).toBe("get");
    expect(read.events).toEqual(["workflow_failed"]);
  });

  const invalid: [string, Record<string, TomlValue>, RegExp][] = [
    ["a missing url", {}, /→ url: is required$/],
    ["a url that is not text", { url: 42 }, /url: expected a string, found an integer/],
    ["a relative url", { url: "/services/T0KENPATH?token=QUERYSECRET" }, /url: is not a valid absolute URL/],
    ["an ftp url", { url: "ftp://notify.corp.test/T0KENPATH?token=QUERYSECRET" }, /url: must use http or https \(found ftp\)/],
    ["a url with credentials", { url: "https://user:T0KENPATH@notify.corp.test/x?token=QUERYSECRET" }, /url: must not contain a user name or password/],
    ["an unknown method", { url: secretUrl, method: "patch" }, /method: "patch" is not one of post, put, get/],
    ["headers that are not a table", { url: secretUrl, headers: ["a"] }, /headers: expected a table, found an array/],
    ["a header value that is not text", { url: secretUrl, headers: { "X-Count": 3 } }, /headers\.X-Count: expected a string, found an integer/],
    ["a header value with a line break", { url: secretUrl, headers: { "X-Token": "QUERYSECRET\r\nX-Evil: 1" } }, /headers\.X-Token: contains a line break/],
    ["a header name with a space", { url: secretUrl, headers: { "X Token": "a" } }, /headers: a header name may hold only/],
    ["a header strand sets itself", { url: secretUrl, headers: { "x-service-signature": "QUERYSECRET" } }, /headers\.x-service-signature: is set by strand itself/],
    ["the content type", { url: secretUrl, headers: { "Content-Type": "text/plain" } }, /headers\.Content-Type: is set by strand itself/],
    ["a header given twice", { url: secretUrl, headers: { "X-A": "1", "x-a": "2" } }, /headers\.x-a: is given twice/],
    ["events that are not an array", { url: secretUrl, events: "workflow_failed" }, /events: expected an array, found a string/],
    ["an unknown event", { url: secretUrl, events: ["workflow_complete"] }, /events: unknown event "workflow_complete"/],
    ["an empty secret", { url: secretUrl, secret: "" }, /secret: is empty/],
    ["a secret that is not text", { url: secretUrl, secret: 1234 }, /secret: expected a string, found an integer/],
    ["a zero time-out", { url: secretUrl, timeout_secs: 0 }, /timeout_secs: must be a whole number from 1 to 3600 \(found 0\)/],
    ["a fractional time-out", { url: secretUrl, timeout_secs: 2.5 }, /timeout_secs: must be a whole number from 1 to 3600 \(found 2\.5\)/],
    ["a time-out written as text", { url: secretUrl, timeout_secs: "30" }, /timeout_secs: expected an integer, found a string/],
    ["negative retries", { url: secretUrl, max_retries: -1 }, /max_retries: must be a whole number from 0 to 10 \(found -1\)/],
    ["too many retries", { url: secretUrl, max_retries: 11 }, /max_retries: must be a whole number from 0 to 10/],
    ["an unknown signature scheme", { url: secretUrl, signature_scheme: "hmac-sha1" }, /signature_scheme: "hmac-sha1" is not one of hmac-sha256, sha256-keyed/],
    ["an unknown format", { url: secretUrl, format: "slack" }, /format: "slack" is not one of json, chat/],
  ];

  for (const [name, table, message] of invalid) {
    it(`rejects ${name} with CONFIG_ERROR, a suggestion, and no trace of the URL or secrets`, async () => {
      const error = await engineError(() => readWebhooks([{ url: "https://ok.example/" }, table], { version: VERSION }));
      expect(error.code).toBe("CONFIG_ERROR");
      expect(error.message).toMatch(/^webhook #2 → /);
      expect(error.message).toMatch(message);
      expect(error.finding.suggestion).toBeTruthy();
      const everything = `${error.message} ${error.finding.suggestion}`;
      expect(everything).not.toMatch(/T0KENPATH|QUERYSECRET|notify\.corp|user:/);
    });
  }

  it("suggests the nearest event name for a misspelt one", async () => {
    const error = await engineError(() => readWebhooks([{ url: secretUrl, events: ["workflow_complete"] }], { version: VERSION }));
    expect(error.finding.suggestion).toMatch(/^did you mean "workflow_completed"\?/);
  });
});

describe("the payload", () => {
  const at = new Date("2025-03-04T05:06:07.089Z");
  const everything = { total_rules: 5, succeeded: 3, failed: 1, skipped: 1, duration_ms: 1234.6, rule: "align", exit_code: 2, error: "boom" };

  it("puts the documented fields in order, with an ISO 8601 timestamp and the sender's version", () => {
    const payload = buildWebhookPayload("workflow_completed", { workflow_name: "demo", data: everything, at }, "9.9.9");
    expect(Object.keys(payload)).toEqual(["event", "workflow_name", "timestamp", "data", "version"]);
    expect(payload).toEqual({
      event: "workflow_completed",
      workflow_name: "demo",
      timestamp: "2025-03-04T05:06:07.089Z",
      data: { total_rules: 5, succeeded: 3, failed: 1, skipped: 1, duration_ms: 1235 },
      version: "9.9.9",
    });
  });

  it("keeps only the keys relevant to each event", () => {
    const keys = (event: Parameters<typeof buildWebhookPayload>[0]) => Object.keys(buildWebhookPayload(event, { workflow_name: "d", data: everything, at }, "1").data);
    expect(keys("workflow_started")).toEqual(["total_rules"]);
    expect(keys("workflow_completed")).toEqual(["total_rules", "succeeded", "failed", "skipped", "duration_ms"]);
    expect(keys("workflow_failed")).toEqual(["total_rules", "succeeded", "failed", "skipped", "duration_ms", "error"]);
    expect(keys("rule_failed")).toEqual(["rule", "exit_code", "duration_ms", "error"]);
  });

  it("leaves out keys that are not set, and numbers that are not numbers", () => {
    const payload = buildWebhookPayload("workflow_failed", { workflow_name: "d", data: { total_rules: 4, duration_ms: Number.NaN }, at }, "1");
    expect(payload.data).toEqual({ total_rules: 4 });
  });

  it("stamps the current time when none is given", () => {
    const before = Date.now();
    const stamp = Date.parse(buildWebhookPayload("workflow_started", { workflow_name: "d", data: {} }, "1").timestamp);
    expect(stamp).toBeGreaterThanOrEqual(before);
    expect(stamp).toBeLessThanOrEqual(Date.now());
  });
});

describe("delivery to a real receiver", () => {
  it("POSTs the JSON payload signed with HMAC-SHA256, and the receiver verifies the signature", async () => {
    const secret = "correct horse battery staple";
    let verified = false;
    const receiver = await startReceiver((request, response) => {
      const header = String(request.headers["x-service-signature"] ?? "");
      const expected = Buffer.from(`hmac-sha256=${createHmac("sha256", secret).update(request.body).digest("hex")}`);
      verified = header.length === expected.length && timingSafeEqual(Buffer.from(header), expected);
      response.writeHead(verified ? 200 : 401).end();
    });
    const { results, warnings } = await dispatch([endpoint({ url: receiver.url("/hook"), secret })], "workflow_completed");

    expect(verified).toBe(true);
    expect(results).toEqual([{ endpoint: "webhook #1", ok: true, attempts: 1, status: 200 }]);
    expect(warnings).toEqual([]);
    const [request] = receiver.requests;
    expect(request!.method).toBe("POST");
    expect(request!.path).toBe("/hook");
    expect(request!.headers["content-type"]).toBe("application/json");
    expect(request!.headers["user-agent"]).toBe(`strand/${VERSION}`);
    const body = json(request!);
    expect(Object.keys(body)).toEqual(["event", "workflow_name", "timestamp", "data", "version"]);
    expect(body).toMatchObject({ event: "workflow_completed", workflow_name: "rna-seq", version: VERSION, data: completedInput.data });
    expect(new Date(body.timestamp as string).toISOString()).toBe(body.timestamp);
  });

  it("signs with the legacy scheme when asked to", async () => {
    const secret = "legacy-key";
    const receiver = await startReceiver();
    const settings = readWebhooks([{ url: receiver.url("/legacy"), secret, signature_scheme: "sha256-keyed" }], { version: VERSION });
    expect(settings.warnings.join("\n")).toMatch(/deprecated/);
    expect(settings.warnings.join("\n")).not.toContain(String(receiver.port));

    const { results } = await dispatch(settings.endpoints, "workflow_completed");
    expect(results[0]!.ok).toBe(true);
    const request = receiver.requests[0]!;
    const expected = createHash("sha256").update(Buffer.concat([Buffer.from(secret, "utf8"), request.body])).digest("hex");
    expect(request.headers["x-service-signature"]).toBe(`sha256=${expected}`);
  });

  it("sends no signature header without a secret", async () => {
    const receiver = await startReceiver();
    await dispatch([endpoint({ url: receiver.url("/") })], "workflow_completed");
    expect(receiver.requests[0]!.headers["x-service-signature"]).toBeUndefined();
  });

  it("PUTs when asked to, and adds custom headers verbatim", async () => {
    const receiver = await startReceiver();
    const headers = { Authorization: "Bearer abc.def", "X-Team": "  genomics  lab ", "User-Agent": "our-agent/2" };
    await dispatch([endpoint({ url: receiver.url("/put"), method: "put", headers })], "workflow_completed");
    const request = receiver.requests[0]!;
    expect(request.method).toBe("PUT");
    expect(request.headers.authorization).toBe("Bearer abc.def");
    // HTTP itself trims the ends of a header value; the inside is kept as written.
    expect(request.headers["x-team"]).toBe("genomics  lab");
    expect(request.headers["user-agent"]).toBe("our-agent/2");
    expect(json(request).event).toBe("workflow_completed");
  });

  it("sends GET with no body and no content type; a signature then covers the empty body", async () => {
    const receiver = await startReceiver();
    await dispatch([endpoint({ url: receiver.url("/ping?run=1"), method: "get", secret: "k" })], "workflow_completed");
    const request = receiver.requests[0]!;
    expect(request.method).toBe("GET");
    expect(request.path).toBe("/ping?run=1");
    expect(request.body.length).toBe(0);
    expect(request.headers["content-type"]).toBeUndefined();
    expect(request.headers["transfer-encoding"]).toBeUndefined();
    expect(Number(request.headers["content-length"] ?? 0)).toBe(0);
    expect(request.headers["x-service-signature"]).toBe(`hmac-sha256=${createHmac("sha256", "k").update("").digest("hex")}`);
  });

  it("sends only to endpoints subscribed to the event", async () => {
    const receiver = await startReceiver();
    const endpoints = readWebhooks(
      [
        { url: receiver.url("/default") },
        { url: receiver.url("/failures"), events: ["workflow_failed"] },
        { url: receiver.url("/all"), events: ["workflow_started", "workflow_completed", "workflow_failed"] },
      ],
      { version: VERSION },
    ).endpoints;

    const completed = await dispatch(endpoints, "workflow_completed");
    expect(completed.results.map((result) => result.endpoint)).toEqual(["webhook #1", "webhook #3"]);
    const failed = await dispatch(endpoints, "workflow_failed", failedInput);
    expect(failed.results.map((result) => result.endpoint)).toEqual(["webhook #2", "webhook #3"]);
    const started = await dispatch(endpoints, "workflow_started", { workflow_name: "rna-seq", data: { total_rules: 12 } });
    expect(started.results.map((result) => result.endpoint)).toEqual(["webhook #3"]);

    expect(receiver.requests.map((request) => `${request.path} ${json(request).event as string}`).sort()).toEqual([
      "/all workflow_completed",
      "/all workflow_failed",
      "/all workflow_started",
      "/default workflow_completed",
      "/failures workflow_failed",
    ]);
    const failure = receiver.requests.find((request) => request.path === "/failures")!;
    expect(json(failure).data).toEqual(failedInput.data);
    const start = receiver.requests.find((request) => json(request).event === "workflow_started")!;
    expect(json(start).data).toEqual({ total_rules: 12 });
  });

  it("never sends rule_completed or rule_failed, even to an endpoint subscribed to them", async () => {
    const receiver = await startReceiver();
    const endpoints = [endpoint({ url: receiver.url("/rules"), events: ["rule_completed", "rule_failed", "workflow_completed"] })];
    const ruleInput = { workflow_name: "rna-seq", data: { rule: "align", exit_code: 1 } };
    expect(await dispatch(endpoints, "rule_completed", ruleInput)).toEqual({ results: [], warnings: [] });
    expect(await dispatch(endpoints, "rule_failed", ruleInput)).toEqual({ results: [], warnings: [] });
    expect(receiver.requests).toEqual([]);
  });

  it("sends the chat form with a green mark for success", async () => {
    const receiver = await startReceiver();
    await dispatch([endpoint({ url: receiver.url("/chat"), format: "chat", secret: "k" })], "workflow_completed");
    const request = receiver.requests[0]!;
    const message = json(request) as unknown as ChatMessage;
    expect(Object.keys(message)).toEqual(["text", "blocks"]);
    expect(message.text).toBe("✅ Workflow rna-seq completed: rules 12, succeeded 10, failed 0, skipped 2, duration 1 min 05 s");
    expect(message.blocks.map((block) => block.type)).toEqual(["header", "section", "context"]);
    expect(message.blocks[0]).toEqual({ type: "header", text: { type: "plain_text", text: "✅ Workflow rna-seq completed", emoji: true } });
    expect(message.blocks[1]).toEqual({
      type: "section",
      fields: [
        { type: "mrkdwn", text: "*Rules*\n12" },
        { type: "mrkdwn", text: "*Succeeded*\n10" },
        { type: "mrkdwn", text: "*Failed*\n0" },
        { type: "mrkdwn", text: "*Skipped*\n2" },
        { type: "mrkdwn", text: "*Duration*\n1 min 05 s" },
      ],
    });
    expect(JSON.stringify(message.blocks[2])).toContain(`strand ${VERSION}`);
    // The signature covers the chat body as sent.
    expect(request.headers["x-service-signature"]).toBe(`hmac-sha256=${createHmac("sha256", "k").update(request.body).digest("hex")}`);
  });

  it("sends the chat form with a red mark and the escaped error for a failure", async () => {
    const receiver = await startReceiver();
    await dispatch([endpoint({ url: receiver.url("/chat"), format: "chat", events: ["workflow_failed"] })], "workflow_failed", failedInput);
    const message = json(receiver.requests[0]!) as unknown as ChatMessage;
    expect(message.text.startsWith("❌ Workflow rna-seq failed: ")).toBe(true);
    expect(message.text).toContain("&lt;oom&gt; &amp; gave up");
    expect(message.text).not.toContain("✅");
    expect(message.blocks[0]).toMatchObject({ type: "header", text: { text: "❌ Workflow rna-seq failed" } });
    expect(message.blocks[2]).toEqual({
      type: "section",
      text: { type: "mrkdwn", text: "*Error*\n```rule 'align' exited with status 137 &lt;oom&gt; &amp; gave up```" },
    });
  });

  it("sends a neutral mark for a start in the chat form, and one timestamp to every endpoint", async () => {
    const receiver = await startReceiver();
    const events: ["workflow_started"] = ["workflow_started"];
    const endpoints = readWebhooks([{ url: receiver.url("/a"), format: "chat", events }, { url: receiver.url("/b"), events }], { version: VERSION }).endpoints;
    await dispatch(endpoints, "workflow_started", { workflow_name: "rna-seq", data: { total_rules: 12 } });
    const chat = json(receiver.requests.find((request) => request.path === "/a")!) as unknown as ChatMessage;
    expect(chat.text).toBe("▶️ Workflow rna-seq started: rules 12");
    expect(chat.text).not.toMatch(/✅|❌/);
    const plain = json(receiver.requests.find((request) => request.path === "/b")!);
    expect(JSON.stringify(chat.blocks.at(-1))).toContain(plain.timestamp as string);
  });

  it("retries a failing endpoint and stops at the first success", async () => {
    let answers = 0;
    const receiver = await startReceiver((_request, response) => response.writeHead(++answers < 3 ? 500 : 202).end());
    const { results, warnings } = await dispatch([endpoint({ url: receiver.url("/flaky"), max_retries: 5 })], "workflow_completed");
    expect(results).toEqual([{ endpoint: "webhook #1", ok: true, attempts: 3, status: 202 }]);
    expect(receiver.requests).toHaveLength(3);
    expect(warnings).toEqual([
      "webhook #1: workflow_completed attempt 1 of 6 failed (HTTP 500); retrying in 10 ms",
      "webhook #1: workflow_completed attempt 2 of 6 failed (HTTP 500); retrying in 20 ms",
    ]);
    // Every retry sends the same bytes, so a receiver can recognise a repeat.
    expect(new Set(receiver.requests.map((request) => request.body.toString())).size).toBe(1);
  });

  it("gives up after max_retries retries, and never throws", async () => {
    const receiver = await startReceiver((_request, response) => response.writeHead(503).end("busy"));
    const { results, warnings } = await dispatch([endpoint({ url: receiver.url("/down"), max_retries: 3 })], "workflow_completed");
    expect(results).toEqual([{ endpoint: "webhook #1", ok: false, attempts: 4, status: 503, error: "HTTP 503" }]);
    expect(receiver.requests).toHaveLength(4);
    expect(warnings.at(-1)).toBe("webhook #1: workflow_completed not delivered after 4 attempts: HTTP 503");
  });

  it("spaces retries 1 s and then 2 s apart by default", { timeout: 20_000 }, async () => {
    const receiver = await startReceiver((_request, response) => response.writeHead(500).end());
    const warnings: string[] = [];
    const results = await dispatchWebhooks([endpoint({ url: receiver.url("/slow"), max_retries: 2 })], "workflow_completed", completedInput, {
      warn: (message) => warnings.push(message),
      allowPrivate: true,
    });
    expect(results[0]).toMatchObject({ ok: false, attempts: 3 });
    const times = receiver.requests.map((request) => request.at);
    expect(times).toHaveLength(3);
    const firstGap = times[1]! - times[0]!;
    const secondGap = times[2]! - times[1]!;
    expect(firstGap).toBeGreaterThanOrEqual(990);
    expect(firstGap).toBeLessThan(1700);
    expect(secondGap).toBeGreaterThanOrEqual(1990);
    expect(secondGap).toBeLessThan(2700);
    expect(warnings.slice(0, 2).map((warning) => warning.replace(/.*; /, ""))).toEqual(["retrying in 1 s", "retrying in 2 s"]);
  });

  it("treats a redirect as a failure and never follows it", async () => {
    const receiver = await startReceiver((request, response) => {
      if (request.path === "/moved") response.writeHead(302, { Location: receiver.url("/target") }).end();
      else response.writeHead(200).end();
    });
    const { results, warnings } = await dispatch([endpoint({ url: receiver.url("/moved"), max_retries: 1, secret: "k" })], "workflow_completed");
    expect(results[0]).toMatchObject({ ok: false, attempts: 2, status: 302 });
    expect(results[0]!.error).toMatch(/^HTTP 302, a redirect, which is never followed/);
    expect(receiver.requests.map((request) => request.path)).toEqual(["/moved", "/moved"]);
    expect(warnings).toHaveLength(2);
  });

  it("gives up on an endpoint that does not answer within timeout_secs", async () => {
    const receiver = await startReceiver(() => {
      // Never answers; the connection is closed when the test ends.
    });
    const started = performance.now();
    const { results, warnings } = await dispatch([endpoint({ url: receiver.url("/silent"), timeout_secs: 1, max_retries: 0 })], "workflow_completed");
    const elapsed = performance.now() - started;
    expect(results).toEqual([{ endpoint: "webhook #1", ok: false, attempts: 1, error: "no answer within 1 s" }]);
    expect(warnings).toEqual(["webhook #1: workflow_completed not delivered after 1 attempt: no answer within 1 s"]);
    expect(elapsed).toBeGreaterThanOrEqual(950);
    expect(elapsed).toBeLessThan(3000);
    expect(receiver.requests).toHaveLength(1);
  });

  it("delivers to the other endpoints when one fails", async () => {
    const good = await startReceiver();
    const port = await closedPort();
    const endpoints = readWebhooks([{ url: `http://127.0.0.1:${port}/gone`, max_retries: 0 }, { url: good.url("/ok") }], { version: VERSION }).endpoints;
    const { results } = await dispatch(endpoints, "workflow_completed");
    expect(results).toEqual([
      { endpoint: "webhook #1", ok: false, attempts: 1, error: "connection refused" },
      { endpoint: "webhook #2", ok: true, attempts: 1, status: 204 },
    ]);
    expect(good.requests).toHaveLength(1);
  });

  it("never puts the URL, its token or its host in a warning or a result", async () => {
    const path = "/services/T0KENPATH/hook?token=QUERYSECRET";
    const failing = await startReceiver((_request, response) => response.writeHead(500).end("T0KENPATH QUERYSECRET"));
    const moving = await startReceiver((_request, response) => response.writeHead(301, { Location: "http://127.0.0.1:1/T0KENPATH" }).end());
    const silent = await startReceiver(() => undefined);
    const refused = await closedPort();
    const endpoints = readWebhooks(
      [
        { url: failing.url(path), max_retries: 1 },
        { url: moving.url(path), max_retries: 1 },
        { url: silent.url(path), max_retries: 0, timeout_secs: 1 },
        { url: `http://127.0.0.1:${refused}${path}`, max_retries: 1 },
        { url: `http://no-such-host.invalid${path}`, max_retries: 0 },
      ],
      { version: VERSION },
    ).endpoints;
    const { results, warnings } = await dispatch(endpoints, "workflow_completed");

    expect(results.map((result) => result.ok)).toEqual([false, false, false, false, false]);
    expect(results.map((result) => result.error)).toEqual([
      "HTTP 500",
      "HTTP 301, a redirect, which is never followed; configure the final address as the url",
      "no answer within 1 s",
      "connection refused",
      expect.stringMatching(/^host name (not found|lookup failed)$/),
    ]);
    expect(warnings.length).toBeGreaterThanOrEqual(5);
    const reported = JSON.stringify({ results, warnings });
    for (const leak of ["T0KENPATH", "QUERYSECRET", "127.0.0.1", "no-such-host", "services", String(failing.port), String(refused)]) {
      expect(reported).not.toContain(leak);
    }
  });

  it("refuses loopback, private and link-local targets, once and without retries, unless private targets are allowed; the environment never decides", async () => {
    const receiver = await startReceiver();
    const targets = [receiver.url("/hook"), "http://10.1.2.3/hook", "http://169.254.169.254/latest/meta-data/", "http://[::1]:9/hook", "http://[::ffff:192.168.1.1]/hook"];
    const endpoints = readWebhooks(targets.map((url) => ({ url, max_retries: 3 })), { version: VERSION }).endpoints;
    const warnings: string[] = [];
    // A service's setting left in the environment is not the engine's to read: only the option decides.
    process.env.SERVICE_WEBHOOK_ALLOW_PRIVATE = "1";
    let refused: DeliveryResult[];
    try {
      refused = await dispatchWebhooks(endpoints, "workflow_completed", completedInput, { warn: (message) => warnings.push(message), retryBaseMs: 1 });
    } finally {
      delete process.env.SERVICE_WEBHOOK_ALLOW_PRIVATE;
    }
    expect(refused.map((result) => [result.ok, result.attempts])).toEqual(targets.map(() => [false, 1]));
    expect(refused.map((result) => /a (\S+(?: \S+)?) address; this run sends webhooks to public addresses only \(--webhook-targets=public; .*SERVICE_WEBHOOK_ALLOW_PRIVATE=1\)$/.exec(result.error ?? "")?.[1])).toEqual([
      "loopback",
      "private",
      "link-local",
      "loopback",
      "IPv4-mapped private",
    ]);
    expect(receiver.requests).toEqual([]);
    expect(JSON.stringify(warnings)).not.toMatch(/127\.0\.0\.1|10\.1\.2\.3|169\.254|::1|meta-data/);
    const allowed = await dispatchWebhooks(endpoints.slice(0, 1), "workflow_completed", completedInput, { warn: () => undefined, allowPrivate: true });
    expect(allowed).toEqual([{ endpoint: "webhook #1", ok: true, attempts: 1, status: 204 }]);
    expect(receiver.requests).toHaveLength(1);
  });

  it("survives a warn callback that throws", async () => {
    const receiver = await startReceiver((_request, response) => response.writeHead(500).end());
    const results: DeliveryResult[] = await dispatchWebhooks([endpoint({ url: receiver.url("/x"), max_retries: 1 })], "workflow_completed", completedInput, {
      warn: () => {
        throw new Error("logger closed");
      },
      retryBaseMs: 1,
      allowPrivate: true,
    });
    expect(results[0]).toMatchObject({ ok: false, attempts: 2 });
  });

  it("reports a malformed input as a failed result instead of rejecting", async () => {
    const receiver = await startReceiver();
    const { results, warnings } = await dispatch([endpoint({ url: receiver.url("/x") })], "workflow_completed", { ...completedInput, at: new Date(Number.NaN) });
    expect(results).toEqual([{ endpoint: "webhook #1", ok: false, attempts: 0, error: "internal error while preparing the request" }]);
    expect(warnings).toHaveLength(1);
    expect(receiver.requests).toEqual([]);
  });
});
