/**
 * The pipeline pages in a real browser against a real service: a first-time user starts from a template
 * or from scratch and lands in the editor; the list searches (names and, through the service, pipeline
 * text), filters and sorts; fork; share (copy the link, open it in a fresh browser, import a copy, revoke
 * it and see it stop working); import from a link with the service's error; revisions side by side with
 * rollback; delete after a confirmation naming the pipeline. Every page passes axe with no console error.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServiceClient } from "../../src/client/service-client.js";
import { CHROMIUM_PATH, failWithoutChromiumWhenStrict } from "../support/browser.js";
import { serviceClient } from "../support/run-client.js";
import { startTestService, type TestService } from "../support/service-harness.js";
import { startTeamService, trivialPipeline, type SignedIn, type TeamService } from "../support/team-service.js";
import { openWebSession, type WebSession } from "../support/web-session.js";

failWithoutChromiumWhenStrict();

const PIPELINE = (name: string, greeting = "hi") => `[workflow]\nname = "${name}"\ndescription = "says ${greeting}"\n\n[[rules]]\nname = "hi"\noutput = ["hi.txt"]\nshell = "echo ${greeting} > {output}"\n`;
const EDITOR_PATH = /\/pipelines\/[0-9a-f-]{36}$/;

describe.skipIf(CHROMIUM_PATH === undefined)("the pipeline pages in Chromium", () => {
  let service: TestService;
  let web: WebSession;
  let client: ServiceClient;

  const save = async (name: string, options: { tags?: string[]; visibility?: "private" | "workspace" | "link"; toml?: string } = {}) => {
    const answer = await client.POST("/api/pipelines", { body: { name, toml_content: options.toml ?? PIPELINE(name), tags: options.tags, visibility: options.visibility } });
    return answer.data!;
  };
  const idOf = (page: Page) => new URL(page.url()).pathname.split("/").pop()!;
  const expectAccessible = async (page: Page) => {
    await page.waitForLoadState("networkidle");
    expect(await web.accessibilityViolations(page)).toEqual([]);
  };

  beforeAll(async () => {
    service = await startTestService();
    web = await openWebSession(service.url);
    client = serviceClient(service.url);
  }, 60_000);
  afterAll(async () => {
    await web?.close();
    await service?.close();
  });

  it("greets a first-time user with ways to start, and creates a pipeline from a template into the editor", async () => {
    const page = await web.open("/pipelines");
    await page.getByRole("heading", { name: "No pipelines yet" }).waitFor();
    await web.screenshot(page, "pipelines-empty");
    await expectAccessible(page);
    await page.getByRole("link", { name: /Start from a template/ }).click();
    await page.getByRole("heading", { name: "New pipeline" }).waitFor();
    const templates = (await client.GET("/api/templates")).data!;
    const fanout = templates.find((template) => template.slug === "sample-fanout")!;
    await page.getByRole("radio", { name: new RegExp(fanout.title) }).check();
    await page.getByLabel("TOML preview").waitFor();
    const name = page.getByLabel("Name", { exact: true });
    expect(await name.inputValue()).toBe(fanout.name);
    await name.fill("my-fanout");
    expect(await page.getByLabel("TOML preview").innerText()).toContain('name = "my-fanout"');
    await web.screenshot(page, "pipeline-new");
    await expectAccessible(page);
    await page.getByRole("button", { name: "Create and open in the editor" }).click();
    await page.waitForURL(EDITOR_PATH);
    const saved = (await client.GET("/api/pipelines/{id}", { params: { path: { id: idOf(page) } } })).data!;
    expect(saved.name).toBe("my-fanout");
    expect(saved.toml_content).toBe(fanout.toml_content.replace(`name = "${fanout.name}"`, 'name = "my-fanout"'));
    await page.close();
  });

  it("creates a valid pipeline from scratch, asking for a name first", async () => {
    const page = await web.open("/pipelines/new");
    await page.getByText("From scratch").click();
    expect(await page.getByLabel("TOML preview").innerText()).toContain("[[rules]]");
    await page.getByLabel("Name", { exact: true }).fill("  ");
    await page.getByRole("button", { name: "Create and open in the editor" }).click();
    await page.getByText("Give the pipeline a name.").waitFor();
    expect(await page.getByLabel("Name", { exact: true }).getAttribute("aria-invalid")).toBe("true");
    await page.getByLabel("Name", { exact: true }).fill("from-scratch");
    await page.getByRole("button", { name: "Create and open in the editor" }).click();
    await page.waitForURL(EDITOR_PATH);
    const saved = (await client.GET("/api/pipelines/{id}", { params: { path: { id: idOf(page) } } })).data!;
    expect(saved.name).toBe("from-scratch");
    const check = (await client.POST("/api/pipelines/validate", { body: { toml_content: saved.toml_content } })).data!;
    expect(check.valid).toBe(true);
    await page.close();
  });

  it("searches names and pipeline text, filters by visibility and tag, and sorts", async () => {
    await save("alpha-rnaseq", { tags: ["rna-seq"], visibility: "workspace" });
    await save("beta-variants", { tags: ["dna"], toml: PIPELINE("beta-variants").replace("echo hi", "echo bwa_mem_marker") });
    const page = await web.open("/pipelines");
    await page.getByRole("link", { name: "alpha-rnaseq", exact: true }).waitFor();
    const search = page.getByRole("searchbox", { name: "Filter pipelines" });
    await search.fill("rnaseq");
    await page.getByText(/^1 of \d+ pipelines match$/).waitFor();
    await expect.poll(() => page.getByRole("link", { name: "beta-variants", exact: true }).count()).toBe(0);
    // A word only in the pipeline's text: found by the service's search.
    await search.fill("bwa_mem_marker");
    await page.getByRole("link", { name: "beta-variants", exact: true }).waitFor();
    await page.getByText("Found in the text").waitFor();
    await expect.poll(() => page.getByRole("link", { name: "alpha-rnaseq", exact: true }).count()).toBe(0);
    await page.getByRole("button", { name: "Clear" }).click();
    await page.getByRole("combobox", { name: "Visibility" }).selectOption("workspace");
    await page.getByText(/^1 of \d+ pipelines match$/).waitFor();
    await page.getByRole("link", { name: "alpha-rnaseq", exact: true }).waitFor();
    await page.getByRole("combobox", { name: "Visibility" }).selectOption("");
    await page.getByRole("combobox", { name: "Tag" }).selectOption("dna");
    await page.getByRole("link", { name: "beta-variants", exact: true }).waitFor();
    await expect.poll(() => page.getByRole("link", { name: "alpha-rnaseq", exact: true }).count()).toBe(0);
    await page.getByRole("combobox", { name: "Tag" }).selectOption("");
    await page.getByRole("combobox", { name: "Sort" }).selectOption("name");
    const names = await page.locator(".pl-name").allInnerTexts();
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
    // Each name opens the editor.
    await page.getByRole("link", { name: "alpha-rnaseq", exact: true }).click();
    await page.waitForURL(EDITOR_PATH);
    await page.goBack();
    await page.getByRole("link", { name: "beta-variants", exact: true }).waitFor();
    await web.screenshot(page, "pipelines");
    await expectAccessible(page);
    await page.close();
  });

  it("forks a pipeline and opens the copy", async () => {
    const original = await save("fork-me");
    const page = await web.open(`/pipelines/${original.id}/revisions`);
    await page.getByRole("button", { name: "Fork", exact: true }).click();
    await page.waitForURL((url) => EDITOR_PATH.test(url.pathname) && !url.pathname.endsWith(original.id));
    const copy = (await client.GET("/api/pipelines/{id}", { params: { path: { id: idOf(page) } } })).data!;
    expect(copy.forked_from).toBe(original.id);
    expect(copy.name).toBe("fork-me (fork)");
    expect(copy.toml_content).toBe(original.toml_content);
    await page.close();
  });

  it("shares a link that a fresh browser opens and imports, then revokes it so the link stops working", async () => {
    const shared = await save("share-me", { tags: ["demo"] });
    await web.context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: service.url });
    const page = await web.open(`/pipelines/${shared.id}/sharing`);
    await page.getByRole("heading", { name: /^Share.*share-me/ }).waitFor();
    await page.getByText("No share links yet").waitFor();
    await page.getByRole("button", { name: "Create share link" }).click();
    const field = page.getByRole("textbox", { name: "Share link", exact: true });
    await field.waitFor();
    await page.getByRole("button", { name: "Copy share link" }).click();
    await page.getByText("✓ Copied").waitFor();
    const link = (await page.evaluate("navigator.clipboard.readText()")) as string;
    expect(link).toBe(await field.inputValue());
    expect(link).toMatch(new RegExp(`^${service.url}/share/[A-Za-z0-9_-]+$`));
    expect(await page.getByRole("textbox", { name: "Import link" }).inputValue()).toMatch(/^strand\+https:\/\/127\.0\.0\.1:\d+\/share\//);
    await page.locator("tbody tr").filter({ hasText: "active" }).waitFor();
    await web.screenshot(page, "pipeline-sharing");
    await expectAccessible(page);

    // Someone else's browser: no cookies, no history.
    const stranger = await web.browser.newContext();
    const strangerProblems: string[] = [];
    const visit = await stranger.newPage();
    visit.on("console", (message) => message.type() === "error" && strangerProblems.push(message.text()));
    visit.on("pageerror", (error) => strangerProblems.push(error.message));
    await visit.goto(link);
    await visit.getByRole("heading", { name: "share-me" }).waitFor();
    expect((await visit.getByLabel("TOML of share-me").innerText()).trim()).toBe(shared.toml_content.trim());
    await expectAccessible(visit);
    await web.screenshot(visit, "pipeline-shared");
    await visit.getByRole("button", { name: "Import a copy" }).click();
    await visit.waitForURL(EDITOR_PATH);
    const copy = (await client.GET("/api/pipelines/{id}", { params: { path: { id: idOf(visit) } } })).data!;
    expect(copy.id).not.toBe(shared.id);
    expect(copy.toml_content).toBe(shared.toml_content);

    await page.getByRole("button", { name: /^Revoke link/ }).click();
    const dialog = page.getByRole("dialog", { name: "Revoke this share link?" });
    await dialog.waitFor();
    expect(await dialog.innerText()).toContain("share-me");
    await dialog.getByRole("button", { name: "Revoke link" }).click();
    await page.locator("tbody tr").filter({ hasText: "revoked" }).waitFor();
    expect(await dialog.isVisible()).toBe(false);
    expect(await page.evaluate("document.activeElement?.id")).toBe("main");

    await visit.goto(link);
    await visit.getByRole("heading", { name: "This share link no longer works" }).waitFor();
    await stranger.close();
    // The one error the stranger's browser logs is the service's 410 for the revoked link.
    expect(strangerProblems).toEqual([expect.stringContaining("410")]);
    await page.close();
  });

  it("imports from a link, showing the service's error and suggestion for one it refuses", async () => {
    const source = await save("import-source");
    const share = (await client.POST("/api/pipelines/{id}/share", { params: { path: { id: source.id } }, body: {} })).data!;
    const page = await web.open("/pipelines/import");
    const field = page.getByLabel("Link");
    await field.fill("https://example.org/pipeline.toml");
    await page.getByRole("button", { name: "Import", exact: true }).click();
    const alert = page.getByRole("alert");
    await alert.waitFor();
    await web.screenshot(page, "pipeline-import");
    expect(await alert.innerText()).toMatch(/INVALID_URL: a plain https:\/\/ URL is not an import URL[\s\S]*toml\+https:\/\//);
    await expectAccessible(page);
    // A plain address is offered in its toml+https:// form.
    await page.getByRole("button", { name: "Use that" }).click();
    expect(await field.inputValue()).toBe("toml+https://example.org/pipeline.toml");
    // This app's share page address, as copied from the address bar, is taken in its import form.
    await field.fill(`${service.url}/share/${share.token}`);
    await page.getByText("it will be imported as strand+https://").waitFor();
    await page.getByLabel(/^Name/).fill("imported-copy");
    await page.getByRole("button", { name: "Import", exact: true }).click();
    await page.waitForURL(EDITOR_PATH);
    const imported = (await client.GET("/api/pipelines/{id}", { params: { path: { id: idOf(page) } } })).data!;
    expect(imported.name).toBe("imported-copy");
    expect(imported.toml_content).toBe(source.toml_content);
    await page.close();
  });

  it("shows two revisions side by side with the changed line, and rolls back to the first", async () => {
    const pipeline = await save("revised");
    await client.PUT("/api/pipelines/{id}", { params: { path: { id: pipeline.id } }, body: { toml_content: PIPELINE("revised", "bonjour") } });
    const page = await web.open(`/pipelines/${pipeline.id}/revisions`);
    await page.getByRole("heading", { name: "Changes from revision 1 to revision 2" }).waitFor();
    expect(await page.locator(".pl-revisions tbody tr").count()).toBe(2);
    expect(await page.getByRole("radio", { name: "Revision 1 as the old side" }).isChecked()).toBe(true);
    expect(await page.getByRole("radio", { name: "Revision 2 as the new side" }).isChecked()).toBe(true);
    const changes = page.getByRole("list", { name: "Semantic changes" });
    await changes.waitFor();
    expect(await changes.innerText()).toMatch(/changed/i);
    await page.locator(".cm-mergeView").waitFor();
    expect(await page.getByRole("textbox", { name: "Revision 1" }).innerText()).toContain("echo hi > {output}");
    expect(await page.getByRole("textbox", { name: "Revision 2" }).innerText()).toContain("echo bonjour > {output}");
    expect(await page.locator(".cm-changedLine").filter({ hasText: "bonjour" }).count()).toBeGreaterThan(0);
    await web.screenshot(page, "pipeline-revisions");
    await expectAccessible(page);
    // The diff's colours come from the theme: the dark one keeps its contrast too.
    await page.evaluate(`localStorage.setItem("strand-theme", "dark")`);
    await page.reload();
    await page.locator(".cm-mergeView").waitFor();
    await expectAccessible(page);
    await web.screenshot(page, "pipeline-revisions-dark");
    await page.evaluate(`localStorage.setItem("strand-theme", "light")`);

    await page.getByRole("button", { name: "Restore revision 1" }).click();
    const dialog = page.getByRole("dialog", { name: "Restore revision 1?" });
    await dialog.getByRole("button", { name: "Restore" }).click();
    await page.locator(".pl-revisions tbody tr").nth(2).waitFor();
    await page.getByRole("heading", { name: "Changes from revision 2 to revision 3" }).waitFor();
    const restored = (await client.GET("/api/pipelines/{id}", { params: { path: { id: pipeline.id } } })).data!;
    expect(restored.toml_content).toBe(pipeline.toml_content);
    expect(restored.revision).toBe(3);
    await page.close();
  });

  it("deletes a pipeline only after a confirmation that names it", async () => {
    const doomed = await save("delete-me");
    const page = await web.open(`/pipelines/${doomed.id}/revisions`);
    await page.getByRole("button", { name: "Delete", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: "Delete delete-me?" });
    await dialog.waitFor();
    // The safe choice has the focus; Escape leaves everything as it was.
    expect(await page.evaluate("document.activeElement?.textContent")).toBe("Cancel");
    await page.keyboard.press("Escape");
    expect(await dialog.isVisible()).toBe(false);
    expect((await client.GET("/api/pipelines/{id}", { params: { path: { id: doomed.id } } })).response.status).toBe(200);
    await page.getByRole("button", { name: "Delete", exact: true }).click();
    await dialog.getByRole("button", { name: "Delete pipeline" }).click();
    await page.waitForURL((url) => url.pathname === "/pipelines");
    await page.getByRole("link", { name: "alpha-rnaseq", exact: true }).waitFor();
    await expect.poll(() => page.getByRole("link", { name: "delete-me", exact: true }).count()).toBe(0);
    expect((await client.GET("/api/pipelines/{id}", { params: { path: { id: doomed.id } } })).response.status).toBe(404);
    await page.close();
  });

  it("raised no console error on any page but the refused import's 400", () => {
    expect(web.problems).toEqual(["/pipelines/import: Failed to load resource: the server responded with a status of 400 (Bad Request)"]);
  });
});

describe.skipIf(CHROMIUM_PATH === undefined)("the pipeline actions by role in team mode", () => {
  let team: TeamService;
  let pipelineId: string;

  beforeAll(async () => {
    team = await startTeamService();
    const saved = await team.call("user", "POST", "/api/pipelines", { body: { name: "team-shared", toml_content: trivialPipeline("team-shared"), visibility: "workspace" } });
    pipelineId = saved.body.id as string;
  }, 60_000);
  afterAll(async () => {
    await team?.close();
  });

  /** The action bar as `who` sees it on the pipeline's revisions page: its buttons and links, and the reason shown. */
  const actionsAs = async (who: SignedIn) => {
    const web = await openWebSession(team.url);
    await web.context.addCookies([{ name: "session", value: team.tokens[who], url: team.url }]);
    const page = await web.open(`/pipelines/${pipelineId}/revisions`);
    const bar = page.getByRole("group", { name: "Pipeline actions" });
    await bar.getByRole("button", { name: "Download TOML" }).waitFor();
    await page.waitForLoadState("networkidle");
    const names = await bar.locator(":scope > a, :scope > button").allInnerTexts();
    const reason = (await bar.locator(".pl-actions-reason").count()) > 0 ? await bar.locator(".pl-actions-reason").innerText() : null;
    expect(await web.accessibilityViolations(page)).toEqual([]);
    expect(web.problems).toEqual([]);
    await web.close();
    return { names: names.map((name) => name.trim()), reason };
  };

  it("offers the owner everything, another user run and fork with the reason, and a viewer only reading", async () => {
    expect(await actionsAs("user")).toEqual({ names: ["▶ Run", "Fork", "Share", "Download TOML", "Delete"], reason: null });
    const other = await actionsAs("other");
    expect(other.names).toEqual(["▶ Run", "Fork", "Download TOML"]);
    expect(other.reason).toMatch(/belongs to someone else: fork it/);
    const viewer = await actionsAs("viewer");
    expect(viewer.names).toEqual(["Download TOML"]);
    expect(viewer.reason).toMatch(/Viewers can read and download/);
  }, 90_000);
});
