/**
 * `strand cluster add|list|probe|confirm-key|remove` on a service's store, against a real sshd on loopback:
 * the same registry as the API (sealed key, pinned host key, no trust on first use), as an administrator;
 * and `strand run --remote` from a workstation through the service's own remote-run code.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requireSshdUnderStrict, SSHD_AVAILABLE, startSshd, type SshdServer } from "../support/sshd-server.js";
import { parseJson, runStrand } from "../support/strand-cli.js";

requireSshdUnderStrict();

describe.skipIf(!SSHD_AVAILABLE)("strand cluster: the registry of remote clusters", () => {
  let sshd: SshdServer;
  let dir: string;
  let env: Record<string, string>;
  beforeAll(async () => {
    sshd = await startSshd();
    dir = mkdtempSync(join(tmpdir(), "strand-cluster-cli-"));
    writeFileSync(join(dir, "id_ed25519"), sshd.clientKey, { mode: 0o600 });
    env = { SERVICE_DATA_DIR: join(dir, "data"), SERVICE_CONFIG_DIR: join(dir, "config"), SERVICE_DATABASE_URL: "" };
  });
  afterAll(async () => {
    await sshd?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("adds a cluster with a sealed key, probes it only after its host key is confirmed, lists and removes it", async () => {
    const add = await runStrand(["cluster", "add", "loop", "--host", sshd.host, "--port", String(sshd.port), "--user", sshd.user, "--remote-dir", "/tmp/strand-remote", "--key", join(dir, "id_ed25519")], { env });
    expect(add.exitCode, add.stderr).toBe(0);
    expect(add.stdout).toContain("host key unknown");

    const unconfirmed = await runStrand(["cluster", "probe", "loop"], { env });
    expect(unconfirmed.exitCode).toBe(1);
    expect(unconfirmed.stderr).toContain(sshd.hostKeySha256);
    expect(unconfirmed.stderr).toContain("strand cluster confirm-key loop");

    const confirm = await runStrand(["cluster", "confirm-key", "loop"], { env });
    expect(confirm.stdout).toContain(`host key pinned ${sshd.hostKeySha256}`);
    const probe = await runStrand(["cluster", "probe", "loop", "--json"], { env });
    expect(probe.exitCode, probe.stderr).toBe(0);
    const data = parseJson<{ ok: boolean; data: { hostname: string; free_bytes: number } }>(probe);
    expect(data.ok).toBe(true);
    expect(data.data.free_bytes).toBeGreaterThan(0);

    // Submit options are taken word by word as given, commas and all.
    const placed = await runStrand(["cluster", "add", "loop", "--scheduler", "slurm", "--engine-placement", "job", "--engine-job-option=--time=3-00:00:00", "--engine-job-option=--gres=gpu:1,mps:100", "--json"], { env });
    expect(placed.exitCode, placed.stderr).toBe(0);
    expect(parseJson<{ data: { cluster: unknown } }>(placed).data.cluster).toMatchObject({ scheduler: "slurm", engine_placement: "job", engine_job_options: ["--time=3-00:00:00", "--gres=gpu:1,mps:100"] });
    const list = await runStrand(["cluster", "list"], { env });
    expect(list.stdout).toMatch(/^loop\s+\S+@127\.0\.0\.1:\d+\s+slurm\s+engine as a job, host key pinned/m);
    expect(list.stdout + list.stderr).not.toContain("PRIVATE KEY");
    expect((await runStrand(["cluster", "remove", "loop"], { env })).stdout).toContain("removed cluster 'loop'");
    const again = await runStrand(["cluster", "remove", "loop"], { env });
    expect(again.exitCode).toBe(1);
    expect(again.stderr).toContain("no cluster 'loop'");
  });

  it("refuses a bad field as a usage error naming it, and a missing subcommand argument", async () => {
    const bad = await runStrand(["cluster", "add", "x", "--host", "login;rm", "--user", "u", "--remote-dir", "/tmp/x", "--key-path", "/k"], { env });
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain("ssh_host");
    const missing = await runStrand(["cluster", "probe"], { env });
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toContain("needs a cluster id");
  });

  it("runs a pipeline on a registered cluster with strand run --remote: engine output live, options passed on, results back", async () => {
    const remoteDir = join(dir, "cluster-folder");
    const add = await runStrand(["cluster", "add", "workstation-hpc", "--host", sshd.host, "--port", String(sshd.port), "--user", sshd.user, "--remote-dir", remoteDir, "--key", join(dir, "id_ed25519"), "--host-key", sshd.hostKeySha256, "--scheduler", "none"], { env });
    expect(add.exitCode, add.stderr).toBe(0);
    const work = join(dir, "project");
    mkdirSync(join(work, "data"), { recursive: true });
    writeFileSync(join(work, "data", "reads.txt"), "ACGT\n");
    writeFileSync(
      join(work, "main.oxoflow"),
      '[workflow]\nname = "from-workstation"\n\n[config]\nlabel = "x"\n\n[[rules]]\nname = "count"\ninput = ["data/reads.txt"]\noutput = ["out/count.txt"]\nshell = "wc -c < {input} > {output} && echo {config.label} >> {output}"\n\n[[rules]]\nname = "unwanted"\noutput = ["out/unwanted.txt"]\nshell = "touch {output}"\n',
    );
    const run = await runStrand(["run", "--remote", "workstation-hpc", "--target", "count", "label=remote-label"], { env, cwd: work, timeout: 120_000 });
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stderr).toContain("on cluster workstation-hpc");
    expect(run.stderr).toMatch(/✓ count/);
    expect(run.stderr).toContain("brought back");
    expect(readFileSync(join(work, "out", "count.txt"), "utf8")).toBe("5\nremote-label\n");
    // --target was passed on: the other rule did not run.
    expect(existsSync(join(work, "out", "unwanted.txt"))).toBe(false);
    const unknown = await runStrand(["run", "--remote", "nowhere"], { env, cwd: work });
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stderr).toContain("no cluster 'nowhere'");
  }, 180_000);
});
