/**
 * SSH to a registered cluster with `ssh2` (never a shelled-out `ssh`): the host key is checked against the
 * pinned SHA-256 fingerprint before anything is sent — no trust on first use: an unpinned or different key
 * ends the connection before authentication, and the key seen is reported for an administrator to confirm.
 * Remote commands are single strings built by the callers from fixed text and `shellQuote`d values
 * (runner/remote/remote-commands.ts); files move over SFTP (`RemoteFiles`), where a path is never read by a shell.
 */
import { createHash } from "node:crypto";
import { Client, type ConnectConfig, type SFTPWrapper } from "ssh2";

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

/** Runs one command on the connection, bounded in time and in output (the rest is dropped); `stdin` is its whole input. */
export function runRemote(client: Client, command: string, options: { timeoutMs?: number; maxBytes?: number; stdin?: string } = {}): Promise<RemoteResult> {
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
      if (options.stdin !== undefined) stream.end(options.stdin);
      // The exit status arrives as its own message (`exit`); `close` may come with or without it.
      let exitCode: number | null = null;
      stream.on("exit", (code: number | null) => (exitCode = typeof code === "number" ? code : exitCode));
      stream.on("close", (code?: number | null) => {
        clearTimeout(timer);
        resolve({ code: typeof code === "number" ? code : exitCode, stdout: Buffer.concat(out).toString("utf8"), stderr: Buffer.concat(err).toString("utf8") });
      });
    });
  });
}

/** What SFTP says about a remote path (lstat: a link is a link, never its target). */
export interface RemoteStat {
  kind: "file" | "folder" | "link" | "other";
  size: number;
  mtime: number;
}

/** One entry of a remote folder. */
export interface RemoteEntry extends RemoteStat {
  name: string;
}

/** SFTP's "no such file" status. */
const NO_SUCH_FILE = 2;

function kindOf(mode: number): RemoteStat["kind"] {
  const type = mode & 0o170000;
  return type === 0o100000 ? "file" : type === 0o040000 ? "folder" : type === 0o120000 ? "link" : "other";
}

/**
 * The files of a login node over one SFTP channel, promise by promise. Paths are passed to SFTP as they are
 * (no shell reads them), so any name — quotes, `$()`, new lines — is just a name.
 */
export class RemoteFiles {
  private constructor(private readonly sftp: SFTPWrapper) {}

  /** Opens the SFTP channel of a connection. */
  static open(client: Client): Promise<RemoteFiles> {
    return new Promise((resolve, reject) => client.sftp((error, sftp) => (error ? reject(error) : resolve(new RemoteFiles(sftp)))));
  }

  /** The path's kind and size, without following a link; undefined when it does not exist. */
  lstat(path: string): Promise<RemoteStat | undefined> {
    return new Promise((resolve, reject) =>
      this.sftp.lstat(path, (error, stats) => {
        if (error) return (error as { code?: number }).code === NO_SUCH_FILE ? resolve(undefined) : reject(error);
        resolve({ kind: kindOf(stats.mode), size: stats.size, mtime: stats.mtime });
      }),
    );
  }

  /** The entries of a folder (without `.` and `..`). */
  list(path: string): Promise<RemoteEntry[]> {
    return new Promise((resolve, reject) =>
      this.sftp.readdir(path, (error, list) => {
        if (error) return reject(error);
        resolve(list.filter((entry) => entry.filename !== "." && entry.filename !== "..").map((entry) => ({ name: entry.filename, kind: kindOf(entry.attrs.mode), size: entry.attrs.size, mtime: entry.attrs.mtime })));
      }),
    );
  }

  /** Up to `length` bytes of a file from `offset` (fewer at its end). */
  async read(path: string, offset: number, length: number): Promise<Buffer> {
    const handle = await new Promise<Buffer>((resolve, reject) => this.sftp.open(path, "r", (error, opened) => (error ? reject(error) : resolve(opened))));
    try {
      const chunks: Buffer[] = [];
      let read = 0;
      while (read < length) {
        const want = Math.min(length - read, 256 * 1024);
        const got = await new Promise<number>((resolve, reject) =>
          this.sftp.read(handle, Buffer.alloc(want), 0, want, offset + read, (error, bytes, buffer) => {
            if (error) return (error as { code?: number }).code === 1 ? resolve(0) : reject(error); // 1: end of file
            chunks.push(buffer.subarray(0, bytes));
            resolve(bytes);
          }),
        );
        if (got === 0) break;
        read += got;
      }
      return Buffer.concat(chunks);
    } finally {
      await new Promise<void>((resolve) => this.sftp.close(handle, () => resolve()));
    }
  }

  /** Makes a folder and its missing parents (an existing folder is fine; an existing link or file is an error). */
  async mkdirs(path: string, mode = 0o700): Promise<void> {
    const parts = path.split("/").filter(Boolean);
    let current = "";
    for (const part of parts) {
      current += `/${part}`;
      const seen = await this.lstat(current);
      if (seen?.kind === "folder") continue;
      if (seen) throw new Error(`${current} on the cluster is a ${seen.kind}, not a folder`);
      await new Promise<void>((resolve, reject) =>
        this.sftp.mkdir(current, { mode }, (error) => {
          if (!error) return resolve();
          // Made meanwhile by another run: fine when it is a folder now.
          void this.lstat(current).then((now) => (now?.kind === "folder" ? resolve() : reject(error)), reject);
        }),
      );
    }
  }

  /**
   * Writes a file whole: to a new name beside it, renamed over the path, so a reader never sees half a file
   * and a link at the path is replaced, never followed.
   */
  async write(path: string, content: Buffer | string, mode = 0o644): Promise<void> {
    const part = `${path}.strand-part-${process.pid}-${Date.now().toString(36)}`;
    await new Promise<void>((resolve, reject) => this.sftp.writeFile(part, content, { mode }, (error) => (error ? reject(error) : resolve())));
    await this.replace(part, path);
  }

  /** Uploads a local file (read from an open descriptor) the same way as `write`. */
  async upload(fd: number, path: string, mode = 0o644): Promise<void> {
    const part = `${path}.strand-part-${process.pid}-${Date.now().toString(36)}`;
    const { createReadStream } = await import("node:fs");
    await new Promise<void>((resolve, reject) => {
      const source = createReadStream("", { fd, autoClose: false, start: 0 });
      const sink = this.sftp.createWriteStream(part, { mode });
      source.once("error", reject);
      sink.once("error", reject);
      sink.once("close", () => resolve());
      source.pipe(sink);
    });
    await this.replace(part, path);
  }

  /** Streams a remote file into a local descriptor (at most `maxBytes`); the bytes written. */
  async download(path: string, fd: number, maxBytes: number): Promise<number> {
    const { createWriteStream } = await import("node:fs");
    return new Promise<number>((resolve, reject) => {
      const source = this.sftp.createReadStream(path, { start: 0, end: Math.max(0, maxBytes - 1) });
      const sink = createWriteStream("", { fd, autoClose: false });
      let bytes = 0;
      source.on("data", (chunk: Buffer) => (bytes += chunk.length));
      source.once("error", reject);
      sink.once("error", reject);
      sink.once("finish", () => resolve(bytes));
      source.pipe(sink);
    });
  }

  /** Removes a file (a missing one is fine). */
  remove(path: string): Promise<void> {
    return new Promise((resolve, reject) => this.sftp.unlink(path, (error) => (!error || (error as { code?: number }).code === NO_SUCH_FILE ? resolve() : reject(error))));
  }

  private replace(from: string, to: string): Promise<void> {
    return new Promise((resolve, reject) => this.sftp.ext_openssh_rename(from, to, (error) => (error ? reject(error) : resolve())));
  }

  /** Closes the channel (the connection stays). */
  close(): void {
    this.sftp.end();
  }
}
