import { describe, it, expect } from "vitest";
import fc from "fast-check";
import { parse, stringify } from "smol-toml";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { formatPipelineText, isFormatted } from "../../../src/engine/format/canonical-format.js";
import { EngineError } from "../../../src/engine/findings.js";

const format = (text: string): string => formatPipelineText(text, "test.oxoflow");

/** The text of every comment, found by a lexer that knows nothing of the formatter (strings skipped). */
function commentTexts(text: string): string[] {
  const comments: string[] = [];
  let i = 0;
  const skipMultiline = (delimiter: string): void => {
    i += 3;
    while (i < text.length && !text.startsWith(delimiter, i)) i += delimiter === '"""' && text[i] === "\\" ? 2 : 1;
    i += 3;
    while (text[i] === delimiter[0]) i++;
  };
  while (i < text.length) {
    const ch = text[i];
    if (text.startsWith('"""', i) || text.startsWith("'''", i)) skipMultiline(text.slice(i, i + 3));
    else if (ch === '"') {
      i++;
      while (i < text.length && text[i] !== '"') i += text[i] === "\\" ? 2 : 1;
      i++;
    } else if (ch === "'") i = text.indexOf("'", i + 1) + 1;
    else if (ch === "#") {
      const end = text.indexOf("\n", i);
      comments.push(text.slice(i, end < 0 ? text.length : end).trim());
      i = end < 0 ? text.length : end;
    } else i++;
  }
  return comments.sort();
}

/** Round trip, idempotence, `--check` on the output, and no comment lost. */
function expectCanonical(text: string): string {
  const out = format(text);
  expect(parse(out)).toEqual(parse(text));
  expect(format(out)).toBe(out);
  expect(isFormatted(out)).toBe(true);
  expect(commentTexts(out)).toEqual(commentTexts(text));
  return out;
}

/** Table headers in the order they are written. */
const headers = (text: string): string[] => text.split("\n").filter((line) => line.startsWith("["));

describe("formatPipelineText: order", () => {
  it("writes top-level tables in canonical order, unknown tables last in source order", () => {
    const out = expectCanonical(`
[zeta]
a = 1

[[values]]
name = "v"
values = ["1"]

[config]
x = 1

[wildcard_constraints]
sample = "[a-z]+"

[[rules]]
name = "r"

[alpha]
b = 2

[defaults]
threads = 2

[workflow]
name = "w"

[[include]]
path = "m.oxoflow"

[webhook]
url = "http://x"
`);
    expect(headers(out)).toEqual([
      "[workflow]",
      "[config]",
      "[defaults]",
      "[[rules]]",
      "[[include]]",
      "[wildcard_constraints]",
      "[[values]]",
      "[webhook]",
      "[zeta]",
      "[alpha]",
    ]);
  });

  it("writes top-level plain keys before the first table header", () => {
    const out = expectCanonical(`variables = 1\nreference_dir = "refs"\n\n[workflow]\nname = "w"\n`);
    expect(out).toBe(`reference_dir = "refs"\nvariables = 1\n\n[workflow]\nname = "w"\n`);
  });

  it("orders [workflow] and rule keys as §4.6 says, unknown keys after the known ones in source order", () => {
    const out = expectCanonical(`
[workflow]
author = "me"
zz_custom = 1
version = "1.0"
name = "w"
description = "d"

[[rules]]
description = "first rule"
my_extra = "kept"
shell = "echo"
output = ["b"]
another = 2
threads = 4
input = ["a"]
name = "one"
`);
    expect(out).toBe(`[workflow]
name = "w"
version = "1.0"
description = "d"
author = "me"
zz_custom = 1

[[rules]]
name = "one"
input = ["a"]
output = ["b"]
shell = "echo"
threads = 4
description = "first rule"
my_extra = "kept"
another = 2
`);
  });

  it("keeps free maps (config, params, envvars, named inputs) in source order", () => {
    const out = expectCanonical(`
[workflow]
name = "w"

[config]
zebra = 1
apple = 2
mango = { b = 1, a = 2 }

[[rules]]
name = "r"
input = { reads = "r.fq", index = "i.bai", alpha = "a" }
params = { z = 1, a = 2 }
envvars = { Z = "1", A = "2" }
`);
    expect(out).toContain("zebra = 1\napple = 2\nmango = { b = 1, a = 2 }\n");
    expect(out).toContain(`input = { reads = "r.fq", index = "i.bai", alpha = "a" }`);
    expect(out).toContain("params = { z = 1, a = 2 }");
    expect(out).toContain(`envvars = { Z = "1", A = "2" }`);
  });

  it("keeps sub-tables with their rule, after its plain keys, and never reorders rules", () => {
    const out = expectCanonical(`
[[rules]]
name = "one"

[rules.environment]
conda = "one.yaml"

[rules.resources]
memory = "8G"
threads = 8

[[rules]]
name = "two"
shell = "x"

[rules.transform.split]
values = ["a"]
by = "chunk"

[rules.transform]
map = "m"

[workflow]
name = "w"

[[rules]]
name = "three"
`);
    expect(headers(out)).toEqual([
      "[workflow]",
      "[[rules]]",
      "[rules.resources]",
      "[rules.environment]",
      "[[rules]]",
      "[rules.transform.split]",
      "[rules.transform]",
      "[[rules]]",
    ]);
    const rules = (parse(out) as { rules: { name: string }[] }).rules.map((rule) => rule.name);
    expect(rules).toEqual(["one", "two", "three"]);
    expect(out).toContain(`[rules.resources]\nthreads = 8\nmemory = "8G"\n`);
    expect(out).toContain(`[rules.transform.split]\nby = "chunk"\nvalues = ["a"]\n`);
  });

  it("orders the entries of known inline tables and leaves dotted keys dotted", () => {
    const out = expectCanonical(`
[workflow]
name = "w"

[[rules]]
name = "r"
environment = {docker="img",   conda = "c.yaml"}
params.read_group = "@RG"
params.platform = "ILLUMINA"
resources = { memory = "4G", threads = 2 }
`);
    expect(out).toContain(`resources = { threads = 2, memory = "4G" }\nenvironment = { conda = "c.yaml", docker = "img" }\nparams.read_group = "@RG"\nparams.platform = "ILLUMINA"\n`);
  });

  it("keeps [workflow] first in an included module", () => {
    const out = expectCanonical(`[[rules]]\nname = "a"\n\n[workflow]\nname = "module"\n`);
    expect(headers(out)[0]).toBe("[workflow]");
  });
});

describe("formatPipelineText: comments", () => {
  it("moves a comment block before [[rules]] with its rule", () => {
    const out = expectCanonical(`
# ------------------------------------------------------------
# 1. Alignment
# ------------------------------------------------------------
[[rules]]
name = "align" # the aligner

# the pipeline
[workflow]
name = "w"
`);
    expect(out).toBe(`# the pipeline
[workflow]
name = "w"

# ------------------------------------------------------------
# 1. Alignment
# ------------------------------------------------------------
[[rules]]
name = "align" # the aligner
`);
  });

  it("keeps a file header on top when the first item moves", () => {
    const out = expectCanonical(`# My pipeline
# (c) someone

[config]
a = 1

[workflow]
name = "w"
`);
    expect(out).toBe(`# My pipeline
# (c) someone

[workflow]
name = "w"

[config]
a = 1
`);
  });

  it("moves comments with keys when keys are reordered, and keeps same-line comments on their line", () => {
    const out = expectCanonical(`
[workflow]
# why this description
description = "d" # short
name = "w"
`);
    expect(out).toBe(`[workflow]\nname = "w"\n# why this description\ndescription = "d" # short\n`);
  });

  it("keeps comments inside arrays: before an element, after it, and before the closing bracket", () => {
    const out = expectCanonical(`
[workflow]
name = "w"

[[rules]]
name = "r"
output = [ # all outputs
  "a.bam", # the alignment
  # the index comes next

  # really
  "a.bai"
  # nothing else
]
`);
    expect(out).toContain(`output = [
    # all outputs
    "a.bam", # the alignment
    # the index comes next

    # really
    "a.bai",
    # nothing else
]
`);
  });

  it("keeps comments written between an element and a comma on a later line", () => {
    const out = expectCanonical(`a = [\n  "x" # t\n  # c\n  , "y"\n]\n`);
    expect(out).toBe(`a = [\n    "x", # t\n    # c\n    "y",\n]\n`);
  });

  it("keeps comments inside multi-line inline tables", () => {
    const out = expectCanonical(`
[workflow]
name = "w"

[[rules]]
name = "r"
input = {
  reads = "r.fq", # forward
  # the index
  index = "i.bai",
}
`);
    expect(out).toContain(`input = {\n    reads = "r.fq", # forward\n    # the index\n    index = "i.bai",\n}\n`);
  });

  it("keeps comments at the end of the file at the end", () => {
    const out = expectCanonical(`[config]\na = 1\n\n[workflow]\nname = "w"\n\n# the end\n# really\n`);
    expect(out.endsWith(`[config]\na = 1\n\n# the end\n# really\n`)).toBe(true);
  });

  it("aligns same-line comments of consecutive short keys and keeps their continuation lines", () => {
    const out = expectCanonical(`
[workflow]
name = "w"

[config]
threads = 4    # per job
assay = "SCT"          # the assay
                       # (continued here)
variable_features_only = "0"    # 1 = yes
# next block
x = 1 # alone
`);
    expect(out).toContain(`[config]
threads = 4                  # per job
assay = "SCT"                # the assay
                             # (continued here)
variable_features_only = "0" # 1 = yes
# next block
x = 1 # alone
`);
  });

  it("keeps at most one blank line, one before every table header and none right after it", () => {
    const out = expectCanonical(`[workflow]


name = "w"



# about a
a = 1
[config]

b = 2


c = 3
`);
    expect(out).toBe(`[workflow]\nname = "w"\n\n# about a\na = 1\n\n[config]\nb = 2\n\nc = 3\n`);
  });
});

describe("formatPipelineText: values", () => {
  it("keeps multi-line shell strings with line continuations, backslashes and quotes byte for byte", () => {
    const shell = `shell = """
bwa mem -t {threads} \\\\
    -R "@RG\\tID:{sample}" \\\\
    {input} > {output}
awk '{ print $1 }' "quoted \\"path\\"" \\
  continued
"""`;
    const out = expectCanonical(`[workflow]\nname = "w"\n\n[[rules]]\nname = "r"\n${shell}\n`);
    expect(out).toContain(shell);
  });

  it("writes strings with newlines as multi-line strings with the same value", () => {
    const cases = ['a\nb', '\nstarts with newline', 'ends with quote"\n"', 'three """ quotes\n""""', 'back\\slash\\\n\\', 'cr\r\nlf', 'tab\there\n', 'ünïcödé 😀\n✓'];
    for (const value of cases) {
      const text = stringify({ workflow: { name: "w" }, config: { value } });
      const out = expectCanonical(text);
      expect(out).toContain('value = """\n');
      expect((parse(out) as { config: { value: string } }).config.value).toBe(value);
    }
  });

  it("uses double quotes with minimal escapes, or a literal string where that avoids escapes", () => {
    const out = expectCanonical(`
[workflow]
name = 'w'

[config]
plain = 'text'
regex = "^\\\\d+\\\\.txt$"
quoted = "say \\"hi\\""
both = "it's \\"x\\""
unicode = "caf\\u00e9"
control = "bell\\u0007"
`);
    expect(out).toContain(`name = "w"`);
    expect(out).toContain(`plain = "text"`);
    expect(out).toContain(`regex = '^\\d+\\.txt$'`);
    expect(out).toContain(`quoted = 'say "hi"'`);
    expect(out).toContain(`both = "it's \\"x\\""`);
    expect(out).toContain(`unicode = "café"`);
    expect(out).toContain(`control = "bell\\u0007"`);
  });

  it("keeps the source text of numbers, booleans and dates", () => {
    const out = expectCanonical(`[workflow]\nname = "w"\n\n[config]\nbig = 1_000_000\nhex = 0xff\nf = 1e3\nyes = true\nwhen = 2024-01-02T03:04:05Z\nday = 2024-01-02\nat = 07:30:00\nnan = nan\n`);
    expect(out).toContain("big = 1_000_000\nhex = 0xff\nf = 1e3\nyes = true\nwhen = 2024-01-02T03:04:05Z\nday = 2024-01-02\nat = 07:30:00\nnan = nan\n");
  });

  it("lays arrays out on one line when short and one element per line otherwise", () => {
    const long = Array.from({ length: 6 }, (_, i) => `"results/{sample}/file_number_${i}.txt"`);
    const out = expectCanonical(`[workflow]\nname = "w"\n\n[config]\nempty = [ ]\nshort = [\n  "a",\n  "b",\n]\nlong = [${long.join(",")}]\nnested = [[1, 2], [3]]\ntables = [ {a=1}, {b = 2} ]\n`);
    expect(out).toContain(`empty = []\nshort = ["a", "b"]\nlong = [\n${long.map((item) => `    ${item},`).join("\n")}\n]\nnested = [[1, 2], [3]]\ntables = [{ a = 1 }, { b = 2 }]\n`);
  });

  it("keeps quoted keys quoted only when they must be", () => {
    const out = expectCanonical(`[workflow]\nname = "w"\n\n[config]\n"plain" = 1\n"with space" = 2\n'dotted.key' = 3\n"" = 4\n`);
    expect(out).toContain(`plain = 1\n"with space" = 2\n"dotted.key" = 3\n"" = 4\n`);
  });
});

describe("formatPipelineText: errors and --check", () => {
  it("throws a PARSE_ERROR EngineError with a position on invalid TOML", () => {
    let caught: unknown;
    try {
      formatPipelineText(`[workflow]\nname = "w\n`, "bad.oxoflow");
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(EngineError);
    expect((caught as EngineError).code).toBe("PARSE_ERROR");
    expect((caught as EngineError).finding.file).toBe("bad.oxoflow");
  });

  it("isFormatted is true on formatted text (with or without the final newline) and false otherwise", () => {
    const text = `[config]\na=1\n[workflow]\nname="w"\n`;
    expect(isFormatted(text)).toBe(false);
    const out = format(text);
    expect(isFormatted(out)).toBe(true);
    expect(isFormatted(out.replace(/\n$/, ""))).toBe(true);
    expect(isFormatted(out + "\n")).toBe(false);
  });

  it("formats an empty file and a file of comments only", () => {
    expect(format("")).toBe("");
    expect(expectCanonical("\n# only\n\n\n# comments\n")).toBe("# only\n\n# comments\n");
  });
});

describe.skipIf(!process.env.STRAND_CORPUS)("formatPipelineText: the corpus", () => {
  const root = process.env.STRAND_CORPUS ?? "";
  const files = root ? pipelineFiles(root) : [];

  it("finds pipeline files", () => {
    expect(files.length).toBeGreaterThan(0);
  });

  it.each(files)("%s: round trip, idempotence, every comment kept", (file) => {
    const text = readFileSync(file, "utf8");
    const out = formatPipelineText(text, file);
    expect(parse(out)).toEqual(parse(text));
    expect(formatPipelineText(out, file)).toBe(out);
    expect(isFormatted(out)).toBe(true);
    expect(commentTexts(out)).toEqual(commentTexts(text));
    const commentLines = (t: string): number => t.split("\n").filter((line) => line.trimStart().startsWith("#")).length;
    // Comment lines may only be added (a comment after `[` gets a line of its own), never lost.
    expect(commentLines(out)).toBeGreaterThanOrEqual(commentLines(text));
  });
});

function pipelineFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.(oxoflow|toml)$/.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}

describe("formatPipelineText: generated pipelines", () => {
  const tricky = fc.string({
    unit: fc.constantFrom('"', "'", "\\", "\n", "\r\n", "\t", " ", "#", "a", "Z", "é", "😀", "\u0001", "=", "[", "]", "{", "}", ".", '"""', "'''", "\\n"),
    maxLength: 12,
  });
  const text = fc.oneof(tricky, fc.string({ unit: "binary", maxLength: 10 }), fc.stringMatching(/^[a-z{}/._]{1,20}$/));
  const key = fc
    .oneof(fc.stringMatching(/^[a-z_][a-z0-9_-]{0,8}$/), fc.string({ unit: "binary", maxLength: 5 }), tricky)
    .filter((name) => !["__proto__", "constructor", "prototype"].includes(name));
  const scalar = fc.oneof(text, fc.integer(), fc.boolean(), fc.constantFrom(0.5, -2.25, 1e100), fc.date({ min: new Date(0), max: new Date(4e12), noInvalidDate: true }));
  const value = fc.oneof(scalar, fc.array(scalar, { maxLength: 4 }), fc.dictionary(key, scalar, { maxKeys: 3 }));

  /** The same record with its keys in a random order. */
  const shuffled = <T extends object>(arb: fc.Arbitrary<T>): fc.Arbitrary<T> =>
    arb.chain((record) => {
      const entries = Object.entries(record);
      return fc.shuffledSubarray(entries, { minLength: entries.length, maxLength: entries.length }).map((list) => Object.fromEntries(list) as T);
    });

  const rule = shuffled(
    fc.record(
      {
        name: text,
        input: fc.oneof(fc.array(text, { maxLength: 4 }), fc.dictionary(key, text, { maxKeys: 3 })),
        output: fc.array(text, { maxLength: 5 }),
        shell: text,
        threads: fc.integer({ min: 1, max: 64 }),
        environment: shuffled(fc.record({ conda: text, docker: text }, { requiredKeys: [] })),
        resources: shuffled(fc.record({ memory: text, threads: fc.integer({ min: 1, max: 8 }) }, { requiredKeys: [] })),
        params: fc.dictionary(key, value, { maxKeys: 4 }),
        description: text,
        custom_key: value,
      },
      { requiredKeys: ["name"] },
    ),
  );
  const pipeline = shuffled(
    fc.record(
      {
        workflow: shuffled(fc.record({ name: text, version: text, description: text }, { requiredKeys: ["name"] })),
        config: fc.dictionary(key, value, { maxKeys: 5 }),
        rules: fc.array(rule, { minLength: 1, maxLength: 4 }),
        pairs: fc.array(fc.record({ pair_id: text, experiment: text, metadata: fc.dictionary(key, text, { maxKeys: 2 }) }), { maxLength: 2 }),
        unknown_table: fc.dictionary(key, value, { maxKeys: 2 }),
      },
      { requiredKeys: ["workflow", "rules"] },
    ),
  );

  /** Adds comment lines, same-line comments and blank lines to a TOML text that has no multi-line strings. */
  const decorate = (toml: string, marks: number[]): string =>
    toml
      .split("\n")
      .map((line, index) => {
        const mark = marks.length > 0 ? marks[index % marks.length] : 0;
        if (line.trim() === "") return line;
        if (mark === 1) return `# before line ${index}\n${line}`;
        if (mark === 2) return `${line} # after line ${index}`;
        if (mark === 3) return `\n\n# after a gap ${index}\n\n${line}`;
        if (mark === 4) return `\n${line}`;
        return line;
      })
      .join("\n");

  it("round-trips and is idempotent", () => {
    fc.assert(
      fc.property(pipeline, fc.array(fc.integer({ min: 0, max: 4 }), { maxLength: 8 }), (data, marks) => {
        const toml = decorate(stringify(data), marks);
        const out = format(toml);
        expect(parse(out)).toEqual(parse(toml));
        expect(format(out)).toBe(out);
        expect(isFormatted(out)).toBe(true);
        expect(commentTexts(out)).toEqual(commentTexts(toml));
      }),
      { numRuns: 300 },
    );
  });
});
