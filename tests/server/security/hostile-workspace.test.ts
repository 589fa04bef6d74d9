/**
 * Issue 25, findings 2, 5 and 6: everything a job can write is hostile, and the service reads none of a
 * user's pipeline sources itself. Against a real team-mode `strand serve` with the job sandbox, run as root
 * and as an unprivileged account:
 *
 * - the run views never load the user's pipeline in the service: a sample sheet named `/proc/self/environ`
 *   shows nothing of the service's environment, URL and `repo` includes are never fetched by the service,
 *   and a file include of a path that exists answers as one that does not (no existence oracle);
 * - a job swapping its result for a FIFO, or its event log and metrics for FIFOs, stalls nobody: file and
 *   zip requests end, sign-in and health answer, SIGTERM still stops the service;
 * - links a job leaves in its run folder (event log, run record, checkpoint, metrics, pipeline copy, job log)
 *   pointing into another user's run show nothing of that run.
 */
import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BWRAP_WORKS, failWithoutBwrapWhenStrict } from "../../support/bubblewrap.js";
import { assertBuilt } from "../../support/strand-cli.js";
import { serveTeam, serviceAccounts, type ServedTeam, type TeamMember } from "../../support/team-serve.js";
import type { Answer } from "../../support/team-service.js";

assertBuilt();
failWithoutBwrapWhenStrict();

/** The service's secrets, in its environment: no answer may carry them. */
const SECRETS = {
  SERVICE_AI_API_KEY: "sk-hostile-ai-key-5b1e",
  SERVICE_OAUTH_GITHUB_CLIENT_ID: "gh-hostile-client-77",
  SERVICE_OAUTH_GITHUB_CLIENT_SECRET: "gh-hostile-secret-90ac",
  SERVICE_DATABASE_URL_NOT_USED: "postgres://strand:hostile-db-pw-31@db.example/strand",
  SERVICE_PUBLIC_URL: "http://127.0.0.1:8080",
};

/** The views of a run, as its owner reads them. */
const VIEWS = ["", "/status", "/dag-status", "/jobs", "/logs", "/results", "/diagnostics", "/report", "/files", "/files?format=zip"];

async function waitForEnd(team: ServedTeam, who: TeamMember, id: string, timeoutMs = 90_000): Promise<Answer> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const answer = await team.call(who, "GET", `/api/runs/${id}`);
    if (["completed", "failed", "cancelled"].includes(String(answer.body.status))) return answer;
    if (Date.now() > deadline) throw new Error(`run ${id} did not end: ${answer.text.slice(0, 500)}`);
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
}

async function startRun(team: ServedTeam, who: TeamMember, toml: string): Promise<string> {
  const answer = await team.call(who, "POST", "/api/runs", { body: { toml_content: toml } });
  if (answer.status !== 201) throw new Error(`POST /api/runs: ${answer.status} ${answer.text}`);
  return answer.body.id as string;
}

/** Every view of a run, as text (status code first). */
async function viewsOf(team: ServedTeam, who: TeamMember, id: string): Promise<string[]> {
  const texts: string[] = [];
  for (const view of VIEWS) {
    const answer = await team.call(who, "GET", `/api/runs/${id}${view}`);
    texts.push(`${view} ${answer.status} ${answer.text}`);
  }
  return texts;
}

/** A pipeline of one rule running `shell` (a TOML basic string's escapes applied). */
function oneRule(name: string, shell: string, extra = ""): string {
  const quoted = JSON.stringify(shell);
  return `[workflow]\nname = "${name}"\n${extra}\n[[rules]]\nname = "probe"\noutput = ["probe.txt"]\nshell = ${quoted}\n`;
}

/** A local HTTP server that counts what it is asked. */
async function countingServer(): Promise<{ server: Server; url: string; requests: string[] }> {
  const requests: string[] = [];
  const server = createServer((request, response) => {
    requests.push(`${request.method} ${request.url}`);
    if (request.url === "/include.toml") {
      response.writeHead(200, { "content-type": "text/plain" });
      response.end('[workflow]\nname = "included"\n\n[[rules]]\nname = "included_rule"\noutput = ["inc.txt"]\nshell = "echo inc > {output}"\n');
      return;
    }
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address() as { port: number };
  return { server, url: `http://127.0.0.1:${address.port}`, requests };
}

for (const account of BWRAP_WORKS ? serviceAccounts() : []) {
  describe(`a team service running as ${account.name} (uid ${account.uid})`, () => {
    let team: ServedTeam;
    beforeAll(async () => {
      team = await serveTeam(account, { env: SECRETS });
    }, 60_000);
    afterAll(() => team?.stop());

    it("never loads a user's pipeline itself: no sample sheet, URL, repository or file it names is read by the service (finding 2)", async () => {
      const counter = await countingServer();
      try {
        const runs = {
          environ: await startRun(team, "alice", oneRule("environ", "echo hi > probe.txt", 'sample_groups_file = "/proc/self/environ"\n')),
          includes: await startRun(
            team,
            "alice",
            oneRule("includes", "echo hi > probe.txt", `\n[[include]]\npath = "${counter.url}/include.toml"\n\n[[include]]\nrepo = "${counter.url}/modules.git"\nref = "v1"\npath = "module.toml"\n`),
          ),
          present: await startRun(team, "alice", oneRule("oracle", "echo hi > probe.txt", '\n[[include]]\npath = "/etc/hostname"\n')),
          absent: await startRun(team, "alice", oneRule("oracle", "echo hi > probe.txt", '\n[[include]]\npath = "/etc/no-such-file-6c1f"\n')),
        };
        for (const id of Object.values(runs)) await waitForEnd(team, "alice", id);
        // Whatever the sandboxed engine fetched while it ran: from here on nobody may fetch anything.
        counter.requests.length = 0;
        const views: Record<string, string[]> = {};
        for (const [name, id] of Object.entries(runs)) views[name] = await viewsOf(team, "alice", id);
        const everything = Object.values(views).flat().join("\n");
        for (const secret of [...Object.values(SECRETS), "admin-long-passphrase-41"]) expect(everything).not.toContain(secret);
        expect(everything).not.toContain("SERVICE_ADMIN_PASSWORD");
        expect(counter.requests, "requests the service made while answering the views").toEqual([]);
        // An include of a file that exists and of one that does not: the same answers, ids and times aside.
        const normalise = (texts: string[]) => texts.map((text) => text.split(" ").slice(0, 2).join(" "));
        expect(normalise(views.present!)).toEqual(normalise(views.absent!));
      } finally {
        counter.server.close();
      }
    }, 180_000);

    it("is not stalled by FIFOs a job swaps in for its result, its event log and its metrics (finding 5)", async () => {
      // The job swaps result.txt between a file and a FIFO for a while, and leaves FIFOs where the service reads and writes.
      const shell = [
        "mkdir -p out",
        "for d in .strand/runs/*/; do mv \"$d/events.jsonl\" \"$d/events.moved\"; mkfifo \"$d/events.jsonl\"; rm -f \"$d/metrics.jsonl\"; mkfifo \"$d/metrics.jsonl\"; done",
        "end=$((SECONDS + 12))",
        "while [ $SECONDS -lt $end ]; do echo data > out/r.tmp; mv -f out/r.tmp out/result.txt; rm -f out/f.tmp; mkfifo out/f.tmp; mv -f out/f.tmp out/result.txt; done",
        "echo done > probe.txt",
      ].join("\n");
      const id = await startRun(team, "alice", oneRule("fifo-storm", shell));
      await new Promise((resolve) => setTimeout(resolve, 1500));
      const deadline = (ms: number) => AbortSignal.timeout(ms);
      const asked: Promise<number>[] = [];
      for (let wave = 0; wave < 8; wave++) {
        for (const query of ["path=out/result.txt", "path=out&format=zip", "path=out"]) {
          asked.push(
            fetch(`${team.url}/api/runs/${id}/files?${query}`, { headers: { authorization: `Bearer ${team.tokens.alice}` }, signal: deadline(15_000) }).then(
              async (response) => {
                await response.arrayBuffer().catch(() => undefined);
                return response.status;
              },
              () => -1,
            ),
          );
        }
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      // While the storm goes on: sign-in and health answer at once.
      const started = Date.now();
      const signIn = await fetch(`${team.url}/api/auth/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ username: "bob", password: "bob-long-passphrase-43" }), signal: deadline(5000) });
      expect(signIn.status).toBe(200);
      const health = await fetch(`${team.url}/api/health`, { signal: deadline(5000) });
      expect(health.status).toBe(200);
      expect(Date.now() - started).toBeLessThan(5000);
      const statuses = await Promise.all(asked);
      expect(statuses.filter((status) => status === -1), "file requests that never ended").toEqual([]);
      for (const status of statuses) expect([200, 404]).toContain(status);
      await waitForEnd(team, "alice", id);
      expect((await team.call("alice", "GET", `/api/runs/${id}/status`)).status).toBe(200);
      expect((await team.call("bob", "GET", "/api/health")).status).toBe(200);
    }, 120_000);

    it("follows no link a job leaves in its run folder: another user's run shows through none of them (finding 6)", async () => {
      const bobRun = await startRun(team, "bob", oneRule("bob-private", "echo BOB-SECRET-COMMAND > probe.txt; echo bob-stderr-secret >&2").replace('name = "probe"', 'name = "bob_secret_rule"'));
      await waitForEnd(team, "bob", bobRun);
      const bobFolder = `${team.dataDir}/users/${team.ids.bob}/runs/${bobRun}`;
      const bobRunDir = `${bobFolder}/.strand/runs/${bobRun}`;
      const links = [
        "r=$(ls -d .strand/runs/*/ | head -n 1)",
        `ln -sf ${bobRunDir}/events.jsonl "$r/events.jsonl"`,
        `ln -sf ${bobRunDir}/metrics.jsonl "$r/metrics.jsonl"`,
        `ln -sf ${bobRunDir}/workflow.oxoflow "$r/workflow.oxoflow"`,
        `printf '{"events": "%s"}' ${bobRunDir}/events.jsonl > "$r/run.json"`,
        `ln -sf ${bobFolder}/.strand/checkpoint.json .strand/checkpoint.json`,
        `ln -sf ${bobFolder}/workflow.oxoflow workflow.oxoflow`,
        `for f in "$r"/jobs/*/stderr.log "$r"/jobs/*/stdout.log; do ln -sf ${bobRunDir}/jobs/bob_secret_rule/stderr.log "$f"; done 2>/dev/null`,
        `ln -sf ${bobFolder}/probe.txt probe.txt`,
        // Options are the run's own, kept by the service: a request file a job writes changes nothing.
        `printf '{"dry_run": true, "jobs": 64}' > "$r/request.json"`,
        "sleep 2",
      ].join("\n");
      const aliceRun = await startRun(team, "alice", oneRule("alice-links", links));
      await new Promise((resolve) => setTimeout(resolve, 2500));
      const live = await viewsOf(team, "alice", aliceRun);
      const detail = await waitForEnd(team, "alice", aliceRun);
      expect(detail.body.dry_run).toBe(false);
      const ended = await viewsOf(team, "alice", aliceRun);
      for (const text of [...live, ...ended]) {
        for (const secret of ["bob_secret_rule", "BOB-SECRET-COMMAND", "bob-stderr-secret", "bob-private"]) expect(text, text.slice(0, 200)).not.toContain(secret);
      }
    }, 180_000);

    it("is not stalled by a FIFO a job leaves for its workspace lock: the next run of the pipeline starts (review of finding 5)", async () => {
      const saved = await team.call("alice", "POST", "/api/pipelines", { body: { toml_content: oneRule("lock-fifo", "rm -f .strand/lock; mkfifo .strand/lock; echo x > probe.txt"), name: "lock-fifo" } });
      expect(saved.status, saved.text).toBe(201);
      const pipelineId = saved.body.id as string;
      const first = await team.call("alice", "POST", "/api/runs", { body: { pipeline_id: pipelineId } });
      expect(first.status, first.text).toBe(201);
      await waitForEnd(team, "alice", first.body.id as string);
      // The lock is a FIFO now; claiming the workspace for the next run reads it.
      const asked = fetch(`${team.url}/api/runs`, {
        method: "POST",
        headers: { authorization: `Bearer ${team.tokens.alice}`, "content-type": "application/json" },
        body: JSON.stringify({ pipeline_id: pipelineId }),
        signal: AbortSignal.timeout(10_000),
      }).then((response) => response.status, () => -1);
      await new Promise((resolve) => setTimeout(resolve, 500));
      const health = await fetch(`${team.url}/api/health`, { signal: AbortSignal.timeout(5000) }).then((response) => response.status, () => -1);
      expect(health, "health while the next run is claimed").toBe(200);
      expect(await asked, "the next run's start").toBe(201);
    }, 120_000);

    it("runs nothing a job leaves in the engine's home: a git configuration with hooks is not used when the next run clones a module (review of finding 3)", async () => {
      const plant = [
        "git init -q modrepo",
        "printf '[workflow]\\nname = \"module\"\\n\\n[[rules]]\\nname = \"from_module\"\\noutput = [\"m.txt\"]\\nshell = \"echo m > m.txt\"\\n' > modrepo/module.toml",
        "git -C modrepo add module.toml",
        "git -C modrepo -c user.name=a -c user.email=a@example.org commit -q -m module",
        "git -C modrepo tag v1",
        "mkdir -p hooks",
        'printf "#!/bin/sh\\necho ran > %s/engine-hook-ran\\n" "$PWD" > hooks/post-checkout',
        "chmod +x hooks/post-checkout",
        'printf "[core]\\n\\thooksPath = %s/hooks\\n" "$PWD" > "$HOME/.gitconfig"',
        "echo planted > probe.txt",
      ].join("\n");
      const saved = await team.call("alice", "POST", "/api/pipelines", { body: { toml_content: oneRule("git-home", plant), name: "git-home" } });
      expect(saved.status, saved.text).toBe(201);
      const pipelineId = saved.body.id as string;
      const workspace = `${team.dataDir}/users/${team.ids.alice}/pipelines/${pipelineId}`;
      const first = await team.call("alice", "POST", "/api/runs", { body: { pipeline_id: pipelineId } });
      expect(first.status, first.text).toBe(201);
      expect((await waitForEnd(team, "alice", first.body.id as string)).body.status).toBe("completed");
      const withModule = oneRule("git-home", "echo again > probe.txt", `\n[[include]]\nrepo = "${workspace}/modrepo"\nref = "v1"\npath = "module.toml"\n`);
      const updated = await team.call("alice", "PUT", `/api/pipelines/${pipelineId}`, { body: { toml_content: withModule } });
      expect(updated.status, updated.text).toBe(200);
      const second = await team.call("alice", "POST", "/api/runs", { body: { pipeline_id: pipelineId } });
      expect(second.status, second.text).toBe(201);
      const ended = await waitForEnd(team, "alice", second.body.id as string);
      const files = await team.call("alice", "GET", `/api/runs/${second.body.id as string}/files`);
      expect(files.text, "the hook ran in the engine's sandbox").not.toContain("engine-hook-ran");
      // The module itself still loads from a repository the sandbox shows.
      expect(ended.body.status, JSON.stringify(ended.body.error)).toBe("completed");
    }, 180_000);

    it("SIGTERM still stops the service after all of that", async () => {
      const stopped = await Promise.race([team.served.stop().then(() => "stopped"), new Promise((resolve) => setTimeout(() => resolve("still running 10 s after SIGTERM"), 10_000))]);
      expect(stopped).toBe("stopped");
    }, 30_000);
  });
}
