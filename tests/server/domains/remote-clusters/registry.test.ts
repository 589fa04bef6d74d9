/**
 * The cluster registry over HTTP in team mode: administrators register, change and remove clusters; users
 * list only what they may use and never see a key, its path, the login account or the remote folder;
 * every field that will reach a remote command is refused when it could carry shell syntax; host keys are
 * pinned, confirmed from a probe, and unpinned when the host changes; changes are audited without bodies.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTeamService, type TeamService } from "../../../support/team-service.js";

const SECRET = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";
const KEY = "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ-secret-material\n-----END OPENSSH PRIVATE KEY-----\n";
const PIN = "SHA256:uNiVztksCsDhcc0u9e8BujQXVUpKZIDTMczCvj3tD2s";
const OTHER_PIN = "SHA256:AAAAztksCsDhcc0u9e8BujQXVUpKZIDTMczCvj3tD2s";

const hpc = { id: "hpc", name: "Main cluster", ssh_host: "login.example.org", ssh_user: "strand", remote_dir: "/scratch/strand", private_key: KEY, scheduler: "slurm" };

describe("the cluster registry", () => {
  let team: TeamService;
  beforeAll(async () => {
    team = await startTeamService({ env: { SERVICE_SECRET_KEY: SECRET } });
  });
  afterAll(async () => {
    await team?.close();
  });

  it("lets administrators register a cluster, keeps its key sealed, and never shows the key or its path", async () => {
    const saved = await team.call("admin", "POST", "/api/clusters", { body: hpc });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ id: "hpc", name: "Main cluster", ssh_host: "login.example.org", ssh_port: 22, ssh_user: "strand", credential: "key", scheduler: "slurm", remote_dir: "/scratch/strand", results: "pull", enabled: true });
    expect(saved.body.host_key).toEqual({ pinned: null, seen: null, state: "unknown" });
    expect(saved.text).not.toContain("secret-material");
    const stored = await team.service.store.getCluster("hpc");
    expect(stored?.sealed_private_key).toBeTruthy();
    expect(stored?.sealed_private_key).not.toContain("secret-material");

    const withPath = await team.call("admin", "POST", "/api/clusters", { body: { id: "lab", ssh_host: "10.0.0.7", ssh_user: "svc", remote_dir: "/data/strand", key_path: "/etc/strand/id_ed25519" } });
    expect(withPath.body).toMatchObject({ name: "lab", credential: "path" });
    const listed = await team.call("admin", "GET", "/api/clusters");
    expect(listed.text).not.toContain("/etc/strand/id_ed25519");
    expect((listed.body as unknown as { id: string }[]).map((entry) => entry.id)).toEqual(["lab", "hpc"]);
  });

  it("shows users the clusters they may use without the account, folder, credential or access lists, and refuses them changes", async () => {
    await team.call("admin", "POST", "/api/clusters", { body: hpc });
    const seen = await team.call("user", "GET", "/api/clusters");
    expect(seen.status).toBe(200);
    const mine = (seen.body as unknown as Record<string, unknown>[]).find((entry) => entry.id === "hpc")!;
    expect(mine).toMatchObject({ id: "hpc", ssh_host: "login.example.org", scheduler: "slurm" });
    for (const hidden of ["ssh_user", "remote_dir", "credential", "access"]) expect(mine).not.toHaveProperty(hidden);
    expect((await team.call("viewer", "GET", "/api/clusters")).status).toBe(200);
    expect((await team.call("anonymous", "GET", "/api/clusters")).status).toBe(401);
    expect((await team.call("user", "POST", "/api/clusters", { body: { ...hpc, id: "mine" } })).status).toBe(403);
    expect((await team.call("user", "DELETE", "/api/clusters/hpc")).status).toBe(403);
    expect((await team.call("viewer", "POST", "/api/clusters", { body: { ...hpc, id: "mine" } })).status).toBe(403);
  });

  it("limits a cluster to roles or users, and hides disabled clusters from everyone but administrators", async () => {
    await team.call("admin", "POST", "/api/clusters", { body: { ...hpc, id: "restricted", access: { users: [team.ids.user] } } });
    await team.call("admin", "POST", "/api/clusters", { body: { ...hpc, id: "admins-and-viewers", access: { roles: ["viewer"] } } });
    await team.call("admin", "POST", "/api/clusters", { body: { ...hpc, id: "off", enabled: false } });
    const ids = async (who: "user" | "other" | "viewer" | "admin") => ((await team.call(who, "GET", "/api/clusters")).body as unknown as { id: string }[]).map((entry) => entry.id);
    expect(await ids("user")).toContain("restricted");
    expect(await ids("other")).not.toContain("restricted");
    expect(await ids("viewer")).toContain("admins-and-viewers");
    expect(await ids("user")).not.toContain("admins-and-viewers");
    for (const who of ["user", "other", "viewer"] as const) expect(await ids(who)).not.toContain("off");
    expect(await ids("admin")).toEqual(expect.arrayContaining(["restricted", "admins-and-viewers", "off"]));
  });

  it("refuses every field that could carry shell syntax or leave its place, naming the field", async () => {
    const hostile: [Record<string, unknown>, string][] = [
      [{ ...hpc, id: "bad id" }, "id"],
      [{ ...hpc, id: "x", ssh_host: "login;rm -rf ~" }, "ssh_host"],
      [{ ...hpc, id: "x", ssh_host: "-oProxyCommand=sh" }, "ssh_host"],
      [{ ...hpc, id: "x", ssh_host: "user@login" }, "ssh_host"],
      [{ ...hpc, id: "x", ssh_user: "$(id)" }, "ssh_user"],
      [{ ...hpc, id: "x", ssh_user: "-l" }, "ssh_user"],
      [{ ...hpc, id: "x", remote_dir: "scratch/strand" }, "remote_dir"],
      [{ ...hpc, id: "x", remote_dir: "/scratch/../etc" }, "remote_dir"],
      [{ ...hpc, id: "x", remote_dir: "/scratch/'; touch /tmp/pwned; '" }, "remote_dir"],
      [{ ...hpc, id: "x", remote_dir: "/scratch/a\nb" }, "remote_dir"],
      [{ ...hpc, id: "x", ssh_port: 0 }, "ssh_port"],
      [{ ...hpc, id: "x", private_key: "not a key" }, "private_key"],
      [{ ...hpc, id: "x", key_path: "relative/key" }, "key_path"],
      [{ ...hpc, id: "x", host_key_sha256: "MD5:aa:bb" }, "host_key_sha256"],
      [{ ...hpc, id: "x", scheduler: "condor" }, "scheduler"],
      [{ ...hpc, id: "x", name: "a\u202Eb" }, "name"],
      [{ ...hpc, id: "x", surprise: 1 }, "surprise"],
      [{ ...hpc, id: "x", engine_placement: "compute" }, "engine_placement"],
      [{ ...hpc, id: "x", engine_job_options: ["--time=1:00:00\n#SBATCH --wrap=id"] }, "engine_job_options"],
      [{ ...hpc, id: "x", engine_job_options: "--time=1:00:00" }, "engine_job_options"],
      [{ ...hpc, id: "x", engine_placement: "job", scheduler: "none" }, "engine_placement"],
    ];
    for (const [body, field] of hostile) {
      const answer = await team.call("admin", "POST", "/api/clusters", { body });
      expect(answer.status, `${field}: ${answer.text}`).toBe(400);
      expect(answer.text, field).toContain(field);
    }
    const both = await team.call("admin", "POST", "/api/clusters", { body: { ...hpc, id: "x", key_path: "/etc/strand/key" } });
    expect(both.status).toBe(400);
    expect(both.body.message).toContain("not both");
    const incomplete = await team.call("admin", "POST", "/api/clusters", { body: { id: "new-one", ssh_host: "login.example.org" } });
    expect(incomplete.status).toBe(400);
    expect(incomplete.body).toMatchObject({ code: "MISSING_FIELD" });
    expect(incomplete.body.message).toContain("ssh_user, remote_dir");
    expect(await team.service.store.getCluster("x")).toBeNull();
  });

  it("keeps where a cluster's engines run and their job's submit options, shown to administrators only", async () => {
    const saved = await team.call("admin", "POST", "/api/clusters", { body: { ...hpc, id: "batch", engine_placement: "job", engine_job_options: ["--time=3-00:00:00", "-l", "h_rt=72:00:00,h_vmem=4G", "it's $(id)"] } });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ engine_placement: "job", engine_job_options: ["--time=3-00:00:00", "-l", "h_rt=72:00:00,h_vmem=4G", "it's $(id)"] });
    // A change that leaves them out keeps them; a cluster without them runs engines on the login node.
    expect((await team.call("admin", "POST", "/api/clusters", { body: { id: "batch", name: "Batch" } })).body).toMatchObject({ engine_placement: "job", engine_job_options: ["--time=3-00:00:00", "-l", "h_rt=72:00:00,h_vmem=4G", "it's $(id)"] });
    expect((await team.call("admin", "POST", "/api/clusters", { body: { ...hpc, id: "plain" } })).body).toMatchObject({ engine_placement: "login_node", engine_job_options: [] });
    const seen = ((await team.call("user", "GET", "/api/clusters")).body as unknown as Record<string, unknown>[]).find((entry) => entry.id === "batch")!;
    expect(seen).toMatchObject({ engine_placement: "job" });
    expect(seen).not.toHaveProperty("engine_job_options");
    const none = await team.call("admin", "POST", "/api/clusters", { body: { id: "batch", scheduler: "none" } });
    expect(none.status).toBe(400);
    expect(none.body.suggestion).toContain("login_node");
  });

  it("pins a host key, confirms the one a probe saw, calls a different one changed, and unpins when the host moves", async () => {
    const pinned = await team.call("admin", "POST", "/api/clusters", { body: { ...hpc, id: "keys", host_key_sha256: PIN } });
    expect(pinned.body.host_key).toEqual({ pinned: PIN, seen: null, state: "pinned" });
    await team.service.store.recordSeenHostKey("keys", OTHER_PIN);
    expect((await team.call("admin", "GET", "/api/clusters")).text).toContain('"state":"changed"');

    const noSeen = await team.call("admin", "POST", "/api/clusters", { body: { ...hpc, id: "fresh", confirm_host_key: true } });
    expect(noSeen.status).toBe(400);
    const confirmed = await team.call("admin", "POST", "/api/clusters", { body: { id: "keys", confirm_host_key: true } });
    expect(confirmed.body.host_key).toEqual({ pinned: OTHER_PIN, seen: null, state: "pinned" });

    // Only a field that is sent changes; moving the cluster to another host drops the pin.
    const renamed = await team.call("admin", "POST", "/api/clusters", { body: { id: "keys", name: "Renamed" } });
    expect(renamed.body).toMatchObject({ name: "Renamed", ssh_host: "login.example.org", credential: "key", host_key: { pinned: OTHER_PIN } });
    expect(renamed.body.created_at).toBe(pinned.body.created_at);
    const moved = await team.call("admin", "POST", "/api/clusters", { body: { id: "keys", ssh_host: "login2.example.org" } });
    expect(moved.body.host_key).toEqual({ pinned: null, seen: null, state: "unknown" });
  });

  it("removes a cluster once, and records registry changes in the audit log without their bodies", async () => {
    await team.call("admin", "POST", "/api/clusters", { body: { ...hpc, id: "gone" } });
    expect((await team.call("admin", "DELETE", "/api/clusters/gone")).body).toEqual({ deleted: "gone" });
    const again = await team.call("admin", "DELETE", "/api/clusters/gone");
    expect(again.status).toBe(404);
    const audit = await team.call("admin", "GET", "/api/audit?action=cluster.save");
    const entries = audit.body.items as { action: string; resource: string; result: string }[];
    expect(entries.some((entry) => entry.resource === "cluster/gone" && entry.result === "success")).toBe(true);
    expect(audit.text).not.toContain("secret-material");
    const deletions = (await team.call("admin", "GET", "/api/audit?action=cluster.delete")).body.items as { resource: string; result: string }[];
    expect(deletions.map((entry) => entry.result)).toEqual(expect.arrayContaining(["success", "failure"]));
    // A user's refused change never reaches the handler: it is recorded by its method and path.
    const refused = (await team.call("admin", "GET", `/api/audit?result=denied&user=${team.ids.user}`)).body.items as { action: string }[];
    expect(refused.map((entry) => entry.action)).toContain("POST /api/clusters");
  });
});
