/**
 * `npm run bench:run`: how fast `strand run` gets through many tiny jobs, and what the engine itself costs.
 *
 * For N = 1,000 and 10,000 it generates one rule over N values (each job `touch`es its own output) and runs
 * `strand run -j 4` in a fresh workdir. The baseline starts the same N `bash -c 'touch …'` processes from
 * Node at concurrency 4 with nothing else around them; engine overhead per job = (strand wall − baseline
 * wall) / N: the extra time a user waits per job because the engine plans, schedules, logs and records it
 * (start-up and planning included). Where `snakemake` is installed it runs the equivalent
 * Snakefile (`snakemake -j 4`), works out Snakemake's overhead per job the same way (its wall − the same
 * baseline, / N), and prints strand's overhead as a fraction of Snakemake's (the goal: at most 0.10) and the
 * throughput ratio. The load average is printed before and after, since the machine may be shared.
 * Options: `--jobs N[,N…]`, `--no-snakemake`, `--snakemake-limit SECONDS` (default 900; 0 for none): stop
 * Snakemake after that long and report bounds — its wall time is then more than the limit, so strand's
 * fraction is less than shown. Snakemake's time grows faster than its job count: 10,000 jobs can take it
 * well over an hour on a small machine.
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir, totalmem } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const here = fileURLToPath(import.meta.url);
const STRAND_BIN = join(here, "..", "..", "bin", "strand.js");
const CONCURRENCY = 4;
/** How long Snakemake may run one size before it is stopped and bounds are reported, in seconds. */
const DEFAULT_SNAKEMAKE_LIMIT_S = 900;

function option(name: string): string | undefined {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

function writePipeline(dir: string, jobs: number): void {
  const values = Array.from({ length: jobs }, (_, i) => `"v${i}"`).join(", ");
  writeFileSync(
    join(dir, "main.oxoflow"),
    `[workflow]\nname = "bench-run"\nversion = "1.0"\n\n[[values]]\nname = "i"\nvalues = [${values}]\n\n[[rules]]\nname = "noop"\noutput = ["out/{i}.txt"]\nshell = "touch {output}"\n`,
  );
  mkdirSync(join(dir, "out"), { recursive: true });
}

function writeSnakefile(dir: string, jobs: number): void {
  writeFileSync(
    join(dir, "Snakefile"),
    `IDS = [f"v{i}" for i in range(${jobs})]\n\nrule all:\n    input: expand("out/{i}.txt", i=IDS)\n\nrule noop:\n    output: "out/{i}.txt"\n    shell: "touch {output}"\n`,
  );
}

function timed(command: string, args: string[], cwd: string, limitMs?: number): number {
  const started = performance.now();
  const result = spawnSync(command, args, { cwd, stdio: ["ignore", "ignore", "pipe"], maxBuffer: 256 * 1024 * 1024, ...(limitMs !== undefined ? { timeout: limitMs, killSignal: "SIGKILL" } : {}) });
  const ms = performance.now() - started;
  if (limitMs !== undefined && result.signal === "SIGKILL" && ms >= limitMs) return Number.POSITIVE_INFINITY;
  if (result.status !== 0) throw new Error(`${command} ${args.join(" ")} failed (${result.status}): ${String(result.stderr).slice(-2000)}`);
  return ms;
}

/** N bash processes at a concurrency of 4, started from Node with no engine around them. */
async function baseline(dir: string, jobs: number): Promise<number> {
  const started = performance.now();
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < jobs) {
      const i = next++;
      await new Promise<void>((resolve, reject) => {
        const child = spawn("bash", ["-c", `touch out/b${i}.txt`], { cwd: dir, stdio: "ignore", detached: true });
        child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`exit ${code}`))));
        child.on("error", reject);
      });
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return performance.now() - started;
}

/** Whether strand's overhead is at most a tenth of Snakemake's; undecided when only a bound of Snakemake's is known and it is not enough. */
function verdict(strandMs: number, snakemakeMs: number, bound: boolean): string {
  if (strandMs <= snakemakeMs / 10) return "≤ 0.10: met";
  return bound ? "undecided: raise --snakemake-limit" : "> 0.10: not met";
}

/** The 1, 5 and 15 minute load averages, to tell a quiet machine from a busy one. */
function load(): string {
  return loadavg()
    .map((value) => value.toFixed(2))
    .join(" ");
}

function hasSnakemake(): boolean {
  return !process.argv.includes("--no-snakemake") && spawnSync("snakemake", ["--version"], { stdio: "ignore" }).status === 0;
}

async function main(): Promise<void> {
  const sizes = (option("jobs") ?? "1000,10000").split(",").map(Number);
  const snakemake = hasSnakemake();
  const limitSeconds = Number(option("snakemake-limit") ?? DEFAULT_SNAKEMAKE_LIMIT_S);
  const snakemakeLimitMs = limitSeconds > 0 ? limitSeconds * 1000 : undefined;
  console.log(`strand run throughput — ${cpus()[0]?.model ?? "cpu"} × ${cpus().length}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, -j ${CONCURRENCY}, load average ${load()}`);
  const rows: string[][] = [["jobs", "strand wall", "jobs/s", "baseline wall", "engine overhead/job", "snakemake wall", "snakemake jobs/s", "snakemake overhead/job", "overhead vs snakemake", "throughput ratio"]];
  for (const jobs of sizes) {
    const dir = mkdtempSync(join(tmpdir(), "strand-bench-run-"));
    try {
      writePipeline(dir, jobs);
      const strandMs = timed(process.execPath, [STRAND_BIN, "run", "-j", String(CONCURRENCY), "--quiet"], dir);
      if (readdirSync(join(dir, "out")).length !== jobs) throw new Error("strand did not make every output");
      const baseMs = await baseline(dir, jobs);
      const overheadMs = Math.max(0, (strandMs - baseMs) / jobs);
      const row = [jobs.toLocaleString("en-US"), `${(strandMs / 1000).toFixed(2)} s`, (jobs / (strandMs / 1000)).toFixed(0), `${(baseMs / 1000).toFixed(2)} s`, `${overheadMs.toFixed(2)} ms`];
      if (snakemake) {
        const smDir = mkdtempSync(join(tmpdir(), "strand-bench-snakemake-"));
        try {
          writeSnakefile(smDir, jobs);
          const measured = timed("snakemake", ["-j", String(CONCURRENCY), "--quiet"], smDir, snakemakeLimitMs);
          // Stopped at the limit: every figure of Snakemake's is a bound, and strand's fraction is below it.
          const stopped = !Number.isFinite(measured);
          const smMs = stopped ? snakemakeLimitMs! : measured;
          const [more, less] = stopped ? ["> ", "< "] : ["", ""];
          const smOverheadMs = Math.max(0, (smMs - baseMs) / jobs);
          row.push(
            `${more}${(smMs / 1000).toFixed(2)} s`,
            `${less}${(jobs / (smMs / 1000)).toFixed(0)}`,
            `${more}${smOverheadMs.toFixed(2)} ms`,
            smOverheadMs > 0 ? `${less}${(overheadMs / smOverheadMs).toFixed(3)} (${verdict(overheadMs, smOverheadMs, stopped)})` : "–",
            `${more}${(smMs / strandMs).toFixed(1)}×`,
          );
        } finally {
          rmSync(smDir, { recursive: true, force: true });
        }
      } else row.push("–", "–", "–", "–", "–");
      rows.push(row);
      console.log(
        `  ${jobs} jobs: strand ${row[1]} (${row[2]} jobs/s), overhead ${row[4]} per job${snakemake ? `; snakemake ${row[5]}, overhead ${row[7]} per job; strand's overhead is ${row[8]} of snakemake's, throughput ${row[9]}` : ""} (load average ${load()})`,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  console.log("");
  for (const row of rows) console.log(`| ${row.map((cell, column) => cell.padEnd(widths[column]!)).join(" | ")} |`);
  if (!snakemake) console.log("\nthe comparison with Snakemake was skipped (--no-snakemake, or snakemake is not installed: apt-get install snakemake).");
  console.log(`\nload average at the end: ${load()}`);
  console.log("goals: engine overhead < 5 ms per job, and at most a tenth of Snakemake's overhead per job (same baseline subtracted).");
}

await main();
