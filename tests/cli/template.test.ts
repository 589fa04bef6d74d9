/**
 * `strand template`: the table of built-in templates, printing one, writing one with -o (then validating and
 * running it), and an unknown name (a usage error naming the nearest template, exit 2).
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { getTemplate, listTemplates } from "../../src/engine/tools/templates.js";
import { parseEnvelope, runStrand, stackTraceLines, tempFolder, type TempFolder } from "../support/strand-cli.js";

const folders: TempFolder[] = [];
afterAll(() => folders.forEach((folder) => folder.remove()));

function folder(): TempFolder {
  const made = tempFolder();
  folders.push(made);
  return made;
}

describe("strand template (list)", () => {
  it("prints a table of every template: id, title and description", async () => {
    const result = await runStrand(["template"]);
    expect(result.exitCode, result.stderr).toBe(0);
    const lines = result.stdout.split("\n");
    expect(lines[0]).toMatch(/^ID\s+TITLE\s+DESCRIPTION$/);
    for (const template of listTemplates()) {
      const row = lines.find((line) => line.startsWith(`${template.id} `));
      expect(row, template.id).toBeDefined();
      expect(row).toContain(template.title);
      expect(row).toContain(template.description);
    }
    expect(result.stdout).toContain("strand template NAME");
  });

  it("gives the catalogue as JSON with --json", async () => {
    const result = await runStrand(["template", "--json"]);
    expect(result.exitCode).toBe(0);
    const envelope = parseEnvelope<{ templates: { id: string; runnable: boolean }[] }>(result);
    const document = { ...envelope.data, command: envelope.command };
    expect(document.command).toBe("template");
    expect(document.templates).toEqual(listTemplates());
    expect(document.templates).toHaveLength(8);
  });
});

describe("strand template NAME", () => {
  it("prints the template's TOML on stdout, exactly", async () => {
    const result = await runStrand(["template", "tumor-normal"]);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toBe(getTemplate("tumor-normal")!.toml_content);
    expect(result.stderr).toBe("");
  });

  it("gives the template with its text as JSON with --json", async () => {
    const result = await runStrand(["template", "hello-world", "--json"]);
    expect(result.exitCode).toBe(0);
    const document = parseEnvelope(result);
    expect(document).toMatchObject({ ok: true, command: "template", findings: [] });
    expect(document.data).toMatchObject({ id: "hello-world", name: "hello-world", toml_content: getTemplate("hello-world")!.toml_content, written: null });
  });

  it("writes the template with -o, refuses to overwrite without --force, and the file validates", async () => {
    const work = folder();
    const first = await runStrand(["template", "germline-variants", "-o", "pipelines/germline.oxoflow"], { cwd: work.dir });
    expect(first.exitCode, first.stderr).toBe(0);
    expect(first.stdout).toBe("");
    expect(first.stderr).toContain("wrote pipelines/germline.oxoflow (template germline-variants)");
    expect(readFileSync(work.path("pipelines/germline.oxoflow"), "utf8")).toBe(getTemplate("germline-variants")!.toml_content);

    const validate = await runStrand(["validate", "pipelines/germline.oxoflow"], { cwd: work.dir });
    expect(validate.exitCode, validate.stdout + validate.stderr).toBe(0);
    const lint = await runStrand(["lint", "pipelines/germline.oxoflow", "--strict"], { cwd: work.dir });
    expect(lint.exitCode, lint.stdout).toBe(0);
    expect(lint.stdout).toContain("Summary: 0 error(s), 0 warning(s)");

    writeFileSync(work.path("pipelines/germline.oxoflow"), "# mine\n");
    const again = await runStrand(["template", "germline-variants", "-o", "pipelines/germline.oxoflow"], { cwd: work.dir });
    expect(again.exitCode).toBe(1);
    expect(again.stderr).toContain("already exists");
    expect(again.stderr).toContain("--force");
    expect(readFileSync(work.path("pipelines/germline.oxoflow"), "utf8")).toBe("# mine\n");

    const forced = await runStrand(["template", "germline-variants", "-o", "pipelines/germline.oxoflow", "--force"], { cwd: work.dir });
    expect(forced.exitCode, forced.stderr).toBe(0);
    expect(readFileSync(work.path("pipelines/germline.oxoflow"), "utf8")).toBe(getTemplate("germline-variants")!.toml_content);
  });

  it("writes NAME.oxoflow when -o names a folder", async () => {
    const work = folder();
    const result = await runStrand(["template", "scatter-gather", "-o", "."], { cwd: work.dir });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(existsSync(work.path("scatter-gather.oxoflow"))).toBe(true);
  });

  it("starts a pipeline that runs: template sample-fanout -o main.oxoflow, then run", async () => {
    const work = folder();
    expect((await runStrand(["template", "sample-fanout", "-o", "main.oxoflow"], { cwd: work.dir })).exitCode).toBe(0);
    const run = await runStrand(["run", "-j", "4"], { cwd: work.dir, env: { STRAND_LOCK_DIR: work.path(".locks") } });
    expect(run.exitCode, run.stdout + run.stderr).toBe(0);
    expect(run.stdout + run.stderr).toContain("10 succeeded");
    expect(readFileSync(work.path("results/cohort_summary.tsv"), "utf8").trim().split("\n")).toHaveLength(4);
  });
});

describe("strand template errors", () => {
  it("an unknown name is a usage error naming the nearest template (exit 2)", async () => {
    const result = await runStrand(["template", "hello-wrld"]);
    expect(result.exitCode).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain("unknown template 'hello-wrld' (did you mean 'hello-world'?)");
    expect(result.stderr).toContain("hint: the templates are: hello-world, file-chain,");
    expect(result.stderr).toContain("Usage: strand template [NAME]");
    expect(stackTraceLines(result.stderr)).toEqual([]);
  });

  it("suggests the template a partial name belongs to", async () => {
    expect((await runStrand(["template", "rnaseq"])).stderr).toContain("did you mean 'rnaseq-quant'?");
    expect((await runStrand(["template", "somatic-pairs"])).stderr).toContain("did you mean 'tumor-normal'?");
    expect((await runStrand(["template", "scatter"])).stderr).toContain("did you mean 'scatter-gather'?");
  });

  it("an unknown name with --json gives the usage error as JSON", async () => {
    const result = await runStrand(["template", "nope", "--json"]);
    expect(result.exitCode).toBe(2);
    expect(parseEnvelope(result).findings).toEqual([expect.objectContaining({ code: "USAGE_ERROR" })]);
  });

  it("refuses two names, -o without a name, and unknown options (exit 2)", async () => {
    for (const args of [["template", "hello-world", "file-chain"], ["template", "-o", "x.oxoflow"], ["template", "hello-world", "--bogus"]]) {
      const result = await runStrand(args);
      expect(result.exitCode, args.join(" ")).toBe(2);
      expect(result.stderr).toContain("Usage: strand template");
    }
  });
});
