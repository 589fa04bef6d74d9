/**
 * The DAG edit API over real sockets: every operation through `POST /api/pipeline/{id}/command`, the
 * refusals (DAG_EDIT_ERROR naming the problem, NO_UNDO, NO_REDO, CONFLICT), undo and redo on every corpus
 * pipeline (a seeded random sequence of edits of every kind, then as many undos give back the exact text
 * and as many redos the edited one), bounded histories, and in team mode who may edit what and whose
 * history is whose. Without the corpus the corpus test skips, except under STRICT_SERVICES=1.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "smol-toml";
import { EditHistories } from "../../../../src/server/domains/dag/undo-history.js";
import { startTestService, type TestService } from "../../../support/service-harness.js";
import { send, startTeamService, type Answer, type TeamService } from "../../../support/team-service.js";
import { corpusPipelines, corpusRoot, randomEdit, seededRandom, type GraphEditRequest } from "../../../support/graph-edit-sequences.js";

const PIPELINE = `# demo
[workflow]
name = "demo"

[[rules]]
name = "trim" # first
output = ["trimmed.txt"]
shell = "echo trimmed > {output}"

[[rules]]
name = "align"
input = ["trimmed.txt"]
output = ["aligned.txt"]
shell = "cat {input} > {output}"
`;

describe("graph edits in personal mode", () => {
  let service: TestService;
  const call = (path: string, body: unknown): Promise<Answer> => send(service.url, "POST", path, { body });
  const edit = (id: string, toml_content: string, operation: string, payload: unknown) => call(`/api/pipeline/${id}/command`, { toml_content, operation, payload });

  beforeAll(async () => {
    service = await startTestService({ rateLimit: 0 });
  });
  afterAll(async () => {
    await service?.close();
  });

  it("applies an edit: the edited text, success when it validates, the operation and the history depths", async () => {
    const answer = await edit("scratch-1", PIPELINE, "connect", { from: "trim", to: "align" });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      success: true,
      toml_content: PIPELINE.replace('shell = "cat {input} > {output}"\n', 'shell = "cat {input} > {output}"\ndepends_on = ["trim"]\n'),
      validation_errors: [],
      operation: "connect",
      undo_depth: 1,
      redo_depth: 0,
    });
  });

  it("returns text that does not validate with success false and its errors", async () => {
    const answer = await edit("scratch-2", PIPELINE, "add_rule", { rule: { name: "late", depends_on: ["nowhere"], shell: "true" } });
    expect(answer.status).toBe(200);
    expect(answer.body.success).toBe(false);
    expect(answer.body.validation_errors).toEqual([expect.objectContaining({ code: "E007", message: expect.stringContaining("nowhere") })]);
    expect(Object.keys((answer.body.validation_errors as object[])[0]!).sort()).toEqual(["code", "message", "suggestion"]);
    expect(answer.body.toml_content).toContain('[[rules]]\nname = "late"\ndepends_on = ["nowhere"]\nshell = "true"\n');
  });

  it("refuses with DAG_EDIT_ERROR naming the problem", async () => {
    const cases: [string, unknown, string, RegExp | string, string?][] = [
      [PIPELINE, { operation: "reorder", payload: {} }, "unknown operation 'reorder'", /the operations are add_rule, remove_rule, connect, disconnect, update_rule, update_workflow, rename_rule/],
      [PIPELINE, { operation: "connect", payload: { from: "trim" } }, "payload.to is missing", /payload.to/],
      [PIPELINE, { operation: "remove_rule", payload: { name: "alin" } }, "no rule named 'alin'", "did you mean 'align'?"],
      [PIPELINE, { operation: "rename_rule", payload: { from: "trim", to: "align" } }, "a rule named 'align' already exists", /another name/],
      ['[workflow]\nname = "x"\n[[rules]\n', { operation: "connect", payload: { from: "a", to: "b" } }, "the text does not parse at line 3, column", /fix the TOML syntax/],
    ];
    for (const [text, request, message, suggestion] of cases) {
      const answer = await call("/api/pipeline/scratch-3/command", { toml_content: text, ...(request as object) });
      expect(answer.status, message).toBe(400);
      expect(answer.body.code).toBe("DAG_EDIT_ERROR");
      expect(answer.body.message).toContain(message);
      if (typeof suggestion === "string") expect(answer.body.suggestion).toBe(suggestion);
      else expect(answer.body.suggestion).toMatch(suggestion);
    }
    // Refused edits leave no history.
    expect((await call("/api/pipeline/scratch-3/undo", { toml_content: PIPELINE })).body.code).toBe("NO_UNDO");
    // A missing operation is the body's shape, named like every missing field.
    expect((await call("/api/pipeline/scratch-3/command", { toml_content: PIPELINE })).body).toMatchObject({ code: "MISSING_FIELD", message: expect.stringContaining("operation") });
  });

  it("undoes and redoes; undo and redo refuse text that moved on (409) and empty stacks (NO_UNDO, NO_REDO); a new edit clears redo", async () => {
    const id = "scratch-undo";
    expect((await call(`/api/pipeline/${id}/undo`, { toml_content: PIPELINE })).status).toBe(404);
    const redoEmpty = await call(`/api/pipeline/${id}/redo`, { toml_content: PIPELINE });
    expect(redoEmpty.status).toBe(404);
    expect(redoEmpty.body.code).toBe("NO_REDO");
    const first = (await edit(id, PIPELINE, "rename_rule", { from: "trim", to: "clip" })).body.toml_content as string;
    const second = (await edit(id, first, "update_rule", { name: "align", patch: { threads: 2 } })).body.toml_content as string;
    const moved = await call(`/api/pipeline/${id}/undo`, { toml_content: first });
    expect(moved.status).toBe(409);
    expect(moved.body.code).toBe("CONFLICT");
    expect(moved.body.message).toContain("not the text the last edit produced");
    const undone = await call(`/api/pipeline/${id}/undo`, { toml_content: second });
    expect(undone.body).toEqual({ toml_content: first, undo_depth: 1, redo_depth: 1 });
    expect((await call(`/api/pipeline/${id}/redo`, { toml_content: second })).status).toBe(409);
    expect((await call(`/api/pipeline/${id}/redo`, { toml_content: first })).body).toEqual({ toml_content: second, undo_depth: 2, redo_depth: 0 });
    expect((await call(`/api/pipeline/${id}/undo`, { toml_content: second })).body.toml_content).toBe(first);
    const branch = await edit(id, first, "disconnect", { from: "clip", to: "align" }).then((answer) => answer);
    expect(branch.status).toBe(400); // no such edge: refused, the redo stack stays
    const other = await edit(id, first, "update_workflow", { patch: { workflow: { version: "2" } } });
    expect(other.body).toMatchObject({ undo_depth: 2, redo_depth: 0 });
    expect((await call(`/api/pipeline/${id}/redo`, { toml_content: other.body.toml_content })).body.code).toBe("NO_REDO");
    expect((await call(`/api/pipeline/${id}/undo`, { toml_content: other.body.toml_content })).body.toml_content).toBe(first);
    expect((await call(`/api/pipeline/${id}/undo`, { toml_content: first })).body).toEqual({ toml_content: PIPELINE, undo_depth: 0, redo_depth: 2 });
  });

  it("keeps at most 50 undo steps per history", async () => {
    let text = PIPELINE;
    for (let i = 0; i < 55; i++) text = (await edit("scratch-bounded", text, "update_workflow", { patch: { workflow: { version: `1.${i}` } } })).body.toml_content as string;
    let undos = 0;
    for (;;) {
      const answer = await call("/api/pipeline/scratch-bounded/undo", { toml_content: text });
      if (answer.status !== 200) {
        expect(answer.body.code).toBe("NO_UNDO");
        break;
      }
      text = answer.body.toml_content as string;
      undos++;
    }
    expect(undos).toBe(50);
    expect(parse(text)).toMatchObject({ workflow: { version: "1.4" } });
  });
});

describe("edit histories are bounded", () => {
  it("drops the oldest steps past the step count and the byte budget, and the least recently used histories", () => {
    const histories = new EditHistories({ maxSteps: 3, maxChars: 100, maxHistoriesPerUser: 2, maxCharsPerUser: 1000, maxTotalChars: 1000 });
    for (let i = 0; i < 5; i++) histories.record("u", "a", { before: `${i}`, after: `${i + 1}` });
    expect(histories.depths("u", "a")).toEqual({ undo_depth: 3, redo_depth: 0 });
    expect(histories.undo("u", "a")).toEqual({ before: "4", after: "5" });
    expect(histories.undo("u", "a")).toEqual({ before: "3", after: "4" });
    expect(histories.undo("u", "a")).toEqual({ before: "2", after: "3" });
    expect(histories.undo("u", "a")).toBeUndefined();
    histories.record("u", "b", { before: "x".repeat(30), after: "y".repeat(30) });
    histories.record("u", "b", { before: "y".repeat(30), after: "z".repeat(30) });
    expect(histories.depths("u", "b")).toEqual({ undo_depth: 1, redo_depth: 0 });
    // One step larger than the budget is still kept: the latest edit can always be undone.
    histories.record("u", "b", { before: "z".repeat(80), after: "w".repeat(80) });
    expect(histories.depths("u", "b")).toEqual({ undo_depth: 1, redo_depth: 0 });
    histories.record("u", "c", { before: "1", after: "2" });
    expect(histories.depths("u", "a")).toEqual({ undo_depth: 0, redo_depth: 0 });
    expect(histories.lastEdit("u", "a")).toBeUndefined();
    expect(histories.depths("u", "b").undo_depth).toBe(1);
    // All histories together: the least recently used goes first, the one just edited stays.
    const total = new EditHistories({ maxSteps: 50, maxChars: 100, maxHistoriesPerUser: 10, maxCharsPerUser: 1000, maxTotalChars: 150 });
    total.record("u", "old", { before: "a".repeat(40), after: "b".repeat(40) });
    total.record("u", "mid", { before: "c".repeat(30), after: "d".repeat(30) });
    total.record("u", "new", { before: "e".repeat(40), after: "f".repeat(40) });
    expect([total.depths("u", "old").undo_depth, total.depths("u", "mid").undo_depth, total.depths("u", "new").undo_depth]).toEqual([0, 1, 1]);
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

describe.skipIf(!root)("undo and redo on the corpus pipelines", () => {
  let service: TestService;
  const { used, skipped } = root ? corpusPipelines(root) : { used: [], skipped: [] };

  beforeAll(async () => {
    service = await startTestService({ rateLimit: 0 });
  });
  afterAll(async () => {
    await service?.close();
  });

  it("uses the corpus pipelines with rules", () => {
    console.info(`undo/redo: ${used.length} corpus pipelines used, ${skipped.length} files skipped (not pipelines with rules)`);
    expect(used.length).toBeGreaterThan(10);
  });

  it.each(used.map((pipeline, i) => [pipeline.name, pipeline, i] as const))("%s: 8 random edits of every kind, 8 undos give back the exact text, 8 redos the edited one", async (_name, pipeline, i) => {
    const id = `corpus-${i}`;
    const random = seededRandom(2026 + i);
    const texts = [pipeline.text];
    const edits: GraphEditRequest[] = [];
    for (let step = 0; step < 8; step++) {
      const request = randomEdit(parse(texts[step]!), random, step);
      edits.push(request);
      const answer = await send(service.url, "POST", `/api/pipeline/${id}/command`, { body: { toml_content: texts[step], source: pipeline.name, ...request } });
      expect(answer.status, `${JSON.stringify(request)}: ${answer.text}`).toBe(200);
      expect(answer.body.toml_content).not.toBe(texts[step]);
      texts.push(answer.body.toml_content as string);
    }
    let text = texts[8]!;
    for (let step = 8; step > 0; step--) {
      const answer = await send(service.url, "POST", `/api/pipeline/${id}/undo`, { body: { toml_content: text } });
      expect(answer.status, `undo of ${JSON.stringify(edits[step - 1])}`).toBe(200);
      text = answer.body.toml_content as string;
      expect(text).toBe(texts[step - 1]);
    }
    expect(text).toBe(pipeline.text);
    for (let step = 1; step <= 8; step++) {
      const answer = await send(service.url, "POST", `/api/pipeline/${id}/redo`, { body: { toml_content: text } });
      expect(answer.status).toBe(200);
      text = answer.body.toml_content as string;
      expect(text).toBe(texts[step]);
    }
    expect(text).toBe(texts[8]);
  });
});

describe("graph edits in team mode: write permission on saved pipelines, histories per user", () => {
  let team: TeamService;
  let own: string;
  let workspace: string;

  beforeAll(async () => {
    team = await startTeamService();
    own = (await team.call("user", "POST", "/api/pipelines", { body: { toml_content: PIPELINE } })).body.id as string;
    workspace = (await team.call("user", "POST", "/api/pipelines", { body: { toml_content: PIPELINE.replace('"demo"', '"shared"'), visibility: "workspace" } })).body.id as string;
  });
  afterAll(async () => {
    await team?.close();
  });

  const body = { toml_content: PIPELINE, operation: "connect", payload: { from: "trim", to: "align" } };

  it("lets the owner and administrators edit a saved pipeline; another user's private one is 404, a readable one 403, viewers 403", async () => {
    expect((await team.call("user", "POST", `/api/pipeline/${own}/command`, { body })).status).toBe(200);
    expect((await team.call("admin", "POST", `/api/pipeline/${own}/command`, { body })).status).toBe(200);
    const hidden = await team.call("other", "POST", `/api/pipeline/${own}/command`, { body });
    expect([hidden.status, hidden.body.code]).toEqual([404, "NOT_FOUND"]);
    const readOnly = await team.call("other", "POST", `/api/pipeline/${workspace}/command`, { body });
    expect([readOnly.status, readOnly.body.code]).toEqual([403, "ACCESS_DENIED"]);
    expect((await team.call("other", "POST", `/api/pipeline/${workspace}/undo`, { body: { toml_content: PIPELINE } })).status).toBe(403);
    expect((await team.call("viewer", "POST", "/api/pipeline/scratch/command", { body })).status).toBe(403);
    expect((await team.call("anonymous", "POST", "/api/pipeline/scratch/command", { body })).status).toBe(401);
  });

  it("keeps each user's history apart, on a scratch id and on a saved pipeline", async () => {
    const edited = (await team.call("user", "POST", "/api/pipeline/shared-scratch/command", { body })).body.toml_content as string;
    expect((await team.call("other", "POST", "/api/pipeline/shared-scratch/undo", { body: { toml_content: edited } })).body.code).toBe("NO_UNDO");
    const adminEdit = (await team.call("admin", "POST", `/api/pipeline/${own}/command`, { body: { ...body, operation: "rename_rule", payload: { from: "trim", to: "clip" } } })).body.toml_content as string;
    const userUndo = await team.call("user", "POST", `/api/pipeline/${own}/undo`, { body: { toml_content: adminEdit } });
    expect(userUndo.status).toBe(409); // the user's own last edit produced other text
    expect((await team.call("user", "POST", "/api/pipeline/shared-scratch/undo", { body: { toml_content: edited } })).body.toml_content).toBe(PIPELINE);
    expect((await team.call("admin", "POST", `/api/pipeline/${own}/undo`, { body: { toml_content: adminEdit } })).body.toml_content).toBe(PIPELINE);
  });

  it("never saves: the stored pipeline is unchanged by edits", async () => {
    expect((await team.call("user", "GET", `/api/pipelines/${own}`)).body.toml_content).toBe(PIPELINE);
  });
});
