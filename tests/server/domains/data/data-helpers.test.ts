/**
 * The data helpers through the API: a folder with paired, lane-split, single-end and mislabelled reads
 * (made here, gzip included) analysed with every file's format, pairs and samples right; confinement (a
 * path outside, `..`, a link pointing out, another user's folder: the same 404 whether it exists or not);
 * perception with a description that contradicts the files; a sample sheet generated and read back; and
 * reference genomes in a temporary reference root.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LooseJson } from "../../../support/loose-json.js";
import { startTestService, type TestService } from "../../../support/service-harness.js";
import { startTeamService, type TeamService } from "../../../support/team-service.js";

/** A FASTQ text of `count` reads of `length` bases; `read` puts an Illumina 1.8 header with that read number. */
function fastq(count: number, length: number, read?: 1 | 2): string {
  let text = "";
  for (let index = 0; index < count; index++) {
    const header = read ? `@M001:1:FC:1:1101:${1000 + index}:2000 ${read}:N:0:ACGT` : `@read${index}`;
    text += `${header}\n${"ACGT".repeat(length).slice(0, length)}\n+\n${"I".repeat(length)}\n`;
  }
  return text;
}

/** Paired, lane-split, single-end and mislabelled reads in `folder`. */
function makeReads(folder: string): void {
  mkdirSync(folder, { recursive: true });
  const write = (name: string, content: string | Buffer) => writeFileSync(join(folder, name), content);
  write("liver_R1.fastq.gz", gzipSync(fastq(40, 150, 1)));
  write("liver_R2.fastq.gz", gzipSync(fastq(40, 150, 2)));
  write("kidney_S2_L001_R1_001.fastq.gz", gzipSync(fastq(20, 150)));
  write("kidney_S2_L001_R2_001.fastq.gz", gzipSync(fastq(20, 150)));
  write("kidney_S2_L002_R1_001.fastq.gz", gzipSync(fastq(20, 150)));
  write("kidney_S2_L002_R2_001.fastq.gz", gzipSync(fastq(20, 150)));
  write("spleen_R1.fastq", ">chr1\nACGTACGT\n"); // named FASTQ, holds FASTA
  write("notes.txt", fastq(8, 150)); // named .txt, holds FASTQ (single-end sample "notes")
}

async function post(url: string, path: string, body: unknown): Promise<{ status: number; body: Record<string, LooseJson> }> {
  const response = await fetch(`${url}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as Record<string, LooseJson> };
}

describe("data helpers in personal mode, with a data root", () => {
  let root: string;
  let references: string;
  let service: TestService;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), "strand-data-root-"));
    references = mkdtempSync(join(tmpdir(), "strand-refs-"));
    makeReads(join(root, "reads"));
    // A flat reference folder: FASTA with its .fai, nothing else.
    mkdirSync(join(references, "GRCh38"));
    writeFileSync(join(references, "GRCh38", "GRCh38.fa"), ">chr1\nACGT\n");
    writeFileSync(join(references, "GRCh38", "GRCh38.fa.fai"), "chr1\t4\t6\t4\t5\n");
    service = await startTestService({ dataRoots: [root], referenceRoots: [references] });
  });
  afterAll(async () => {
    await service.close();
    rmSync(root, { recursive: true, force: true });
    rmSync(references, { recursive: true, force: true });
  });

  it("lists the caller's folders: their own (relative paths) and the data root", async () => {
    const answer = await fetch(`${service.url}/api/data/roots`);
    const body = (await answer.json()) as { roots: { kind: string; path: string }[] };
    expect(body.roots.map((entry) => [entry.kind, entry.path])).toEqual([["own", "."], ["data", root]]);
  });

  it("analyses the folder: every file's format by content, the pairs, the lanes merged and the samples", async () => {
    const folder = join(root, "reads");
    const { status, body } = await post(service.url, "/api/data/analyze", { paths: [folder] });
    expect(status).toBe(200);
    const files = Object.fromEntries((body.files as LooseJson[]).map((file) => [file.path, file]));
    // Paths as the caller gave them.
    expect(Object.keys(files).every((path) => path.startsWith(`${folder}/`))).toBe(true);
    const format = (name: string) => `${files[`${folder}/${name}`].format}+${files[`${folder}/${name}`].compression}`;
    expect(format("liver_R1.fastq.gz")).toBe("fastq+gzip");
    expect(format("kidney_S2_L002_R2_001.fastq.gz")).toBe("fastq+gzip");
    expect(format("spleen_R1.fastq")).toBe("fasta+none");
    expect(format("notes.txt")).toBe("fastq+none");
    expect(files[`${folder}/liver_R1.fastq.gz`]).toMatchObject({ read: 1, sample_name: "liver", paired_with: `${folder}/liver_R2.fastq.gz`, detected_by: "content" });
    expect(files[`${folder}/liver_R1.fastq.gz`].fastq).toMatchObject({ records: 40, read_length: { min: 150, max: 150 }, quality_encoding: "phred33", header_read: 1 });
    expect(files[`${folder}/kidney_S2_L002_R1_001.fastq.gz`]).toMatchObject({ lane: 2, paired_with: `${folder}/kidney_S2_L002_R2_001.fastq.gz` });
    expect(files[`${folder}/spleen_R1.fastq`].warnings.join()).toContain("named like fastq but its content is fasta");
    const samples = Object.fromEntries((body.samples as LooseJson[]).map((sample) => [sample.sample, sample]));
    expect(Object.keys(samples).sort()).toEqual(["kidney", "liver", "notes"]);
    expect(samples.kidney).toMatchObject({ layout: "paired", lanes: [1, 2], r1: [`${folder}/kidney_S2_L001_R1_001.fastq.gz`, `${folder}/kidney_S2_L002_R1_001.fastq.gz`] });
    expect(samples.notes.layout).toBe("single");
    expect(body.summary).toMatchObject({ files: 8, layout: "mixed", paired_end_detected: true });
    expect(body.suggested_workflow.template).toBeTypeOf("string");
  });

  it("bounds the walk: max_depth 0 looks at the given folder's files only, max_files stops the scan and says so", async () => {
    mkdirSync(join(root, "nested", "deeper"), { recursive: true });
    writeFileSync(join(root, "nested", "top.fastq"), fastq(2, 50));
    writeFileSync(join(root, "nested", "deeper", "low.fastq"), fastq(2, 50));
    const shallow = await post(service.url, "/api/data/analyze", { paths: [join(root, "nested")], max_depth: 0 });
    expect((shallow.body.files as LooseJson[]).map((file) => file.path)).toEqual([join(root, "nested", "top.fastq")]);
    expect(shallow.body.truncated).toBe(true);
    const few = await post(service.url, "/api/data/analyze", { paths: [join(root, "reads")], max_files: 2 });
    expect(few.body.files).toHaveLength(2);
    expect(few.body.truncated).toBe(true);
  });

  it("perceives: file findings name their files, description findings their words, and a contradiction is a conflict", async () => {
    const { status, body } = await post(service.url, "/api/data/perceive", { paths: [join(root, "reads", "liver_R1.fastq.gz"), join(root, "reads", "liver_R2.fastq.gz")], description: "Human RNA-seq, single-end 1x75, GRCh38, 3 replicates, treated vs control" });
    expect(status).toBe(200);
    expect(body.data_level).toBe(3);
    const find = (field: string, source: string) => (body.findings as LooseJson[]).find((finding) => finding.field === field && finding.source === source);
    expect(find("read_type", "file_scan")).toMatchObject({ value: "paired" });
    expect(find("read_type", "file_scan").evidence).toContain("liver_R1.fastq.gz");
    expect(find("read_type", "user_description")).toMatchObject({ value: "single", evidence: '"1x75"' });
    expect(find("read_length", "file_scan").value).toBe(150);
    expect(find("genome", "user_description")).toMatchObject({ value: "GRCh38" });
    expect(find("assay", "user_description")).toMatchObject({ value: "RNA-seq" });
    expect(find("replicates", "user_description")).toMatchObject({ value: 3 });
    expect(find("conditions", "user_description")).toMatchObject({ value: ["treated", "control"] });
    expect((body.conflicts as LooseJson[]).map((conflict) => conflict.field).sort()).toEqual(["read_length", "read_type"]);
    expect(body.warnings.join(" ")).toContain("the description says read type single but the files are paired");
    expect(body.templates[0].template).toBe("rnaseq-quant");
    for (const finding of body.findings as LooseJson[]) expect(finding.confidence).toBeLessThanOrEqual(1);
  });

  it("perceives a description alone at level 2, and nothing at level 0", async () => {
    const described = await post(service.url, "/api/data/perceive", { description: "whole-genome sequencing of mouse, paired-end 2x150" });
    expect(described.body.data_level).toBe(2);
    expect((described.body.findings as LooseJson[]).every((finding) => finding.source === "user_description")).toBe(true);
    expect(described.body.templates[0].template).toBe("germline-variants");
    const nothing = await post(service.url, "/api/data/perceive", {});
    expect(nothing.body).toMatchObject({ data_level: 0, findings: [] });
  });

  it("generates a sample sheet from the folder and reads it back: same samples, every file found", async () => {
    const generated = await post(service.url, "/api/data/samplesheet", { paths: [join(root, "reads")] });
    expect(generated.status).toBe(200);
    expect(generated.body.samples_count).toBe(3);
    expect(generated.body.content.split("\n")[0]).toBe("sample,fastq_1,fastq_2");
    const parsed = await post(service.url, "/api/data/samplesheet/parse", { content: generated.body.content });
    expect(parsed.status).toBe(200);
    expect(parsed.body).toMatchObject({ valid: true, samples_count: 3, errors: [] });
    expect(parsed.body.samples.find((sample: LooseJson) => sample.sample === "kidney")).toMatchObject({ layout: "paired", rows: 2 });
  });

  it("fills the suggested template from a folder: samples written in, lane-split reads gathered by a rule; a mixed folder is said to be so", async () => {
    const folder = join(root, "paired");
    mkdirSync(folder);
    writeFileSync(join(folder, "liver_R1.fastq.gz"), gzipSync(fastq(8, 100, 1)));
    writeFileSync(join(folder, "liver_R2.fastq.gz"), gzipSync(fastq(8, 100, 2)));
    for (const lane of ["L001", "L002"]) for (const read of ["R1", "R2"]) writeFileSync(join(folder, `kidney_S2_${lane}_${read}_001.fastq.gz`), gzipSync(fastq(8, 100)));
    const { status, body } = await post(service.url, "/api/data/template", { paths: [folder] });
    expect(status).toBe(200);
    expect(body).toMatchObject({ template: "rnaseq-quant", samples: ["kidney", "liver"], reads: { how: "staged", rule: "stage_reads" } });
    expect(body.analysis.suggested_workflow.template).toBe("rnaseq-quant");
    expect(body.toml_content).toContain('samples = ["kidney", "liver"]');
    expect(body.toml_content).toContain(`cat ${folder}/kidney_S2_L001_R1_001.fastq.gz ${folder}/kidney_S2_L002_R1_001.fastq.gz > {output.r1}`);
    // The text is a valid pipeline (nothing was saved).
    const checked = await post(service.url, "/api/pipelines/validate", { toml_content: body.toml_content });
    expect(checked.body.errors).toEqual([]);
    expect(await (await fetch(`${service.url}/api/pipelines`)).text()).not.toContain("rnaseq");
    // A template named; the mixed folder (single-end "notes", FASTA named FASTQ) keeps the template's inputs and says why.
    const mixed = await post(service.url, "/api/data/template", { paths: [join(root, "reads")], template: "germline-variants" });
    expect(mixed.status).toBe(200);
    expect(mixed.body.reads).toMatchObject({ how: "unchanged" });
    expect(mixed.body.notes.join("\n")).toContain("some samples are single-end");
    const unknown = await post(service.url, "/api/data/template", { paths: [folder], template: "no-such-template" });
    expect(unknown).toMatchObject({ status: 400, body: { code: "DATA_ERROR", message: "there is no template 'no-such-template'" } });
  });

  it("reads sheet paths relative to base_path, and a file outside the folders is 'does not exist' like a missing one", async () => {
    const sheet = "sample,fastq_1,fastq_2\nliver,liver_R1.fastq.gz,liver_R2.fastq.gz\nout,/etc/hostname,\n";
    const parsed = await post(service.url, "/api/data/samplesheet/parse", { content: sheet, base_path: join(root, "reads") });
    expect(parsed.body.valid).toBe(false);
    expect((parsed.body.errors as LooseJson[]).map((error) => error.message)).toEqual(["line 3: /etc/hostname does not exist"]);
    const outside = await post(service.url, "/api/data/samplesheet/parse", { content: sheet, base_path: "/etc" });
    expect(outside).toMatchObject({ status: 404, body: { code: "NOT_FOUND" } });
  });

  it("finds a genome in the reference root: what is there, what is missing, and how to get it", async () => {
    const { status, body } = await post(service.url, "/api/data/reference", { genome: "grch38", components: ["fasta", "fai", "gtf", "bwa_index"] });
    expect(status).toBe(200);
    expect(body.found).toEqual([join(references, "GRCh38", "GRCh38.fa"), join(references, "GRCh38", "GRCh38.fa.fai")]);
    expect(body.missing).toEqual(["annotation", "bwa"]);
    expect(body.download_commands[0]).toContain("https://ftp.ensembl.org/pub/release-112/gtf/homo_sapiens/Homo_sapiens.GRCh38.112.gtf.gz");
    expect(body.download_commands[1]).toMatch(/^bwa index /);
    expect(body.status.components).toHaveLength(8);
    const unknown = await post(service.url, "/api/data/reference", { genome: "GRCh38", components: ["nonsense"] });
    expect(unknown).toMatchObject({ status: 400, body: { code: "REF_ERROR" } });
    const status2 = (await (await fetch(`${service.url}/api/data/reference/status`)).json()) as Record<string, LooseJson>;
    expect(status2.roots).toBe(1);
    expect(status2.installed.map((genome: LooseJson) => genome.genome)).toEqual(["GRCh38"]);
    expect(status2.missing).toContain("GRCm39");
    expect(status2.missing).not.toContain("GRCh38");
    expect(status2.download_commands.some((command: string) => command.includes("mus_musculus"))).toBe(true);
  });

  it("without reference roots every well-known genome is missing, with its downloads", async () => {
    const bare = await startTestService({ dataRoots: [root] });
    try {
      const status = (await (await fetch(`${bare.url}/api/data/reference/status`)).json()) as Record<string, LooseJson>;
      expect(status).toMatchObject({ roots: 0, installed: [] });
      expect(status.missing).toContain("GRCh38");
      const one = await post(bare.url, "/api/data/reference", { genome: "mm10" });
      expect(one.body.found).toEqual([]);
      expect(one.body.download_commands[0]).toContain("hgdownload.soe.ucsc.edu/goldenPath/mm10/bigZips/mm10.fa.gz");
    } finally {
      await bare.close();
    }
  });
});

describe("confinement in team mode: everything outside your folders is the same 404", () => {
  let root: string;
  let outside: string;
  let team: TeamService;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), "strand-data-root-"));
    outside = mkdtempSync(join(tmpdir(), "strand-outside-"));
    makeReads(join(root, "reads"));
    writeFileSync(join(outside, "secret.fastq"), fastq(2, 50));
    symlinkSync(outside, join(root, "reads", "escape"));
    // The service's data folder inside the data root: users' folders must still be theirs alone.
    team = await startTeamService({ dataRoots: [root], dataDir: join(root, "service-data") });
    const upload = await fetch(`${team.url}/api/files?name=private.fastq`, { method: "POST", headers: { authorization: `Bearer ${team.tokens.other}`, "content-type": "application/octet-stream" }, body: fastq(2, 50) });
    expect(upload.status).toBe(201);
  });
  afterAll(async () => {
    await team.close();
    rmSync(root, { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
  });

  it("refuses a path outside, a missing one, .. out of the root, a link pointing out, and another user's folder alike", async () => {
    const shownToUser = (path: string) => {
      if (!path.startsWith("/")) return path;
      if (path.startsWith(join(root, "service-data"))) return path.replace(join(root, "service-data"), "<data folder>");
      if (path.startsWith(`${root}/`) && !path.includes("/../")) return path;
      return `<path>/${path.split("/").pop()}`;
    };
    const othersFile = join(root, "service-data", "users", team.ids.other, "files", "uploads", "private.fastq");
    const attempts = [
      join(outside, "secret.fastq"), // exists, outside
      join(outside, "nothing-here.fastq"), // does not exist
      `${root}/reads/../../${outside.split("/").pop()}/secret.fastq`, // climbs out with ..
      join(root, "reads", "escape", "secret.fastq"), // a link inside pointing out
      join(root, "reads", "escape"),
      othersFile, // another user's upload
      join(root, "service-data"), // the service's own folder
      "../../secret.fastq", // relative, climbing out of the own folder
      `../${team.ids.other}/files/uploads/private.fastq`,
    ];
    for (const path of attempts) {
      const answer = await team.call("user", "POST", "/api/data/analyze", { body: { paths: [path] } });
      expect(answer.status, path).toBe(404);
      expect(answer.body.code, path).toBe("NOT_FOUND");
      // As given, except that server paths are not shown: a path under the service's data folder is
      // <data folder>/…, one outside the data roots only its last part; a path in a data root stays.
      expect(answer.body.message, path).toBe(`${shownToUser(path)} is not in your data folders`);
    }
    // The owner reads it by its relative path; the administrator is no exception to the folder rule.
    const own = await team.call("other", "POST", "/api/data/analyze", { body: { paths: ["uploads/private.fastq"] } });
    expect(own.status).toBe(200);
    expect((own.body.files as LooseJson[])[0].path).toBe("uploads/private.fastq");
    expect((await team.call("admin", "POST", "/api/data/analyze", { body: { paths: [othersFile] } })).status).toBe(404);
  });

  it("does not follow a link met while walking a folder, and never shows a server path of another root", async () => {
    const answer = await team.call("user", "POST", "/api/data/analyze", { body: { paths: [join(root, "reads")] } });
    expect(answer.status).toBe(200);
    expect(answer.text).not.toContain(outside);
    expect(answer.text).not.toContain("secret.fastq");
    expect((answer.body.warnings as string[]).join()).toContain("escape is a symbolic link and was not followed");
  });

  it("applies the same rule to perceive, sheet generation and GET /api/files", async () => {
    expect((await team.call("user", "POST", "/api/data/perceive", { body: { paths: [outside] } })).status).toBe(404);
    expect((await team.call("user", "POST", "/api/data/samplesheet", { body: { paths: [outside] } })).status).toBe(404);
    expect((await team.call("user", "GET", `/api/files?path=${encodeURIComponent(`../${team.ids.other}/files`)}`)).status).toBe(404);
    // An absolute folder lists inside a data root only; the service's folder inside the root is not one.
    expect((await team.call("user", "GET", `/api/files?path=${encodeURIComponent(outside)}`)).status).toBe(404);
    expect((await team.call("user", "GET", `/api/files?path=${encodeURIComponent(join(root, "service-data"))}`)).status).toBe(404);
    expect((await team.call("user", "GET", `/api/files?path=${encodeURIComponent(join(root, "reads", "escape"))}`)).status).toBe(404);
    const shared = await team.call("user", "GET", `/api/files?path=${encodeURIComponent(`${root}/reads/`)}`);
    expect(shared.status).toBe(200);
    expect(shared.body.entries).toContainEqual(expect.objectContaining({ name: "liver_R1.fastq.gz", path: `${root}/reads/liver_R1.fastq.gz`, type: "file" }));
    const mine = await team.call("other", "GET", "/api/files?path=uploads");
    expect(mine.body.entries).toMatchObject([{ name: "private.fastq", path: "uploads/private.fastq", type: "file" }]);
  });

  it("fills a template from uploads with the paths jobs read them at, and refuses another user's folder", async () => {
    for (const read of [1, 2] as const) {
      for (const sample of ["s1", "s2"]) {
        const upload = await fetch(`${team.url}/api/files?name=${sample}_R${read}.fastq.gz&path=reads`, { method: "POST", headers: { authorization: `Bearer ${team.tokens.user}`, "content-type": "application/octet-stream" }, body: gzipSync(fastq(4, 60, read)) });
        expect(upload.status).toBe(201);
      }
    }
    const answer = await team.call("user", "POST", "/api/data/template", { body: { paths: ["reads"], template: "rnaseq-quant" } });
    expect(answer.status).toBe(200);
    // Named where the job reads them (the sandbox shows the owner's files folder at its place on the server).
    const files = join(realpathSync(root), "service-data", "users", team.ids.user, "files", "reads");
    expect(answer.body).toMatchObject({ samples: ["s1", "s2"], reads: { how: "pattern", r1: `${files}/{sample}_R1.fastq.gz`, r2: `${files}/{sample}_R2.fastq.gz` } });
    // The analysis still shows the files as the caller named them.
    expect(((answer.body.analysis as { files: LooseJson[] }).files).map((file) => file.path)).toContain("reads/s1_R1.fastq.gz");
    expect((await team.call("user", "POST", "/api/data/template", { body: { paths: [outside] } })).status).toBe(404);
    expect((await team.call("other", "POST", "/api/data/template", { body: { paths: [`../${team.ids.user}/files/reads`] } })).status).toBe(404);
  });

  it("lists a user's own folder and the data root, never the server path of their folder", async () => {
    const answer = await team.call("user", "GET", "/api/data/roots");
    expect(answer.body.roots).toEqual([
      { kind: "own", path: ".", server_path: null },
      { kind: "data", path: root, server_path: root },
    ]);
  });
});
