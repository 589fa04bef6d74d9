/**
 * The pipeline pages' pure helpers: a pipeline's file name and name rules, the starter text and renaming its
 * [workflow] (src/web/pipelines/format.ts), the two forms of a share link (share-links.ts), and what the
 * caller may do with a pipeline (access.ts: viewers read; changing, sharing and deleting are for the owner
 * and administrators).
 */
import "./browser-address.js";
import { parse } from "smol-toml";
import { describe, expect, it } from "vitest";
import { accessTo } from "../../src/web/pipelines/access.js";
import { nameProblem, renameWorkflow, scratchPipeline, tomlFilename } from "../../src/web/pipelines/format.js";
import { importFormOfAppShareLink, importFormOfToken, sharePageUrl } from "../../src/web/pipelines/share-links.js";

describe("a pipeline's names and text", () => {
  it("names its file after it, with anything unusual replaced", () => {
    expect(tomlFilename("RNA-seq demo")).toBe("RNA-seq-demo.toml");
    expect(tomlFilename("  ../../etc/passwd ")).toBe("..-..-etc-passwd.toml");
    expect(tomlFilename("???")).toBe("pipeline.toml");
  });

  it("takes names of 1 to 200 characters once trimmed", () => {
    expect(nameProblem("  ")).toBe("Give the pipeline a name.");
    expect(nameProblem("x".repeat(201))).toMatch(/at most 200 characters \(this one has 201\)/);
    expect(nameProblem(` ${"x".repeat(200)} `)).toBeNull();
  });

  it("starts a scratch pipeline that is TOML with one rule, named as asked", () => {
    const text = scratchPipeline('my "first" pipeline');
    const document = parse(text) as { workflow: { name: string }; rules: { name: string }[] };
    expect(document.workflow.name).toBe('my "first" pipeline');
    expect(document.rules.map((rule) => rule.name)).toEqual(["hello"]);
  });

  it("renames the [workflow] table's name only, keeping comments, and leaves a text without one as it is", () => {
    const text = '[config]\nname = "not this"\n\n[workflow]\nname = "old" # the name\n\n[[rules]]\nname = "old"\n';
    expect(renameWorkflow(text, "new")).toBe('[config]\nname = "not this"\n\n[workflow]\nname = "new" # the name\n\n[[rules]]\nname = "old"\n');
    expect(renameWorkflow('[[rules]]\nname = "a"\n', "new")).toBe('[[rules]]\nname = "a"\n');
  });
});

describe("share links", () => {
  const app = "https://strand.example.org/lab/";
  it("open the app's share page under its base path", () => {
    expect(sharePageUrl("tok_1", app)).toBe("https://strand.example.org/lab/share/tok_1");
    expect(importFormOfToken("tok_1", "strand.example.org")).toBe("strand+https://strand.example.org/share/tok_1");
  });

  it("turn a share page of this app, pasted as it is, into its import form, and nothing else", () => {
    expect(importFormOfAppShareLink(" https://strand.example.org/lab/share/tok_1 ", app)).toBe("strand+https://strand.example.org/share/tok_1");
    expect(importFormOfAppShareLink("https://other.example.org/lab/share/tok_1", app)).toBeUndefined();
    expect(importFormOfAppShareLink("https://strand.example.org/elsewhere/share/tok_1", app)).toBeUndefined();
    expect(importFormOfAppShareLink("https://strand.example.org/lab/share/tok_1/extra", app)).toBeUndefined();
    expect(importFormOfAppShareLink("strand+https://strand.example.org/share/tok_1", app)).toBeUndefined();
    expect(importFormOfAppShareLink("not a link", app)).toBeUndefined();
  });
});

describe("what the caller may do with a pipeline", () => {
  const user = (role: "admin" | "user" | "viewer", id = "u-1") => ({ id, role });
  it("lets the owner, an administrator and an unknown caller (personal mode) do everything", () => {
    expect(accessTo(user("user"), "u-1")).toEqual({ create: true, write: true, reason: null });
    expect(accessTo(user("admin"), "u-2")).toEqual({ create: true, write: true, reason: null });
    expect(accessTo(undefined, "u-2")).toEqual({ create: true, write: true, reason: null });
  });

  it("lets another user run and fork it, saying why it cannot be changed", () => {
    expect(accessTo(user("user"), "u-2")).toMatchObject({ create: true, write: false, reason: expect.stringMatching(/belongs to someone else/) });
  });

  it("lets a viewer only read, whoever owns it", () => {
    expect(accessTo(user("viewer"), "u-1")).toMatchObject({ create: false, write: false, reason: expect.stringMatching(/^Viewers can read/) });
  });
});
