/**
 * The editor's pure rules: when the document has unsaved changes and what the save state says
 * (src/web/editor/document-state.ts), findings placed in the text with their quick fixes (findings.ts), and
 * completion from the last parse of the text (completion.ts), on real CodeMirror documents and states.
 */
import { CompletionContext, type CompletionResult } from "@codemirror/autocomplete";
import { EditorState, Text } from "@codemirror/state";
import { describe, expect, it } from "vitest";
import type { Finding, ParseResult, PipelineStats } from "../../src/web/api/workflow-tooling.js";
import { completionVocabulary, pipelineCompletion } from "../../src/web/editor/completion.js";
import { hasUnsavedChanges, saveStateText } from "../../src/web/editor/document-state.js";
import { concreteReplacement, findingRange, quickFixEdit, sortFindings, toDiagnostics } from "../../src/web/editor/findings.js";

describe("the document's save state", () => {
  it("has unsaved changes when a saved pipeline's text differs from what was saved", () => {
    expect(hasUnsavedChanges({ text: "a", initialText: "a", savedText: "a" })).toBe(false);
    expect(hasUnsavedChanges({ text: "b", initialText: "a", savedText: "a" })).toBe(true);
    // Saved again: the new saved text is what counts, not the text it opened with.
    expect(hasUnsavedChanges({ text: "b", initialText: "a", savedText: "b" })).toBe(false);
  });

  it("counts a scratch text once edited, and a draft (AI or from data) from the start", () => {
    expect(hasUnsavedChanges({ text: "a", initialText: "a", savedText: undefined })).toBe(false);
    expect(hasUnsavedChanges({ text: "b", initialText: "a", savedText: undefined })).toBe(true);
    expect(hasUnsavedChanges({ text: "a", initialText: "a", savedText: undefined, fromDraft: "ai" })).toBe(true);
    expect(hasUnsavedChanges({ text: "a", initialText: "a", savedText: undefined, fromDraft: "data" })).toBe(true);
  });

  it("says where the document is", () => {
    const state = (facts: Partial<Parameters<typeof saveStateText>[0]>) => saveStateText({ saving: false, saved: true, dirty: false, revision: 3, ...facts });
    expect(state({})).toBe("Saved · revision 3");
    expect(state({ dirty: true })).toBe("● Unsaved changes");
    expect(state({ saving: true, dirty: true })).toBe("Saving…");
    expect(state({ saved: false })).toBe("Scratch pipeline");
    expect(state({ saved: false, dirty: true })).toBe("Not saved yet");
    expect(state({ saved: false, fromDraft: "ai" })).toBe("AI draft · not saved yet");
    expect(state({ saved: false, fromDraft: "data", dirty: true })).toBe("From your data · not saved yet");
  });
});

const finding = (fields: Partial<Finding>): Finding => ({ code: "E001", severity: "error", message: "m", line: null, column: null, suggestion: null, ...fields }) as Finding;

describe("findings in the text", () => {
  const doc = Text.of(["[[rules]]", 'name = "algn"', "threads = 4"]);
  it("sort errors first, then warnings and notes, each by place", () => {
    const sorted = sortFindings([finding({ severity: "info", line: 1 }), finding({ severity: "warning", line: 3 }), finding({ severity: "error", line: 2, column: 9 }), finding({ severity: "error", line: 2, column: 1 })]);
    expect(sorted.map((item) => `${item.severity}:${item.line}:${item.column}`)).toEqual(["error:2:1", "error:2:9", "warning:3:null", "info:1:null"]);
  });

  it("mark the string or word at their line and column, or the line's content, within the document", () => {
    const line2 = doc.line(2);
    expect(findingRange(doc, { line: 2, column: 8 })).toEqual({ from: line2.from + 7, to: line2.from + 13 });
    expect(findingRange(doc, { line: 3, column: 1 })).toEqual({ from: doc.line(3).from, to: doc.line(3).from + "threads".length });
    // A place past the end is held to the document.
    expect(findingRange(doc, { line: 99, column: 99 }).to).toBeLessThanOrEqual(doc.length);
  });

  it("offer a quick fix only when the suggestion names one replacement, keeping the quotes", () => {
    const typo = finding({ line: 2, column: 8, suggestion: "did you mean 'align'?" });
    expect(concreteReplacement(typo)).toBe("align");
    expect(quickFixEdit(doc, typo)).toEqual({ from: doc.line(2).from + 7, to: doc.line(2).from + 13, insert: '"align"', label: "Replace with align" });
    expect(quickFixEdit(doc, finding({ line: 2, column: 8, suggestion: "check the name" }))).toBeUndefined();
    expect(quickFixEdit(doc, finding({ line: null, suggestion: "did you mean 'align'?" }))).toBeUndefined();
  });

  it("become CodeMirror diagnostics with their code, suggestion and fix", () => {
    const [diagnostic] = toDiagnostics(doc, [finding({ code: "W010", severity: "warning", message: "unknown rule", line: 2, column: 8, suggestion: "did you mean 'align'?" })]);
    expect(diagnostic).toMatchObject({ severity: "warning", source: "W010", message: "unknown rule (did you mean 'align'?)" });
    expect(diagnostic!.actions?.map((action) => action.name)).toEqual(["Replace with align"]);
  });
});

describe("completion", () => {
  const parse = {
    workflow: { name: "demo" },
    config: { reads_dir: "reads", genome: "hg38" },
    rules: [
      { name: "align", description: "map the reads", output: ["bam/{sample}.bam"] },
      { name: "count", description: null, output: { table: "counts.tsv" } },
    ],
  } as unknown as ParseResult;
  const stats = { wildcard_names: ["sample", "lane"] } as unknown as PipelineStats;

  it("knows the rules, their outputs, the config keys and the wildcards of the last parse", () => {
    expect(completionVocabulary(parse, stats)).toEqual({
      rules: [
        { name: "align", description: "map the reads", outputs: ["bam/{sample}.bam"] },
        { name: "count", description: null, outputs: ["counts.tsv"] },
      ],
      configKeys: ["reads_dir", "genome"],
      wildcards: ["sample", "lane"],
    });
    expect(completionVocabulary(undefined, undefined)).toEqual({ rules: [], configKeys: [], wildcards: ["sample"] });
  });

  /** The completions at the end of `text` (or at `|`). */
  const complete = (text: string) => {
    const pos = text.includes("|") ? text.indexOf("|") : text.length;
    const doc = text.replace("|", "");
    const vocabulary = completionVocabulary(parse, stats);
    // The source answers at once (never a promise).
    const result = pipelineCompletion(() => vocabulary)(new CompletionContext(EditorState.create({ doc }), pos, false)) as CompletionResult | null;
    return result ? result.options.map((option) => option.label) : null;
  };

  it("offers config keys after config., wildcards and placeholders inside braces", () => {
    expect(complete('shell = "echo {config.')).toEqual(["reads_dir", "genome"]);
    expect(complete('output = ["x/{')).toEqual(expect.arrayContaining(["sample", "lane", "input", "threads"]));
  });

  it("offers the other rules where a rule is named, and their outputs inside input", () => {
    expect(complete('[[rules]]\nname = "count"\ndepends_on = ["|"]')).toEqual(["align"]);
    expect(complete('[[rules]]\nname = "count"\ninput = ["|"]')).toEqual(["bam/{sample}.bam"]);
    expect(complete('[[rules]]\nname = "count"\nshell = "echo')).toBeNull();
  });
});
