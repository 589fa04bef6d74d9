/**
 * The AI in the browser app, in Chromium against a real service whose AI provider is a local server speaking
 * the Anthropic Messages protocol: "Describe your analysis" shows each step live (a correction round
 * included), then the draft, which reaches the editor only on "Open in editor" and stays unsaved; cancel
 * stops the model call; a failure's "Try the <name> template" links to it; the scratch editor's "Draft with
 * AI" replaces the text only after a confirmation; the AI settings page shows the chain, saves a user
 * setting (the key never shown) and tests it; a failed run's "Explain with AI" shows the explanation as
 * text with the quoted stderr line and exit code highlighted, the fix and the provider, and can be
 * cancelled; a service without AI explains how to set it up; in team mode a user reaches the settings from
 * the user menu, sets their own provider and sees the shared one read-only. Screenshots and an axe check of the new pages;
 * no console error.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fenced, INVALID_DRAFT, VALID_DRAFT } from "../support/ai-drafts.js";
import { startProtocolServer, type ProtocolServer } from "../support/ai-protocol-servers.js";
import { CHROMIUM_PATH, failWithoutChromiumWhenStrict } from "../support/browser.js";
import { chainPipeline, closeAfterRuns, serviceClient, waitForRun } from "../support/run-client.js";
import { startTestService, type TestService } from "../support/service-harness.js";
import { startTeamService, type TeamService } from "../support/team-service.js";
import { editorText, openWebSession, type WebSession } from "../support/web-session.js";

failWithoutChromiumWhenStrict();

/** A pipeline whose second job complains on stderr and exits 3. */
const FAILING = chainPipeline("explain-me", [
  ["prepare", "echo prepared > {output[0]}"],
  ["align", "echo 'loading index ref.fa' >&2; echo '[E::bwa_idx_load] fail to locate the index files' >&2; exit 3"],
]);

/** A run of `toml`, once it has ended. */
async function failedRun(base: string, toml: string): Promise<string> {
  const id = (await serviceClient(base).POST("/api/runs", { body: { toml_content: toml } })).data!.id;
  await waitForRun(base, id);
  return id;
}

describe.skipIf(CHROMIUM_PATH === undefined)("AI in the browser app", () => {
  let anthropic: ProtocolServer;
  let service: TestService;
  let web: WebSession;

  beforeAll(async () => {
    anthropic = await startProtocolServer("anthropic");
    // Many pages and a test of the settings in a minute: more than the default budget of 100 requests.
    service = await startTestService({ rateLimit: 0, env: { SERVICE_AI_PROVIDER: "anthropic", SERVICE_AI_API_KEY: "k", SERVICE_AI_API_URL: anthropic.baseUrl, SERVICE_AI_MODEL: "claude-test" } });
    web = await openWebSession(service.url);
  }, 60_000);
  afterAll(async () => {
    await web?.close();
    if (service) await closeAfterRuns(service);
    await anthropic?.close();
  });

  const savedPipelines = async () => (await serviceClient(service.url).GET("/api/pipelines")).data ?? [];

  it("describes an analysis: the steps live with a correction round, the draft, and the editor only on 'Open in editor', unsaved", async () => {
    // The corrected draft comes late, so the steps before it are seen while the draft is still on its way.
    anthropic.script({ text: fenced(INVALID_DRAFT) }, { text: fenced(VALID_DRAFT), delayMs: 1500 });
    const page = await web.open("/pipelines");
    await page.getByRole("link", { name: /Describe your analysis/ }).click();
    await page.getByRole("heading", { name: "Describe your analysis" }).waitFor();
    await page.getByLabel("What should the pipeline do?").fill("Align my reads with bwa and sort them with samtools");
    await page.getByLabel(/About the data/).fill("single-end FASTQ, one sample");
    await page.getByRole("button", { name: "Draft", exact: true }).click();

    const steps = page.getByRole("list", { name: "Drafting steps" });
    await steps.getByText("The engine found 1 error — correcting (round 1 of 3)").waitFor();
    // Still drafting: the correction round is on its way and can be cancelled.
    expect(await page.getByRole("button", { name: "Cancel" }).isVisible()).toBe(true);
    expect(await steps.innerText()).toContain("alignn");
    expect(await steps.innerText()).toContain("Writing the pipeline with anthropic");

    const draft = page.getByRole("region", { name: "The draft" });
    await draft.waitFor();
    const stepsText = await steps.innerText();
    expect(stepsText).toContain("Rewriting the pipeline with the engine's errors (round 1 of 3)");
    expect(stepsText).toContain("The engine checked the pipeline: no errors");
    expect(stepsText).toContain("The draft is ready");
    expect(await draft.getByLabel("The draft's TOML (read-only)").innerText()).toContain('name = "align-reads"');
    await draft.locator(".ai-toml .tok-table").first().waitFor(); // highlighted
    const table = draft.getByRole("table", { name: "What each rule does" });
    expect(await table.getByRole("row", { name: /^align bwa/ }).count()).toBe(1);
    expect(await table.getByRole("row", { name: /^sort samtools/ }).count()).toBe(1);
    expect(await draft.innerText()).toContain("written by anthropic · claude-test");
    expect(await draft.innerText()).toContain("valid after 1 correction");
    expect(await draft.getByRole("meter", { name: "Confidence" }).getAttribute("value")).toMatch(/^0\.\d+$/);
    // The model saw what the user said about the data.
    expect(JSON.stringify(anthropic.requests.at(-2)!.body.messages)).toContain("single-end FASTQ, one sample");
    // A proposal: nothing saved, and the editor has not been opened.
    expect(await savedPipelines()).toEqual([]);
    expect(new URL(page.url()).pathname).toBe("/pipelines/new");
    await web.screenshot(page, "ai-describe-draft");
    expect(await web.accessibilityViolations(page)).toEqual([]);

    await draft.getByRole("button", { name: "Open in editor" }).click();
    await page.waitForURL(/\/editor$/);
    await page.getByRole("textbox", { name: "Pipeline TOML" }).waitFor();
    expect(await editorText(page)).toBe(VALID_DRAFT);
    await page.getByText("AI draft · not saved yet").waitFor();
    await page.getByRole("heading", { name: "align-reads" }).waitFor();
    expect(await savedPipelines()).toEqual([]);
    await page.close();
    expect(web.problems).toEqual([]);
  }, 60_000);

  it("cancels a draft: the request and the model call stop", async () => {
    anthropic.script({ text: fenced(VALID_DRAFT), delayMs: 20_000 });
    const index = anthropic.requests.length;
    const page = await web.open("/pipelines/new?from=describe");
    await page.getByLabel("What should the pipeline do?").fill("Something slow to draft");
    await page.getByRole("button", { name: "Draft", exact: true }).click();
    await page.getByText("Writing the pipeline with anthropic").waitFor();
    while (anthropic.requests.length <= index) await new Promise((resolve) => setTimeout(resolve, 20));
    await page.getByRole("button", { name: "Cancel" }).click();
    await page.getByText("Cancelled: nothing was drafted.").waitFor();
    expect((await anthropic.settled(index)).aborted).toBe(true);
    expect(await page.getByRole("button", { name: "Draft again" }).isEnabled()).toBe(true);
    await page.close();
    expect(web.problems).toEqual([]);
  }, 60_000);

  it("shows a failure's code, message and suggestion, the named template as a link to it", async () => {
    anthropic.script(...Array.from({ length: 4 }, () => ({ text: fenced(INVALID_DRAFT) })));
    const page = await web.open("/pipelines/new?from=describe");
    await page.getByLabel("What should the pipeline do?").fill("a hello world pipeline that keeps failing");
    await page.getByRole("button", { name: "Draft", exact: true }).click();
    const alert = page.getByRole("alert");
    await alert.getByText("AI_TRANSLATE_ERROR:").waitFor();
    expect(await alert.innerText()).toContain("alignn");
    const link = alert.getByRole("link", { name: "Try the hello-world template" });
    await link.click();
    await page.waitForURL(/\/pipelines\/new\?template=/);
    expect(await page.getByRole("radio", { name: /Hello/i, checked: true }).count()).toBe(1);
    await page.close();
    expect(web.problems).toEqual([]);
  }, 60_000);

  it("drafts into the scratch editor with 'Draft with AI', replacing its text only after a confirmation", async () => {
    anthropic.script({ text: fenced(VALID_DRAFT) });
    const page = await web.open("/editor");
    await page.getByRole("textbox", { name: "Pipeline TOML" }).waitFor();
    const starter = await editorText(page);
    await page.getByRole("button", { name: "Draft with AI" }).click();
    const dialog = page.getByRole("dialog", { name: "Draft this pipeline with AI" });
    await dialog.getByLabel("What should the pipeline do?").fill("Align reads and sort them, in the editor");
    await dialog.getByRole("button", { name: "Draft", exact: true }).click();
    await dialog.getByRole("region", { name: "The draft" }).waitFor();
    await dialog.getByRole("button", { name: "Replace editor text" }).click();
    const confirm = page.getByRole("dialog", { name: "Replace the editor's text?" });
    await confirm.getByRole("button", { name: "Keep my text" }).click();
    expect(await editorText(page)).toBe(starter);
    await dialog.getByRole("button", { name: "Replace editor text" }).click();
    await confirm.getByRole("button", { name: "Replace editor text" }).click();
    await dialog.waitFor({ state: "hidden" });
    expect(await editorText(page)).toBe(VALID_DRAFT);
    await page.getByText("Not saved yet").waitFor();
    expect(await savedPipelines()).toEqual([]);
    await page.close();
    expect(web.problems).toEqual([]);
  }, 60_000);

  it("the AI settings page shows the chain, saves your own provider (the key never shown) and tests it", async () => {
    const page = await web.open("/pipelines");
    await page.getByRole("link", { name: "AI settings" }).click();
    await page.getByRole("heading", { name: "AI settings", level: 1 }).waitFor();
    const chain = page.getByRole("table", { name: "Providers in the order they are tried" });
    const first = chain.getByRole("row").nth(1);
    expect(await first.innerText()).toContain("anthropic");
    expect(await first.innerText()).toContain("claude-test");
    expect(await first.innerText()).toContain(anthropic.baseUrl);
    expect(await first.innerText()).toContain("the service's environment");

    const own = page.getByRole("form", { name: "Your own provider settings" });
    await own.getByLabel("Provider").selectOption("anthropic");
    await own.getByLabel("Model").fill("claude-mine");
    await own.getByLabel("Base URL").fill(anthropic.baseUrl);
    await own.getByLabel("API key").fill("user-key-123");
    await own.getByRole("button", { name: "Save" }).click();
    await page.getByText("✓ A key is saved (never shown). Leave empty to keep it.").first().waitFor();
    const ownAfter = page.getByRole("form", { name: "Your own provider settings" });
    expect(await ownAfter.getByLabel("API key").inputValue()).toBe("");
    expect(await ownAfter.getByLabel("Model").inputValue()).toBe("claude-mine");
    expect(await page.content()).not.toContain("user-key-123");
    await chain.getByRole("row").nth(1).getByText("your own settings").waitFor();
    expect(await chain.getByRole("row").count()).toBe(3); // heading row, yours, the environment's

    anthropic.script({ text: "OK" });
    await page.getByRole("button", { name: "Test anthropic" }).click();
    const result = page.getByRole("status").filter({ hasText: "It works" });
    await result.waitFor();
    expect(await result.innerText()).toMatch(/anthropic \(claude-mine\) · \d+ ms/);
    expect(await result.innerText()).toContain("Test successful: OK");
    const asked = anthropic.requests.at(-1)!;
    expect(asked.headers["x-api-key"]).toBe("user-key-123");
    expect(asked.body.model).toBe("claude-mine");
    await web.screenshot(page, "ai-settings");
    expect(await web.accessibilityViolations(page)).toEqual([]);

    await ownAfter.getByRole("button", { name: "Remove" }).click();
    const confirm = page.getByRole("dialog", { name: "Remove the your own provider?" });
    await confirm.getByRole("button", { name: "Remove settings" }).click();
    await confirm.waitFor({ state: "hidden" });
    await page.getByRole("form", { name: "Your own provider settings" }).getByText("No key saved.").waitFor();
    expect(await chain.getByRole("row").count()).toBe(2);
    await page.close();
    expect(web.problems).toEqual([]);
  }, 60_000);

  it("explains a failed run with AI: the explanation as text, the quoted stderr line and exit code, the fix and the provider", async () => {
    const runId = await failedRun(service.url, FAILING);
    anthropic.script({
      text: [
        "## What happened",
        "The aligner could not find the index of the reference genome:",
        "> [E::bwa_idx_load] fail to locate the index files",
        "",
        "The job `align` stopped with exit code 3. <b>not bold</b>",
        "",
        "1. Build the index first (`bwa index ref.fa`).",
        "2. Retry the run.",
      ].join("\n"),
    });
    const page = await web.open(`/runs/${runId}`);
    await page.getByRole("heading", { name: "Why did this fail?" }).waitFor();
    const section = page.getByRole("region", { name: "Explanation by AI" });
    await section.getByRole("button", { name: "Explain with AI" }).click();
    await section.getByText("answered by anthropic · claude-test", { exact: false }).waitFor();
    const text = await section.innerText();
    expect(text).toMatch(/What happened\n+The aligner could not find the index of the reference genome:/); // the heading on its own line
    // The model's text is text: its HTML shows as written, and becomes no element.
    expect(text).toContain("<b>not bold</b>");
    expect(await section.locator("b").count()).toBe(0);
    expect(await section.locator("mark").innerText()).toBe("[E::bwa_idx_load] fail to locate the index files");
    const quotes = section.getByRole("list", { name: "Quoted evidence" });
    expect(await quotes.innerText()).toContain("[E::bwa_idx_load] fail to locate the index files");
    expect(await quotes.innerText()).toContain("exit code 3");
    expect(await section.getByRole("heading", { name: "What to try" }).isVisible()).toBe(true);
    // The prompt carried the job's own stderr.
    expect(JSON.stringify(anthropic.requests.at(-1)!.body.messages)).toContain("loading index ref.fa");
    await section.scrollIntoViewIfNeeded();
    await web.screenshot(page, "ai-explain");
    expect(await web.accessibilityViolations(page)).toEqual([]);

    // Asked again, slowly: it can be cancelled, and the model call stops.
    anthropic.script({ text: "late", delayMs: 20_000 });
    const index = anthropic.requests.length;
    await section.getByRole("button", { name: "Explain again" }).click();
    await section.getByRole("status").filter({ hasText: "asking the AI" }).waitFor();
    while (anthropic.requests.length <= index) await new Promise((resolve) => setTimeout(resolve, 20));
    await section.getByRole("button", { name: "Cancel" }).click();
    await section.getByText("Cancelled.").waitFor();
    expect((await anthropic.settled(index)).aborted).toBe(true);
    await page.close();
    expect(web.problems).toEqual([]);
  }, 90_000);
});

describe.skipIf(CHROMIUM_PATH === undefined)("a service without AI", () => {
  let service: TestService;
  let web: WebSession;
  beforeAll(async () => {
    service = await startTestService({ rateLimit: 0, env: {} });
    web = await openWebSession(service.url);
  }, 60_000);
  afterAll(async () => {
    await web?.close();
    if (service) await closeAfterRuns(service);
  });

  it("says on a failed run's page how to set AI up instead of offering an explanation", async () => {
    const runId = await failedRun(service.url, FAILING);
    const page = await web.open(`/runs/${runId}`);
    const section = page.getByRole("region", { name: "Explanation by AI" });
    const help = page.getByRole("note").filter({ hasText: "AI help is not set up yet" });
    await help.waitFor();
    expect(await help.innerText()).toContain("explain failed runs");
    expect(await help.getByRole("link", { name: "AI settings page" }).count()).toBe(1);
    expect(await section.getByRole("button", { name: "Explain with AI" }).count()).toBe(0);
    await page.close();
    expect(web.problems).toEqual([]);
  }, 90_000);

  it("explains in the describe box how to set a provider up, with a link to the settings", async () => {
    const page = await web.open("/pipelines/new?from=describe");
    const help = page.getByRole("note").filter({ hasText: "AI help is not set up yet" });
    await help.waitFor();
    expect(await page.getByLabel("What should the pipeline do?").count()).toBe(0);
    expect(await web.accessibilityViolations(page)).toEqual([]);
    await help.getByRole("link", { name: "AI settings page" }).click();
    await page.getByRole("heading", { name: "AI settings", level: 1 }).waitFor();
    await page.getByText("AI is off:").waitFor();
    expect(await web.accessibilityViolations(page)).toEqual([]);
    await web.screenshot(page, "ai-settings-off");
    await page.close();
    expect(web.problems).toEqual([]);
  }, 60_000);
});

describe.skipIf(CHROMIUM_PATH === undefined)("AI settings in team mode", () => {
  let team: TeamService;
  let web: WebSession;
  beforeAll(async () => {
    team = await startTeamService({ env: { SERVICE_AI_PROVIDER: "anthropic", SERVICE_AI_API_KEY: "k", SERVICE_AI_MODEL: "claude-shared" } });
    web = await openWebSession(team.url);
    await web.context.addCookies([{ name: "session", value: team.tokens.user, url: team.url }]);
  }, 60_000);
  afterAll(async () => {
    await web?.close();
    await team?.close();
  });

  it("a user opens the settings from the user menu, sets their own provider, and sees the shared one read-only", async () => {
    const page = await web.open("/pipelines");
    await page.getByRole("button", { name: /account menu$/ }).click();
    await page.getByRole("navigation", { name: "Account" }).getByRole("link", { name: "AI settings" }).click();
    await page.getByRole("heading", { name: "AI settings", level: 1 }).waitFor();
    await page.getByText("Only administrators change the shared provider.").waitFor();
    expect(await page.getByRole("form", { name: "Shared provider settings" }).count()).toBe(0);
    const own = page.getByRole("form", { name: "Your own provider settings" });
    await own.getByLabel("Provider").selectOption("openai");
    await own.getByLabel("API key").fill("sk-user-own");
    await own.getByRole("button", { name: "Save" }).click();
    const chain = page.getByRole("table", { name: "Providers in the order they are tried" });
    await chain.getByRole("row").nth(1).getByText("your own settings").waitFor();
    expect(await chain.getByRole("row").nth(1).innerText()).toContain("gpt-4o");
    expect(await chain.getByRole("row").nth(2).innerText()).toContain("claude-shared");
    // Where the shared provider is, is the administrators' business.
    expect(await chain.getByRole("row").nth(2).innerText()).toContain("shown to administrators");
    expect(await page.content()).not.toContain("api.anthropic.com");
    expect(await page.content()).not.toContain("sk-user-own");
    expect(await web.accessibilityViolations(page)).toEqual([]);
    await page.close();
    expect(web.problems).toEqual([]);
  }, 60_000);
});
