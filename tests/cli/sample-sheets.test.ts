/**
 * Sample sheets through the command line: a CRLF sheet with a BOM, comments and a multi-line quoted cell
 * plans its samples; a malformed sheet stops `validate` with a SOURCE_ERROR at the sheet's line and column.
 */
import { afterAll, expect, it } from "vitest";
import { parseJson, runStrand, tempFolder, type TempFolder } from "../support/strand-cli.js";

const PIPELINE = `[workflow]\nname = "sheets"\nsample_groups_file = "groups.csv"\n\n[[rules]]\nname = "align"\noutput = ["bam/{sample}.bam"]\nshell = "touch {output}"\n`;
const folders: TempFolder[] = [];
afterAll(() => folders.forEach((folder) => folder.remove()));

function folderWith(sheet: string): TempFolder {
  const folder = tempFolder({ "main.oxoflow": PIPELINE, "groups.csv": sheet }, "strand-sheets-");
  folders.push(folder);
  return folder;
}

it("dry-run plans the samples of a CRLF sheet with a BOM, comment lines and a quoted multi-line cell", async () => {
  const folder = folderWith('\ufeff# cohort sheet\r\nname,samples,note\r\n\r\ncohort,"S1,S2","two\r\nlines"\r\n');
  const result = await runStrand(["dry-run", "main.oxoflow", "--json"], { cwd: folder.dir });
  expect(result.exitCode, result.stderr).toBe(0);
  const plan = parseJson<{ data: { plan: { name: string }[] } }>(result).data.plan;
  expect(plan.map((job) => job.name)).toEqual(["align_cohort_S1", "align_cohort_S2"]);
});

it("validate names the sheet, line and column of a quote that is never closed, with a suggestion", async () => {
  const folder = folderWith('name,samples\ncohort,S1\nrest,"S2,S3\n');
  const result = await runStrand(["validate", "main.oxoflow"], { cwd: folder.dir });
  expect(result.exitCode).toBe(1);
  expect(result.stdout).toContain("error [SOURCE_ERROR] groups.csv:3:6: groups.csv: the quote opened at line 3, column 6 is never closed");
  expect(result.stdout).toContain('hint: close the quoted cell with a second "');
});
