/**
 * "Start from my data" in Chromium against a real service with a data root: browse to a sequencing folder,
 * analyse it (paired lane-split reads, a FASTQ-named FASTA file reported), choose a suggested template, see it
 * filled with the samples and a rule that gathers the lanes, open it in the editor unsaved, save it; then
 * upload reads into your own files folder, fill a template whose inputs name the uploads, and dry-run it. Axe on the
 * page, screenshots, and no console error.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM_PATH, failWithoutChromiumWhenStrict } from "../support/browser.js";
import { serviceClient, waitForRun } from "../support/run-client.js";
import { startTestService, type TestService } from "../support/service-harness.js";
import { editorText, openWebSession, type WebSession } from "../support/web-session.js";

failWithoutChromiumWhenStrict();

/** `count` reads of 100 bases with Illumina 1.8 headers carrying read number `read`. */
function fastq(count: number, read: 1 | 2): string {
  let text = "";
  for (let index = 0; index < count; index++) text += `@M001:1:FC:1:1101:${1000 + index}:2000 ${read}:N:0:ACGT\n${"ACGT".repeat(25)}\n+\n${"I".repeat(100)}\n`;
  return text;
}

describe.skipIf(CHROMIUM_PATH === undefined)("starting a pipeline from my data in Chromium", () => {
  let root: string;
  let service: TestService;
  let web: WebSession;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), "strand-web-data-"));
    const run = join(root, "sequencing", "run42");
    mkdirSync(run, { recursive: true });
    for (const sample of ["kidney_S1", "liver_S2"]) {
      for (const lane of ["L001", "L002"]) for (const read of [1, 2] as const) writeFileSync(join(run, `${sample}_${lane}_R${read}_001.fastq.gz`), gzipSync(fastq(12, read)));
    }
    writeFileSync(join(run, "spleen_R1.fastq"), ">chr1\nACGTACGT\n");
    service = await startTestService({ dataRoots: [root], rateLimit: 2_000 });
    web = await openWebSession(service.url);
  }, 60_000);
  afterAll(async () => {
    await web?.close();
    await service?.close();
    rmSync(root, { recursive: true, force: true });
  });


  it("browses to a folder, shows its analysis, fills the chosen template with the samples and opens it in the editor", async () => {
    const page = await web.open("/pipelines/new", { width: 1440, height: 1000 });
    // A click, not check(): the choice is in the address, so the radio turns on after the navigation.
    await page.getByRole("radio", { name: "From my data" }).click();
    await expect.poll(() => page.getByRole("radio", { name: "From my data" }).isChecked()).toBe(true);
    await page.getByRole("heading", { name: "1. Pick a folder" }).waitFor();
    // Your own folder first: empty, with the upload button.
    await page.getByText("Nothing here yet: upload files, or pick a data folder.").waitFor();

    // Into the data root, down two folders, and back up one and down again with the keyboard.
    await page.getByRole("button", { name: root }).click();
    await page.getByRole("button", { name: "sequencing/" }).click();
    await page.getByRole("button", { name: "run42/" }).click();
    await page.getByRole("button", { name: "Up one folder" }).click();
    await page.getByRole("button", { name: "run42/" }).focus();
    await page.keyboard.press("Enter");
    const listing = page.getByRole("list", { name: `Contents of ${root}/sequencing/run42` });
    await listing.getByText("kidney_S1_L002_R2_001.fastq.gz").waitFor();
    await page.getByRole("button", { name: "Analyse this folder" }).click();

    // The analysis: what was found, per sample, with the mislabelled file called out.
    const analysis = page.getByRole("region", { name: `2. What is in ${root}/sequencing/run42` });
    await analysis.waitFor();
    expect(await analysis.getByRole("status").innerText()).toContain("9 files");
    expect(await analysis.getByRole("status").innerText()).toContain("2 samples · paired-end reads · reads of 100 bases · qualities Phred+33");
    const samples = analysis.getByRole("table", { name: "Samples" });
    expect(await samples.getByRole("row").count()).toBe(3);
    expect(await samples.getByRole("row", { name: /kidney/ }).innerText()).toMatch(/kidney\s+paired-end\s+L001, L002/);
    expect(await analysis.getByRole("list", { name: "Warnings" }).innerText()).toBe("⚠ spleen_R1.fastq: named like fastq but its content is fasta");
    await analysis.getByText("Every file (9)").click();
    expect(await analysis.getByRole("row", { name: /spleen_R1\.fastq/ }).innerText()).toContain("named as fastq");
    // The first suggestion is chosen; the user picks another.
    expect(await analysis.getByRole("radio", { name: /RNA-seq quantification/ }).isChecked()).toBe(true);
    await analysis.getByRole("radio", { name: /Germline variant calling/ }).check();
    expect(await web.accessibilityViolations(page)).toEqual([]);
    await web.screenshot(page, "data-start-analysis");
    await analysis.getByRole("button", { name: "Fill in this template" }).click();

    // The filled template: samples, how the reads get there, and the text itself.
    const filled = page.getByRole("region", { name: "3. Germline variant calling, filled in" });
    await filled.waitFor();
    expect(await filled.getByRole("status").innerText()).toBe("2 samples: kidney, liver. A rule (stage_reads) gathers each sample's files, all lanes, into the paths the template reads.");
    const preview = await filled.getByLabel("Filled pipeline preview").innerText();
    expect(preview).toContain('samples = ["kidney", "liver"]');
    expect(preview).toContain(`cat ${root}/sequencing/run42/kidney_S1_L001_R1_001.fastq.gz ${root}/sequencing/run42/kidney_S1_L002_R1_001.fastq.gz > {output.r1}`);
    await web.screenshot(page, "data-start-filled");

    // Into the editor, unsaved until the user saves; the graph starts with the staging rule.
    await filled.getByRole("button", { name: "Open in the editor" }).click();
    await page.getByText("From your data · not saved yet").waitFor();
    expect(await editorText(page)).toBe(preview);
    await page.getByRole("status").filter({ hasText: /✓ Valid/ }).waitFor();
    await page.locator('.react-flow__node[data-id="stage_reads"]').waitFor();
    // Attached, not visible: a straight vertical edge has a zero-width box, which Playwright counts as hidden.
    await page.locator('.react-flow__edge[data-id^="stage_reads>"]').first().waitFor({ state: "attached" });
    await page.getByRole("button", { name: "Save as new pipeline" }).click();
    await page.waitForURL(/\/pipelines\/[^/]+$/);
    const id = page.url().split("/").pop()!;
    const saved = (await serviceClient(service.url).GET("/api/pipelines/{id}", { params: { path: { id } } })).data!;
    expect(saved.toml_content).toBe(preview);

    expect(web.problems).toEqual([]);
    await page.close({ runBeforeUnload: false });
  }, 120_000);

  it("uploads reads into your own folder and fills a template whose inputs name the uploads", async () => {
    const page = await web.open("/pipelines/new?from=data", { width: 1440, height: 1000 });
    await page.getByRole("button", { name: "Your files" }).click();
    await page.getByLabel("Upload files into uploads").setInputFiles([
      { name: "ctrl_R1.fastq.gz", mimeType: "application/gzip", buffer: gzipSync(fastq(8, 1)) },
      { name: "ctrl_R2.fastq.gz", mimeType: "application/gzip", buffer: gzipSync(fastq(8, 2)) },
      { name: "treated_R1.fastq.gz", mimeType: "application/gzip", buffer: gzipSync(fastq(8, 1)) },
      { name: "treated_R2.fastq.gz", mimeType: "application/gzip", buffer: gzipSync(fastq(8, 2)) },
    ]);
    await page.getByText("Uploaded 4 files.").waitFor();
    // The browser moves into the folder the files went to.
    await page.getByRole("list", { name: "Contents of Your files / uploads" }).getByText("treated_R2.fastq.gz").waitFor();
    await page.getByRole("button", { name: "Analyse this folder" }).click();
    const analysis = page.getByRole("region", { name: "2. What is in uploads" });
    expect(await analysis.getByRole("status").innerText()).toContain("2 samples · paired-end reads");
    await analysis.getByRole("button", { name: "Fill in this template" }).click();
    const filled = page.getByRole("region", { name: /filled in$/ });
    await filled.waitFor();
    // Uploads are named where jobs read them: your files folder on the server.
    expect(await filled.getByRole("status").innerText()).toMatch(/The read inputs now name your files: \/\S+\/users\/local\/files\/uploads\/\{sample\}_R1\.fastq\.gz and \/\S+\/users\/local\/files\/uploads\/\{sample\}_R2\.fastq\.gz\./);
    await web.screenshot(page, "data-start-uploads");
    // The service plans it: a dry run finds every input and plans each sample's jobs.
    const client = serviceClient(service.url);
    const run = (await client.POST("/api/runs", { body: { toml_content: await filled.getByLabel("Filled pipeline preview").innerText(), dry_run: true } })).data!;
    const ended = await waitForRun(service.url, run.id);
    expect(ended).toMatchObject({ status: "completed", counts: { total: 8 } });
    // Choosing another template takes the filled one away: what is shown always matches the choice.
    await analysis.getByRole("radio", { name: /Germline variant calling/ }).check();
    await expect.poll(() => filled.count()).toBe(0);
    expect(web.problems).toEqual([]);
    await page.close({ runBeforeUnload: false });
  }, 120_000);
});
