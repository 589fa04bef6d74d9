/**
 * The first administrator, both ways: `strand user add` (a made-up password printed once, or one read from
 * standard input) and SERVICE_ADMIN_PASSWORD at the start of a team service; then signing in with them.
 */
import { join } from "node:path";
import { chmodSync, mkdirSync, statSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { runBash, runStrand, tempFolder } from "../support/strand-cli.js";
import { serve } from "../support/strand-serve.js";

const data = tempFolder({}, "strand-users-");
afterAll(() => data.remove());

async function signIn(url: string, username: string, password: string): Promise<number> {
  const response = await fetch(`${url}/api/auth/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ username, password }) });
  await response.body?.cancel();
  return response.status;
}

describe("strand user and SERVICE_ADMIN_PASSWORD", () => {
  it("strand user add makes an account with a password printed once, or read from standard input; user list shows them", async () => {
    const env = { SERVICE_DATA_DIR: data.dir };
    const made = await runStrand(["user", "add", "grace", "--role", "admin"], { env });
    expect(made.exitCode).toBe(0);
    expect(made.stdout).toMatch(/^created admin 'grace' \(.*\) in SQLite in .*strand-users-/);
    const password = /password: (\S+)/.exec(made.stdout)![1]!;
    const piped = await runBash(`printf 'hopper-password\\n' | "$STRAND" user add hopper --password-stdin`, { env });
    expect(piped.exitCode).toBe(0);
    expect(piped.stdout).not.toMatch(/password:/);
    const listed = await runStrand(["user", "list"], { env });
    expect(listed.stdout).toMatch(/^grace\s+admin\s/m);
    expect(listed.stdout).toMatch(/^hopper\s+user\s/m);
    // A password reset without --role keeps the role, and the last administrator is never demoted.
    const reset = await runStrand(["user", "add", "grace"], { env });
    expect(reset.stdout).toMatch(/^updated admin 'grace' .*its sessions and tokens ended/);
    const demote = await runStrand(["user", "add", "grace", "--role", "user"], { env });
    expect(demote.exitCode).toBe(1);
    expect(demote.stderr).toMatch(/cannot demote the last administrator/);
    const regenerated = /password: (\S+)/.exec(reset.stdout)![1]!;
    const bad = await runStrand(["user", "add", "x", "--role", "root"], { env });
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toMatch(/--role must be admin, user or viewer/);

    const served = await serve({ SERVICE_DATA_DIR: data.dir, SERVICE_MODE: "team", SERVICE_ADMIN_PASSWORD: "first-admin-password" });
    try {
      expect(await signIn(served.url, "grace", password)).toBe(401);
      expect(await signIn(served.url, "grace", regenerated)).toBe(200);
      expect(await signIn(served.url, "hopper", "hopper-password")).toBe(200);
      expect(await signIn(served.url, "admin", "first-admin-password")).toBe(200);
    } finally {
      await served.stop();
    }
  });

  it("SERVICE_ADMIN_PASSWORD resets the admin password at the next start", async () => {
    const served = await serve({ SERVICE_DATA_DIR: data.dir, SERVICE_MODE: "team", SERVICE_ADMIN_PASSWORD: "second-admin-password" });
    try {
      expect(await signIn(served.url, "admin", "first-admin-password")).toBe(401);
      expect(await signIn(served.url, "admin", "second-admin-password")).toBe(200);
    } finally {
      await served.stop();
    }
  });

  it("a team service makes its data folder private to its account (mode 700; 711 as root, whose sandboxes run as another account)", async () => {
    const open = data.path("open-data");
    mkdirSync(open, { mode: 0o755 });
    chmodSync(open, 0o755);
    const served = await serve({ SERVICE_DATA_DIR: open, SERVICE_MODE: "team", SERVICE_ADMIN_PASSWORD: "first-admin-password" });
    try {
      const asRoot = process.getuid?.() === 0;
      expect(statSync(open).mode & 0o777).toBe(asRoot ? 0o711 : 0o700);
      // Passable is not readable: the database stays the service's alone.
      if (asRoot) expect(statSync(join(open, "strand.db")).mode & 0o777).toBe(0o600);
    } finally {
      await served.stop();
    }
  });

  it("a too short SERVICE_ADMIN_PASSWORD and a personal service on a public address are refused at start, saying why", async () => {
    const short = await runStrand(["serve", "-p", "0"], { env: { SERVICE_DATA_DIR: data.dir, SERVICE_MODE: "team", SERVICE_ADMIN_PASSWORD: "short" } });
    expect(short.exitCode).toBe(2);
    expect(short.stderr).toMatch(/SERVICE_ADMIN_PASSWORD must have at least 8 characters/);
    const open = await runStrand(["serve", "-p", "0", "--host", "0.0.0.0"], { env: { SERVICE_DATA_DIR: data.dir } });
    expect(open.exitCode).toBe(2);
    expect(open.stderr).toMatch(/personal mode has no sign-in.*SERVICE_MODE=team/);
  });

  it("strand user add refuses a name ending in a mark, and one that looks like an existing account", async () => {
    const env = { SERVICE_DATA_DIR: data.path("look-alikes") };
    expect((await runStrand(["user", "add", "bob", "--role", "admin"], { env })).exitCode).toBe(0);
    const trailing = await runStrand(["user", "add", "alice."], { env });
    expect(trailing.exitCode).toBe(1);
    expect(trailing.stderr).toMatch(/'alice\.' is not a valid username/);
    const twin = await runStrand(["user", "add", "B.ob"], { env });
    expect(twin.exitCode).toBe(1);
    expect(twin.stderr).toMatch(/'B\.ob' looks like the existing account 'bob'/);
    // The account itself is still found under its own name (a password reset).
    expect((await runStrand(["user", "add", "bob"], { env })).stdout).toMatch(/^updated admin 'bob'/);
    expect((await runStrand(["user", "list"], { env })).stdout.trim().split("\n")).toHaveLength(1);
  });
});
