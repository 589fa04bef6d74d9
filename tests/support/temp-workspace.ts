/**
 * Temporary folders for engine tests: each test writes its pipeline and data files into a fresh folder
 * under the system temp directory, removed when the test file finishes.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { expect } from "vitest";
import { EngineError } from "../../src/engine/findings.js";

const created: string[] = [];

/** A fresh, empty folder (`strand-…` under the temp directory). */
export function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "strand-"));
  created.push(dir);
  return dir;
}

/** Removes every folder made by `tempDir`; call from `afterAll`. */
export function removeTempDirs(): void {
  for (const dir of created.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** Writes a file (creating its folders) and returns its absolute path. */
export function writeFile(dir: string, relativePath: string, content: string | Uint8Array): string {
  const path = join(dir, relativePath);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
  return path;
}

/** Awaits a promise (or calls a function) that must fail with an EngineError, and returns the error. */
export async function engineError(action: Promise<unknown> | (() => unknown)): Promise<EngineError> {
  try {
    await (typeof action === "function" ? action() : action);
  } catch (error) {
    expect(error).toBeInstanceOf(EngineError);
    return error as EngineError;
  }
  throw new Error("expected an EngineError, but nothing was thrown");
}

/** The 1-based line of the first line of `text` that contains `needle`. */
export function lineOf(text: string, needle: string): number {
  const index = text.split("\n").findIndex((line) => line.includes(needle));
  if (index < 0) throw new Error(`'${needle}' is not in the text`);
  return index + 1;
}
