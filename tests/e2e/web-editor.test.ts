/**
 * The pipeline editor in Chromium against a real service: live validation and lint markers at their line and
 * column with a problems panel, a quick fix, a parse error and the last good graph, format, completion of
 * rule names and config keys, the graph following the text with rule details on click, save and reload,
 * the unsaved-changes guard, a 500-rule pipeline's graph (timed), screenshots in both themes, no console error.
 */
import type { Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM_PATH, failWithoutChromiumWhenStrict } from "../support/browser.js";
import { serviceClient } from "../support/run-client.js";
import { startTestService, type TestService } from "../support/service-harness.js";
import { editorText, openWebSession, type WebSession } from "../support/web-session.js";

failWithoutChromiumWhenStrict();

const DEMO = `[workflow]
name = "rnaseq-demo"
version = "1.0.0"
description = "Reads to counts: trim, align, count and a report"
author = "strand"

[config]
genome = "ref/genome.fa"
annotation = "ref/genes.gtf"

[[sample_groups]]
name = "all"
samples = ["S1", "S2", "S3"]

[[rules]]
name = "trim"
description = "Trim adapters"
input = ["reads/{sample}.fq.gz"]
output = ["trimmed/{sample}.fq.gz"]
log = "logs/trim/{sample}.log"
shell = "cutadapt -o {output} {input} 2> {log}"
environment = { conda = "envs/trim.yaml" }
resources = { threads = 2 }

[[rules]]
name = "align"
description = "Align to the genome"
input = ["trimmed/{sample}.fq.gz"]
output = ["aligned/{sample}.bam"]
log = "logs/align/{sample}.log"
shell = "bwa mem -t {threads} {config.genome} {input} 2> {log} | samtools sort -o {output}"
environment = { conda = "envs/align.yaml" }
resources = { threads = 8, memory = "16G" }

[[rules]]
name = "count"
description = "Count reads per gene"
input = ["aligned/{sample}.bam"]
output = ["counts/{sample}.tsv"]
log = "logs/count/{sample}.log"
shell = "featureCounts -a {config.annotation} -o {output} {input} 2> {log}"
environment = { conda = "envs/count.yaml" }
resources = { threads = 4 }

[[rules]]
name = "qc"
description = "Quality report per sample"
input = ["trimmed/{sample}.fq.gz"]
output = ["qc/{sample}.html"]
log = "logs/qc/{sample}.log"
shell = "fastqc {input} -o qc 2> {log}"
environment = { conda = "envs/qc.yaml" }

[[rules]]
name = "summary"
description = "One report for the run"
input = ["counts/S1.tsv", "counts/S2.tsv", "counts/S3.tsv", "qc/S1.html", "qc/S2.html", "qc/S3.html"]
output = ["report.html"]
log = "logs/summary.log"
shell = "multiqc . -o report 2> {log} && cp report/multiqc_report.html {output}"
environment = { conda = "envs/report.yaml" }
target = true
`;

/** 500 rules: a preparation step, four fan-outs of 100 sibling rules, their gathers, and a 95-rule chain. */
function largePipeline(): string {
  const parts = ['[workflow]\nname = "wide-500"\ndescription = "a 500-rule pipeline"\nauthor = "strand"\n'];
  const rule = (name: string, input: string[], output: string) =>
    `[[rules]]\nname = "${name}"\ndescription = "step ${name}"\ninput = [${input.map((path) => `"${path}"`).join(", ")}]\noutput = ["${output}"]\nlog = "logs/${name}.log"\nshell = "cat {input} > {output} 2> {log}"\n`;
  parts.push(rule("prepare", [], "prepared.txt"));
  for (let group = 0; group < 4; group++) {
    const outputs: string[] = [];
    for (let index = 0; index < 100; index++) {
      outputs.push(`g${group}/${index}.txt`);
      parts.push(rule(`g${group}_step${index}`, ["prepared.txt"], `g${group}/${index}.txt`));
    }
    parts.push(rule(`gather${group}`, outputs, `gather${group}.txt`));
  }
  for (let index = 0; index < 95; index++) parts.push(rule(`chain${index}`, index === 0 ? ["gather0.txt", "gather1.txt", "gather2.txt", "gather3.txt"] : [`chain${index - 1}.txt`], `chain${index}.txt`));
  return parts.join("\n");
}

describe.skipIf(CHROMIUM_PATH === undefined)("the pipeline editor in Chromium", () => {
  let service: TestService;
  let web: WebSession;
  let demoId: string;
  let largeId: string;

  const editorOf = (page: Page) => page.getByRole("textbox", { name: "Pipeline TOML" });
  /** Puts the cursor at the end of the text. */
  const toEnd = async (page: Page) => {
    await editorOf(page).click();
    await page.keyboard.press("Control+End");
  };
  const openDemo = async () => {
    const page = await web.open(`/pipelines/${demoId}`, { width: 1440, height: 900 });
    await editorOf(page).waitFor();
    await page.getByRole("status").filter({ hasText: "✓ Valid" }).waitFor();
    return page;
  };

  beforeAll(async () => {
    // The tests type far faster than a person and run many sessions' checks in a minute from one address:
    // the default limit (100 requests a minute per client) would refuse them part-way.
    service = await startTestService({ rateLimit: 2_000 });
    web = await openWebSession(service.url);
    const client = serviceClient(service.url);
    demoId = (await client.POST("/api/pipelines", { body: { name: "rnaseq-demo", toml_content: DEMO } })).data!.id;
    largeId = (await client.POST("/api/pipelines", { body: { name: "wide-500", toml_content: largePipeline() } })).data!.id;
  }, 60_000);
  // A test that failed half-way leaves its page open (with unsaved text): close it so the next starts clean.
  afterEach(async () => {
    for (const page of web.context.pages()) await page.close({ runBeforeUnload: false });
  });
  afterAll(async () => {
    await web?.close();
    await service?.close();
  });

  it("marks an error at its line and column, lists it in the problems panel, and clears it when the text is fixed; a parse error keeps the last good graph", async () => {
    const page = await openDemo();
    const problems = page.getByRole("list", { name: "Problems in the pipeline" });
    await toEnd(page);
    await page.keyboard.insertText('\n[[rules]]\nname = "archive"\ninput = ["report.html"]\noutput = ["archive.tgz"]\nshell = "tar czf {output} {input}"\ndepends_on = ["sumary"]\n');
    const marker = page.locator(".cm-lintRange-error");
    await marker.first().waitFor();
    // The marker covers the misspelt name on its line, where the service placed the finding.
    expect(await marker.first().innerText()).toBe('"sumary"');
    const lineOfMarker = (await editorText(page)).split("\n").indexOf('depends_on = ["sumary"]') + 1;
    const row = problems.getByRole("listitem").filter({ hasText: "E007" });
    await row.waitFor();
    expect(await row.innerText()).toContain(`line ${String(lineOfMarker)}:15`);
    expect(await row.innerText()).toContain("depends on unknown rule 'sumary'");
    await page.getByRole("status").filter({ hasText: "✕ 1 error" }).waitFor();

    // Enter on the problem puts the cursor on the marked text.
    await row.getByRole("button", { name: /E007/ }).focus();
    await page.keyboard.press("Enter");
    expect(await page.evaluate("getSelection().toString()")).toBe('"sumary"');

    // Fixed by typing: the marker and the problem go away.
    await page.keyboard.insertText('"summary"');
    await page.getByRole("status").filter({ hasText: "✓ Valid" }).waitFor();
    expect(await marker.count()).toBe(0);
    expect(await problems.getByRole("listitem").filter({ hasText: "E007" }).count()).toBe(0);
    // The graph follows after a longer pause than the markers.
    await page.locator(".react-flow__node").filter({ hasText: "archive" }).waitFor();

    // Text that does not parse: the parse error at its line, and the graph stays as it was, saying so.
    await toEnd(page);
    await page.keyboard.insertText('broken = "no end\n');
    const parseRow = problems.getByRole("listitem").filter({ hasText: "PARSE_ERROR" });
    await parseRow.waitFor();
    const lines = (await editorText(page)).split("\n");
    expect(await parseRow.innerText()).toContain(`line ${lines.indexOf('broken = "no end') + 1}`);
    await page.getByText("The text does not parse; showing the last good graph.").waitFor();
    expect(await page.locator(".react-flow__node").filter({ hasText: "archive" }).count()).toBe(1);
    await page.keyboard.press("Control+z");
    await page.getByRole("status").filter({ hasText: "✓ Valid" }).waitFor();
    expect(await parseRow.count()).toBe(0);
    await page.close();
  });

  it("applies a quick fix from the problems panel and from the marker's tooltip", async () => {
    const page = await openDemo();
    await toEnd(page);
    await page.keyboard.insertText('\n[[rules]]\nname = "archive"\ninput = ["report.html"]\noutput = ["archive.tgz"]\nshell = "tar czf {output} {input}"\ndepends_on = ["summar"]\n');
    const fix = page.getByRole("button", { name: "Quick fix: Replace with summary" });
    await fix.click();
    await page.getByRole("status").filter({ hasText: "✓ Valid" }).waitFor();
    expect(await editorText(page)).toContain('depends_on = ["summary"]');

    // The same fix offered on the marker itself (CodeMirror's lint action).
    await page.keyboard.press("Control+End");
    await page.keyboard.insertText('\n[[rules]]\nname = "archive2"\ninput = ["archive.tgz"]\noutput = ["archive2.tgz"]\nshell = "cp {input} {output}"\ndepends_on = ["archiv"]\n');
    // Hovered once the checks are done (a newer set of markers closes an open tooltip); hovered again if the
    // tooltip still closed under the mouse.
    await page.getByRole("list", { name: "Problems in the pipeline" }).getByRole("listitem").filter({ hasText: "E007" }).waitFor();
    await page.getByRole("status").filter({ hasText: "✕ 1 error" }).waitFor();
    const tooltipFix = page.locator(".cm-tooltip-lint").getByRole("button", { name: /Replace with archive/ });
    for (let attempt = 0; attempt < 5 && !(await tooltipFix.isVisible()); attempt++) {
      await page.mouse.move(0, 0);
      await page.locator(".cm-lintRange-error").first().hover();
      await tooltipFix.waitFor({ timeout: 2_000 }).catch(() => undefined);
    }
    await tooltipFix.click();
    await page.getByRole("status").filter({ hasText: "✓ Valid" }).waitFor();
    expect(await editorText(page)).toContain('depends_on = ["archive"]');
    await page.close();
  });

  it("formats on demand with the button and Shift+Alt+F", async () => {
    const page = await openDemo();
    await toEnd(page);
    await page.keyboard.insertText('\n[[rules]]\nshell   =    "cp {input} {output}"\nname="copy"\noutput=["copy.txt"]\ninput = [ "report.html" ]\n');
    const client = serviceClient(service.url);
    const expected = (await client.POST("/api/pipelines/format", { body: { toml_content: await editorText(page) } })).data!;
    expect(expected.changed).toBe(true);
    await page.getByRole("button", { name: "Format" }).click();
    await expect.poll(() => editorText(page)).toBe(expected.formatted);
    // Formatted text formats to itself; the shortcut asks again and changes nothing.
    await editorOf(page).press("Shift+Alt+F");
    await page.getByRole("button", { name: "Format" }).and(page.locator(":enabled")).waitFor();
    expect(await editorText(page)).toBe(expected.formatted);
    await page.close();
  });

  it("completes rule names in depends_on and config keys in commands", async () => {
    const page = await openDemo();
    await toEnd(page);
    await page.keyboard.insertText('\n[[rules]]\nname = "archive"\noutput = ["archive.tgz"]\nshell = "tar czf {output} {');
    await page.keyboard.type("config.");
    const options = page.getByRole("listbox");
    await options.getByRole("option", { name: /genome/ }).waitFor();
    expect(await options.getByRole("option", { name: /annotation/ }).count()).toBe(1);
    await page.keyboard.press("Escape");
    await page.keyboard.press("End");
    await page.keyboard.insertText("\ndepends_on = [");
    await page.keyboard.type('"su');
    await options.getByRole("option", { name: /summary/ }).click();
    expect(await editorText(page)).toContain('depends_on = ["summary"');
    await page.close();
  });

  it("draws the rules as a graph that follows the text, and shows a rule's details on click or Enter", async () => {
    const page = await openDemo();
    const nodes = page.locator(".react-flow__node");
    await nodes.filter({ hasText: "summary" }).waitFor();
    const names = await nodes.locator(".dag-node-label").allInnerTexts();
    expect(names.sort()).toEqual(["align", "count", "qc", "summary", "trim"]);
    await toEnd(page);
    await page.keyboard.insertText('\n[[rules]]\nname = "archive"\ndescription = "Pack the report"\ninput = ["report.html"]\noutput = ["archive.tgz"]\nshell = "tar czf {output} {input}"\n');
    await nodes.filter({ hasText: "archive" }).waitFor();
    expect(await nodes.count()).toBe(6);

    await nodes.filter({ hasText: "align" }).click();
    const details = page.getByRole("region", { name: "Rule align" });
    await details.waitFor();
    const text = await details.innerText();
    expect(text).toContain("trimmed/{sample}.fq.gz");
    expect(text).toContain("aligned/{sample}.bam");
    expect(text).toContain("bwa mem -t {threads}");
    expect(text).toMatch(/Threads\s+8/);
    expect(text).toContain("conda");

    // From the keyboard: a focused node opens on Enter.
    await page.locator(".react-flow__node[data-id='archive']").focus();
    await page.keyboard.press("Enter");
    await page.getByRole("region", { name: "Rule archive" }).getByText("Pack the report").waitFor();
    await page.getByRole("button", { name: "Go to definition" }).click();
    expect(await page.evaluate("document.activeElement?.getAttribute('aria-label')")).toBe("Pipeline TOML");
    await page.close();
  });

  it("shows the pipeline's stats", async () => {
    const page = await openDemo();
    const stats = page.getByRole("region", { name: "Stats" });
    await stats.getByText("Jobs").waitFor();
    const text = await stats.innerText();
    expect(text).toMatch(/Rules\s+5/i);
    expect(text).toMatch(/Jobs\s+13/i);
    expect(text).toContain("{sample}");
    await page.close();
  });

  it("saves with Ctrl+S, keeps the change on reload, and guards unsaved changes against in-app navigation", async () => {
    const page = await openDemo();
    await toEnd(page);
    await page.keyboard.insertText('\n[[rules]]\nname = "archive"\ndescription = "Pack the report"\ninput = ["report.html"]\noutput = ["archive.tgz"]\nshell = "tar czf {output} {input}"\n');
    await page.getByText("● Unsaved changes").waitFor();
    await page.keyboard.press("Control+s");
    await page.getByText("Saved · revision 2").waitFor();
    // One save: a second one of the same revision would be refused as a conflict and shown.
    await page.waitForLoadState("networkidle");
    await expect.poll(() => page.getByText(/CONFLICT/).count()).toBe(0);
    await page.reload();
    await editorOf(page).waitFor();
    expect(await editorText(page)).toContain('name = "archive"');
    const saved = await serviceClient(service.url).GET("/api/pipelines/{id}", { params: { path: { id: demoId } } });
    expect(saved.data!.toml_content).toContain('name = "archive"');
    expect(saved.data!.revision).toBe(2);

    // An unsaved change: leaving through the app's navigation asks first; staying keeps the text.
    await toEnd(page);
    await page.keyboard.insertText("# not saved yet\n");
    await page.getByRole("link", { name: "Runs" }).click();
    const dialog = page.getByRole("dialog", { name: "Leave without saving?" });
    await dialog.waitFor();
    await dialog.getByRole("button", { name: "Stay and keep editing" }).click();
    await dialog.waitFor({ state: "hidden" });
    expect(new URL(page.url()).pathname).toBe(`/pipelines/${demoId}`);
    expect(await editorText(page)).toContain("# not saved yet");
    await page.getByRole("link", { name: "Runs" }).click();
    await dialog.getByRole("button", { name: "Leave and discard changes" }).click();
    await page.getByRole("heading", { name: /^Runs/ }).waitFor();
    await page.close();
  });

  it("a stale save is refused with the service's message", async () => {
    const page = await openDemo();
    // Someone else saves first: this page's revision is now behind.
    const client = serviceClient(service.url);
    const current = (await client.GET("/api/pipelines/{id}", { params: { path: { id: demoId } } })).data!;
    await client.PUT("/api/pipelines/{id}", { params: { path: { id: demoId } }, body: { toml_content: `${current.toml_content}\n# elsewhere\n`, revision: current.revision } });
    await toEnd(page);
    await page.keyboard.insertText("# here\n");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    const alert = page.getByRole("alert").filter({ hasText: "CONFLICT" });
    await alert.waitFor();
    // The refused request is the point of this test: its console line is expected.
    for (let index = web.problems.length - 1; index >= 0; index--) if (web.problems[index]!.includes("409 (Conflict)")) web.problems.splice(index, 1);
    expect(await page.getByText("● Unsaved changes").count()).toBe(1);
    // Leave without the guard: the change is deliberately dropped.
    await page.evaluate("window.onbeforeunload = null");
    await page.close({ runBeforeUnload: false });
  });

  it("draws a 500-rule pipeline's graph with its large fan-outs folded, and expands one on click", async () => {
    const started = Date.now();
    const page = await web.open(`/pipelines/${largeId}`, { width: 1440, height: 900 });
    const groups = page.locator(".react-flow__node .dag-group");
    await groups.first().waitFor({ timeout: 30_000 });
    const drawnMs = Date.now() - started;
    console.log(`500-rule pipeline: graph drawn ${drawnMs} ms after navigation (${await page.locator(".react-flow__node").count()} nodes in the DOM)`);
    expect(await groups.count()).toBe(4);
    expect(await page.getByText("100 rules · expand").count()).toBe(4);
    await page.getByRole("region", { name: "Stats" }).getByText("500").first().waitFor();

    // Typing stays responsive: a keystroke reaches the editor quickly while the graph is on screen.
    await toEnd(page);
    const typed = Date.now();
    await page.keyboard.insertText("# a comment\n");
    await page.getByText("● Unsaved changes").waitFor();
    const typingMs = Date.now() - typed;
    console.log(`500-rule pipeline: a keystroke shown in ${typingMs} ms`);
    expect(typingMs).toBeLessThan(1_000);

    const expanding = Date.now();
    await groups.first().click();
    await page.getByRole("button", { name: "Fold fan-outs again" }).waitFor();
    await page.getByText("3 large fan-outs folded").waitFor();
    // The view moves to the expanded rules.
    await expect.poll(() => page.locator(".react-flow__node").filter({ hasText: /^g\d_step\d+/ }).count(), { timeout: 30_000 }).toBeGreaterThanOrEqual(3);
    console.log(`500-rule pipeline: a fan-out of 100 expanded and placed in ${Date.now() - expanding} ms`);
    expect(drawnMs).toBeLessThan(20_000);
    await page.evaluate("window.onbeforeunload = null");
    await page.close({ runBeforeUnload: false });
  }, 60_000);

  it("opens a scratch pipeline at /editor and saves it as a new pipeline", async () => {
    const page = await web.open("/editor", { width: 1440, height: 900 });
    await editorOf(page).waitFor();
    await page.locator(".react-flow__node").filter({ hasText: "count_reads" }).waitFor();
    await page.getByRole("button", { name: "Save as new pipeline" }).click();
    await page.waitForURL(/\/pipelines\/[0-9a-f-]{36}$/);
    await page.getByText("Saved · revision 1").waitFor();
    await page.close();
  });

  it("looks right in both themes (screenshots), passes axe, and raised no console error", async () => {
    const page = await openDemo();
    await page.locator(".react-flow__node").filter({ hasText: "align" }).click();
    await page.getByRole("region", { name: "Rule align" }).waitFor();
    await page.waitForLoadState("networkidle");
    expect(await web.accessibilityViolations(page)).toEqual([]);
    await web.screenshot(page, "editor");
    await page.evaluate(`localStorage.setItem("strand-theme", "dark")`);
    await page.reload();
    await page.locator(".react-flow__node").filter({ hasText: "align" }).click();
    await page.getByRole("region", { name: "Rule align" }).waitFor();
    await page.waitForLoadState("networkidle");
    expect(await web.accessibilityViolations(page)).toEqual([]);
    await web.screenshot(page, "editor-dark");
    await page.evaluate(`localStorage.removeItem("strand-theme")`);
    await page.close();
    expect(web.problems).toEqual([]);
  }, 60_000);
});
