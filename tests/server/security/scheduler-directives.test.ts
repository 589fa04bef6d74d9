/**
 * Issue 25, finding 3: a job must not leave the sandbox through what the engine hands the scheduler.
 * Against a real hpc-mode `strand serve`, real bubblewrap and the real one-node SLURM, with the service as
 * root and as an unprivileged account:
 *
 * - a pipeline whose partition holds a newline and a shell line, or whose extra_args set BASH_ENV for the job
 *   script, is refused, and nothing runs on the node outside the sandbox (the job script's lines before the
 *   sandbox starts run as the service's account there);
 * - a job that plants a link at a later job's stderr log does not get the scheduler (which opens its output
 *   files itself, as the service's account, outside the sandbox) to write through it;
 * - a normal job's stdout and stderr still land where the run views read them.
 */
import { existsSync, rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BWRAP_WORKS, failWithoutBwrapWhenStrict } from "../../support/bubblewrap.js";
import { ensureSlurm, failWithoutSlurmWhenStrict } from "../../support/slurm-cluster.js";
import { assertBuilt } from "../../support/strand-cli.js";
import { serveTeam, serviceAccounts, type ServedTeam } from "../../support/team-serve.js";

assertBuilt();
failWithoutBwrapWhenStrict();
const slurm = await ensureSlurm();
failWithoutSlurmWhenStrict(slurm);

const SLURM_TARGET = { type: "slurm", poll_interval: "1s" };

/** A pipeline of the given rules (name, shell, and optionally input and output), with more TOML before them. */
function pipeline(name: string, rules: { name: string; shell: string; input?: string; output: string }[], head = ""): string {
  const ruleText = rules.map((rule) => `[[rules]]\nname = "${rule.name}"\n${rule.input ? `input = ["${rule.input}"]\n` : ""}output = ["${rule.output}"]\nshell = ${JSON.stringify(rule.shell)}\n`);
  return [`[workflow]\nname = "${name}"\n`, head, ...ruleText].join("\n");
}

/** Starts a run as alice and waits for its end; a request the service refuses outright is returned as it is. */
async function runToEnd(team: ServedTeam, body: Record<string, unknown>, timeoutMs = 120_000): Promise<{ status: string; error: string; id?: string }> {
  const created = await team.call("alice", "POST", "/api/runs", { body });
  if (created.status !== 201) return { status: `refused ${created.status}`, error: created.text };
  const id = created.body.id as string;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const answer = await team.call("alice", "GET", `/api/runs/${id}`);
    if (["completed", "failed", "cancelled"].includes(String(answer.body.status))) return { status: String(answer.body.status), error: JSON.stringify(answer.body), id };
    if (Date.now() > deadline) throw new Error(`run ${id} did not end: ${answer.text.slice(0, 800)}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

async function logLines(team: ServedTeam, runId: string, job: string, stream: "stdout" | "stderr"): Promise<string[]> {
  const answer = await team.call("alice", "GET", `/api/runs/${runId}/logs?job=${job}&stream=${stream}`);
  if (answer.status !== 200) throw new Error(`logs of ${job}: ${answer.status} ${answer.text}`);
  return answer.body.lines as string[];
}

/** Whether a path exists on the host after the scheduler had a few seconds to act on it. */
async function appearsOnHost(path: string): Promise<boolean> {
  await new Promise((resolve) => setTimeout(resolve, 2000));
  return existsSync(path);
}

for (const account of BWRAP_WORKS && slurm ? serviceAccounts() : []) {
  describe(`SLURM jobs of an hpc service running as ${account.name} (uid ${account.uid})`, () => {
    let team: ServedTeam;
    /** Where a line that escaped the sandbox would leave its mark: the host's /tmp, which no job sees. */
    const marker = (what: string) => `/tmp/strand-directive-${what}-${process.pid}-${account.uid}`;
    beforeAll(async () => {
      team = await serveTeam(account, { mode: "hpc" });
    }, 60_000);
    afterAll(async () => {
      await team?.stop();
      for (const what of ["partition", "target", "bash-env"]) rmSync(marker(what), { force: true });
      rmSync(`/var/tmp/strand-planted-${process.pid}-${account.uid}`, { force: true });
    });

    it("refuses a partition that holds a newline and a shell line, from the pipeline or the run's target, and runs nothing outside the sandbox", async () => {
      const rules = [{ name: "probe", shell: "echo hi > probe.txt", output: "probe.txt" }];
      const fromPipeline = await runToEnd(team, { toml_content: pipeline("inject-partition", rules, `[cluster]\npartition = ${JSON.stringify(`debug\ntouch ${marker("partition")}`)}\n`), target: SLURM_TARGET });
      const fromTarget = await runToEnd(team, { toml_content: pipeline("inject-target", rules), target: { ...SLURM_TARGET, partition: `debug\ntouch ${marker("target")}` } });
      expect(await appearsOnHost(marker("partition")), "the partition's shell line ran on the node").toBe(false);
      expect(existsSync(marker("target")), "the target's shell line ran on the node").toBe(false);
      expect(fromPipeline.status).not.toBe("completed");
      expect(fromPipeline.error).toMatch(/partition/);
      expect(fromPipeline.error).toMatch(/not a scheduler name/);
      expect(fromTarget.status).not.toBe("completed");
      expect(fromTarget.error).toMatch(/partition/);
    }, 180_000);

    it("refuses extra_args that would set the job script's environment (BASH_ENV), saying which option and why", async () => {
      const rules = [
        { name: "make", shell: `echo 'touch ${marker("bash-env")}' > evil.sh`, output: "evil.sh" },
        { name: "use", shell: "echo used > used.txt", input: "evil.sh", output: "used.txt" },
      ];
      const run = await runToEnd(team, { toml_content: pipeline("inject-bash-env", rules), target: { ...SLURM_TARGET, extra_args: ["--export=ALL,BASH_ENV=evil.sh"] } });
      expect(await appearsOnHost(marker("bash-env")), "BASH_ENV ran a workspace file on the node").toBe(false);
      expect(run.status).not.toBe("completed");
      expect(run.error).toMatch(/extra_args entry \\"--export=ALL,BASH_ENV=evil.sh\\" is refused: --export decides the environment the job script starts with/);
    }, 180_000);

    it("does not let the scheduler write through a link a job planted at a later job's stderr log", async () => {
      const target = `/var/tmp/strand-planted-${process.pid}-${account.uid}`;
      const plant = `for run in .strand/runs/*/; do mkdir -p "$run/jobs/victim"; ln -sfn ${target} "$run/jobs/victim/stderr.log"; done; echo planted > planted.txt`;
      const rules = [
        { name: "plant", shell: plant, output: "planted.txt" },
        { name: "victim", shell: "echo through-the-link >&2; echo done > victim.txt", input: "planted.txt", output: "victim.txt" },
      ];
      const run = await runToEnd(team, { toml_content: pipeline("planted-link", rules), target: SLURM_TARGET });
      expect(await appearsOnHost(target), "the scheduler wrote through the planted link").toBe(false);
      // Inside the sandbox the link leads to a read-only place: the victim's log cannot be opened, so it fails.
      expect(run.status, run.error).toBe("failed");
      expect(run.error).toMatch(/victim/);
    }, 180_000);

    it("still writes a job's stdout and stderr where the run views read them", async () => {
      const rules = [{ name: "hello", shell: "echo out-line; echo err-line >&2; echo \"home=$HOME\"; command -v bash; echo done > hello.txt", output: "hello.txt" }];
      const run = await runToEnd(team, { toml_content: pipeline("logs", rules), target: SLURM_TARGET });
      expect(run.status, run.error).toBe("completed");
      const stdout = await logLines(team, run.id!, "hello", "stdout");
      expect(stdout).toContain("out-line");
      // The job gets the engine's environment (its HOME inside the run's workspace, its PATH), not an empty one.
      expect(stdout.find((line) => line.startsWith("home="))).toMatch(/\/\.strand\/home$/);
      // (the view masks the folders of paths: `<path>/bash`)
      expect(stdout.some((line) => line.endsWith("/bash")), stdout.join("\n")).toBe(true);
      expect(await logLines(team, run.id!, "hello", "stderr")).toEqual(["err-line"]);
    }, 180_000);
  });
}
