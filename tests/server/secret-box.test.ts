/**
 * The secret box that keeps provider API keys encrypted at rest: what it seals opens only with the same key,
 * unaltered; its key comes from SERVICE_SECRET_KEY or a private key file made on first use.
 */
import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { SecretBox, SecretBoxError } from "../../src/server/secret-box.js";

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A configuration folder that does not exist yet, inside a new temporary folder. */
function newConfigDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "strand-secret-box-"));
  dirs.push(dir);
  return join(dir, "config", "strand");
}

const envKey = (key: Buffer = randomBytes(32)) => ({ SERVICE_SECRET_KEY: key.toString("base64") });

/** The error `action` throws. */
function caught(action: () => unknown): Error {
  try {
    action();
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected an error");
}

/** `sealed` with one bit flipped in part `index` (1 iv, 2 tag, 3 ciphertext). */
function flipped(sealed: string, index: number): string {
  const parts = sealed.split(":");
  const bytes = Buffer.from(parts[index]!, "base64url");
  bytes[0] = bytes[0]! ^ 1;
  parts[index] = bytes.toString("base64url");
  return parts.join(":");
}

describe("SecretBox", () => {
  it("opens what it sealed, whatever the text", () => {
    const box = SecretBox.fromConfig({ secretKey: envKey().SERVICE_SECRET_KEY, configDir: newConfigDir() });
    for (const plain of ["sk-ant-api03-abcdef", "", "ключ 🔑 with: colons", "x".repeat(10_000)]) {
      expect(box.open(box.seal(plain))).toBe(plain);
    }
  });

  it("seals the same text differently every time, in the v1 form, never containing the text", () => {
    const box = SecretBox.fromConfig({ secretKey: envKey().SERVICE_SECRET_KEY, configDir: newConfigDir() });
    const first = box.seal("sk-secret-value");
    const second = box.seal("sk-secret-value");
    expect(first).not.toBe(second);
    for (const sealed of [first, second]) {
      expect(sealed).toMatch(/^v1:[A-Za-z0-9_-]{16}:[A-Za-z0-9_-]{22}:[A-Za-z0-9_-]+$/);
      expect(sealed).not.toContain("secret");
    }
    expect(first.split(":")[1]).not.toBe(second.split(":")[1]);
  });

  it("detects tampering with the IV, the tag or the ciphertext, and refuses text that is not sealed", () => {
    const box = SecretBox.fromConfig({ secretKey: envKey().SERVICE_SECRET_KEY, configDir: newConfigDir() });
    const sealed = box.seal("sk-secret-value");
    for (const index of [1, 2, 3]) {
      expect(() => box.open(flipped(sealed, index))).toThrow(SecretBoxError);
    }
    const parts = sealed.split(":");
    expect(() => box.open(`${parts.slice(0, 3).join(":")}:${parts[3]!.slice(0, -2)}`)).toThrow(SecretBoxError);
    for (const bad of ["", "sk-plain-key", "v2:" + parts.slice(1).join(":"), parts.slice(0, 3).join(":"), `${sealed}:extra`, "v1:AAAA:BBBB:CCCC"]) {
      expect(() => box.open(bad), bad).toThrow(SecretBoxError);
    }
  });

  it("refuses a value sealed with another key, saying the key changed and naming both places a key comes from", () => {
    const configDir = newConfigDir();
    const sealed = SecretBox.fromConfig({ secretKey: envKey().SERVICE_SECRET_KEY, configDir }).seal("sk-secret-value");
    const error = caught(() => SecretBox.fromConfig({ secretKey: envKey().SERVICE_SECRET_KEY, configDir }).open(sealed));
    expect(error).toBeInstanceOf(SecretBoxError);
    expect(error.message).toMatch(/key changed/);
    expect(error.message).toContain("SERVICE_SECRET_KEY");
    expect(error.message).toContain("secret.key");
    expect(error.message).not.toContain("sk-secret-value");

    const fileError = caught(() => SecretBox.fromConfig({ secretKey: undefined, configDir }).open(sealed));
    expect(fileError.message).toContain(join(configDir, "secret.key"));
    expect(fileError.message).toContain("SERVICE_SECRET_KEY");
  });

  it("makes a key file with mode 0600 in a folder with mode 0700 on first use, and reuses it", () => {
    const configDir = newConfigDir();
    const first = SecretBox.fromConfig({ secretKey: undefined, configDir });
    const keyFile = join(configDir, "secret.key");
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    expect(statSync(configDir).mode & 0o777).toBe(0o700);
    expect(Buffer.from(readFileSync(keyFile, "utf8").trim(), "base64")).toHaveLength(32);
    expect(readdirSync(configDir)).toEqual(["secret.key"]);
    const contents = readFileSync(keyFile, "utf8");

    const sealed = first.seal("sk-secret-value");
    const again = SecretBox.fromConfig({ secretKey: "", configDir });
    expect(again.open(sealed)).toBe("sk-secret-value");
    expect(readFileSync(keyFile, "utf8")).toBe(contents);
  });

  it("uses SERVICE_SECRET_KEY when set, in base64, base64url or hex, without making a key file", () => {
    const configDir = newConfigDir();
    const key = randomBytes(32);
    const forms = [key.toString("base64"), key.toString("base64url"), key.toString("hex"), key.toString("hex").toUpperCase(), ` ${key.toString("base64")}\n`];
    const sealed = SecretBox.fromConfig({ secretKey: forms[0], configDir }).seal("sk-secret-value");
    for (const form of forms) {
      expect(SecretBox.fromConfig({ secretKey: form, configDir }).open(sealed)).toBe("sk-secret-value");
    }
    expect(existsSync(configDir)).toBe(false);
  });

  it("refuses a SERVICE_SECRET_KEY that is not 32 bytes in base64 or hex, naming the variable and the forms, not the value", () => {
    const configDir = newConfigDir();
    const bad = [
      "hunter2-hunter2",
      randomBytes(16).toString("base64"),
      randomBytes(33).toString("base64"),
      randomBytes(32).toString("hex").slice(1),
      `${randomBytes(32).toString("hex")}00`,
      `${randomBytes(32).toString("base64").slice(0, -2)}!=`,
    ];
    for (const value of bad) {
      const error = caught(() => SecretBox.fromConfig({ secretKey: value, configDir }));
      expect(error.message, value).toMatch(/^SERVICE_SECRET_KEY must be 32 random bytes written as base64 .* or as 64 hex characters/);
      expect(error.message).not.toContain(value);
    }
    expect(existsSync(configDir)).toBe(false);
  });

  it("refuses a key file other accounts can read, naming the file and the chmod that fixes it", () => {
    const configDir = newConfigDir();
    SecretBox.fromConfig({ secretKey: undefined, configDir });
    const keyFile = join(configDir, "secret.key");
    chmodSync(keyFile, 0o644);
    const error = caught(() => SecretBox.fromConfig({ secretKey: undefined, configDir }));
    expect(error.message).toContain(keyFile);
    expect(error.message).toContain(`chmod 600 ${keyFile}`);
    chmodSync(keyFile, 0o600);
    expect(() => SecretBox.fromConfig({ secretKey: undefined, configDir })).not.toThrow();
  });

  it("refuses a key file of the wrong length, naming the file and what to do, and never replaces it", () => {
    const configDir = newConfigDir();
    SecretBox.fromConfig({ secretKey: undefined, configDir });
    const keyFile = join(configDir, "secret.key");
    for (const contents of [randomBytes(16).toString("base64"), "", "not a key at all"]) {
      writeFileSync(keyFile, contents, { mode: 0o600 });
      const error = caught(() => SecretBox.fromConfig({ secretKey: undefined, configDir }));
      expect(error.message).toContain(keyFile);
      expect(error.message).toMatch(/must hold 32 random bytes/);
      expect(error.message).toMatch(/delete it to have a new key made/);
      expect(readFileSync(keyFile, "utf8")).toBe(contents);
    }
  });
});
