/**
 * Every operation of the OpenAPI document, asked by every kind of caller, on SQLite and on PostgreSQL: the
 * answer each gets is written down in TABLE below. An operation of the document without a row fails the
 * test, and so does a row for an operation the document does not have; ROUTE_ACCESS must name exactly the
 * document's operations too.
 *
 * HOW TO ADD AN OPERATION: add a row to TABLE under its operationId, with
 *   - `params` (path parameters, by the names in the document's path), `query` and `body`, each a value or
 *     a function of the fixtures `f` and the caller (use `f.fresh.*` when the request consumes what it
 *     names, e.g. a delete: every caller then gets its own);
 *   - `expect`: the status for each caller — anonymous (no credentials), viewer, user (owns f.pipeline,
 *     f.run, f.template, f.share), other (another user, owns f.othersPipeline) and admin.
 * A protected operation answers anonymous 401 AUTH_REQUIRED; a viewer gets 403 ACCESS_DENIED on writes;
 * another user's private resource is 404 NOT_FOUND. The test checks those codes too.
 *
 * The same rows are then asked again under other spellings of each path (percent-encoded letters and
 * slashes, double slashes, a trailing slash, another case, dot segments), sent as written: access is
 * decided on the route the router runs, so every spelling must get the plain spelling's answer.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROUTE_ACCESS } from "../../../src/server/access-policy.js";
import { serviceStores, type OpenedStore } from "../../support/service-stores.js";
import { ACCOUNTS, CALLERS, startTeamService, trivialPipeline, TRIVIAL_PIPELINE, type Answer, type SignedIn, type TeamService, type Who } from "../../support/team-service.js";

/** What the rows can name: ids made once in beforeAll, and makers of fresh ones. */
interface Fixtures {
  /** The user's private pipeline (two revisions). */
  pipeline: string;
  /** The user's pipeline visible to the workspace. */
  workspacePipeline: string;
  /** The other user's private pipeline. */
  othersPipeline: string;
  /** The user's finished run. */
  run: string;
  /** The user's template. */
  template: string;
  /** A live share token of `pipeline`. */
  share: string;
  /** The user's chat session (with one message). */
  chatSession: string;
  /** The documentation page's first asset. */
  docsAsset: { version: string; name: string };
  /** A name no other request used. */
  unique(prefix: string): string;
  fresh: {
    /** A new private pipeline of the user. */
    pipeline(): Promise<string>;
    /** A new share token of `pipeline`. */
    share(): Promise<string>;
    /** A new template of the user. */
    template(): Promise<string>;
    /** The id of a new session of the user. */
    session(): Promise<string>;
    /** A new chat session of the user. */
    chatSession(): Promise<string>;
    /** The id of a new personal access token of the user. */
    accessToken(): Promise<string>;
    /** The id of a new throwaway account. */
    account(): Promise<string>;
    /** A new session token of `who` (for logout, which ends the session it is sent with). */
    signIn(who: SignedIn): Promise<string>;
  };
}

type Given<T> = T | ((f: Fixtures, who: Who) => T | Promise<T>);

interface Row {
  params?: Given<Record<string, string>>;
  query?: Given<string>;
  body?: Given<Record<string, unknown>>;
  /** Sign in afresh for this request (the operation ends the session it is sent with). */
  ownSession?: true;
  expect: Record<Who, number>;
  /** The error code expected where it is not the usual one for the status (a 404 that is not NOT_FOUND). */
  codes?: Partial<Record<Who, string>>;
}

/** Shorthands for the most common answers. */
const PUBLIC_OK: Record<Who, number> = { anonymous: 200, viewer: 200, user: 200, other: 200, admin: 200 };
const READ_OK: Record<Who, number> = { anonymous: 401, viewer: 200, user: 200, other: 200, admin: 200 };
const ADMIN_ONLY: Record<Who, number> = { anonymous: 401, viewer: 403, user: 403, other: 403, admin: 200 };
/** The user's run, read by each caller: the owner and administrators only, others 404. */
const OWN_RUN_READ: Record<Who, number> = { anonymous: 401, viewer: 404, user: 200, other: 404, admin: 200 };
/** A control operation on the user's finished run: allowed to owner and admin (then refused by the run's state). */
const OWN_RUN_CONTROL: Record<Who, number> = { anonymous: 401, viewer: 403, user: 400, other: 404, admin: 400 };

/** An AI call with no provider configured: refused to viewers, AI_NOT_CONFIGURED for the others. */
const AI_UNCONFIGURED: Record<Who, number> = { anonymous: 401, viewer: 403, user: 503, other: 503, admin: 503 };

const tooling = (body: Record<string, unknown>): Row => ({ body, expect: READ_OK });
const runView: Row = { params: (f) => ({ id: f.run }), expect: OWN_RUN_READ };

/** operationId → example request and the status each caller gets. */
const TABLE: Record<string, Row> = {
  // API description and health
  getOpenApiDocument: { expect: PUBLIC_OK },
  getApiDocs: { expect: PUBLIC_OK },
  getApiDocsAsset: { params: (f) => f.docsAsset, expect: PUBLIC_OK },
  getHealth: { expect: PUBLIC_OK },
  getLicense: { expect: PUBLIC_OK },
  getSystem: { expect: READ_OK },
  getMetrics: { query: "?format=json", expect: READ_OK },
  listAudit: { expect: ADMIN_ONLY },
  uploadLicense: { body: { license_data: "not a license" }, expect: { anonymous: 401, viewer: 403, user: 403, other: 403, admin: 400 } },
  validatePlugin: { body: { manifest: { name: "a-plugin", version: "1.0.0", plugin_type: "rule", entry: "rule.toml" } }, expect: READ_OK },
  getHpcStatus: { expect: { anonymous: 401, viewer: 404, user: 404, other: 404, admin: 404 } },
  listClusters: { expect: READ_OK },
  saveCluster: { body: { id: "route-table", ssh_host: "login.example.org", ssh_user: "strand", remote_dir: "/scratch/strand" }, expect: ADMIN_ONLY },
  deleteCluster: { params: { id: "no-such-cluster" }, expect: { anonymous: 401, viewer: 403, user: 403, other: 403, admin: 404 } },
  probeCluster: { params: { id: "no-such-cluster" }, expect: { anonymous: 401, viewer: 403, user: 404, other: 404, admin: 404 } },
  // AI (no provider is configured in this service: the AI calls answer 503 AI_NOT_CONFIGURED to whoever may make them)
  getAiConfig: { expect: READ_OK },
  setAiConfig: { body: { provider: "disabled", scope: "user" }, expect: { anonymous: 401, viewer: 403, user: 200, other: 200, admin: 200 } },
  testAiProvider: { expect: AI_UNCONFIGURED },
  translateIntent: { body: { intent: "align reads to a reference" }, expect: AI_UNCONFIGURED },
  translateIntentStream: { body: { intent: "align reads to a reference" }, expect: AI_UNCONFIGURED },
  // AI_NOT_CONFIGURED comes before the ownership check (which tests/server/domains/ai/*.test.ts prove with a provider)
  explainRunFailure: { body: (f) => ({ run_id: f.run }), expect: AI_UNCONFIGURED },
  interpretRunResults: { body: (f) => ({ run_id: f.run }), expect: AI_UNCONFIGURED },
  optimizePipeline: { body: (f) => ({ pipeline_id: f.pipeline, goal: "speed" }), expect: AI_UNCONFIGURED },
  // the copilot: sessions are their owner's only (administrators included: a conversation is private)
  sendChatMessage: { body: { message: "how do I align reads?" }, expect: AI_UNCONFIGURED },
  sendChatMessageJson: { body: { message: "how do I align reads?" }, expect: AI_UNCONFIGURED },
  listChatSessions: { query: "?limit=5", expect: READ_OK },
  listChatMessages: { params: (f) => ({ id: f.chatSession }), expect: { anonymous: 401, viewer: 404, user: 200, other: 404, admin: 404 } },
  deleteChatSession: { params: async (f) => ({ id: await f.fresh.chatSession() }), expect: { anonymous: 401, viewer: 403, user: 200, other: 404, admin: 404 } },
  // sign-in and accounts
  login: { body: { username: ACCOUNTS.user.username, password: ACCOUNTS.user.password }, expect: PUBLIC_OK },
  logout: { ownSession: true, expect: READ_OK },
  getCurrentUser: { expect: READ_OK },
  listSessions: { expect: READ_OK },
  revokeSession: { params: async (f) => ({ id: await f.fresh.session() }), expect: { anonymous: 401, viewer: 404, user: 200, other: 404, admin: 404 } },
  changePassword: { body: (_f, who) => ({ current_password: ACCOUNTS[who as SignedIn]?.password ?? "x", new_password: ACCOUNTS[who as SignedIn]?.password ?? "x" }), expect: READ_OK },
  createAccessToken: { body: (f) => ({ name: f.unique("token") }), expect: { anonymous: 401, viewer: 201, user: 201, other: 201, admin: 201 } },
  listAccessTokens: { expect: READ_OK },
  deleteAccessToken: { params: async (f) => ({ id: await f.fresh.accessToken() }), expect: { anonymous: 401, viewer: 404, user: 200, other: 404, admin: 404 } },
  listUsers: { expect: ADMIN_ONLY },
  createUser: { body: (f) => ({ username: f.unique("made"), password: "a-long-enough-password", role: "user" }), expect: { ...ADMIN_ONLY, admin: 201 } },
  updateUser: { params: async (f) => ({ id: await f.fresh.account() }), body: { role: "viewer" }, expect: ADMIN_ONLY },
  deleteUser: { params: async (f) => ({ id: await f.fresh.account() }), expect: ADMIN_ONLY },
  // stateless pipeline tooling
  parsePipeline: tooling({ toml_content: TRIVIAL_PIPELINE }),
  validatePipeline: tooling({ toml_content: TRIVIAL_PIPELINE }),
  preparePipeline: tooling({ toml_content: TRIVIAL_PIPELINE }),
  pipelineDag: tooling({ toml_content: TRIVIAL_PIPELINE }),
  formatPipeline: tooling({ toml_content: TRIVIAL_PIPELINE }),
  lintPipeline: tooling({ toml_content: TRIVIAL_PIPELINE }),
  pipelineStats: tooling({ toml_content: TRIVIAL_PIPELINE }),
  diffPipelines: tooling({ toml_a: TRIVIAL_PIPELINE, toml_b: trivialPipeline("changed") }),
  exportPipeline: tooling({ toml_content: TRIVIAL_PIPELINE, format: "docker" }),
  searchPipelines: tooling({ query: "trivial" }),
  // saved pipelines: the user's private one is theirs and administrators' only
  listPipelines: { expect: READ_OK },
  createPipeline: { body: (f) => ({ toml_content: trivialPipeline(f.unique("created")) }), expect: { anonymous: 401, viewer: 403, user: 201, other: 201, admin: 201 } },
  getPipeline: { params: (f) => ({ id: f.pipeline }), expect: OWN_RUN_READ },
  updatePipeline: { params: (f) => ({ id: f.pipeline }), body: { tags: ["edited"] }, expect: { anonymous: 401, viewer: 403, user: 200, other: 404, admin: 200 } },
  deletePipeline: { params: async (f) => ({ id: await f.fresh.pipeline() }), expect: { anonymous: 401, viewer: 403, user: 200, other: 404, admin: 200 } },
  listRevisions: { params: (f) => ({ id: f.pipeline }), expect: OWN_RUN_READ },
  getRevision: { params: (f) => ({ id: f.pipeline, rev: "1" }), expect: OWN_RUN_READ },
  pruneRevisions: { params: (f) => ({ id: f.pipeline }), query: "?keep=50", expect: { anonymous: 401, viewer: 403, user: 200, other: 404, admin: 200 } },
  rollbackPipeline: { params: (f) => ({ id: f.pipeline }), body: { revision_id: 1 }, expect: { anonymous: 401, viewer: 403, user: 200, other: 404, admin: 200 } },
  // collaboration: a workspace pipeline is forked by any user; only the owner shares a private one
  forkPipeline: { params: (f) => ({ id: f.workspacePipeline }), body: {}, expect: { anonymous: 401, viewer: 403, user: 201, other: 201, admin: 201 } },
  sharePipeline: { params: (f) => ({ id: f.pipeline }), body: {}, expect: { anonymous: 401, viewer: 403, user: 201, other: 404, admin: 403 } },
  listShares: { params: (f) => ({ id: f.pipeline }), expect: OWN_RUN_READ },
  revokeShare: { params: async (f) => ({ id: f.pipeline, token: await f.fresh.share() }), expect: { anonymous: 401, viewer: 403, user: 200, other: 404, admin: 200 } },
  getShare: { params: (f) => ({ token: f.share }), expect: PUBLIC_OK },
  importPipeline: { body: { url: "toml+https://127.0.0.1/pipeline.toml" }, expect: { anonymous: 401, viewer: 403, user: 400, other: 400, admin: 400 } },
  // graph edits: a saved pipeline needs write permission (the edit here changes nothing, so no history starts);
  // undo and redo on the workspace pipeline: others may read it but not change it, and nobody has edited it
  editPipelineGraph: { params: (f) => ({ id: f.pipeline }), body: { toml_content: TRIVIAL_PIPELINE, operation: "update_workflow", payload: { patch: { workflow: { name: "trivial" } } } }, expect: { anonymous: 401, viewer: 403, user: 200, other: 404, admin: 200 } },
  undoPipelineEdit: { params: (f) => ({ id: f.workspacePipeline }), body: { toml_content: TRIVIAL_PIPELINE }, expect: { anonymous: 401, viewer: 403, user: 404, other: 403, admin: 404 }, codes: { user: "NO_UNDO", admin: "NO_UNDO" } },
  redoPipelineEdit: { params: (f) => ({ id: f.workspacePipeline }), body: { toml_content: TRIVIAL_PIPELINE }, expect: { anonymous: 401, viewer: 403, user: 404, other: 403, admin: 404 }, codes: { user: "NO_REDO", admin: "NO_REDO" } },
  // templates: everyone reads them all; the owner or an administrator deletes one
  listTemplates: { expect: READ_OK },
  getTemplate: { params: (f) => ({ id: f.template }), expect: READ_OK },
  createTemplate: { body: (f) => ({ name: f.unique("template"), toml_content: TRIVIAL_PIPELINE }), expect: { anonymous: 401, viewer: 403, user: 201, other: 201, admin: 201 } },
  deleteTemplate: { params: async (f) => ({ id: await f.fresh.template() }), expect: { anonymous: 401, viewer: 403, user: 200, other: 403, admin: 200 } },
  // data helpers: everyone signed in reads their own folders (a relative path is in the caller's own files folder)
  listDataRoots: { expect: READ_OK },
  analyzeData: { body: { paths: ["."] }, expect: READ_OK },
  templateFromData: { body: { paths: ["."] }, expect: { anonymous: 401, viewer: 400, user: 400, other: 400, admin: 400 }, codes: { user: "DATA_ERROR" } },
  perceiveData: { body: { description: "paired-end 2x150 RNA-seq of human liver" }, expect: READ_OK },
  parseSampleSheet: { body: { content: "sample,fastq_1\nA,a.fastq.gz\n" }, expect: READ_OK },
  generateSampleSheet: { body: { paths: ["."] }, expect: { anonymous: 401, viewer: 400, user: 400, other: 400, admin: 400 } },
  findReference: { body: { genome: "GRCh38" }, expect: READ_OK },
  getReferenceStatus: { expect: READ_OK },
  listFiles: { expect: READ_OK },
  uploadFiles: { query: (f) => `?name=${f.unique("upload")}.json`, body: { note: "a small upload" }, expect: { anonymous: 401, viewer: 403, user: 201, other: 201, admin: 201 } },
  // runs and events: the owner's and administrators' only
  streamEvents: { expect: READ_OK },
  listRuns: { expect: READ_OK },
  createRun: { body: (f) => ({ pipeline_id: f.pipeline, dry_run: true, fresh: true }), expect: { anonymous: 401, viewer: 403, user: 201, other: 404, admin: 201 } },
  getRun: runView,
  getRunStatus: runView,
  getRunDagStatus: runView,
  listRunJobs: { params: (f) => ({ id: f.run }), query: "?limit=10&sort=duration_ms&order=desc", expect: OWN_RUN_READ },
  getRunLogs: runView,
  getRunResults: runView,
  getRunDiagnostics: runView,
  getRunReport: runView,
  readRunFile: { params: (f) => ({ id: f.run }), query: "?path=workflow.oxoflow", expect: OWN_RUN_READ },
  cancelRun: { params: (f) => ({ id: f.run }), expect: OWN_RUN_CONTROL },
  pauseRun: { params: (f) => ({ id: f.run }), expect: OWN_RUN_CONTROL },
  resumeRun: { params: (f) => ({ id: f.run }), expect: OWN_RUN_CONTROL },
  retryRun: { params: (f) => ({ id: f.run }), expect: OWN_RUN_CONTROL },
  // OAuth (no provider configured here): public, and the same answer for everyone
  listSignInMethods: { expect: PUBLIC_OK },
  startOAuthSignIn: { params: { provider: "github" }, expect: { anonymous: 404, viewer: 404, user: 404, other: 404, admin: 404 } },
  finishOAuthSignIn: { params: { provider: "github" }, expect: { anonymous: 404, viewer: 404, user: 404, other: 404, admin: 404 } },
};

interface Operation {
  method: string;
  path: string;
  operationId: string;
}

async function documentOperations(base: string): Promise<Operation[]> {
  const document = (await (await fetch(`${base}/api/openapi.json`)).json()) as { paths: Record<string, Record<string, { operationId?: string }>> };
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (operation.operationId) operations.push({ method: method.toUpperCase(), path, operationId: operation.operationId });
    }
  }
  return operations;
}

async function given<T>(value: Given<T> | undefined, f: Fixtures, who: Who): Promise<T | undefined> {
  return typeof value === "function" ? (value as (f: Fixtures, who: Who) => T | Promise<T>)(f, who) : value;
}

/** One segment of a request path: the document's static text, or a filled-in parameter. */
interface Segment {
  text: string;
  parameter: boolean;
}

/** The request a row makes for a caller: the document's path with its parameters filled in (also as segments, for respelling). */
async function requestOf(operation: Operation, row: Row, f: Fixtures, who: Who): Promise<{ path: string; segments: Segment[]; query: string; body: unknown }> {
  const params = (await given(row.params, f, who)) ?? {};
  const segments = operation.path
    .split("/")
    .slice(1)
    .map((part): Segment => {
      const name = /^\{([^}]+)\}$/.exec(part)?.[1];
      if (name === undefined) return { text: part, parameter: false };
      const value = params[name];
      if (value === undefined) throw new Error(`${operation.operationId}: the row gives no path parameter ${name}`);
      return { text: encodeURIComponent(value), parameter: true };
    });
  const query = (await given(row.query, f, who)) ?? "";
  return { path: `/${segments.map((segment) => segment.text).join("/")}${query}`, segments, query, body: await given(row.body, f, who) };
}

/** A static segment with its first letter percent-encoded (`users` → `%75sers`). */
const encodeFirstLetter = (text: string) => text.replace(/[a-z]/i, (letter) => `%${letter.charCodeAt(0).toString(16)}`);

/** Other spellings of a path that name the same route, each with a name for the failure message. */
function respellings(segments: Segment[]): { spelling: string; path: string }[] {
  const texts = segments.map((segment) => segment.text);
  const joined = (parts: string[]) => `/${parts.join("/")}`;
  const last = texts.length - 1;
  return [
    { spelling: "percent-encoded letters", path: joined(segments.map((segment) => (segment.parameter ? segment.text : encodeFirstLetter(segment.text)))) },
    { spelling: "percent-encoded slashes", path: `/${texts.join("%2F")}` },
    { spelling: "lower-case percent-encoded slashes", path: `/${texts[0]}%2f${texts.slice(1).join("/")}` },
    { spelling: "double slashes", path: `/${texts.map((text) => `/${text}`).join("")}` },
    { spelling: "a trailing slash", path: `${joined(texts)}/` },
    { spelling: "upper case", path: joined(segments.map((segment) => (segment.parameter ? segment.text : segment.text.toUpperCase()))) },
    { spelling: "dot segments", path: joined([texts[0]!, ".", ...texts.slice(1, last), "elsewhere", "..", texts[last]!]) },
    { spelling: "percent-encoded dot segments", path: joined([texts[0]!, "%2e", ...texts.slice(1, last), "elsewhere", "%2E%2E", texts[last]!]) },
    { spelling: "dot segments behind encoded slashes", path: joined([`${texts[0]}%2F.%2Felsewhere%2F..`, ...texts.slice(1)]) },
  ];
}

const EXPECTED_CODE: Partial<Record<number, string>> = { 401: "AUTH_REQUIRED", 403: "ACCESS_DENIED" };

const kinds = await serviceStores();

describe("the route table", () => {
  it("names exactly the operations of ROUTE_ACCESS, and agrees with it: anonymous 401 unless public, a viewer 403 on writes and administration", () => {
    expect(Object.keys(TABLE).sort()).toEqual(Object.keys(ROUTE_ACCESS).sort());
    for (const [operationId, row] of Object.entries(TABLE)) {
      const access = ROUTE_ACCESS[operationId]!;
      if (access === "public") expect(row.expect.anonymous, operationId).not.toBe(401);
      else expect(row.expect.anonymous, operationId).toBe(401);
      if (access === "write" || access === "admin") expect(row.expect.viewer, operationId).toBe(403);
      else expect(row.expect.viewer, operationId).not.toBe(403);
      if (access === "admin") expect([row.expect.user, row.expect.other], operationId).toEqual([403, 403]);
    }
  });
});

for (const kind of kinds) {
  describe(`every operation for every caller, on ${kind.name}`, () => {
    let opened: OpenedStore;
    let team: TeamService;
    let f: Fixtures;
    let operations: Operation[];

    beforeAll(async () => {
      opened = await kind.open();
      team = await startTeamService({ store: opened.store, dataDir: opened.dataDir });
      let counter = 0;
      const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${++counter}`;
      const asUser = async (method: string, path: string, body?: unknown): Promise<Answer> => {
        const answer = await team.call("user", method, path, { body });
        if (answer.status >= 300) throw new Error(`${method} ${path}: ${answer.status} ${answer.text}`);
        return answer;
      };
      const newPipeline = async (visibility = "private", who: SignedIn = "user") => {
        const answer = await team.call(who, "POST", "/api/pipelines", { body: { toml_content: trivialPipeline(unique("pipeline")), visibility } });
        if (answer.status !== 201) throw new Error(`POST /api/pipelines: ${answer.status} ${answer.text}`);
        return answer.body.id as string;
      };
      const pipeline = await newPipeline();
      await asUser("PUT", `/api/pipelines/${pipeline}`, { name: "renamed once" });
      const run = (await asUser("POST", "/api/runs", { toml_content: TRIVIAL_PIPELINE })).body.id as string;
      await team.service.supervisor.whenFinished(run);
      // Chat sessions come from the store: no AI provider is configured here, so the copilot cannot make one.
      const newChatSession = async () => {
        const session = await team.service.store.createChatSession({ owner: team.ids.user, title: unique("chat") });
        await team.service.store.appendChatMessage({ session_id: session.id, role: "user", content: "hello" });
        return session.id;
      };
      const docs = await team.call("anonymous", "GET", "/api/docs");
      const asset = /docs\/assets\/([^/"]+)\/([^"?]+)/.exec(docs.text);
      if (!asset) throw new Error("the documentation page names no asset");
      f = {
        pipeline,
        workspacePipeline: await newPipeline("workspace"),
        othersPipeline: await newPipeline("private", "other"),
        run,
        template: (await asUser("POST", "/api/templates", { name: unique("template"), toml_content: TRIVIAL_PIPELINE })).body.id as string,
        share: (await asUser("POST", `/api/pipelines/${pipeline}/share`, {})).body.token as string,
        chatSession: await newChatSession(),
        docsAsset: { version: asset[1]!, name: asset[2]! },
        unique,
        fresh: {
          pipeline: () => newPipeline(),
          share: async () => (await asUser("POST", `/api/pipelines/${pipeline}/share`, {})).body.token as string,
          template: async () => (await asUser("POST", "/api/templates", { name: unique("template"), toml_content: TRIVIAL_PIPELINE })).body.id as string,
          chatSession: newChatSession,
          session: async () => {
            const token = await team.signIn("user");
            return token.slice(0, token.indexOf("."));
          },
          accessToken: async () => (await asUser("POST", "/api/auth/tokens", { name: unique("token") })).body.id as string,
          account: async () => {
            const answer = await team.call("admin", "POST", "/api/users", { body: { username: unique("throwaway"), password: "a-long-enough-password", role: "user" } });
            if (answer.status !== 201) throw new Error(`POST /api/users: ${answer.status} ${answer.text}`);
            return answer.body.id as string;
          },
          signIn: (who) => team.signIn(who),
        },
      };
      operations = await documentOperations(team.url);
    }, 120_000);

    afterAll(async () => {
      await team?.close();
      await opened?.dispose();
    });

    it("has a row for every operation of the OpenAPI document and none for an operation it lacks; ROUTE_ACCESS covers exactly the document", () => {
      const documented = operations.map((operation) => operation.operationId).sort();
      expect(documented.filter((id) => !(id in TABLE)), "operations without a row in TABLE").toEqual([]);
      expect(Object.keys(TABLE).filter((id) => !documented.includes(id)), "rows for operations the document lacks").toEqual([]);
      expect(Object.keys(ROUTE_ACCESS).sort()).toEqual(documented);
    });

    it("answers anonymous, viewer, user, another user and admin as the table says (401 AUTH_REQUIRED, 403 ACCESS_DENIED, 404 NOT_FOUND)", async () => {
      const wrong: string[] = [];
      for (const operation of operations) {
        const row = TABLE[operation.operationId];
        if (!row) continue;
        for (const who of CALLERS) {
          const { path, body } = await requestOf(operation, row, f, who);
          const token = row.ownSession && who !== "anonymous" ? await f.fresh.signIn(who) : undefined;
          const answer = await team.call(who, operation.method, path, { body, token });
          const expected = row.expect[who];
          const code = row.codes?.[who] ?? (expected === 404 && operation.operationId !== "getApiDocsAsset" ? "NOT_FOUND" : EXPECTED_CODE[expected]);
          if (answer.status !== expected || (code !== undefined && answer.body.code !== code)) {
            wrong.push(`${operation.operationId} as ${who}: ${operation.method} ${path} answered ${answer.status} ${answer.body.code ?? ""}, the table says ${expected} ${code ?? ""}`);
          }
        }
      }
      expect(wrong).toEqual([]);
    }, 180_000);

    // The spellings concern the router, not the store: asked once, on the first store.
    it.runIf(kind === kinds[0])("answers every other spelling of every path as the plain one, for anonymous, a viewer and a user (the route the router runs decides access)", async () => {
      const wrong: string[] = [];
      for (const operation of operations) {
        const row = TABLE[operation.operationId];
        if (!row) continue;
        for (const who of ["anonymous", "viewer", "user"] as const) {
          const expected = row.expect[who];
          const code = row.codes?.[who] ?? (expected === 404 && operation.operationId !== "getApiDocsAsset" ? "NOT_FOUND" : EXPECTED_CODE[expected]);
          const { segments } = await requestOf(operation, row, f, who);
          for (const { spelling } of respellings(segments)) {
            // A fresh request per spelling: rows that consume what they name (a delete) get their own.
            const fresh = await requestOf(operation, row, f, who);
            const { path } = respellings(fresh.segments).find((candidate) => candidate.spelling === spelling)!;
            const token = row.ownSession && who !== "anonymous" ? await f.fresh.signIn(who) : undefined;
            const answer = await team.call(who, operation.method, path + fresh.query, { body: fresh.body, token, raw: true });
            if (answer.status !== expected || (code !== undefined && answer.body.code !== code)) {
              wrong.push(`${operation.operationId} as ${who}, ${spelling}: ${operation.method} ${path + fresh.query} answered ${answer.status} ${answer.body.code ?? ""}, the plain spelling ${expected} ${code ?? ""}`);
            }
          }
        }
      }
      expect(wrong).toEqual([]);
    }, 600_000);
  });
}
