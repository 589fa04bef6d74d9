/**
 * The copilot panel beside the editor, in Chromium against a real service whose AI provider is a local
 * server speaking the Anthropic Messages protocol: a question's answer streams in with the tool the model
 * used; a proposed pipeline shows as a card with the engine's verdict and reaches the editor only on
 * "Apply to editor" (unsaved, undoable); a second message carries the session's history to the model; a past
 * session reopens from History and is deleted after a confirmation; a service without AI shows the notice
 * with the way to the settings. Screenshots and axe; no console error.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startProtocolServer, type ProtocolServer } from "../support/ai-protocol-servers.js";
import { CHROMIUM_PATH, failWithoutChromiumWhenStrict } from "../support/browser.js";
import { serviceClient } from "../support/run-client.js";
import { startTestService, type TestService } from "../support/service-harness.js";
import { editorText, openWebSession, type WebSession } from "../support/web-session.js";

failWithoutChromiumWhenStrict();

/** A pipeline the engine accepts. */
const VALID_DRAFT = `[workflow]
name = "align-reads"
version = "0.1.0"

[[rules]]
name = "align"
input = ["reads.fq"]
output = ["aligned.sam"]
shell = "bwa mem ref.fa {input[0]} > {output[0]}"
description = "Align the reads"
`;

const ANSWER = "For short reads use bwa mem: it is fast and accurate for reads of 70 bp to 1 Mbp.";


describe.skipIf(CHROMIUM_PATH === undefined)("the copilot beside the editor", () => {
  let anthropic: ProtocolServer;
  let service: TestService;
  let web: WebSession;

  beforeAll(async () => {
    anthropic = await startProtocolServer("anthropic");
    service = await startTestService({ rateLimit: 0, env: { SERVICE_AI_PROVIDER: "anthropic", SERVICE_AI_API_KEY: "k", SERVICE_AI_API_URL: anthropic.baseUrl, SERVICE_AI_MODEL: "claude-test" } });
    web = await openWebSession(service.url);
  }, 60_000);
  afterAll(async () => {
    await web?.close();
    await service?.close();
    await anthropic?.close();
  });

  it("streams an answer with its tool call, then applies a proposed pipeline to the editor only on the click, unsaved and undoable", async () => {
    anthropic.script({ toolCalls: [{ name: "lookup_package", args: { query: "bwa" } }] }, { text: ANSWER, chunkDelayMs: 120 });
    const page = await web.open("/editor");
    await page.getByRole("textbox", { name: "Pipeline TOML" }).waitFor();
    const starter = await editorText(page);
    const toggle = page.getByRole("button", { name: "Copilot" });
    expect(await toggle.getAttribute("aria-expanded")).toBe("false");
    await toggle.click();
    const panel = page.getByRole("complementary", { name: "Copilot" });
    const composer = panel.getByLabel("Message the copilot");
    await composer.waitFor();
    // Opening puts the focus in the composer.
    expect(await page.evaluate("document.activeElement?.id")).toBe("copilot-message");
    await composer.fill("Which aligner should I use?");
    await composer.press("Enter");

    const conversation = panel.getByRole("list", { name: "Conversation" });
    await conversation.getByText("Which aligner should I use?").waitFor();
    await panel.getByRole("list", { name: "Tools the copilot used" }).getByText("looked up package bwa").waitFor();
    // Streaming: the first words are there while the reply is still being written (Stop offered, composer off).
    await conversation.getByText(/For short reads/).waitFor();
    expect(await panel.getByRole("button", { name: "Stop" }).isVisible()).toBe(true);
    expect(await composer.isDisabled()).toBe(true);
    expect(await conversation.innerText()).not.toContain("1 Mbp");
    await web.screenshot(page, "copilot-streaming");
    await conversation.getByText(ANSWER).waitFor();
    await panel.getByRole("button", { name: "Stop" }).waitFor({ state: "detached" });
    expect(await composer.isEnabled()).toBe(true);
    // The copilot saw the editor's text.
    const firstAsk = anthropic.requests.at(-2)!;
    expect(JSON.stringify(firstAsk.body.messages)).toContain("count_reads");

    // Second message of the same session: a pipeline.
    anthropic.script({ text: `Here is a pipeline that aligns the reads.\n\n\`\`\`toml\n${VALID_DRAFT}\`\`\`\n` });
    const index = anthropic.requests.length;
    await composer.fill("Write the alignment pipeline");
    await composer.press("Enter");
    const card = panel.getByRole("region", { name: "Proposed pipeline" });
    await card.waitFor();
    await card.getByText("✓ The engine accepts it").waitFor();
    // The request carried the session's earlier exchange.
    const history = JSON.stringify(anthropic.requests[index]!.body.messages);
    expect(history).toContain("Which aligner should I use?");
    expect(history).toContain("bwa mem: it is fast");
    // The code block is shown as code, not injected as HTML.
    expect(await conversation.locator("pre.copilot-code").last().innerText()).toContain('name = "align-reads"');
    await card.getByLabel(/changes against the editor marked/).waitFor();
    await card.getByRole("button", { name: "Whole TOML" }).click();
    expect(await card.getByLabel("The proposed pipeline's TOML (read-only)").innerText()).toContain('name = "align-reads"');
    // Nothing reached the editor, nothing was saved.
    expect(await editorText(page)).toBe(starter);
    expect((await serviceClient(service.url).GET("/api/pipelines")).data ?? []).toEqual([]);
    await web.screenshot(page, "copilot-proposal");
    expect(await web.accessibilityViolations(page)).toEqual([]);

    await card.getByRole("button", { name: "Apply to editor" }).click();
    expect(await editorText(page)).toBe(VALID_DRAFT);
    await page.getByText("Not saved yet").waitFor();
    expect((await serviceClient(service.url).GET("/api/pipelines")).data ?? []).toEqual([]);
    // An edit in the editor's history: Ctrl+Z takes it back.
    await page.getByRole("textbox", { name: "Pipeline TOML" }).click();
    await page.keyboard.press("Control+z");
    expect(await editorText(page)).toBe(starter);
    await page.keyboard.press("Control+Shift+z");
    expect(await editorText(page)).toBe(VALID_DRAFT);

    // Closing hands the focus back to the toggle.
    await panel.getByRole("button", { name: "Close the copilot" }).click();
    await panel.waitFor({ state: "detached" });
    // The focus moves in the next animation frame, once the panel is gone.
    await page.waitForFunction("document.activeElement?.getAttribute('aria-controls') === 'copilot-panel'", undefined, { timeout: 5_000 });
    await page.close();
    expect(web.problems).toEqual([]);
  }, 90_000);

  it("reopens a past session from History, starts a new chat, and deletes a session after a confirmation", async () => {
    const page = await web.open("/editor?copilot=1");
    const panel = page.getByRole("complementary", { name: "Copilot" });
    await panel.getByRole("button", { name: "History" }).click();
    const past = panel.getByRole("region", { name: "Past conversations" });
    await past.getByRole("button", { name: /^Which aligner should I use\?/ }).click();
    const conversation = panel.getByRole("list", { name: "Conversation" });
    await conversation.getByText(ANSWER).waitFor();
    await conversation.getByText("Write the alignment pipeline").waitFor();
    await panel.getByRole("list", { name: "Tools the copilot used" }).getByText("looked up package bwa").waitFor();
    await panel.getByRole("region", { name: "Proposed pipeline" }).waitFor();

    // Continuing the reopened session sends its id.
    anthropic.script({ text: "Yes, add samtools sort after it." });
    const index = anthropic.requests.length;
    await panel.getByLabel("Message the copilot").fill("Should I sort the output?");
    await panel.getByLabel("Message the copilot").press("Enter");
    await conversation.getByText("Yes, add samtools sort after it.").waitFor();
    expect(JSON.stringify(anthropic.requests[index]!.body.messages)).toContain("Write the alignment pipeline");

    await panel.getByRole("button", { name: "New chat" }).click();
    expect(await conversation.getByText(ANSWER).count()).toBe(0);
    await panel.getByRole("button", { name: "History" }).click();
    await past.getByRole("button", { name: /Delete “Which aligner/ }).click();
    const dialog = page.getByRole("dialog", { name: "Delete this conversation?" });
    await dialog.waitFor();
    await web.screenshot(page, "copilot-history-delete");
    await dialog.getByRole("button", { name: "Delete" }).click();
    await dialog.waitFor({ state: "hidden" });
    await past.getByText("No conversations yet").waitFor();
    expect((await serviceClient(service.url).GET("/api/chat/sessions")).data?.items).toEqual([]);
    await page.close();
    expect(web.problems).toEqual([]);
  }, 60_000);

  it("stops a reply: the request and the model call end, what was said stays", async () => {
    anthropic.script({ text: "Let me think about this one carefully, step by step, before answering.", chunkDelayMs: 400 });
    const index = anthropic.requests.length;
    const page = await web.open("/editor?copilot=1");
    const panel = page.getByRole("complementary", { name: "Copilot" });
    await panel.getByLabel("Message the copilot").fill("A slow question");
    await panel.getByLabel("Message the copilot").press("Enter");
    await panel.getByText(/Let me think/).waitFor();
    await panel.getByRole("button", { name: "Stop" }).click();
    await panel.getByText("Stopped: the reply above is as far as it got.").waitFor();
    expect(await panel.getByText(/Let me think/).count()).toBe(1);
    expect((await anthropic.settled(index)).aborted).toBe(true);
    expect(await panel.getByLabel("Message the copilot").isEnabled()).toBe(true);
    await page.close();
    expect(web.problems).toEqual([]);
  }, 60_000);
});

describe.skipIf(CHROMIUM_PATH === undefined)("the copilot on a service without AI", () => {
  let service: TestService;
  let web: WebSession;
  beforeAll(async () => {
    service = await startTestService({ rateLimit: 0, env: {} });
    web = await openWebSession(service.url);
  }, 60_000);
  afterAll(async () => {
    await web?.close();
    await service?.close();
  });

  it("shows the notice with the link to the AI settings", async () => {
    const page = await web.open("/editor");
    await page.getByRole("button", { name: "Copilot" }).click();
    const panel = page.getByRole("complementary", { name: "Copilot" });
    const help = panel.getByRole("note").filter({ hasText: "AI help is not set up yet" });
    await help.waitFor();
    expect(await panel.getByLabel("Message the copilot").isVisible()).toBe(false);
    await web.screenshot(page, "copilot-not-configured");
    expect(await web.accessibilityViolations(page)).toEqual([]);
    await help.getByRole("link", { name: "AI settings page" }).click();
    await page.getByRole("heading", { name: "AI settings", level: 1 }).waitFor();
    await page.close();
    expect(web.problems).toEqual([]);
  }, 60_000);
});
