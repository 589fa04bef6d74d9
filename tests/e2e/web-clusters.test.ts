/**
 * Remote clusters in the browser app, in Chromium against a real service and a real sshd on loopback: an
 * administrator adds a cluster on the Clusters page, probes it (no trust on first use: the key the login
 * node shows waits for confirmation), confirms the host key, probes it again; then a run of a saved pipeline
 * is started on the cluster from the start-run form and its page shows where it runs and follows it live to
 * completion with its results back. Screenshots: clusters, cluster-run-start, cluster-run.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM_PATH, failWithoutChromiumWhenStrict } from "../support/browser.js";
import { closeAfterRuns, serviceClient } from "../support/run-client.js";
import { startTestService, type TestService } from "../support/service-harness.js";
import { requireSshdUnderStrict, SSHD_AVAILABLE, startSshd, type SshdServer } from "../support/sshd-server.js";
import { openWebSession, type WebSession } from "../support/web-session.js";

failWithoutChromiumWhenStrict();
requireSshdUnderStrict();

const PIPELINE = `[workflow]
name = "web-cluster-demo"

[[sample_groups]]
name = "cohort"
samples = ["S1", "S2"]

[[rules]]
name = "greet"
output = ["greet/{sample}.txt"]
shell = "sleep 1; echo 'hello {sample} from' $(hostname) > {output[0]}"

[[rules]]
name = "summary"
expand_inputs = [{ pattern = "greet/{sample}.txt", variables = { sample = "config.samples_list" } }]
output = ["summary.txt"]
shell = "cat {input} > {output[0]}"
target = true
`;

describe.skipIf(CHROMIUM_PATH === undefined || !SSHD_AVAILABLE)("remote clusters in the browser app", () => {
  let service: TestService;
  let web: WebSession;
  let sshd: SshdServer;
  let remoteDir: string;
  let pipelineId = "";

  beforeAll(async () => {
    sshd = await startSshd();
    remoteDir = mkdtempSync(join(tmpdir(), "strand-web-cluster-"));
    service = await startTestService({ rateLimit: 0, secretKey: "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef", runner: { remote: { pollMs: 200, backoffMs: 200, maxBackoffMs: 1000 } } });
    web = await openWebSession(service.url);
    pipelineId = (await serviceClient(service.url).POST("/api/pipelines", { body: { name: "web-cluster-demo", toml_content: PIPELINE } })).data!.id;
  }, 60_000);
  afterAll(async () => {
    await web?.close();
    if (service) await closeAfterRuns(service);
    await sshd?.close();
    if (remoteDir) rmSync(remoteDir, { recursive: true, force: true });
  });

  it("adds a cluster, confirms its host key after a probe, and probes it", async () => {
    const page = await web.open("/clusters");
    await page.getByRole("heading", { name: "Clusters", level: 1 }).waitFor();
    await page.getByText("No clusters yet").waitFor();
    await page.getByText("Add a cluster").click();
    await page.getByLabel("Id", { exact: true }).fill("loopback");
    await page.getByLabel("Name", { exact: true }).fill("Loopback cluster");
    await page.getByLabel("Login node", { exact: true }).fill(sshd.host);
    await page.getByLabel("Port", { exact: true }).fill(String(sshd.port));
    await page.getByLabel("Account", { exact: true }).fill(sshd.user);
    await page.getByLabel("Remote folder", { exact: true }).fill(remoteDir);
    await page.getByLabel("Private key", { exact: true }).fill(sshd.clientKey);
    await page.getByLabel("Scheduler").selectOption("none");
    await page.getByRole("button", { name: "Add cluster" }).click();
    await page.getByRole("status").getByText("Saved Loopback cluster.").waitFor();
    const card = page.getByRole("article", { name: "Loopback cluster" });
    await card.getByText("No host key yet").waitFor();
    // The key never comes back to the page.
    expect(await page.content()).not.toContain("PRIVATE KEY-----\n");
    await card.getByRole("button", { name: "Probe Loopback cluster" }).click();
    await card.getByText("The probe did not get through").waitFor();
    await card.getByText(`The login node showed ${sshd.hostKeySha256}`).waitFor();
    await card.getByRole("button", { name: `Confirm host key ${sshd.hostKeySha256}` }).click();
    await card.getByText(`Host key pinned: ${sshd.hostKeySha256}`).waitFor();
    await card.getByRole("button", { name: "Probe Loopback cluster" }).click();
    await card.getByText(`Reached ${hostname()}`).waitFor();
    await card.getByText(/Engine: .*(strand|Node\.js)/).waitFor();
    await web.screenshot(page, "clusters");
    expect(await web.accessibilityViolations(page)).toEqual([]);
    await page.close();
  }, 60_000);

  it("starts a run on the cluster from the form and follows it there to completion, results back", async () => {
    const page = await web.open(`/pipelines/${pipelineId}/run`);
    await page.getByRole("heading", { name: "Start a run" }).waitFor();
    await page.getByLabel("Target").selectOption({ label: "Cluster: Loopback cluster" });
    await page.getByText("goes to Loopback cluster").waitFor();
    await web.screenshot(page, "cluster-run-start");
    expect(await web.accessibilityViolations(page)).toEqual([]);
    await page.getByRole("button", { name: "Start run" }).click();
    await page.waitForURL(/\/runs\/[0-9a-f-]{36}$/);
    await page.getByRole("heading", { name: /web-cluster-demo/ }).waitFor();
    const facts = page.locator(".run-facts");
    await facts.getByText("Runs on").waitFor();
    await facts.getByRole("link", { name: "loopback" }).waitFor();
    await page.locator(".run-header h1 .badge", { hasText: "completed" }).waitFor({ timeout: 60_000 });
    await facts.getByText("results brought back").waitFor({ timeout: 20_000 });
    await page.getByText("3 of 3 completed").waitFor();
    // The results came back: listed and readable here.
    await page.getByRole("heading", { name: "Results" }).scrollIntoViewIfNeeded();
    const results = page.locator("section", { has: page.getByRole("heading", { name: "Results" }) });
    await results.getByText("summary.txt").waitFor();
    await web.screenshot(page, "cluster-run");
    expect(await web.accessibilityViolations(page)).toEqual([]);
    expect(web.problems).toEqual([]);
    await page.close();
  }, 120_000);

  it("lets an administrator run the cluster's engines as scheduler jobs, with their submit options", async () => {
    const page = await web.open("/clusters");
    const card = page.getByRole("article", { name: "Loopback cluster" });
    await card.getByText("runs on the login node").waitFor();
    await card.getByRole("button", { name: "Edit Loopback cluster" }).click();
    // Without a scheduler there is no job to run the engine in.
    expect(await page.getByRole("option", { name: "Submitted as a batch job" }).isDisabled()).toBe(true);
    await page.getByLabel("Scheduler").selectOption("slurm");
    await page.getByLabel(/^Engine(?! job's)/).selectOption("job");
    await page.getByLabel("Engine job's submit options").fill("--time=2-00:00:00  --mem=4G");
    await web.screenshot(page, "clusters-engine-job");
    await page.getByRole("button", { name: "Save changes" }).click();
    await page.getByRole("status").getByText("Saved Loopback cluster.").waitFor();
    await card.getByText("runs as a batch job").waitFor();
    await card.getByText("(--time=2-00:00:00 --mem=4G)").waitFor();
    const saved = (await serviceClient(service.url).GET("/api/clusters")).data ?? [];
    expect(saved.find((cluster) => cluster.id === "loopback")).toMatchObject({ engine_placement: "job", engine_job_options: ["--time=2-00:00:00", "--mem=4G"] });
    expect(await web.accessibilityViolations(page)).toEqual([]);
    expect(web.problems).toEqual([]);
    await page.close();
  }, 60_000);
});

