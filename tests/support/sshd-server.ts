/**
 * A real OpenSSH server on a loopback port for the remote-cluster tests, with throwaway host and client
 * keys in a temporary folder: `/usr/sbin/sshd -D` runs as a child of the test process and ends with it.
 * Tests skip when there is no sshd here (Debian: openssh-server), except under STRICT_SERVICES=1.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createConnection } from "node:net";
import { tmpdir, userInfo } from "node:os";
import { join } from "node:path";
import { describe, it } from "vitest";
import { STRICT_SERVICES } from "./postgres-server.js";

const SSHD = "/usr/sbin/sshd";

/** Whether an sshd can be started here. */
export const SSHD_AVAILABLE = existsSync(SSHD) && spawnSync("ssh-keygen", ["-?"]).error === undefined;

/** A running sshd and what a client needs to reach it. */
export interface SshdServer {
  host: "127.0.0.1";
  port: number;
  user: string;
  /** The client's private key text (its public key is the only authorized one). */
  clientKey: string;
  /** The host key's fingerprint, as `ssh-keygen -lf` prints it. */
  hostKeySha256: string;
  /** A second host key, to play a host whose key changed. */
  otherHostKeySha256: string;
  /** Restarts the server with the other host key (or back). */
  swapHostKey(): Promise<void>;
  /** Kills every open connection (sshd's per-connection processes) and keeps listening: a link that died. */
  dropConnections(): void;
  close(): Promise<void>;
}

function fingerprint(publicKeyFile: string): string {
  const out = spawnSync("ssh-keygen", ["-lf", publicKeyFile], { encoding: "utf8" });
  const match = /(SHA256:[A-Za-z0-9+/]{43})/.exec(out.stdout);
  if (!match) throw new Error(`ssh-keygen -lf ${publicKeyFile}: ${out.stderr || out.stdout}`);
  return match[1]!;
}

function keygen(path: string): void {
  const made = spawnSync("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", path], { encoding: "utf8" });
  if (made.status !== 0) throw new Error(`ssh-keygen: ${made.stderr}`);
}

async function freePort(): Promise<number> {
  const { createServer } = await import("node:net");
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function listening(port: number, child: ChildProcess, log: () => string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if (child.exitCode !== null) throw new Error(`sshd ended (exit ${child.exitCode}): ${log()}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = createConnection({ host: "127.0.0.1", port }, () => {
        socket.end();
        resolve(true);
      });
      socket.once("error", () => resolve(false));
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`sshd does not listen on ${port}: ${log()}`);
}

/** Starts an sshd on a free loopback port that lets the current user in with the throwaway client key. */
export async function startSshd(): Promise<SshdServer> {
  const dir = mkdtempSync(join(tmpdir(), "strand-sshd-"));
  const user = userInfo().username;
  for (const name of ["host_a", "host_b", "client"]) keygen(join(dir, name));
  writeFileSync(join(dir, "authorized_keys"), readFileSync(join(dir, "client.pub")), { mode: 0o600 });
  // The privilege-separation folder sshd insists on when it runs as root.
  if (process.getuid?.() === 0) mkdirSync("/run/sshd", { recursive: true, mode: 0o755 });
  const port = await freePort();
  let hostKey = "host_a";
  let child: ChildProcess | undefined;
  let output = "";
  const start = async (): Promise<void> => {
    const config = join(dir, "sshd_config");
    writeFileSync(
      config,
      [
        `Port ${port}`,
        "ListenAddress 127.0.0.1",
        `HostKey ${join(dir, hostKey)}`,
        `PidFile ${join(dir, "sshd.pid")}`,
        `AuthorizedKeysFile ${join(dir, "authorized_keys")}`,
        `AllowUsers ${user}`,
        "PermitRootLogin prohibit-password",
        "PubkeyAuthentication yes",
        "PasswordAuthentication no",
        "KbdInteractiveAuthentication no",
        "UsePAM no",
        "StrictModes no",
        "Subsystem sftp internal-sftp",
        "",
      ].join("\n"),
    );
    output = "";
    child = spawn(SSHD, ["-D", "-e", "-f", config], { stdio: ["ignore", "ignore", "pipe"] });
    child.stderr?.on("data", (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)));
    await listening(port, child, () => output);
  };
  const stop = async (): Promise<void> => {
    if (!child || child.exitCode !== null) return;
    const ended = new Promise((resolve) => child!.once("exit", resolve));
    child.kill("SIGTERM");
    await ended;
  };
  await start();
  return {
    host: "127.0.0.1",
    port,
    user,
    clientKey: readFileSync(join(dir, "client"), "utf8"),
    hostKeySha256: fingerprint(join(dir, "host_a.pub")),
    otherHostKeySha256: fingerprint(join(dir, "host_b.pub")),
    dropConnections: () => {
      if (child?.pid !== undefined) spawnSync("pkill", ["-KILL", "-P", String(child.pid)]);
    },
    swapHostKey: async () => {
      await stop();
      hostKey = hostKey === "host_a" ? "host_b" : "host_a";
      await start();
    },
    close: async () => {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Registers a failing test saying sshd is missing, under STRICT_SERVICES=1 only. */
export function requireSshdUnderStrict(): void {
  if (SSHD_AVAILABLE || !STRICT_SERVICES) return;
  describe("sshd under STRICT_SERVICES=1", () => {
    it("is installed (Debian: openssh-server)", () => {
      throw new Error(`${SSHD} is missing: install openssh-server`);
    });
  });
}
