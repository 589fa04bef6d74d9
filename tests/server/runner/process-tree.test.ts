import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { ProcessTreeSampler } from "../../../src/server/runner/process-tree.js";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Pids killed after each test: process groups (negative) and single strays in groups of their own. */
let cleanup: number[] = [];
let children: ChildProcess[] = [];

afterEach(async () => {
  for (const pid of cleanup) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
  await Promise.all(children.map((child) => (child.exitCode === null && child.signalCode === null ? once(child, "exit") : undefined)));
  cleanup = [];
  children = [];
});

/** Starts a shell script as the leader of a new process group, as the engine starts a job. */
function startTree(script: string): ChildProcess {
  const child = spawn("sh", ["-c", script], { detached: true, stdio: ["ignore", "pipe", "ignore"] });
  children.push(child);
  cleanup.push(-child.pid!);
  return child;
}

function processGroupOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "latin1");
  return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[2]);
}

describe.skipIf(process.platform !== "linux")("ProcessTreeSampler", () => {
  it("counts every process of a busy tree, its CPU and its memory, and reports nothing once it is killed", async () => {
    const child = startTree("sleep 30 & yes > /dev/null & wait");
    await sleep(150);
    const sampler = new ProcessTreeSampler(child.pid!);
    const first = sampler.sample();
    expect(first).toBeDefined();
    expect(first!.cpu_pct).toBeGreaterThanOrEqual(0);
    await sleep(300);
    const second = sampler.sample()!;
    expect(second.processes).toBeGreaterThanOrEqual(3);
    // `yes` spins on one core; a loaded machine still gives it a good share.
    expect(second.cpu_pct).toBeGreaterThan(20);
    expect(second.cpu_pct).toBeLessThan(100 * 64);
    expect(second.memory_mb).toBeGreaterThan(0);
    expect(Math.round(second.memory_mb * 10)).toBe(second.memory_mb * 10);
    expect(Math.round(second.cpu_pct * 10)).toBeCloseTo(second.cpu_pct * 10, 6);

    process.kill(-child.pid!, "SIGKILL");
    await once(child, "exit");
    expect(sampler.sample()).toBeUndefined();
  });

  it("follows descendants that moved to another process group or session", async () => {
    const child = startTree("setsid sleep 30 & echo $!; yes > /dev/null & wait");
    const [line] = (await once(child.stdout!, "data")) as [Buffer];
    const strayPid = Number(line.toString().trim());
    cleanup.push(strayPid);
    await sleep(150);
    expect(processGroupOf(strayPid)).not.toBe(child.pid);
    const sample = new ProcessTreeSampler(child.pid!).sample()!;
    // sh, the stray sleep and yes
    expect(sample.processes).toBe(3);
  });

  it("keeps the CPU of children that exited and were reaped between two samples", async () => {
    // yes burns CPU for half a second, is killed and reaped by the shell; only the shell's cutime keeps it.
    const child = startTree("yes > /dev/null & Y=$!; sleep 0.5; kill $Y; wait $Y; sleep 30");
    await sleep(100);
    const sampler = new ProcessTreeSampler(child.pid!);
    sampler.sample();
    await sleep(900);
    const after = sampler.sample()!;
    expect(after.processes).toBe(2); // sh and the last sleep
    expect(after.cpu_pct).toBeGreaterThan(15);
  });

  it("reports nothing for a process that does not exist", () => {
    // pid_max is at most 2^22, so this pid is never in use.
    expect(new ProcessTreeSampler(2 ** 22 + 1).sample()).toBeUndefined();
  });
});
