/**
 * Encryption at rest for secrets the service must keep and use again, such as AI provider API keys: a copy
 * of the database (a backup, a dump handed to support) reveals none of them without the service's key.
 * AES-256-GCM with a random 96-bit IV per seal, so equal secrets look different, and the authentication tag
 * checked on open, so a changed key or an altered value is an error rather than garbage.
 *
 * The key is `SERVICE_SECRET_KEY` when set (deployments that manage secrets themselves, several instances
 * sharing one database), else `<configDir>/secret.key`, made on first use and readable by the service's
 * account only.
 */
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { linkSync, mkdirSync, readFileSync, statSync, unlinkSync, writeFileSync, type Stats } from "node:fs";
import { join } from "node:path";

/** The environment variable that supplies the key. */
export const SECRET_KEY_VARIABLE = "SERVICE_SECRET_KEY";

/** The key file's name inside the configuration folder. */
export const SECRET_KEY_FILE_NAME = "secret.key";

/** The version tag of the sealed form `v1:<iv>:<tag>:<ciphertext>` (each base64url), so a later format can coexist. */
const SEALED_VERSION = "v1";

const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** How a key is written, for error messages. */
const KEY_FORMS = "32 random bytes written as base64 (44 characters, `openssl rand -base64 32`) or as 64 hex characters (`openssl rand -hex 32`)";

/** A sealed value that cannot be opened: the key changed since it was sealed, or the stored text was altered. */
export class SecretBoxError extends Error {
  override readonly name = "SecretBoxError";
}

/** Where the key came from, to name it when something sealed cannot be opened. */
type KeySource = { kind: "environment" } | { kind: "file"; path: string };

/** Seals and opens secrets with the service's key. */
export class SecretBox {
  private constructor(
    private readonly key: Buffer,
    private readonly source: KeySource,
  ) {}

  /**
   * The box of the service's key: `SERVICE_SECRET_KEY` when set, else `<configDir>/secret.key` (made with mode
   * 0600, its folder 0700, when missing). A malformed variable, or a key file of the wrong length or readable by
   * other accounts, is an error that names it and says how to fix it.
   */
  static fromConfig(options: { secretKey: string | undefined; configDir: string }): SecretBox {
    const fromEnv = options.secretKey;
    if (fromEnv !== undefined && fromEnv.trim() !== "") {
      const key = decodeKey(fromEnv);
      if (key === undefined) throw new Error(`${SECRET_KEY_VARIABLE} must be ${KEY_FORMS}; the value set is not`);
      return new SecretBox(key, { kind: "environment" });
    }
    const path = join(options.configDir, SECRET_KEY_FILE_NAME);
    return new SecretBox(readOrCreateKeyFile(options.configDir, path), { kind: "file", path });
  }

  /** `plain` encrypted and authenticated, as `v1:<iv>:<tag>:<ciphertext>`. */
  seal(plain: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv("aes-256-gcm", this.key, iv);
    const ciphertext = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
    return [SEALED_VERSION, ...[iv, cipher.getAuthTag(), ciphertext].map((part) => part.toString("base64url"))].join(":");
  }

  /** The text `seal` was given. SecretBoxError when the value is not one this key sealed, unaltered. */
  open(sealed: string): string {
    const parts = sealed.split(":");
    const [iv, tag, ciphertext] = parts.slice(1).map((part) => Buffer.from(part, "base64url"));
    if (parts.length !== 4 || parts[0] !== SEALED_VERSION || iv?.length !== IV_BYTES || tag?.length !== TAG_BYTES || ciphertext === undefined) {
      throw new SecretBoxError("the stored secret is not a sealed value (expected v1:<iv>:<tag>:<ciphertext>); save the secret again");
    }
    try {
      const decipher = createDecipheriv("aes-256-gcm", this.key, iv, { authTagLength: TAG_BYTES });
      decipher.setAuthTag(tag);
      return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString("utf8");
    } catch {
      // GCM cannot tell a different key from altered bytes; a changed key is by far the likelier cause.
      throw new SecretBoxError(
        `a stored secret cannot be opened with the current key: the key changed since the secret was saved, or the stored value was altered. ` +
          `The key is ${SECRET_KEY_VARIABLE} when set, else the key file ${this.keyFileHint()}; ` +
          `restore the key the secret was saved with, or save the secret again`,
      );
    }
  }

  private keyFileHint(): string {
    return this.source.kind === "file" ? `${this.source.path} (in use now)` : `${SECRET_KEY_FILE_NAME} in the configuration folder (${SECRET_KEY_VARIABLE} is in use now)`;
  }
}

/** The 32 key bytes of base64 (padded or base64url) or hex text, or undefined for anything else. */
function decodeKey(text: string): Buffer | undefined {
  const trimmed = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(trimmed)) return Buffer.from(trimmed, "hex");
  // Buffer.from ignores characters outside the alphabet, so the shape is checked first.
  if (/^[A-Za-z0-9+/]{43}=$/.test(trimmed) || /^[A-Za-z0-9_-]{43}$/.test(trimmed)) {
    const key = Buffer.from(trimmed, trimmed.endsWith("=") ? "base64" : "base64url");
    if (key.length === KEY_BYTES) return key;
  }
  return undefined;
}

/** The key in `path`, made first when there is none. */
function readOrCreateKeyFile(configDir: string, path: string): Buffer {
  let stats = statIfPresent(path);
  if (stats === undefined) {
    createKeyFile(configDir, path);
    stats = statSync(path);
  }
  if (process.platform !== "win32" && (stats.mode & 0o077) !== 0) {
    const mode = (stats.mode & 0o777).toString(8);
    throw new Error(`the secret key file ${path} can be read by other accounts (mode ${mode}); run \`chmod 600 ${path}\``);
  }
  const key = decodeKey(readFileSync(path, "utf8"));
  if (key === undefined) {
    throw new Error(
      `the secret key file ${path} must hold ${KEY_FORMS}; put back the file the secrets were saved with, ` +
        `or delete it to have a new key made (secrets saved with the old key must then be entered again)`,
    );
  }
  return key;
}

/** The file's status, or undefined when there is no file. */
function statIfPresent(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

/**
 * Writes a new random key to `path` atomically: written whole to a private temporary file, then linked into
 * place, which fails if another process made the key first (that key is then used, never replaced).
 */
function createKeyFile(configDir: string, path: string): void {
  mkdirSync(configDir, { recursive: true, mode: 0o700 });
  const temporary = `${path}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
  writeFileSync(temporary, `${randomBytes(KEY_BYTES).toString("base64")}\n`, { mode: 0o600, flag: "wx" });
  try {
    linkSync(temporary, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  } finally {
    unlinkSync(temporary);
  }
}

/** Seals and opens secrets (the service's `SecretBox`), as the domains that keep secrets see it. */
export interface KeySealer {
  seal(plain: string): string;
  open(sealed: string): string;
}

/** A sealer whose key is read (or made) on first use, so a service that never stores a secret never makes a key file. */
export function lazySealer(make: () => KeySealer): KeySealer {
  let sealer: KeySealer | undefined;
  return {
    seal: (plain) => (sealer ??= make()).seal(plain),
    open: (sealed) => (sealer ??= make()).open(sealed),
  };
}
