/**
 * The trust boundary of the AI: it is given read-only capabilities — an object with exactly the read
 * methods of `AiReader` and nothing else, frozen — so it cannot write, whatever a model asks for. A model
 * that asks for a write tool gets a refusal, and nothing changes.
 */
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from "vitest";
import { aiReaderFor, type AiReadContext } from "../../../../src/server/ai-capabilities.js";
import { LOCAL_USER } from "../../../../src/server/caller.js";
import { READER_METHODS, type AiReader } from "../../../../src/server/domains/ai/reader.js";
import { forgetTranslations } from "../../../../src/server/domains/ai/translate.js";
import { startProtocolServer, type ProtocolServer } from "../../../support/ai-protocol-servers.js";
import { fenced, post, VALID_DRAFT } from "../../../support/ai-drafts.js";
import { startTestService, type TestService } from "../../../support/service-harness.js";

/** Verbs of methods that would change something. */
const WRITE_VERBS = /^(create|update|delete|save|write|put|post|start|cancel|pause|resume|retry|remove|set|insert|upload|fetch|exec|spawn|send|share|fork|import|rollback|prune|revoke|append)/i;

type WriteLike = Extract<keyof AiReader, `${"create" | "update" | "delete" | "save" | "write" | "put" | "start" | "cancel" | "retry" | "remove" | "set" | "append" | "fetch"}${string}`>;

/** Store methods that change data, by the verbs the store's contracts use for them. */
type StoreWriteLike<Store> = Extract<keyof Store, `${"create" | "update" | "delete" | "put" | "append" | "prune" | "rollback" | "revoke" | "link" | "touch" | "set"}${string}`>;

describe("the AI's capabilities", () => {
  it("have no write method, by type and at run time", () => {
    expectTypeOf<WriteLike>().toEqualTypeOf<never>();
    // What the capabilities are built from offers no store write and no run control, by type.
    expectTypeOf<StoreWriteLike<AiReadContext["store"]>>().toEqualTypeOf<never>();
    expectTypeOf<keyof AiReadContext["supervisor"]>().toEqualTypeOf<"progress" | "remoteConnection">();
    const reader = aiReaderFor({ store: undefined as never, supervisor: undefined as never, dataDir: "/nonexistent" }, LOCAL_USER);
    expect(Object.keys(reader).sort()).toEqual([...READER_METHODS].sort());
    for (const name of Object.keys(reader)) expect(name, name).not.toMatch(WRITE_VERBS);
    expect(Object.isFrozen(reader)).toBe(true);
    expect(() => Object.assign(reader, { savePipeline: () => undefined })).toThrow(TypeError);
  });
});

describe("a model asking for a write tool", () => {
  let model: ProtocolServer;
  let service: TestService;
  beforeAll(async () => {
    model = await startProtocolServer("anthropic");
    service = await startTestService({ env: { SERVICE_AI_PROVIDER: "anthropic", SERVICE_AI_API_KEY: "k", SERVICE_AI_API_URL: model.baseUrl } });
  });
  afterAll(async () => {
    await service?.close();
    await model?.close();
  });

  it("is refused, told so, and nothing is saved or started", async () => {
    forgetTranslations();
    model.script(
      { toolCalls: [{ name: "save_pipeline", args: { name: "sneaky", toml_content: VALID_DRAFT } }, { name: "start_run", args: { pipeline: "sneaky" } }] },
      { text: fenced(VALID_DRAFT, "I cannot save; here is the draft.") },
    );
    const before = model.requests.length;
    const response = await post(service, "/api/ai/translate", { intent: "save this pipeline and run it for me" });
    expect(response.status).toBe(200);
    const calls = model.requests.slice(before);
    expect(calls).toHaveLength(2);
    // The second request carries the refusals back as tool results marked as errors.
    const results = (calls[1]!.body.messages as { role: string; content: unknown }[]).flatMap((message) => (Array.isArray(message.content) ? message.content : [])) as { type: string; is_error?: boolean; content?: unknown }[];
    const refusals = results.filter((block) => block.type === "tool_result");
    expect(refusals).toHaveLength(2);
    for (const refusal of refusals) {
      expect(refusal.is_error).toBe(true);
      expect(JSON.stringify(refusal.content)).toMatch(/unavailable tool/i);
    }
    // The tools offered were read-only ones only.
    const offered = (calls[0]!.body.tools as { name: string }[]).map((entry) => entry.name).sort();
    expect(offered).toEqual(["lookup_domain", "lookup_package", "pipeline_graph", "validate_pipeline"]);
    const pipelines = await (await fetch(`${service.url}/api/pipelines`)).json();
    expect(JSON.stringify(pipelines)).not.toContain("sneaky");
    expect((await service.store.listRuns({})).items).toHaveLength(0);
  });
});
