/**
 * The chat copilot against a local OpenAI-protocol server (`SERVICE_AI_PROVIDER=openai`, reached through
 * `SERVICE_AI_API_URL`): the event stream (token deltas, tool calls, a pipeline validated by the engine and
 * corrected when rejected), history fed back and summarised when long, sessions and their messages, the
 * refusal of write tools, cancellation when the client leaves, and the JSON form over the same harness.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startProtocolServer, type ProtocolServer, type RecordedRequest } from "../../../support/ai-protocol-servers.js";
import { fenced, INVALID_DRAFT, post, sseEvents, VALID_DRAFT, type SseEvent } from "../../../support/ai-drafts.js";
import { startTestService, type TestService } from "../../../support/service-harness.js";

describe("the chat copilot through a local OpenAI-protocol server", () => {
  let openai: ProtocolServer;
  let service: TestService;

  beforeAll(async () => {
    openai = await startProtocolServer("openai");
    service = await startTestService({ env: { SERVICE_AI_PROVIDER: "openai", SERVICE_AI_API_KEY: "test-key", SERVICE_AI_API_URL: openai.baseUrl, SERVICE_AI_MODEL: "gpt-test" } });
  });
  afterAll(async () => {
    await service?.close();
    await openai?.close();
  });

  /** Sends a message and reads the whole stream. */
  const chat = async (body: Record<string, unknown>): Promise<SseEvent[]> => {
    const response = await post(service, "/api/chat/send", body);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/event-stream");
    return sseEvents(await response.text());
  };
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read answer fields freely
  const getJson = async (path: string): Promise<any> => (await fetch(`${service.url}${path}`)).json();
  const messagesOf = (sessionId: string) => getJson(`/api/chat/sessions/${sessionId}/messages`);
  /** The chat messages of a recorded OpenAI request, system prompt first. */
  const sent = (request: RecordedRequest) => request.body.messages as { role: string; content: unknown }[];

  it("streams status, a tool call and its result, text as token deltas, the validated pipeline, then done", async () => {
    openai.script({ toolCalls: [{ name: "lookup_package", args: { query: "bwa" } }] }, { text: fenced(VALID_DRAFT, "Here is a pipeline that aligns your reads with bwa and sorts them.") });
    const before = openai.requests.length;
    const events = await chat({ message: "Align my paired reads with bwa, then sort the alignments", context: { data: { paired: true } } });
    const names = events.map((entry) => entry.event);
    // Order: status first, the tool call before its result, text after the tool round, the action, done last.
    expect(names[0]).toBe("status");
    const call = names.indexOf("tool_call");
    const result = names.indexOf("tool_result");
    const firstText = names.indexOf("text");
    const action = names.indexOf("action");
    expect(call).toBeGreaterThan(0);
    expect(result).toBeGreaterThan(call);
    expect(firstText).toBeGreaterThan(result);
    expect(action).toBeGreaterThan(names.lastIndexOf("text"));
    expect(names.at(-1)).toBe("done");
    expect(names).not.toContain("error");
    expect(events[call]!.data).toEqual({ name: "lookup_package", args: { query: "bwa" } });
    expect(events[result]!.data).toMatchObject({ name: "lookup_package", refused: false });
    expect(events[result]!.data.summary).toContain("bwa");
    const chunks = events.filter((entry) => entry.event === "text").map((entry) => entry.data.chunk as string);
    expect(chunks.length).toBeGreaterThan(5);
    expect(chunks.join("")).toBe(fenced(VALID_DRAFT, "Here is a pipeline that aligns your reads with bwa and sorts them."));
    expect(events[action]!.data).toMatchObject({ action_type: "pipeline_ready", data: { toml_content: VALID_DRAFT, validation: { valid: true, errors: [] } } });
    const done = events.at(-1)!.data;
    expect(done.rounds).toBe(1);
    expect(typeof done.session_id).toBe("string");
    // The model got the chat prompt, the data and the read-only tools only.
    const calls = openai.requests.slice(before);
    expect(calls).toHaveLength(2);
    expect(calls[0]!.headers.authorization).toBe("Bearer test-key");
    expect(calls[0]!.body.stream).toBe(true);
    expect(JSON.stringify(sent(calls[0]!)[0])).toContain("copilot");
    expect(JSON.stringify(sent(calls[0]!).at(-1))).toContain('\\"paired\\": true');
    expect((calls[0]!.body.tools as { function: { name: string } }[]).map((entry) => entry.function.name).sort()).toEqual(["lookup_domain", "lookup_package", "pipeline_graph", "validate_pipeline"]);
    // Stored: the user's message and the final reply with the pipeline and the tool call in metadata.
    const stored = await messagesOf(done.session_id);
    expect(stored.session).toMatchObject({ id: done.session_id, title: "Align my paired reads with bwa, then sort the alignments", message_count: 2 });
    expect(stored.messages.map((message: { seq: number; role: string }) => [message.seq, message.role])).toEqual([
      [1, "user"],
      [2, "assistant"],
    ]);
    expect(stored.messages[0].metadata).toEqual({ data: { paired: true } });
    expect(stored.messages[1].content).toContain("aligns your reads");
    expect(stored.messages[1].metadata).toMatchObject({ toml_content: VALID_DRAFT, validation: { valid: true }, rounds: 1, tool_calls: [{ name: "lookup_package", args: { query: "bwa" }, refused: false }], provider: { provider: "openai", model: "gpt-test" } });
  });

  it("sends a rejected pipeline back for correction, streaming the second round too, and marks a pipeline that never validates", async () => {
    openai.script({ text: fenced(INVALID_DRAFT, "First try.") }, { text: fenced(VALID_DRAFT, "Fixed the dependency.") });
    const before = openai.requests.length;
    const events = await chat({ message: "align then sort", context: { toml_content: "[workflow]\nname = \"mine\"\n" } });
    const rounds = new Set(events.filter((entry) => entry.event === "text").map((entry) => entry.data.round));
    expect([...rounds]).toEqual([1, 2]);
    const statuses = events.filter((entry) => entry.event === "status").map((entry) => entry.data.message as string);
    expect(statuses.some((message) => /correcting the pipeline \(round 1 of 2\)/.test(message))).toBe(true);
    const actions = events.filter((entry) => entry.event === "action");
    expect(actions).toHaveLength(1);
    expect(actions[0]!.data.data).toMatchObject({ toml_content: VALID_DRAFT, validation: { valid: true } });
    expect(events.at(-1)).toMatchObject({ event: "done", data: { rounds: 2 } });
    const calls = openai.requests.slice(before);
    expect(calls).toHaveLength(2);
    // The editor's text went with the first request; the engine's finding with the second.
    expect(JSON.stringify(sent(calls[0]!).at(-1))).toContain("name = \\\"mine\\\"");
    const correction = JSON.stringify(sent(calls[1]!).at(-1));
    expect(correction).toContain("alignn");
    expect(correction).toContain("rejected");

    // Never valid: two corrections, then the action still comes, with valid false.
    openai.script(...Array.from({ length: 3 }, () => ({ text: fenced(INVALID_DRAFT) })));
    const failing = await chat({ message: "a pipeline that keeps failing" });
    const action = failing.find((entry) => entry.event === "action")!;
    expect(action.data.data.validation.valid).toBe(false);
    expect(JSON.stringify(action.data.data.validation.errors)).toContain("alignn");
    expect(failing.at(-1)).toMatchObject({ event: "done", data: { rounds: 3 } });
  });

  it("feeds the session's earlier messages back to the model on the next message; the title stays the first message's", async () => {
    openai.script({ text: "FastQC checks read quality; fastp also trims adapters." });
    const first = await chat({ message: "What is the difference between FastQC and fastp?" });
    const sessionId = first.at(-1)!.data.session_id as string;
    openai.script({ text: "Use fastp before alignment." });
    const index = openai.requests.length;
    const second = await chat({ message: "Which one should I use first?", session_id: sessionId });
    expect(second.at(-1)).toMatchObject({ event: "done", data: { session_id: sessionId } });
    expect(second.find((entry) => entry.event === "action")).toBeUndefined();
    const messages = sent(openai.requests[index]!);
    expect(messages.map((message) => message.role)).toEqual(["system", "user", "assistant", "user"]);
    expect(messages[1]!.content).toBe("What is the difference between FastQC and fastp?");
    expect(messages[2]!.content).toBe("FastQC checks read quality; fastp also trims adapters.");
    expect(messages[3]!.content).toBe("Which one should I use first?");
    const stored = await messagesOf(sessionId);
    expect(stored.session).toMatchObject({ title: "What is the difference between FastQC and fastp?", message_count: 4, summarised_through: 0 });
  });

  it("summarises a long history with a separate model call, then sends the summary and only the latest messages", async () => {
    const long = (n: number) => `Question ${n}: ${"about my reads and their quality ".repeat(240)}`.slice(0, 7900);
    openai.script({ text: "Answer one." });
    const sessionId = (await chat({ message: long(1) })).at(-1)!.data.session_id as string;
    for (const n of [2, 3]) {
      openai.script({ text: `Answer ${["", "", "two", "three"][n]}.` });
      await chat({ message: long(n), session_id: sessionId });
    }
    // 3 × 7900 characters of history: over the 20 000 budget, so messages 1–2 are summarised first.
    openai.script({ text: "SUMMARY: the user asked about read quality twice." }, { text: "Answer four." });
    const index = openai.requests.length;
    const events = await chat({ message: "And now?", session_id: sessionId });
    expect(events.some((entry) => entry.event === "status" && /summaris/.test(entry.data.message))).toBe(true);
    expect(events.at(-1)!.event).toBe("done");
    const [summaryCall, replyCall] = [openai.requests[index]!, openai.requests[index + 1]!];
    expect(summaryCall.body.tools).toBeUndefined();
    expect(JSON.stringify(sent(summaryCall)[0])).toMatch(/summarise a conversation/);
    expect(JSON.stringify(sent(summaryCall).at(-1))).toContain("Question 1:");
    expect(JSON.stringify(sent(summaryCall).at(-1))).not.toContain("Question 2:");
    const reply = sent(replyCall);
    expect(JSON.stringify(reply[0])).toContain("SUMMARY: the user asked about read quality twice.");
    expect(reply.map((message) => message.role)).toEqual(["system", "user", "assistant", "user", "assistant", "user"]);
    expect(String(reply[1]!.content)).toMatch(/^Question 2:/);
    expect(reply.at(-1)!.content).toBe("And now?");
    const stored = await messagesOf(sessionId);
    expect(stored.session.summarised_through).toBe(2);
    expect(stored.messages).toHaveLength(8);
  });

  it("falls back to a digest made without the model when the summary call fails, and the reply still comes", async () => {
    const long = (n: number) => `Digest question ${n}: ${"how deep should I sequence ".repeat(400)}`.slice(0, 7900);
    openai.script({ text: "First." }, { text: "Second." }, { text: "Third." });
    const sessionId = (await chat({ message: long(1) })).at(-1)!.data.session_id as string;
    await chat({ message: long(2), session_id: sessionId });
    await chat({ message: long(3), session_id: sessionId });
    openai.script({ status: 500, headers: { "retry-after-ms": "0" } }, { text: "Fourth." });
    const index = openai.requests.length;
    const events = await chat({ message: "And now?", session_id: sessionId });
    expect(events.at(-1)!.event).toBe("done");
    const system = JSON.stringify(sent(openai.requests[index + 1]!)[0]);
    expect(system).toContain("Earlier messages (digest)");
    expect(system).toContain("- user: Digest question 1:");
    expect(system).toContain("- assistant: First.");
    expect((await messagesOf(sessionId)).session.summarised_through).toBe(2);
  });

  it("lists the caller's sessions a page at a time and deletes one", async () => {
    openai.script({ text: "One." }, { text: "Two." });
    const a = (await chat({ message: "listing test A" })).at(-1)!.data.session_id;
    const b = (await chat({ message: "listing test B" })).at(-1)!.data.session_id;
    const page = await getJson(`/api/chat/sessions?limit=1`);
    expect(page.items).toHaveLength(1);
    expect(page.items[0]).toMatchObject({ id: b, title: "listing test B", message_count: 2 });
    expect(Object.keys(page.items[0]).sort()).toEqual(["created_at", "id", "message_count", "title", "updated_at"]);
    expect(page.next_cursor).toEqual(expect.any(String));
    const next = await getJson(`/api/chat/sessions?limit=1&cursor=${encodeURIComponent(page.next_cursor)}`);
    expect(next.items[0].id).toBe(a);
    const deleted = await fetch(`${service.url}/api/chat/sessions/${a}`, { method: "DELETE" });
    expect(await deleted.json()).toEqual({ deleted: a });
    expect((await fetch(`${service.url}/api/chat/sessions/${a}/messages`)).status).toBe(404);
    // An unknown session is 404 before any model call.
    const count = openai.requests.length;
    const unknown = await post(service, "/api/chat/send", { message: "hello", session_id: a });
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).code).toBe("NOT_FOUND");
    expect(openai.requests.length).toBe(count);
  });

  it("refuses a model asking to save a pipeline or start a run, and nothing changes", async () => {
    openai.script(
      { toolCalls: [{ name: "save_pipeline", args: { name: "sneaky", toml_content: VALID_DRAFT } }, { name: "start_run", args: { pipeline: "sneaky" } }] },
      { text: "I cannot save or run anything; you can apply the pipeline yourself." },
    );
    const pipelinesBefore = JSON.stringify(await (await fetch(`${service.url}/api/pipelines`)).json());
    const events = await chat({ message: "save this pipeline and run it" });
    const results = events.filter((entry) => entry.event === "tool_result").map((entry) => entry.data);
    expect(results).toHaveLength(2);
    expect(results.map((entry) => [entry.name, entry.refused])).toEqual([
      ["save_pipeline", true],
      ["start_run", true],
    ]);
    expect(results[0].summary).toMatch(/refused/);
    expect(events.at(-1)!.event).toBe("done");
    expect(JSON.stringify(await (await fetch(`${service.url}/api/pipelines`)).json())).toBe(pipelinesBefore);
    expect((await service.store.listRuns({})).items).toHaveLength(0);
    const stored = await messagesOf(events.at(-1)!.data.session_id);
    expect(stored.messages[1].metadata.tool_calls.map((entry: { refused: boolean }) => entry.refused)).toEqual([true, true]);
  });

  it("ends the stream with an error event (CHAT_ERROR) and no done when every provider fails", async () => {
    openai.script({ status: 500, headers: { "retry-after-ms": "0" } });
    const events = await chat({ message: "this stream fails" });
    expect(events.at(-1)).toMatchObject({ event: "error", data: { code: "CHAT_ERROR" } });
    expect(events.at(-1)!.data.message).toMatch(/every provider/);
    expect(events.map((entry) => entry.event)).not.toContain("done");
  });

  it("cancels the model call when the client leaves the stream, and keeps what was said so far", async () => {
    openai.script({ text: "Partial answer that keeps going for a while and never gets to the end of itself at all.", chunkDelayMs: 150 });
    const index = openai.requests.length;
    const controller = new AbortController();
    const response = await post(service, "/api/chat/send", { message: "tell me slowly" }, { signal: controller.signal });
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let received = "";
    while (!received.includes("event: text")) received += decoder.decode((await reader.read()).value);
    controller.abort();
    const request = await openai.settled(index);
    expect(request.aborted).toBe(true);
    const sessions = await getJson(`/api/chat/sessions?limit=1`);
    expect(sessions.items[0].title).toBe("tell me slowly");
    await expect.poll(async () => (await messagesOf(sessions.items[0].id)).messages.length).toBe(2);
    const kept = (await messagesOf(sessions.items[0].id)).messages[1];
    expect(kept.content).toMatch(/^Partial/);
    expect(kept.metadata.cancelled).toBe(true);
  });

  it("answers in one JSON body through the same harness: reply, pipeline, validation, tool calls", async () => {
    openai.script({ toolCalls: [{ name: "validate_pipeline", args: { toml: INVALID_DRAFT } }] }, { text: fenced(VALID_DRAFT, "Checked and fixed.") });
    const response = await post(service, "/api/chat/send/json", { message: "fix my pipeline", context: { toml_content: INVALID_DRAFT } });
    expect(response.status).toBe(200);
    const answer = await response.json();
    expect(answer).toMatchObject({ reply: expect.stringContaining("Checked and fixed."), toml_content: VALID_DRAFT, validation: { valid: true }, rounds: 1, provider: { provider: "openai", model: "gpt-test" } });
    expect(answer.tool_calls).toHaveLength(1);
    expect(answer.tool_calls[0]).toMatchObject({ name: "validate_pipeline", refused: false });
    expect(answer.tool_calls[0].summary).toContain("alignn");
    const stored = await messagesOf(answer.session_id);
    expect(stored.messages[1].content).toBe(answer.reply);
    // Every provider failing is CHAT_ERROR, and the user's message is still kept.
    openai.script({ status: 500, headers: { "retry-after-ms": "0" } });
    const failed = await post(service, "/api/chat/send/json", { message: "this one fails", session_id: answer.session_id });
    expect(failed.status).toBe(400);
    expect((await failed.json()).code).toBe("CHAT_ERROR");
    expect((await messagesOf(answer.session_id)).messages.at(-1)).toMatchObject({ role: "user", content: "this one fails" });
  });
});

describe("a provider failing midway through a streamed reply", () => {
  let openai: ProtocolServer;
  let ollama: ProtocolServer;
  let service: TestService;

  beforeAll(async () => {
    openai = await startProtocolServer("openai");
    ollama = await startProtocolServer("ollama");
    service = await startTestService({ env: { SERVICE_AI_PROVIDER: "openai", SERVICE_AI_API_KEY: "k", SERVICE_AI_API_URL: openai.baseUrl, SERVICE_AI_MODEL: "gpt-test", OLLAMA_HOST: ollama.origin, OLLAMA_MODEL: "llama-test" } });
  });
  afterAll(async () => {
    await service?.close();
    await openai?.close();
    await ollama?.close();
  });

  it("announces the restart of the round, and the next provider's text is what is kept", async () => {
    openai.script({ text: "The first provider begins and", streamError: "Overloaded" });
    ollama.script({ text: "The second provider answers in full." });
    const response = await post(service, "/api/chat/send", { message: "who answers?" });
    const events = sseEvents(await response.text());
    const restart = events.findIndex((entry) => entry.event === "status" && entry.data.restart_round === 1);
    expect(restart).toBeGreaterThan(0);
    expect(events[restart]!.data.message).toMatch(/trying ollama/);
    // The first provider's words had reached the client before it failed.
    expect(events.slice(0, restart).some((entry) => entry.event === "text")).toBe(true);
    const after = events.slice(restart).filter((entry) => entry.event === "text").map((entry) => entry.data.chunk).join("");
    expect(after).toBe("The second provider answers in full.");
    expect(events.at(-1)!.event).toBe("done");
    const stored = (await (await fetch(`${service.url}/api/chat/sessions/${events.at(-1)!.data.session_id}/messages`)).json()) as { messages: { content: string; metadata: unknown }[] };
    expect(stored.messages[1]).toMatchObject({ content: "The second provider answers in full.", metadata: { provider: { provider: "ollama", model: "llama-test" } } });
  });
});
