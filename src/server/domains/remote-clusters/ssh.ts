/**
 * SSH to a registered cluster with `ssh2` (never a shelled-out `ssh`): the host key is checked against the
 * pinned SHA-256 fingerprint before anything is sent — no trust on first use: an unpinned or different key
 * ends the connection before authentication, and the key seen is reported for an administrator to confirm.
 * Remote commands are single strings built by the callers from fixed text and `shellQuote`d values.
 */
import { createHash } from "node:crypto";
import { Client, type ConnectConfig } from "ssh2";

/** Where and as whom to connect, with the credential already opened (never logged). */
export interface SshTarget {
  host: string;
  port: number;
  username: string;
  privateKey: string;
  /** The pinned fingerprint (`SHA256:…`); null: connect only to see the key. */
  pinned: string | null;
}

/** Why a connection was not made. */
export class SshRefusal extends Error {
  constructor(
    message: string,
    readonly reason: "unpinned" | "changed" | "unreachable" | "auth",
    readonly seen: string | null,
  ) {
    super(message);
  }
}

/** OpenSSH's SHA-256 fingerprint of a host key blob: `SHA256:` and unpadded base64. */
export function hostKeyFingerprint(blob: Buffer): string {
  return `SHA256:${createHash("sha256").update(blob).digest("base64").replace(/=+$/, "")}`;
}

/** Opens a connection whose host key matches the pin; a refusal says why and which key the host showed. */
export function connectSsh(target: SshTarget, options: { timeoutMs?: number } = {}): Promise<Client> {
  return new Promise((resolve, reject) => {
    const client = new Client();
    let seen: string | null = null;
    const config: ConnectConfig = {
      host: target.host,
      port: target.port,
      username: target.username,
      privateKey: target.privateKey,
      readyTimeout: options.timeoutMs ?? 15_000,
      keepaliveInterval: 15_000,
      keepaliveCountMax: 3,
      hostVerifier: (key: Buffer) => {
        seen = hostKeyFingerprint(key);
        return target.pinned !== null && seen === target.pinned;
      },
    };
    client.once("ready", () => resolve(client));
    client.once("error", (error: Error & { level?: string }) => {
      client.end();
      if (seen !== null && target.pinned === null) {
        reject(new SshRefusal(`the host key of ${target.host} is not pinned yet; it showed ${seen}`, "unpinned", seen));
      } else if (seen !== null && seen !== target.pinned) {
        reject(new SshRefusal(`the host key of ${target.host} changed: pinned ${target.pinned}, shown ${seen}`, "changed", seen));
      } else if (error.level === "client-authentication") {
        reject(new SshRefusal(`${target.username}@${target.host} refused the key: ${error.message}`, "auth", seen));
      } else {
        reject(new SshRefusal(`cannot reach ${target.host}:${target.port}: ${error.message}`, "unreachable", seen));
      }
    });
    client.connect(config);
  });
}

/** What a remote command printed and how it ended. */
export interface RemoteResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs one command on the connection, bounded in time and in output (the rest is dropped). */
export function runRemote(client: Client, command: string, options: { timeoutMs?: number; maxBytes?: number } = {}): Promise<RemoteResult> {
  const maxBytes = options.maxBytes ?? 1024 * 1024;
  return new Promise((resolve, reject) => {
    client.exec(command, (error, stream) => {
      if (error) return reject(error);
      const out: Buffer[] = [];
      const err: Buffer[] = [];
      let size = 0;
      const keep = (into: Buffer[]) => (chunk: Buffer) => {
        if (size >= maxBytes) return;
        size += chunk.length;
        into.push(chunk);
      };
      const timer = setTimeout(() => {
        stream.close();
        reject(new Error(`the remote command did not end within ${Math.round((options.timeoutMs ?? 30_000) / 1000)} s`));
      }, options.timeoutMs ?? 30_000);
      stream.on("data", keep(out));
      stream.stderr.on("data", keep(err));
      stream.on("close", (code: number | null) => {
        clearTimeout(timer);
        resolve({ code, stdout: Buffer.concat(out).toString("utf8"), stderr: Buffer.concat(err).toString("utf8") });
      });
    });
  });
}
