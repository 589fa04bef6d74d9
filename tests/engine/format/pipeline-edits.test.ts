/**
 * Graph edits of pipeline text: each operation on a small commented pipeline (the whole expected text is
 * written out, so every untouched byte is checked), the inline `rules = [{…}]` style, the refusals, and
 * seeded random sequences on every corpus pipeline whose edited text must read as exactly what the edits
 * mean.
 */
import { describe, expect, it } from "vitest";
import { parse } from "smol-toml";
import { applyGraphEdit, GRAPH_OPERATIONS, PipelineEditError } from "../../../src/engine/format/pipeline-edits.js";
import { corpusPipelines, corpusRoot, expectedAfter, plain, randomEdit, seededRandom } from "../../support/graph-edit-sequences.js";

const PIPELINE = `# My pipeline
[workflow]
name = "demo" # the name
version = "1.0"

[config]
reference = "ref.fa"

# Trim reads
[[rules]]
name = "trim"   # first step
input = ["raw.fq"]
output = ["trimmed.fq"]
shell = "fastp -i {input} -o {output}"

[rules.resources]
threads = 4

# Align them
[[rules]]
name = "align"
input = ["trimmed.fq"]
output = ["aligned.bam"]
depends_on = ["trim"]
resources.threads = 8
shell = """
bwa mem {input} > {output}
"""

[[rules]]
name = "report"
input = ["aligned.bam"]
output = ["report.html"]
depends_on = ["align", "trim"] # both
shell = "multiqc ."
`;

const INLINE = `# top
rules = [
  { name = "a", output = ["a.txt"], shell = "touch a.txt" }, # first
  { name = "b", input = ["a.txt"], depends_on = ["a"], shell = "cat a.txt" },
]

[workflow]
name = "x"
`;

/** The text with one passage replaced (the passage must be there exactly once). */
function replaced(text: string, from: string, to: string): string {
  expect(text.split(from).length, `"${from}" once`).toBe(2);
  return text.replace(from, to);
}

function refusal(text: string, operation: string, payload: unknown): PipelineEditError {
  try {
    applyGraphEdit(text, operation, payload);
  } catch (error) {
    expect(error).toBeInstanceOf(PipelineEditError);
    return error as PipelineEditError;
  }
  throw new Error(`${operation} was not refused`);
}

describe("graph edits of [[rules]] tables keep every untouched byte", () => {
  it("add_rule appends a [[rules]] table after the last rule, multi-line shell as a \"\"\" string, tables inline", () => {
    const edited = applyGraphEdit(PIPELINE, "add_rule", { rule: { name: "count", input: ["aligned.bam"], output: ["counts.txt"], shell: "samtools view -c {input} \\\n  > {output}", resources: { threads: 2 }, optional: true } });
    expect(edited).toBe(`${PIPELINE}\n[[rules]]\nname = "count"\ninput = ["aligned.bam"]\noutput = ["counts.txt"]\nshell = """\nsamtools view -c {input} \\\\\n  > {output}"""\nresources = { threads = 2 }\noptional = true\n`);
    expect((parse(edited).rules as { shell: string }[])[3]!.shell).toBe("samtools view -c {input} \\\n  > {output}");
  });

  it("remove_rule drops the rule with its sub-tables and the comments above it, and its name from every depends_on", () => {
    const edited = applyGraphEdit(PIPELINE, "remove_rule", { name: "trim" });
    let expected = replaced(PIPELINE, `# Trim reads\n[[rules]]\nname = "trim"   # first step\ninput = ["raw.fq"]\noutput = ["trimmed.fq"]\nshell = "fastp -i {input} -o {output}"\n\n[rules.resources]\nthreads = 4\n\n`, "");
    expected = replaced(expected, 'depends_on = ["trim"]\n', "");
    expected = replaced(expected, 'depends_on = ["align", "trim"] # both', 'depends_on = ["align"] # both');
    expect(edited).toBe(expected);
  });

  it("connect appends to depends_on (creating it when missing) and is idempotent", () => {
    const once = applyGraphEdit(PIPELINE, "connect", { from: "align", to: "trim" });
    expect(once).toBe(replaced(PIPELINE, 'shell = "fastp -i {input} -o {output}"\n', 'shell = "fastp -i {input} -o {output}"\ndepends_on = ["align"]\n'));
    expect(applyGraphEdit(once, "connect", { from: "align", to: "trim" })).toBe(once);
    expect(applyGraphEdit(PIPELINE, "connect", { from: "report", to: "align" })).toBe(replaced(PIPELINE, 'depends_on = ["trim"]', 'depends_on = ["trim", "report"]'));
    expect(applyGraphEdit(PIPELINE, "connect", { from: "trim", to: "align" })).toBe(PIPELINE);
  });

  it("disconnect removes the entry, and the key when it was the last", () => {
    expect(applyGraphEdit(PIPELINE, "disconnect", { from: "align", to: "report" })).toBe(replaced(PIPELINE, 'depends_on = ["align", "trim"] # both', 'depends_on = ["trim"] # both'));
    expect(applyGraphEdit(PIPELINE, "disconnect", { from: "trim", to: "align" })).toBe(replaced(PIPELINE, 'depends_on = ["trim"]\n', ""));
  });

  it("update_rule merges: null deletes, a [rules.resources] table gains keys in place, dotted keys stay dotted", () => {
    const edited = applyGraphEdit(PIPELINE, "update_rule", { name: "trim", patch: { resources: { threads: 2, memory: "4G" }, shell: null, description: "trim it" } });
    let expected = replaced(PIPELINE, 'shell = "fastp -i {input} -o {output}"\n', 'description = "trim it"\n');
    expected = replaced(expected, "threads = 4\n", 'threads = 2\nmemory = "4G"\n');
    expect(edited).toBe(expected);
    const dotted = applyGraphEdit(PIPELINE, "update_rule", { name: "align", patch: { resources: { gpu: 1 }, params: { k: 31 } } });
    expect(dotted).toBe(replaced(replaced(PIPELINE, "resources.threads = 8\n", "resources.threads = 8\nresources.gpu = 1\n"), 'bwa mem {input} > {output}\n"""\n', 'bwa mem {input} > {output}\n"""\nparams = { k = 31 }\n'));
  });

  it("update_workflow patches top-level tables and adds new ones at the end", () => {
    const edited = applyGraphEdit(PIPELINE, "update_workflow", { patch: { workflow: { version: "2.0" }, config: null, defaults: { threads: 2 } } });
    let expected = replaced(PIPELINE, 'version = "1.0"', 'version = "2.0"');
    expected = replaced(expected, '[config]\nreference = "ref.fa"\n\n', "");
    expect(edited).toBe(`${expected}\n[defaults]\nthreads = 2\n`);
  });

  it("rename_rule renames the rule and every reference: depends_on, extends, scatter.gather, execution groups", () => {
    const edited = applyGraphEdit(PIPELINE, "rename_rule", { from: "trim", to: "trimming" });
    expect(edited).toBe(PIPELINE.replaceAll('"trim"', '"trimming"'));
    const text = `[workflow]\nname = "w"\n\n[[rules]]\nname = "split"\nshell = "x"\n\n[[rules]]\nname = "call"\nextends = "split"\nscatter = { variable = "chr", values = ["1"], gather = "split" }\nshell = "y"\n\n[[execution_group]]\nname = "g"\nrules = ["call", "split"]\n`;
    expect(applyGraphEdit(text, "rename_rule", { from: "split", to: "chunk" })).toBe(text.replaceAll('"split"', '"chunk"'));
  });

  it("writes any JSON text faithfully: quotes, backslashes, control characters, line breaks, odd keys", () => {
    const tricky = ['say "hi"\n"""', 'C:\\path\\', "tab\tcr\r\nnul\u0000del\u007f end\"", "ünïcödé ✓\n", '"', "\n\n"];
    for (const shell of tricky) {
      const patch = { shell, params: { "odd key": shell, n: -1.5e-7, big: 9007199254740991, on: false, list: [shell, 1, [true]] } };
      const edited = applyGraphEdit(PIPELINE, "update_rule", { name: "trim", patch });
      const rule = (parse(edited).rules as Record<string, unknown>[])[0]!;
      expect(rule.shell).toBe(shell);
      expect(rule.params).toEqual(patch.params);
      const inline = (parse(applyGraphEdit(INLINE, "update_rule", { name: "a", patch })).rules as Record<string, unknown>[])[0]!;
      expect(inline.shell).toBe(shell);
    }
  });

  it("update_rule with a new name renames (references too)", () => {
    expect(applyGraphEdit(PIPELINE, "update_rule", { name: "trim", patch: { name: "trimming" } })).toBe(PIPELINE.replaceAll('"trim"', '"trimming"'));
  });
});

describe("graph edits of an inline rules array keep it inline", () => {
  it("adds, removes, renames, updates and disconnects inside the array", () => {
    expect(applyGraphEdit(INLINE, "add_rule", { rule: { name: "c", shell: "x" } })).toBe(replaced(INLINE, '"cat a.txt" },\n', '"cat a.txt" },\n  { name = "c", shell = "x" },\n'));
    expect(applyGraphEdit(INLINE, "remove_rule", { name: "a" })).toBe(replaced(replaced(INLINE, '  { name = "a", output = ["a.txt"], shell = "touch a.txt" }, # first\n', ""), 'depends_on = ["a"], ', ""));
    expect(applyGraphEdit(INLINE, "rename_rule", { from: "a", to: "z" })).toBe(INLINE.replaceAll('"a"', '"z"'));
    expect(applyGraphEdit(INLINE, "update_rule", { name: "a", patch: { threads: 3, shell: null } })).toBe(replaced(INLINE, 'shell = "touch a.txt" }', "threads = 3 }"));
    expect(applyGraphEdit(INLINE, "disconnect", { from: "a", to: "b" })).toBe(replaced(INLINE, 'depends_on = ["a"], ', ""));
    expect(applyGraphEdit(INLINE, "connect", { from: "b", to: "a" })).toBe(replaced(INLINE, '"touch a.txt" }', '"touch a.txt", depends_on = ["b"] }'));
  });
});

describe("graph edits that cannot be made are refused with what is wrong", () => {
  it("names the problem and how to fix it", () => {
    const unknown = refusal(PIPELINE, "conect", {});
    expect(unknown.message).toBe("unknown operation 'conect'");
    expect(unknown.suggestion).toContain("did you mean 'connect'?");
    for (const operation of GRAPH_OPERATIONS) expect(unknown.suggestion).toContain(operation);
    expect(refusal(PIPELINE, "connect", { from: "trim" }).message).toBe("payload.to is missing");
    expect(refusal(PIPELINE, "connect", { from: "trim", to: 3 }).message).toBe("payload.to must be a string");
    const missing = refusal(PIPELINE, "remove_rule", { name: "algin" });
    expect(missing.message).toBe("no rule named 'algin'");
    expect(missing.suggestion).toBe("did you mean 'align'?");
    expect(refusal(PIPELINE, "rename_rule", { from: "trim", to: "align" }).message).toBe("a rule named 'align' already exists");
    expect(refusal(PIPELINE, "add_rule", { rule: { name: "trim" } }).message).toBe("a rule named 'trim' already exists");
    expect(refusal(PIPELINE, "add_rule", { rule: { name: "bad name" } }).message).toBe("'bad name' is not a valid rule name");
    expect(refusal(PIPELINE, "connect", { from: "trim", to: "trim" }).message).toContain("cannot depend on itself");
    expect(refusal(PIPELINE, "disconnect", { from: "report", to: "trim" }).message).toBe("rule 'trim' does not list 'report' in depends_on");
    expect(refusal(PIPELINE, "update_rule", { name: "trim", patch: "x" }).message).toBe("payload.patch must be a table");
    expect(refusal(PIPELINE, "update_rule", { name: "trim", patch: { tags: ["a", null] } }).message).toBe("null is not a TOML value");
    expect(refusal(PIPELINE, "update_workflow", { patch: { rules: [] } }).message).toBe("update_workflow does not change rules");
    expect(refusal('[workflow]\nname = "x\n', "connect", { from: "a", to: "b" }).message).toMatch(/^the text does not parse at line 2, column \d+: /);
  });
});

const root = corpusRoot();
const STRICT = process.env.STRICT_SERVICES === "1";

if (!root && STRICT) {
  describe("corpus under STRICT_SERVICES=1", () => {
    it("needs the corpus (STRAND_CORPUS or ../shared/corpus)", () => {
      throw new Error("the corpus is missing under STRICT_SERVICES=1");
    });
  });
}

describe.skipIf(!root)("graph edits on the corpus pipelines", () => {
  const { used, skipped } = root ? corpusPipelines(root) : { used: [], skipped: [] };

  it("finds corpus pipelines with rules", () => {
    console.info(`graph edits: ${used.length} corpus pipelines used, ${skipped.length} files skipped (not pipelines with rules)`);
    expect(used.length).toBeGreaterThan(10);
  });

  it.each(used.map((pipeline, i) => [pipeline.name, pipeline, i] as const))("%s: 14 seeded random edits each read as what they mean", (_name, pipeline, i) => {
    const random = seededRandom(1000 + i);
    let text = pipeline.text;
    for (let step = 0; step < 14; step++) {
      const before = parse(text);
      const edit = randomEdit(before, random, step);
      const edited = applyGraphEdit(text, edit.operation, edit.payload);
      expect(plain(parse(edited)), `step ${step}: ${JSON.stringify(edit)}`).toEqual(plain(expectedAfter(before, edit)));
      text = edited;
    }
  });
});
