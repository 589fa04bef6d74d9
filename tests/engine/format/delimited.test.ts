/**
 * Delimited sample and pair sheets read through csv-parse: quoted cells with separators, doubled quotes and
 * line breaks, a BOM, comment and blank lines, CRLF, and errors that name the file, line and column.
 */
import { afterAll, describe, expect, it } from "vitest";
import { parseDelimited } from "../../../src/engine/format/delimited.js";
import { loadPipeline } from "../../../src/engine/format/load.js";
import type { Pipeline } from "../../../src/engine/format/model.js";
import { engineError, removeTempDirs, tempDir, writeFile } from "../../support/temp-workspace.js";

afterAll(removeTempDirs);

async function loadWith(workflowKey: string, files: Record<string, string>): Promise<Pipeline> {
  const dir = tempDir();
  for (const [path, content] of Object.entries(files)) writeFile(dir, path, content);
  return loadPipeline(writeFile(dir, "main.oxoflow", `[workflow]\nname = "demo"\n${workflowKey}\n`));
}

const groupsOf = (pipeline: Pipeline) => pipeline.sample_groups.map((group) => [group.name, group.samples]);

describe("sample sheets read with csv-parse", () => {
  it("a quoted CSV cell may hold commas, doubled quotes and a line break", async () => {
    const csv = 'name,samples,note\ncohort,"S1,S2,S3","said ""hi""\nover two lines"\nsolo,S4,plain\n';
    const pipeline = await loadWith('sample_groups_file = "groups.csv"', { "groups.csv": csv });
    expect(groupsOf(pipeline)).toEqual([
      ["cohort", ["S1", "S2", "S3"]],
      ["solo", ["S4"]],
    ]);
  });

  it("a quoted TSV cell may hold a tab", () => {
    expect(parseDelimited('name\tsamples\n"a\tb"\tS1\n', "\t", "g.tsv").map((row) => row.cells)).toEqual([
      ["name", "samples"],
      ["a\tb", "S1"],
    ]);
  });

  it("a UTF-8 BOM does not become part of the first header cell", async () => {
    const pipeline = await loadWith('sample_groups_file = "groups.tsv"', { "groups.tsv": "\ufeffname\tsamples\ng1\tS1\n" });
    expect(groupsOf(pipeline)).toEqual([["g1", ["S1"]]]);
  });

  it("skips # comment lines (indented too) and blank or blank-cell lines, but keeps # inside a cell", async () => {
    const tsv = "# study sheet\nname\tsamples\n\n   # a note\n \t \ng#1\tS1\n";
    const pipeline = await loadWith('sample_groups_file = "groups.tsv"', { "groups.tsv": tsv });
    expect(groupsOf(pipeline)).toEqual([["g#1", ["S1"]]]);
  });

  it("reads CRLF line ends, and LF and CRLF mixed", async () => {
    const pipeline = await loadWith('sample_groups_file = "groups.csv"', { "groups.csv": 'name,samples\r\ng1,"S1,S2"\r\ng2,S3\ng3,S4\r\n' });
    expect(groupsOf(pipeline)).toEqual([
      ["g1", ["S1", "S2"]],
      ["g2", ["S3"]],
      ["g3", ["S4"]],
    ]);
  });

  it("gives each row the line where it starts, after comments, blank lines and multi-line cells", () => {
    const rows = parseDelimited('# c\nname,samples\n\ng1,"S1,\nS2"\r\ng2,S3\n', ",", "g.csv");
    expect(rows.map((row) => row.line)).toEqual([2, 4, 6]);
  });

  it("keeps what the earlier reader accepted: a quote inside an unquoted cell, ragged rows, trimmed cells", () => {
    expect(parseDelimited('name\tsamples\textra\n g \t S"1 \n', "\t", "g.tsv").map((row) => row.cells)).toEqual([
      ["name", "samples", "extra"],
      ["g", 'S"1'],
    ]);
  });
});

describe("pairs sheets read with csv-parse", () => {
  it("a quoted metadata cell may hold the separator; a row without pair_id is SOURCE_ERROR at its line", async () => {
    const csv = 'pair_id,experiment,control,site\nP1,T1,N1,"Lyon, FR"\n';
    const pipeline = await loadWith('pairs_file = "pairs.csv"', { "pairs.csv": csv });
    expect(pipeline.pairs[0]).toMatchObject({ pair_id: "P1", experiment: "T1", control: "N1", metadata: { site: "Lyon, FR" } });

    const error = await engineError(loadWith('pairs_file = "pairs.csv"', { "pairs.csv": "pair_id,experiment\n# note\nP1,T1\n,T2\n" }));
    expect(error.code).toBe("SOURCE_ERROR");
    expect(error.message).toBe("pairs.csv:4: a pair needs pair_id and experiment (or tumor)");
    expect(error.finding).toMatchObject({ file: "pairs.csv", line: 4, column: 1 });
  });
});

describe("malformed sheets are SOURCE_ERROR naming the file, line and column, with a suggestion", () => {
  it("an unclosed quote is reported where it was opened", async () => {
    const error = await engineError(loadWith('sample_groups_file = "groups.tsv"', { "groups.tsv": 'name\tsamples\ng1\tS1\ng2\t"S2,S3\ng3\tS4\n' }));
    expect(error.code).toBe("SOURCE_ERROR");
    expect(error.message).toBe("groups.tsv: the quote opened at line 3, column 4 is never closed");
    expect(error.finding).toMatchObject({ file: "groups.tsv", line: 3, column: 4 });
    expect(error.finding.suggestion).toContain('close the quoted cell');
  });

  it("text after a closing quote is reported at its cell", async () => {
    const error = await engineError(loadWith('pairs_file = "pairs.csv"', { "pairs.csv": 'pair_id,experiment\nP1, "T1" x\n' }));
    expect(error.code).toBe("SOURCE_ERROR");
    expect(error.message).toBe("pairs.csv:2: cell 2 has text after its closing quote");
    expect(error.finding).toMatchObject({ file: "pairs.csv", line: 2, column: 5 });
    expect(error.finding.suggestion).toContain("comma");
  });

  it("a header-only sheet is read as no groups, not an error", async () => {
    const pipeline = await loadWith('sample_groups_file = "groups.tsv"', { "groups.tsv": "name\tsamples\n" });
    expect(pipeline.sample_groups).toEqual([]);
  });
});
