/**
 * A team-mode `strand serve` as its own process, for the security tests that need the service exactly as
 * an operator runs it: the job sandbox (bubblewrap) on, the service's own secrets in its environment, and
 * an account of the operator's choosing — root, or an unprivileged account (`serviceAccounts()` gives both
 * when the tests run as root, so every such test runs under each). It signs in an administrator and makes
 * two users and a viewer.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, chownSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir, userInfo } from "node:os";
import { join } from "node:path";
import { describe, it } from "vitest";
import { STRICT_SERVICES } from "./postgres-server.js";
import { serve, type Served } from "./strand-serve.js";
import { send, type Answer, type RequestOptions } from "./team-service.js";

/** An account the service process runs under. */
export interface ServiceAccount {
  /** `root`, or `unprivileged` (a system account made for the tests), or the tests' own account. */
  name: string;
  uid: number;
  gid: number;
}

/** The unprivileged account the tests run a service under when they run as root. */
export const UNPRIVILEGED_ACCOUNT = "strand-test-svc";

let why = "";

/** The unprivileged test account, made when missing (root only); undefined with the reason in `why`. */
function unprivilegedAccount(): ServiceAccount | undefined {
  const look = () => spawnSync("id", ["-u", UNPRIVILEGED_ACCOUNT], { encoding: "utf8" });
  let found = look();
  if (found.status !== 0) {
    const made = spawnSync("useradd", ["--system", "--no-create-home", "--shell", "/usr/sbin/nologin", "--user-group", UNPRIVILEGED_ACCOUNT], { encoding: "utf8" });
    if (made.status !== 0) {
      why = `cannot make the account ${UNPRIVILEGED_ACCOUNT}: ${made.stderr || made.error?.message}`;
      return undefined;
    }
    found = look();
  }
  const uid = Number(found.stdout.trim());
  const gid = Number(spawnSync("id", ["-g", UNPRIVILEGED_ACCOUNT], { encoding: "utf8" }).stdout.trim());
  return { name: "unprivileged", uid, gid };
}

/**
 * The accounts to run a service under: as root, root and an unprivileged account (under STRICT_SERVICES=1
 * a missing unprivileged account is a failing test); otherwise the tests' own account.
 */
export function serviceAccounts(): ServiceAccount[] {
  const uid = process.getuid?.() ?? -1;
  if (uid !== 0) return [{ name: userInfo().username, uid, gid: process.getgid?.() ?? -1 }];
  const unprivileged = unprivilegedAccount();
  if (!unprivileged && STRICT_SERVICES) {
    describe("an unprivileged account under STRICT_SERVICES=1", () => {
      it("exists or can be made", () => {
        throw new Error(`the security tests run the service as an unprivileged account too: ${why}`);
      });
    });
  }
  return unprivileged ? [{ name: "root", uid: 0, gid: 0 }, unprivileged] : [{ name: "root", uid: 0, gid: 0 }];
}

/** Who the helper signs in: the administrator, two users and a viewer. */
export type TeamMember = "admin" | "alice" | "bob" | "viewer";

const PASSWORDS: Record<TeamMember, string> = {
  admin: "admin-long-passphrase-41",
  alice: "alice-long-passphrase-42",
  bob: "bob-long-passphrase-43",
  viewer: "viewer-long-passphrase-44",
};

export interface ServedTeam {
  url: string;
  served: Served;
  account: ServiceAccount;
  /** The temporary folder holding the service's data and configuration folders. */
  root: string;
  dataDir: string;
  configDir: string;
  ids: Record<TeamMember, string>;
  tokens: Record<TeamMember, string>;
  /** A request as a member (or anonymous: no credentials). */
  call(who: TeamMember | "anonymous", method: string, path: string, options?: RequestOptions): Promise<Answer>;
  /** Stops the service (SIGTERM, then SIGKILL after `graceMs`) and removes its folders. */
  stop(graceMs?: number): Promise<void>;
}

/** Gives a folder tree to an account (the service must own its data and configuration folders). */
function giveTo(path: string, account: ServiceAccount): void {
  if (account.uid === (process.getuid?.() ?? -1)) return;
  chownSync(path, account.uid, account.gid);
  if (statSync(path).isDirectory()) for (const name of readdirSync(path)) giveTo(join(path, name), account);
}

/** Starts `strand serve --mode team` (or hpc) under `account`, with the four members signed in. */
export async function serveTeam(account: ServiceAccount, options: { env?: Record<string, string>; mode?: "team" | "hpc"; prepare?: (root: string) => void } = {}): Promise<ServedTeam> {
  const root = mkdtempSync(join(tmpdir(), "strand-team-serve-"));
  const dataDir = join(root, "data");
  const configDir = join(root, "config");
  mkdirSync(dataDir, { recursive: true });
  mkdirSync(configDir, { recursive: true });
  options.prepare?.(root);
  giveTo(root, account);
  // A root service's sandboxes run as an unprivileged account, which must pass through to the workspaces.
  if (account.uid === 0) chmodSync(root, 0o711);
  const asAnother = account.uid !== (process.getuid?.() ?? -1);
  const served = await serve(
    {
      SERVICE_MODE: options.mode ?? "team",
      SERVICE_DATA_DIR: dataDir,
      SERVICE_CONFIG_DIR: configDir,
      SERVICE_ADMIN_PASSWORD: PASSWORDS.admin,
      SERVICE_RATE_LIMIT: "0",
      SERVICE_USER_MAX_RUNS: "0",
      SERVICE_USER_MAX_THREADS: "0",
      HOME: root,
      ...(account.uid === 0 ? { SERVICE_ALLOW_ROOT: "1" } : {}),
      ...options.env,
    },
    asAnother ? { prefix: ["setpriv", `--reuid=${account.uid}`, `--regid=${account.gid}`, "--clear-groups", "--"] } : {},
  );
  const url = served.url;
  const login = async (username: string, password: string) => {
    const answer = await send(url, "POST", "/api/auth/login", { body: { username, password } });
    if (answer.status !== 200) throw new Error(`${username} cannot sign in: ${answer.status} ${answer.text}`);
    return { token: answer.body.token as string, id: (answer.body.user as { id: string }).id };
  };
  const admin = await login("admin", PASSWORDS.admin);
  const ids = { admin: admin.id } as Record<TeamMember, string>;
  const tokens = { admin: admin.token } as Record<TeamMember, string>;
  for (const [member, role] of [["alice", "user"], ["bob", "user"], ["viewer", "viewer"]] as const) {
    const made = await send(url, "POST", "/api/users", { token: admin.token, body: { username: member, password: PASSWORDS[member], role } });
    if (made.status !== 201) throw new Error(`cannot make ${member}: ${made.status} ${made.text}`);
    const signedIn = await login(member, PASSWORDS[member]);
    ids[member] = signedIn.id;
    tokens[member] = signedIn.token;
  }
  return {
    url,
    served,
    account,
    root,
    dataDir,
    configDir,
    ids,
    tokens,
    call: (who, method, path, requestOptions = {}) => send(url, method, path, { ...requestOptions, token: requestOptions.token ?? (who === "anonymous" ? undefined : tokens[who]) }),
    stop: async (graceMs = 10_000) => {
      const killer = setTimeout(() => served.process.kill("SIGKILL"), graceMs);
      await served.stop();
      clearTimeout(killer);
      // Engines outlive the service: whatever is left of this service's runs goes with its folders.
      spawnSync("pkill", ["-KILL", "-f", "--", `--workdir=${dataDir}`]);
      try {
        execFileSync("rm", ["-rf", root]);
      } catch {
        rmSync(root, { recursive: true, force: true });
      }
    },
  };
}
