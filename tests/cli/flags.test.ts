/**
 * The flags people bring from Snakemake and Nextflow, through the real command line: `run -n`, `-c/--cores`,
 * `-R/--forcerun`, `--until`, `--configfile` and `--config`, `--profile a,b`, `strand help CMD`, "did you
 * mean" for commands and options, and `strand unlock`.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { describe, expect, it } from "vitest";
import { parseData, runStrand, tempFolder } from "../support/strand-cli.js";

const CHAIN = `[workflow]
name = "chain"

[config]
greeting = "hello"
count = 1

[[rules]]
name = "first"
output = ["a.txt"]
shell = "echo {config.greeting} > a.txt"

[[rules]]
name = "second"
input = ["a.txt"]
output = ["b.txt"]
shell = "cat a.txt > b.txt"

[[rules]]
name = "third"
input = ["b.txt"]
output = ["c.txt"]
shell = "cat b.txt > c.txt"
`;

const THREADED = `[workflow]
name = "threaded"

[[rules]]
name = "wide"
threads = 8
output = ["threads.txt"]
shell = "echo {threads} > threads.txt"
`;

type Plan = { would_run: number; plan: { name: string; status: string; reason: { code: string; text: string } }[] };
const reasons = (plan: Plan) => Object.fromEntries(plan.plan.map((job) => [job.name, `${job.status}: ${job.reason.text}`]));

describe.concurrent("strand run -n / --dry-run", () => {
  it("prints the plan dry-run prints, runs nothing and exits 0", async () => {
    const folder = tempFolder({ "main.oxoflow": CHAIN });
    try {
      const [short, long, dry] = await Promise.all([runStrand(["run", "-n"], { cwd: folder.dir }), runStrand(["run", "--dry-run"], { cwd: folder.dir }), runStrand(["dry-run"], { cwd: folder.dir })]);
      expect(short.exitCode, short.stderr).toBe(0);
      expect(short.stdout).toBe(dry.stdout);
      expect(long.stdout).toBe(dry.stdout);
      expect(short.stdout).toContain("3 jobs would execute");
      expect(existsSync(folder.path("a.txt"))).toBe(false);
      expect(existsSync(folder.path(".strand"))).toBe(false);
    } finally {
      folder.remove();
    }
  });
});

describe.concurrent("strand run -c/--cores", () => {
  it("clamps a job asking for more threads than --cores, with a warning, and {threads} says so", async () => {
    const folder = tempFolder({ "main.oxoflow": THREADED });
    try {
      const result = await runStrand(["run", "-c", "2"], { cwd: folder.dir });
      expect(result.exitCode, result.stderr).toBe(0);
      expect(result.stderr).toContain("warning [CORES_CLAMPED]");
      expect(result.stderr).toContain("rule 'wide' asks for 8 threads, more than --cores 2: its jobs run with 2");
      expect(readFileSync(folder.path("threads.txt"), "utf8").trim()).toBe("2");
      const plan = await runStrand(["run", "-n", "--cores", "3", "--rerun"], { cwd: folder.dir });
      expect(plan.stdout).toContain("threads=3");
    } finally {
      folder.remove();
    }
  });

  it("refuses --cores with --max-threads, and a --cores that is not a whole number", async () => {
    const [both, bad] = await Promise.all([runStrand(["run", "-c", "2", "--max-threads", "2"], { cwd: "/tmp" }), runStrand(["run", "-c", "many"], { cwd: "/tmp" })]);
    expect(both.exitCode).toBe(2);
    expect(both.stderr).toContain("--cores and --max-threads both set the thread budget");
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain("--cores needs a whole number of at least 1, got 'many'");
  });
});

describe.concurrent("-R/--forcerun and --until", () => {
  it("-R re-runs that rule's jobs and everything downstream, with the reason shown", async () => {
    const folder = tempFolder({ "main.oxoflow": CHAIN });
    try {
      expect((await runStrand(["run"], { cwd: folder.dir })).exitCode).toBe(0);
      const plan = parseData<Plan>(await runStrand(["dry-run", "-R", "second", "--json"], { cwd: folder.dir }));
      expect(reasons(plan)).toEqual({ first: "skip: outputs up to date", second: "run: forced (-R second)", third: "run: downstream of second" });
      const run = await runStrand(["run", "--forcerun", "second"], { cwd: folder.dir });
      expect(run.exitCode, run.stderr).toBe(0);
      expect(run.stderr).toMatch(/Done: 2 succeeded, 1 skipped/);
      const unknown = await runStrand(["run", "-R", "secnd"], { cwd: folder.dir });
      expect(unknown.exitCode).toBe(1);
      expect(unknown.stderr).toContain("-R/--forcerun secnd: no rule of that name has jobs");
      expect(unknown.stderr).toContain("did you mean second?");
    } finally {
      folder.remove();
    }
  });

  it("--until runs only that rule's jobs and what they need", async () => {
    const folder = tempFolder({ "main.oxoflow": CHAIN });
    try {
      const run = await runStrand(["run", "--until", "second"], { cwd: folder.dir });
      expect(run.exitCode, run.stderr).toBe(0);
      expect(existsSync(folder.path("b.txt"))).toBe(true);
      expect(existsSync(folder.path("c.txt"))).toBe(false);
      const graph = parseData<{ nodes: { id: string }[] }>(await runStrand(["graph", "--until", "first", "--json"], { cwd: folder.dir }));
      expect(graph.nodes.map((node) => node.id)).toEqual(["first"]);
      const unknown = await runStrand(["dry-run", "--until", "nothing"], { cwd: folder.dir });
      expect(unknown.exitCode).toBe(1);
      expect(unknown.stderr).toContain("--until nothing: no rule of that name has jobs");
    } finally {
      folder.remove();
    }
  });
});

describe.concurrent("--configfile, --config and --profile a,b", () => {
  const folder = () =>
    tempFolder({
      "main.oxoflow": CHAIN,
      "one.toml": 'greeting = "from-toml"\ncount = 2\n',
      "two.json": '{"greeting": "from-json", "extra": {"depth": 1}}',
      "three.yaml": "greeting: from-yaml\nextra:\n  width: 2\n",
      "null.yaml": "greeting: ~\n",
      "profiles/a.toml": '[config]\nfrom_a = "a"\nshared = "a"\n\n[defaults]\nthreads = 2\n',
      "profiles/b.toml": '[config]\nshared = "b"\n\n[defaults]\nthreads = 4\n',
    });
  const configOf = async (cwd: string, ...args: string[]) => parseData<{ config: Record<string, unknown>; overridden: string[] }>(await runStrand(["config", "show", "--json", ...args], { cwd })).config;

  it("reads TOML, JSON and YAML files, typed, merged in order (later wins, tables merged), then --config on top", async () => {
    const project = folder();
    try {
      expect(await configOf(project.dir, "--configfile", "one.toml")).toMatchObject({ greeting: "from-toml", count: 2 });
      expect(await configOf(project.dir, "--configfile", "one.toml", "--configfile", "two.json")).toMatchObject({ greeting: "from-json", count: 2, extra: { depth: 1 } });
      expect(await configOf(project.dir, "--configfile", "two.json", "--configfile", "three.yaml")).toMatchObject({ greeting: "from-yaml", extra: { depth: 1, width: 2 } });
      expect(await configOf(project.dir, "--configfile", "three.yaml", "--config", "greeting=from-flag", "count=5")).toMatchObject({ greeting: "from-flag", count: 5 });
      const run = await runStrand(["run", "--configfile", "three.yaml"], { cwd: project.dir });
      expect(run.exitCode, run.stderr).toBe(0);
      expect(readFileSync(project.path("a.txt"), "utf8").trim()).toBe("from-yaml");
    } finally {
      project.remove();
    }
  });

  it("refuses a missing file and a null value, naming the file", async () => {
    const project = folder();
    try {
      const missing = await runStrand(["dry-run", "--configfile", "nope.yaml"], { cwd: project.dir });
      expect(missing.exitCode).toBe(1);
      expect(missing.stderr).toContain("cannot read config file");
      const empty = await runStrand(["dry-run", "--configfile", "null.yaml"], { cwd: project.dir });
      expect(empty.exitCode).toBe(1);
      expect(empty.stderr).toContain("'greeting' has no value (null)");
    } finally {
      project.remove();
    }
  });

  it("--profile a,b applies both in order: b's values win over a's", async () => {
    const project = folder();
    try {
      expect(await configOf(project.dir, "--profile", "a,b")).toMatchObject({ from_a: "a", shared: "b" });
      expect(await configOf(project.dir, "--profile", "b,a")).toMatchObject({ from_a: "a", shared: "a" });
      expect(await configOf(project.dir, "--profile", "a", "--profile", "b")).toMatchObject({ shared: "b" });
      const plan = await runStrand(["dry-run", "--profile", "a,b"], { cwd: project.dir });
      expect(plan.stdout).toContain("threads=4");
    } finally {
      project.remove();
    }
  });
});

describe.concurrent("strand help and did-you-mean", () => {
  it("strand help run is strand run --help", async () => {
    const [help, flag] = await Promise.all([runStrand(["help", "run"]), runStrand(["run", "--help"])]);
    expect(help.exitCode).toBe(0);
    expect(help.stdout).toBe(flag.stdout);
    expect(help.stdout).toContain("strand run — run a pipeline");
    expect(help.stdout).toContain("-c, --cores N");
    expect(help.stdout).toContain("-R, --forcerun RULE");
    expect(help.stdout).toContain("-n, --dry-run");
  });

  it("strand help lists the commands, unlock among them", async () => {
    const help = await runStrand(["help"]);
    expect(help.exitCode).toBe(0);
    expect(help.stdout).toContain("Commands:");
    expect(help.stdout).toMatch(/^ {2}unlock {2,}/m);
  });

  it("a mistyped command gets the nearest command and exit 2", async () => {
    const [typo, helpTypo] = await Promise.all([runStrand(["valdate"]), runStrand(["help", "dryrun"])]);
    expect(typo.exitCode).toBe(2);
    expect(typo.stderr).toContain("strand: unknown command 'valdate' (did you mean 'validate'?)");
    expect(helpTypo.exitCode).toBe(2);
    expect(helpTypo.stderr).toContain("(did you mean 'dry-run'?)");
  });

  it("a mistyped option gets the nearest option and exit 2", async () => {
    const folder = tempFolder({ "main.oxoflow": CHAIN });
    try {
      const [run, diff] = await Promise.all([runStrand(["run", "--coers", "2"], { cwd: folder.dir }), runStrand(["diff", "main.oxoflow", "main.oxoflow", "--jsn"], { cwd: folder.dir })]);
      expect(run.exitCode).toBe(2);
      expect(run.stderr).toContain("unknown option --coers");
      expect(run.stderr).toContain("did you mean --cores?");
      expect(diff.exitCode).toBe(2);
      expect(diff.stderr).toContain("did you mean --json?");
    } finally {
      folder.remove();
    }
  });
});

describe.concurrent("strand unlock", () => {
  const lock = (dir: string, owner: { pid: number; host: string }) => writeFileSync(`${dir}/.strand/lock`, JSON.stringify({ ...owner, started_at: "2026-01-01T00:00:00.000Z", purpose: "strand run 20260101-000000-ab12" }));
  const project = () => tempFolder({ "main.oxoflow": CHAIN, ".strand/keep": "" });
  /** A pid that surely no longer runs: a process that has already exited. */
  const deadPid = () => Number(execFileSync("sh", ["-c", "sh -c 'echo $$'"], { encoding: "utf8" }).trim());

  it("clears a lock whose owner on this host is gone", async () => {
    const folder = project();
    try {
      lock(folder.dir, { pid: deadPid(), host: hostname() });
      const result = await runStrand(["unlock"], { cwd: folder.dir });
      expect(result.exitCode, result.stderr).toBe(0);
      expect(result.stdout).toMatch(/unlocked .*: pid \d+ is no longer running/);
      expect(existsSync(folder.path(".strand/lock"))).toBe(false);
      const again = await runStrand(["unlock", "--json"], { cwd: folder.dir });
      expect(parseData(again)).toMatchObject({ removed: false, reason: "there was no lock" });
    } finally {
      folder.remove();
    }
  });

  it("never clears a lock whose owner is alive", async () => {
    const folder = project();
    try {
      lock(folder.dir, { pid: process.pid, host: hostname() });
      const result = await runStrand(["unlock", folder.dir]);
      expect(result.exitCode).toBe(1);
      expect(result.stderr).toContain(`the lock is held by a running process: pid ${process.pid} on this host`);
      expect(existsSync(folder.path(".strand/lock"))).toBe(true);
    } finally {
      folder.remove();
    }
  });

  it("refuses another host's lock without --force, naming the host and pid; run's lock error names strand unlock", async () => {
    const folder = project();
    try {
      lock(folder.dir, { pid: 4242, host: "node17.cluster.example" });
      const run = await runStrand(["run"], { cwd: folder.dir });
      expect(run.exitCode).toBe(1);
      expect(run.stderr).toContain("pid 4242 on node17.cluster.example");
      expect(run.stderr).toContain("strand unlock --force");
      const refused = await runStrand(["unlock"], { cwd: folder.dir });
      expect(refused.exitCode).toBe(1);
      expect(refused.stderr).toContain("the lock was taken on another host: pid 4242 on node17.cluster.example");
      expect(refused.stderr).toContain("strand unlock --force");
      expect(existsSync(folder.path(".strand/lock"))).toBe(true);
      const forced = await runStrand(["unlock", "--force"], { cwd: folder.dir });
      expect(forced.exitCode, forced.stderr).toBe(0);
      expect(existsSync(folder.path(".strand/lock"))).toBe(false);
      expect((await runStrand(["run"], { cwd: folder.dir })).exitCode).toBe(0);
    } finally {
      folder.remove();
    }
  });
});
