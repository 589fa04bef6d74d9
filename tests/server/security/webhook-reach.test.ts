/**
 * Where the webhooks of a service's runs may go is the service's decision (issue 25, "Also"): a `strand
 * serve` process, as an operator starts it, runs a pipeline whose `[[webhook]]` points at a receiver on the
 * loopback. With `SERVICE_WEBHOOK_ALLOW_PRIVATE=1` the run's engine is told it may deliver there, and the
 * receiver gets workflow_started and workflow_completed; without it the engine is told public addresses
 * only: nothing arrives, the run still completes, and its log says why.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectData } from "../../../src/client/service-client.js";
import { assertBuilt } from "../../support/strand-cli.js";
import { serve, type Served } from "../../support/strand-serve.js";
import { chainPipeline, serviceClient, waitForRun } from "../../support/run-client.js";

assertBuilt();

/** The requests a receiver on 127.0.0.1 got: the path and the event each body names. */
interface Received {
  path: string;
  event: unknown;
}

let receiver: Server;
let port = 0;
const received: Received[] = [];
const folders: string[] = [];
const services: Served[] = [];

beforeAll(async () => {
  receiver = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString()));
    request.on("end", () => {
      received.push({ path: request.url ?? "", event: (JSON.parse(body) as { event?: unknown }).event });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  port = (receiver.address() as AddressInfo).port;
});

afterAll(async () => {
  for (const served of services) await served.stop();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

/** A personal-mode `strand serve` on a fresh data folder, with `env` added to its environment. */
async function serveWith(env: Record<string, string>): Promise<Served> {
  const data = mkdtempSync(join(tmpdir(), "strand-webhook-reach-"));
  folders.push(data);
  const served = await serve({ SERVICE_DATA_DIR: data, SERVICE_CONFIG_DIR: join(data, "config"), SERVICE_RATE_LIMIT: "0", ...env });
  services.push(served);
  return served;
}

/** A one-rule pipeline whose webhook (every workflow event) points at the receiver under `path`. */
function hookedPipeline(name: string, path: string): string {
  return `${chainPipeline(name, [["one", "echo hi > {output[0]}"]])}
[[webhook]]
url = "http://127.0.0.1:${port}${path}"
events = ["workflow_started", "workflow_completed", "workflow_failed"]
max_retries = 0
`;
}

/** Runs `toml` on the service and answers the finished run and its engine log. */
async function runToEnd(served: Served, toml: string): Promise<{ status: string; log: string[] }> {
  const client = serviceClient(served.url);
  const id = expectData(await client.POST("/api/runs", { body: { toml_content: toml } })).id;
  const run = await waitForRun(served.url, id);
  const log = expectData(await client.GET("/api/runs/{id}/logs", { params: { path: { id } } })).lines;
  return { status: run.status, log };
}

describe("webhooks of the service's runs", () => {
  it("reach a loopback receiver when the service's SERVICE_WEBHOOK_ALLOW_PRIVATE=1 says so", async () => {
    const served = await serveWith({ SERVICE_WEBHOOK_ALLOW_PRIVATE: "1" });
    const run = await runToEnd(served, hookedPipeline("hooked-allowed", "/allowed"));
    expect(run.status).toBe("completed");
    expect(received.filter((entry) => entry.path === "/allowed").map((entry) => entry.event)).toEqual(["workflow_started", "workflow_completed"]);
    expect(run.log.join("\n")).not.toMatch(/webhook #1/);
  });

  it("go to public addresses only without that setting: nothing arrives, the run completes, and its log says why", async () => {
    const served = await serveWith({ SERVICE_WEBHOOK_ALLOW_PRIVATE: "0" });
    const run = await runToEnd(served, hookedPipeline("hooked-refused", "/refused"));
    expect(run.status).toBe("completed");
    expect(received.filter((entry) => entry.path === "/refused")).toEqual([]);
    const log = run.log.join("\n");
    expect(log).toMatch(/webhook #1: workflow_started not sent: the url's host is a loopback address; this run sends webhooks to public addresses only \(--webhook-targets=public; .*its operator sets SERVICE_WEBHOOK_ALLOW_PRIVATE=1\)/);
    expect(log).not.toContain(`127.0.0.1:${port}`);
  });
});
