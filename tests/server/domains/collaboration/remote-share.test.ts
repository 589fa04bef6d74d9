/**
 * Reading remote share landing documents (strand's and oxo-flow's shapes) into what an import keeps: the
 * text, a bounded single-line name, version and description, and the refusal of anything else.
 */
import { describe, expect, it } from "vitest";
import { readShareLanding } from "../../../../src/server/domains/collaboration/remote-share.js";
import { ServiceError } from "../../../../src/server/errors.js";

const TOML = '[workflow]\nname = "x"\n';
const URL = "https://flow.example/api/share/t";

/** The ServiceError thrown for `body`, failing the test when it is read. */
function refusal(server: "strand" | "oxo-flow", body: string): ServiceError {
  try {
    readShareLanding(server, body, URL);
  } catch (error) {
    if (error instanceof ServiceError) return error;
    throw error;
  }
  throw new Error(`read: ${body}`);
}

describe("readShareLanding of an oxo-flow document", () => {
  const landing = {
    pipeline: { name: "rna-seq", version: "1.2.0", rules_count: 4, visibility: "link" },
    dag: ["a", "b"],
    toml_content: TOML,
    owner: "anna",
    created_at: "2025-11-03T09:14:27.512093+00:00",
    expires_at: null,
    recent_run: null,
  };

  it("keeps the text, name, version, and who shared it when", () => {
    expect(readShareLanding("oxo-flow", JSON.stringify(landing), URL)).toEqual({
      toml_content: TOML,
      name: "rna-seq",
      version: "1.2.0",
      description: "Imported from an oxo-flow share by anna, shared on 2025-11-03",
    });
  });

  it("leaves out an owner that is null and a date that is not one", () => {
    expect(readShareLanding("oxo-flow", JSON.stringify({ ...landing, owner: null, created_at: "yesterday" }), URL).description).toBe("Imported from an oxo-flow share");
  });

  it("makes untrusted strings one bounded line, and ignores fields of another type", () => {
    const read = readShareLanding("oxo-flow", JSON.stringify({ ...landing, pipeline: { name: `evil\r\n\u0000name${"n".repeat(500)}`, version: 3 }, owner: "a\nb" }), URL);
    expect(read.name).toBe(`evil name${"n".repeat(171)}`);
    expect(read.version).toBeNull();
    expect(read.description).toBe("Imported from an oxo-flow share by a b, shared on 2025-11-03");
  });

  it.each([
    ["text that is not JSON", "<html></html>"],
    ["a document without toml_content", JSON.stringify({ ...landing, toml_content: undefined })],
    ["a document without pipeline", JSON.stringify({ ...landing, pipeline: undefined })],
    ["an error envelope", JSON.stringify({ code: "NOT_FOUND", message: "Share not found" })],
  ])("refuses %s with 400 INVALID_URL", (_what, body) => {
    const error = refusal("oxo-flow", body);
    expect([error.status, error.code]).toEqual([400, "INVALID_URL"]);
    expect(error.message).toBe(`${URL} did not answer with an oxo-flow share document`);
  });
});

describe("readShareLanding of a strand document", () => {
  it("keeps the text, name, version and description", () => {
    const body = JSON.stringify({ token: "t", expires_at: null, pipeline: { id: "p", name: "demo", version: "1.0.0", description: "A demo", tags: [], rules_count: 1, updated_at: "x" }, toml_content: TOML });
    expect(readShareLanding("strand", body, URL)).toEqual({ toml_content: TOML, name: "demo", version: "1.0.0", description: "A demo" });
  });

  it("reads a document with only its text", () => {
    expect(readShareLanding("strand", JSON.stringify({ toml_content: TOML }), URL)).toEqual({ toml_content: TOML, name: undefined, version: null, description: null });
  });

  it("refuses a document without text", () => {
    expect(refusal("strand", JSON.stringify({ pipeline: { name: "x" } })).message).toMatch(/did not answer with a strand share document/);
  });
});
