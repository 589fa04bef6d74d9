/**
 * Who sees what in team mode, against a real service on a socket: another user's private pipelines and runs
 * (with their revisions, logs, results, diagnostics, views and events) answer 404 exactly as an unknown id
 * does; workspace pipelines are read by everyone and changed by their owner and administrators only; link
 * pipelines are read through their share link; share links and templates belong to their owners; server
 * file paths are shown to administrators only. Items of the predecessor's section 14.1 are named by number.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTeamService, trivialPipeline, TRIVIAL_PIPELINE, type Answer, type SignedIn, type TeamService } from "../../support/team-service.js";

/** The events of a stream as `{type, data}`, read until `done` says so (or the time is up). */
async function readEvents(url: string, token: string, done: (events: { type: string; data: Record<string, unknown> }[]) => boolean): Promise<{ type: string; data: Record<string, unknown> }[]> {
  const controller = new AbortController();
  const response = await fetch(`${url}/api/events`, { headers: { authorization: `Bearer ${token}` }, signal: controller.signal });
  expect(response.status).toBe(200);
  const events: { type: string; data: Record<string, unknown> }[] = [];
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  const timer = setTimeout(() => controller.abort(), 30_000);
  try {
    while (!done(events)) {
      const { value, done: ended } = await reader.read();
      if (ended) break;
      buffer += decoder.decode(value, { stream: true });
      let end: number;
      while ((end = buffer.indexOf("\n\n")) >= 0) {
        const message = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = message.split("\n").find((line) => line.startsWith("data: "));
        if (data) events.push(JSON.parse(data.slice(6)) as { type: string; data: Record<string, unknown> });
      }
    }
  } catch (error) {
    if (!controller.signal.aborted) throw error;
  } finally {
    clearTimeout(timer);
    controller.abort();
  }
  return events;
}

const FINAL = new Set(["run_completed", "run_failed", "run_cancelled"]);

describe("ownership and visibility in team mode", () => {
  let team: TeamService;
  let privatePipeline: string;
  let workspacePipeline: string;
  let linkPipeline: string;
  let run: string;

  const create = async (who: SignedIn, body: Record<string, unknown>): Promise<Answer> => {
    const answer = await team.call(who, "POST", "/api/pipelines", { body });
    expect(answer.status, answer.text).toBe(201);
    return answer;
  };

  beforeAll(async () => {
    team = await startTeamService();
    privatePipeline = (await create("user", { toml_content: trivialPipeline("private-one") })).body.id as string;
    await team.call("user", "PUT", `/api/pipelines/${privatePipeline}`, { body: { name: "private, edited" } });
    workspacePipeline = (await create("user", { toml_content: trivialPipeline("workspace-one"), visibility: "workspace" })).body.id as string;
    linkPipeline = (await create("user", { toml_content: trivialPipeline("link-one"), visibility: "link" })).body.id as string;
    run = (await team.call("user", "POST", "/api/runs", { body: { toml_content: TRIVIAL_PIPELINE } })).body.id as string;
    await team.service.supervisor.whenFinished(run);
  }, 60_000);
  afterAll(async () => team?.close());

  /** The answer for `id` with the id itself replaced, to compare with the answer for an unknown id. */
  const withoutId = (answer: Answer, id: string) => ({ status: answer.status, body: JSON.parse(answer.text.replaceAll(id, "<id>")) as unknown });

  it("another user's private pipeline and its revisions answer 404 NOT_FOUND, word for word as an unknown id", async () => {
    const unknown = crypto.randomUUID();
    for (const suffix of ["", "/revisions", "/revisions/1", "/shares"]) {
      for (const who of ["other", "viewer"] as const) {
        const theirs = await team.call(who, "GET", `/api/pipelines/${privatePipeline}${suffix}`);
        const nobody = await team.call(who, "GET", `/api/pipelines/${unknown}${suffix}`);
        expect(theirs.status, `${who} GET ${suffix}`).toBe(404);
        expect(withoutId(theirs, privatePipeline), `${who} GET ${suffix}`).toEqual(withoutId(nobody, unknown));
      }
    }
    for (const [method, suffix, body] of [["PUT", "", { name: "mine now" }], ["DELETE", "", undefined], ["POST", "/fork", {}], ["POST", "/rollback", { revision_id: 1 }]] as const) {
      const answer = await team.call("other", method, `/api/pipelines/${privatePipeline}${suffix}`, { body });
      expect(answer.status, `${method} ${suffix}`).toBe(404);
    }
    const listed = await team.call("other", "GET", "/api/pipelines");
    expect(JSON.stringify(listed.body)).not.toContain(privatePipeline);
    const found = await team.call("other", "POST", "/api/pipelines/search", { body: { query: "private-one" } });
    expect(JSON.stringify(found.body)).not.toContain(privatePipeline);
    expect((await team.call("admin", "GET", `/api/pipelines/${privatePipeline}`)).status).toBe(200);
  });

  it("14.1 #5: POST /api/runs with another user's private pipeline_id answers exactly as an unknown id (no existence oracle)", async () => {
    const unknown = crypto.randomUUID();
    const theirs = await team.call("other", "POST", "/api/runs", { body: { pipeline_id: privatePipeline, dry_run: true } });
    const nobody = await team.call("other", "POST", "/api/runs", { body: { pipeline_id: unknown, dry_run: true } });
    expect(theirs.status).toBe(404);
    expect(withoutId(theirs, privatePipeline)).toEqual(withoutId(nobody, unknown));
  });

  it("another user's run, its logs, results, diagnostics, status, dag-status and report answer 404, as an unknown run; its controls too", async () => {
    const unknown = crypto.randomUUID();
    for (const suffix of ["", "/status", "/dag-status", "/logs", "/logs?stream=stdout&job=hi", "/results", "/diagnostics", "/report"]) {
      expect((await team.call("user", "GET", `/api/runs/${run}${suffix}`)).status, `owner ${suffix}`).toBe(200);
      expect((await team.call("admin", "GET", `/api/runs/${run}${suffix}`)).status, `admin ${suffix}`).toBe(200);
      for (const who of ["other", "viewer"] as const) {
        const theirs = await team.call(who, "GET", `/api/runs/${run}${suffix}`);
        const nobody = await team.call(who, "GET", `/api/runs/${unknown}${suffix}`);
        expect(theirs.status, `${who} ${suffix}`).toBe(404);
        expect(withoutId(theirs, run), `${who} ${suffix}`).toEqual(withoutId(nobody, unknown));
      }
    }
    for (const action of ["cancel", "pause", "resume", "retry"]) expect((await team.call("other", "POST", `/api/runs/${run}/${action}`)).status, action).toBe(404);
    const listed = await team.call("other", "GET", "/api/runs");
    expect(JSON.stringify(listed.body)).not.toContain(run);
    const all = await team.call("admin", "GET", "/api/runs");
    expect(JSON.stringify(all.body)).toContain(run);
  });

  it("a subscriber to GET /api/events receives only events of runs it may read (its own; administrators all)", async () => {
    let userRun = "";
    let otherRun = "";
    const startRuns = async () => {
      await new Promise((resolve) => setTimeout(resolve, 300));
      userRun = (await team.call("user", "POST", "/api/runs", { body: { toml_content: trivialPipeline("watched") } })).body.id as string;
      await team.service.supervisor.whenFinished(userRun);
      otherRun = (await team.call("other", "POST", "/api/runs", { body: { toml_content: trivialPipeline("others") } })).body.id as string;
    };
    const ended = (id: () => string) => (events: { type: string; data: Record<string, unknown> }[]) => id() !== "" && events.some((event) => FINAL.has(event.type) && event.data.run_id === id());
    const [asOther, asUser, asAdmin] = await Promise.all([
      readEvents(team.url, team.tokens.other, ended(() => otherRun)),
      readEvents(team.url, team.tokens.user, ended(() => userRun)),
      readEvents(team.url, team.tokens.admin, ended(() => otherRun)),
      startRuns(),
    ]);
    const runsIn = (events: { data: Record<string, unknown> }[]) => new Set(events.map((event) => event.data.run_id));
    expect(runsIn(asUser)).toContain(userRun);
    expect(runsIn(asOther)).toContain(otherRun);
    expect(runsIn(asOther)).not.toContain(userRun);
    expect(runsIn(asUser)).not.toContain(otherRun);
    expect(runsIn(asAdmin)).toContain(userRun);
    expect(runsIn(asAdmin)).toContain(otherRun);
    await team.service.supervisor.whenFinished(otherRun);
  }, 60_000);

  it("a workspace pipeline is read by everyone signed in (viewers too), forked by users, and changed only by its owner and administrators (403)", async () => {
    for (const who of ["viewer", "other"] as const) {
      expect((await team.call(who, "GET", `/api/pipelines/${workspacePipeline}`)).status, who).toBe(200);
      expect((await team.call(who, "GET", `/api/pipelines/${workspacePipeline}/revisions`)).status, who).toBe(200);
      expect(JSON.stringify((await team.call(who, "GET", "/api/pipelines")).body), who).toContain(workspacePipeline);
    }
    const fork = await team.call("other", "POST", `/api/pipelines/${workspacePipeline}/fork`, { body: {} });
    expect(fork.status).toBe(201);
    expect(fork.body).toMatchObject({ forked_from: workspacePipeline });
    expect((await team.call("other", "GET", `/api/pipelines/${fork.body.id as string}`)).body).toMatchObject({ owner: team.ids.other, visibility: "private" });
    expect((await team.call("viewer", "POST", `/api/pipelines/${workspacePipeline}/fork`, { body: {} })).status).toBe(403);
    for (const [method, suffix, body] of [["PUT", "", { name: "taken over" }], ["DELETE", "", undefined], ["POST", "/rollback", { revision_id: 1 }], ["POST", "/share", {}], ["GET", "/shares", undefined]] as const) {
      const answer = await team.call("other", method, `/api/pipelines/${workspacePipeline}${suffix}`, { body });
      expect(answer.status, `${method} ${suffix}`).toBe(403);
      expect(answer.body.code).toBe("ACCESS_DENIED");
    }
    expect((await team.call("admin", "PUT", `/api/pipelines/${workspacePipeline}`, { body: { tags: ["checked"] } })).status).toBe(200);
    // Running a readable pipeline is reading it: the run is the caller's own, in the caller's folder.
    const theirRun = await team.call("other", "POST", "/api/runs", { body: { pipeline_id: workspacePipeline, dry_run: true } });
    expect(theirRun.status).toBe(201);
    expect(theirRun.body.owner).toBe(team.ids.other);
    await team.service.supervisor.whenFinished(theirRun.body.id as string);
  });

  it("a link pipeline is read by others only through a live share link", async () => {
    expect((await team.call("other", "GET", `/api/pipelines/${linkPipeline}`)).status).toBe(404);
    expect(JSON.stringify((await team.call("other", "GET", "/api/pipelines")).body)).not.toContain(linkPipeline);
    const share = await team.call("user", "POST", `/api/pipelines/${linkPipeline}/share`, { body: {} });
    expect(share.status).toBe(201);
    const landing = await team.call("anonymous", "GET", `/api/share/${share.body.token as string}`);
    expect(landing.status).toBe(200);
    expect(landing.body.toml_content).toContain("link-one");
    expect((await team.call("user", "DELETE", `/api/pipelines/${linkPipeline}/share/${share.body.token as string}`)).status).toBe(200);
    expect((await team.call("anonymous", "GET", `/api/share/${share.body.token as string}`)).status).toBe(410);
  });

  it("14.1 #11: only its owner shares a private pipeline; its owner and administrators list and revoke the links, others get 404", async () => {
    const share = await team.call("user", "POST", `/api/pipelines/${privatePipeline}/share`, { body: {} });
    expect(share.status).toBe(201);
    const token = share.body.token as string;
    const byAdmin = await team.call("admin", "POST", `/api/pipelines/${privatePipeline}/share`, { body: {} });
    expect(byAdmin.status).toBe(403);
    expect(byAdmin.body.code).toBe("ACCESS_DENIED");
    expect((await team.call("other", "POST", `/api/pipelines/${privatePipeline}/share`, { body: {} })).status).toBe(404);
    expect((await team.call("viewer", "POST", `/api/pipelines/${privatePipeline}/share`, { body: {} })).status).toBe(403);
    for (const who of ["user", "admin"] as const) {
      const listed = await team.call(who, "GET", `/api/pipelines/${privatePipeline}/shares`);
      expect(listed.status, who).toBe(200);
      expect((listed.body as unknown as { token: string }[]).map((link) => link.token), who).toContain(token);
    }
    for (const who of ["other", "viewer"] as const) expect((await team.call(who, "GET", `/api/pipelines/${privatePipeline}/shares`)).status, who).toBe(404);
    expect((await team.call("other", "DELETE", `/api/pipelines/${privatePipeline}/share/${token}`)).status).toBe(404);
    expect((await team.call("anonymous", "GET", `/api/share/${token}`)).status).toBe(200);
    expect((await team.call("admin", "DELETE", `/api/pipelines/${privatePipeline}/share/${token}`)).status).toBe(200);
    expect((await team.call("anonymous", "GET", `/api/share/${token}`)).status).toBe(410);
  });

  it("14.1 #10: every signed-in caller reads every template; only its owner or an administrator deletes one; a taken name never overwrites another user's", async () => {
    const made = await team.call("user", "POST", "/api/templates", { body: { name: "bo-template", toml_content: trivialPipeline("bo-template") } });
    expect(made.status).toBe(201);
    expect(made.body.owner).toBe(team.ids.user);
    const id = made.body.id as string;
    for (const who of ["viewer", "other", "admin"] as const) {
      expect((await team.call(who, "GET", `/api/templates/${id}`)).status, who).toBe(200);
      expect(JSON.stringify((await team.call(who, "GET", "/api/templates")).body), who).toContain(id);
    }
    const clash = await team.call("other", "POST", "/api/templates", { body: { name: "bo-template", toml_content: trivialPipeline("hijack") } });
    expect(clash.status).toBe(409);
    expect((await team.call("other", "GET", `/api/templates/${id}`)).body).toMatchObject({ owner: team.ids.user, toml_content: trivialPipeline("bo-template") });
    const refused = await team.call("other", "DELETE", `/api/templates/${id}`);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe("ACCESS_DENIED");
    expect((await team.call("viewer", "DELETE", `/api/templates/${id}`)).status).toBe(403);
    const builtIn = ((await team.call("admin", "GET", "/api/templates")).body as unknown as { id: string; builtin: boolean }[]).find((template) => template.builtin)!;
    expect((await team.call("admin", "DELETE", `/api/templates/${builtIn.id}`)).status).toBe(403);
    expect((await team.call("user", "DELETE", `/api/templates/${id}`)).status).toBe(200);
    const another = await team.call("other", "POST", "/api/templates", { body: { name: "cy-template", toml_content: trivialPipeline("cy-template") } });
    expect((await team.call("admin", "DELETE", `/api/templates/${another.body.id as string}`)).status).toBe(200);
  });

  it("server file paths appear only in administrators' views: runs, their logs and report, /api/system", async () => {
    const dataDir = team.service.dataDir!;
    const failing = (await team.call("user", "POST", "/api/runs", { body: { toml_content: trivialPipeline("failing").replace("echo hi > {output}", "cat missing-input.txt > {output}") } })).body.id as string;
    await team.service.supervisor.whenFinished(failing);
    const views = ["", "/status", "/dag-status", "/logs", "/logs?stream=stderr&job=hi", "/results", "/diagnostics", "/report"];
    for (const id of [run, failing]) {
      for (const suffix of views) {
        const answer = await team.call("user", "GET", `/api/runs/${id}${suffix}`);
        expect(answer.status, suffix).toBe(200);
        expect(answer.text, `${id} ${suffix}`).not.toContain(dataDir);
      }
      const detail = await team.call("user", "GET", `/api/runs/${id}`);
      expect(detail.body.workspace).toBeNull();
      const asAdmin = await team.call("admin", "GET", `/api/runs/${id}`);
      expect(asAdmin.body.workspace).toEqual(expect.stringContaining(dataDir));
    }
    // The engine's log names the failed job's stderr file: the owner sees where it is inside the workspace.
    const log = await team.call("user", "GET", `/api/runs/${failing}`);
    expect(JSON.stringify(log.body.log_tail)).toContain("<workspace>/.strand/runs/");
    expect((await team.call("admin", "GET", `/api/runs/${failing}`)).text).toContain(dataDir);
    const listed = await team.call("user", "GET", "/api/runs");
    expect(listed.text).not.toContain(dataDir);
    expect((await team.call("user", "GET", "/api/system")).body.data_dir).toBeNull();
    expect((await team.call("admin", "GET", "/api/system")).body.data_dir).toBe(dataDir);
    expect((await team.call("anonymous", "GET", "/api/health")).text).not.toContain(dataDir);
  });

  it("a retry an administrator asks for stays its owner's run: the owner reads it, others get 404", async () => {
    const failing = '[workflow]\nname = "fails"\n\n[[rules]]\nname = "no"\noutput = ["no.txt"]\nshell = "exit 3"\n';
    const parent = (await team.call("user", "POST", "/api/runs", { body: { toml_content: failing } })).body.id as string;
    await team.service.supervisor.whenFinished(parent);
    const retry = await team.call("admin", "POST", `/api/runs/${parent}/retry`);
    expect(retry.status, retry.text).toBeLessThan(300);
    const id = retry.body.id as string;
    await team.service.supervisor.whenFinished(id);
    const owner = (await team.call("user", "GET", `/api/runs/${parent}`)).body.owner;
    const seen = await team.call("user", "GET", `/api/runs/${id}`);
    expect(seen.status).toBe(200);
    expect(seen.body.owner).toBe(owner);
    expect((await team.call("other", "GET", `/api/runs/${id}`)).status).toBe(404);
  });

  it("14.1 #5: checks of a shared service do not reveal which files exist on its machine or read them (validate, lint)", async () => {
    const pipeline = (input: string) => `[workflow]\nname = "probe"\n\n[[rules]]\nname = "read"\ninput = ["${input}"]\noutput = ["copy.txt"]\nscript = "${input}"\n`;
    const answers = async (input: string) => {
      const validate = await team.call("user", "POST", "/api/pipelines/validate", { body: { toml_content: pipeline(input) } });
      const lint = await team.call("user", "POST", "/api/pipelines/lint", { body: { toml_content: pipeline(input) } });
      return JSON.stringify([validate.status, validate.body, lint.status, lint.body]).replaceAll(input, "<input>");
    };
    expect(await answers("/etc/passwd")).toEqual(await answers("/etc/no-such-file-here"));
    expect(await answers("/etc/passwd")).not.toContain("root:");
  });
});
