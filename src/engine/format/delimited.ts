/**
 * Delimited tables (sample sheets, pair sheets: TSV and CSV) read with csv-parse: quoted cells may hold the
 * separator, doubled quotes and line breaks; a UTF-8 BOM, blank lines and `#` comment lines are skipped;
 * LF and CRLF line ends are both accepted. A malformed file is a SOURCE_ERROR naming the file, line and
 * column, so the user can go straight to the character that stopped the reader.
 */
import { CsvError } from "csv-parse";
import { parse } from "csv-parse/sync";
import { EngineError } from "../findings.js";

/** The separators a table may use: comma (CSV) or tab (TSV, TXT, no extension). */
export type Delimiter = "," | "\t";

/** One data row: its trimmed cells and the line (1-based) where it starts. */
export interface DelimitedRow {
  cells: string[];
  line: number;
}

/** Parses delimited text into rows of trimmed cells, each with the line where it starts. */
export function parseDelimited(text: string, delimiter: Delimiter, displayPath: string): DelimitedRow[] {
  // csv-parse counts a CRLF inside a quoted cell as two lines; with LF only, its line numbers are exact.
  // The BOM is dropped here too (not only by csv-parse), so error columns count visible characters.
  const normalised = text.replace(/^\ufeff/, "").replace(/\r\n/g, "\n");
  let records: { record: string[]; info: { lines: number } }[];
  try {
    records = parse(normalised, {
      delimiter,
      bom: true,
      // Only a line that starts with `#` (after blanks) is a comment: `#` inside a cell is data.
      comment: "#",
      comment_no_infix: true,
      skip_empty_lines: true,
      // A line of separators and blanks holds nothing: skipped, like a blank line.
      skip_records_with_empty_values: true,
      trim: true,
      // Rows may be shorter or longer than the header; the readers take the columns they know.
      relax_column_count: true,
      // A quote inside an unquoted cell (`S"1`) is a character of the cell, as the earlier reader had it.
      relax_quotes: true,
      info: true,
    }) as unknown as { record: string[]; info: { lines: number } }[];
  } catch (error) {
    if (error instanceof CsvError) throw delimitedError(error, normalised, delimiter, displayPath);
    throw error;
  }
  return records.map(({ record, info }) => ({
    cells: record,
    // info.lines is where the row ends; a quoted cell with line breaks started that many lines earlier.
    line: info.lines - record.reduce((breaks, cell) => breaks + countBreaks(cell), 0),
  }));
}

function countBreaks(cell: string): number {
  let breaks = 0;
  for (let i = cell.indexOf("\n"); i >= 0; i = cell.indexOf("\n", i + 1)) breaks++;
  return breaks;
}

/** Turns csv-parse's error into a SOURCE_ERROR at the line and character column it concerns. */
function delimitedError(error: CsvError, text: string, delimiter: Delimiter, displayPath: string): EngineError {
  const lines = text.split("\n");
  const field = typeof error.column === "number" ? error.column : 0;
  const separator = delimiter === "\t" ? "tab" : "comma";
  if (error.code === "CSV_QUOTE_NOT_CLOSED") {
    // csv-parse reports the end of the file; the user needs the place where the quote was opened.
    const at = unclosedQuote(text, delimiter);
    return new EngineError("SOURCE_ERROR", `${displayPath}: the quote opened at line ${at.line}, column ${at.column} is never closed`, {
      at: { file: displayPath, line: at.line, column: at.column },
      suggestion: 'close the quoted cell with a second " (write "" for a quote inside a quoted cell)',
    });
  }
  const line = typeof error.lines === "number" && error.lines > 0 ? error.lines : 1;
  const column = columnOfField(lines[line - 1] ?? "", delimiter, field);
  if (error.code === "CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE" || error.code === "CSV_INVALID_CLOSING_QUOTE") {
    return new EngineError("SOURCE_ERROR", `${displayPath}:${line}: cell ${field + 1} has text after its closing quote`, {
      at: { file: displayPath, line, column },
      suggestion: `put the whole cell inside the quotes, and end it with the ${separator} that separates it from the next cell`,
    });
  }
  return new EngineError("SOURCE_ERROR", `${displayPath}:${line}: cannot read cell ${field + 1}: ${error.message}`, {
    at: { file: displayPath, line, column },
    suggestion: `separate cells with a ${separator}; quote a cell that holds a ${separator}, a quote or a line break`,
  });
}

/** The 1-based character column where cell `field` (0-based) of a line starts, past leading blanks. */
function columnOfField(line: string, delimiter: Delimiter, field: number): number {
  let start = 0;
  for (let i = 0; i < field; i++) {
    const next = line.indexOf(delimiter, start);
    if (next < 0) break;
    start = next + 1;
  }
  while (start < line.length && (line[start] === " " || line[start] === "\t") && line[start] !== delimiter) start++;
  return start + 1;
}

/** Where the quote that is still open at the end of the text was opened (quotes open only at a cell's start). */
function unclosedQuote(text: string, delimiter: Delimiter): { line: number; column: number } {
  let line = 1;
  let column = 0;
  let cellStart = true;
  let open: { line: number; column: number } | null = null;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    column++;
    if (open) {
      if (ch === '"' && text[i + 1] === '"') {
        i++;
        column++;
      } else if (ch === '"') open = null;
      else if (ch === "\n") {
        line++;
        column = 0;
      }
      continue;
    }
    if (ch === "\n") {
      line++;
      column = 0;
      cellStart = true;
    } else if (ch === delimiter) cellStart = true;
    else if (ch === '"' && cellStart) open = { line, column };
    else if (ch !== " ") cellStart = false;
  }
  return open ?? { line: 1, column: 1 };
}
