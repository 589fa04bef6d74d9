/**
 * Probing a registered cluster against a real sshd on loopback: no trust on first use (an unpinned key is
 * recorded, nothing is sent, an administrator confirms it), a confirmed cluster answers its host name,
 * scheduler, engine, free space and latency, a changed host key is refused naming both keys, and users probe
 * only the clusters they may use, never learning a key or its path.
 */
import { hostname } from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requireSshdUnderStrict, SSHD_AVAILABLE, startSshd, type SshdServer } from "../../../support/sshd-server.js";
import { startTeamService, type TeamService } from "../../../support/team-service.js";

const SECRET = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

requireSshdUnderStrict();

describe.skipIf(!SSHD_AVAILABLE)("probing a cluster over SSH", () => {
  let team: TeamService;
  let sshd: SshdServer;
  beforeAll(async () => {
    sshd = await startSshd();
    team = await startTeamService({ env: { SERVICE_SECRET_KEY: SECRET } });
  });
  afterAll(async () => {
    await team?.close();
    await sshd?.close();
  });

  const register = (id: string, extra: Record<string, unknown> = {}) =>
    team.call("admin", "POST", "/api/clusters", {
      body: { id, ssh_host: sshd.host, ssh_port: sshd.port, ssh_user: sshd.user, remote_dir: "/tmp/strand-remote/runs", private_key: sshd.clientKey, ...extra },
    });

  it("records an unpinned host key without sending anything, then answers once an administrator confirms it", async () => {
    await register("loopback");
    const first = await team.call("admin", "POST", "/api/clusters/loopback/probe");
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ ok: false, cluster: "loopback", hostname: null, host_key: { pinned: null, seen: sshd.hostKeySha256, state: "unconfirmed" } });
    expect(first.body.error).toContain(sshd.hostKeySha256);
    expect(first.body.error).toContain("confirm_host_key");

    const confirmed = await team.call("admin", "POST", "/api/clusters", { body: { id: "loopback", confirm_host_key: true } });
    expect(confirmed.body.host_key).toEqual({ pinned: sshd.hostKeySha256, seen: null, state: "pinned" });

    const probe = await team.call("admin", "POST", "/api/clusters/loopback/probe");
    expect(probe.body).toMatchObject({ ok: true, error: null, hostname: hostname(), host_key: { state: "pinned" } });
    expect(["slurm", "pbs", "sge", "lsf", "none"]).toContain(probe.body.scheduler);
    expect(probe.body.node_version).toMatch(/^v\d+\./);
    expect(String(probe.body.engine)).toMatch(/strand|Node\.js/);
    expect(probe.body.free_bytes).toBeGreaterThan(0);
    expect(probe.body.latency_ms).toBeGreaterThanOrEqual(0);
    expect(probe.text).not.toContain("PRIVATE KEY");
  });

  it("pins a key given at registration, and refuses a changed one naming both until an administrator re-pins", async () => {
    await register("pinned", { host_key_sha256: sshd.hostKeySha256 });
    expect((await team.call("admin", "POST", "/api/clusters/pinned/probe")).body.ok).toBe(true);
    await sshd.swapHostKey();
    try {
      const changed = await team.call("admin", "POST", "/api/clusters/pinned/probe");
      expect(changed.body).toMatchObject({ ok: false, host_key: { pinned: sshd.hostKeySha256, seen: sshd.otherHostKeySha256, state: "changed" } });
      expect(changed.body.error).toContain(sshd.hostKeySha256);
      expect(changed.body.error).toContain(sshd.otherHostKeySha256);
      const repinned = await team.call("admin", "POST", "/api/clusters", { body: { id: "pinned", confirm_host_key: true } });
      expect(repinned.body.host_key).toEqual({ pinned: sshd.otherHostKeySha256, seen: null, state: "pinned" });
      expect((await team.call("admin", "POST", "/api/clusters/pinned/probe")).body.ok).toBe(true);
    } finally {
      await sshd.swapHostKey();
    }
  });

  it("says why when the key is refused or the host does not answer", async () => {
    const wrongUser = await register("wrong-user", { ssh_user: "nobody_here", host_key_sha256: sshd.hostKeySha256 });
    expect(wrongUser.status).toBe(200);
    const refused = await team.call("admin", "POST", "/api/clusters/wrong-user/probe");
    expect(refused.body.ok).toBe(false);
    expect(refused.body.error).toMatch(/refused the key|authentication/i);
    await register("closed", { ssh_port: 1, host_key_sha256: sshd.hostKeySha256 });
    const closed = await team.call("admin", "POST", "/api/clusters/closed/probe");
    expect(closed.body).toMatchObject({ ok: false, host_key: { state: "pinned" } });
    expect(closed.body.error).toContain("cannot reach");
  });

  it("lets users probe the clusters they may use, and nobody else's; viewers not at all", async () => {
    await register("for-user", { host_key_sha256: sshd.hostKeySha256, access: { users: [team.ids.user] } });
    const mine = await team.call("user", "POST", "/api/clusters/for-user/probe");
    expect(mine.body.ok).toBe(true);
    expect(mine.text).not.toContain("PRIVATE KEY");
    expect((await team.call("other", "POST", "/api/clusters/for-user/probe")).status).toBe(404);
    expect((await team.call("viewer", "POST", "/api/clusters/for-user/probe")).status).toBe(403);
    const audit = (await team.call("admin", "GET", "/api/audit?action=cluster.probe")).body.items as { resource: string }[];
    expect(audit.map((entry) => entry.resource)).toContain("cluster/for-user");
  });
});
