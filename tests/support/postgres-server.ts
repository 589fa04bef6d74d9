/**
 * A real PostgreSQL server for the store tests: `STRAND_TEST_POSTGRES_URL` when given (a role that may
 * CREATE DATABASE), otherwise the throwaway server of `scripts/postgres-local.sh`, started on demand. Every
 * ensurePostgres() call returns a new empty database. Tests skip when no server can exist here, except under
 * STRICT_SERVICES=1, where that is a failure.
 */
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { execa } from "execa";
import postgres from "postgres";
import { describe, it } from "vitest";
import { PROJECT_ROOT } from "./strand-cli.js";

/** The project's script that starts and stops the local PostgreSQL. */
export const POSTGRES_SCRIPT = join(PROJECT_ROOT, "scripts", "postgres-local.sh");

/** Whether missing services must fail the tests instead of skipping them. */
export const STRICT_SERVICES = process.env.STRICT_SERVICES === "1";

let why = "";

/** Why the last ensurePostgres() call returned undefined. */
export function postgresUnavailableReason(): string {
  return why;
}

/** Shares one server start between the test files of a worker. */
let server: Promise<string | undefined> | undefined;

async function startServer(): Promise<string | undefined> {
  const given = process.env.STRAND_TEST_POSTGRES_URL;
  if (given !== undefined && given !== "") return given;
  const start = await execa(POSTGRES_SCRIPT, ["start"], { reject: false, timeout: 120_000, all: true });
  if (start.exitCode !== 0) {
    why = `scripts/postgres-local.sh start failed (exit ${start.exitCode}):\n${String(start.all ?? "").slice(-2000)}`;
    return undefined;
  }
  return String(start.stdout).trim().split("\n").pop();
}

/**
 * A `postgres://` URL to a new, empty database on a running server (started here when needed), or undefined
 * (with postgresUnavailableReason()) when no server can be reached or started.
 */
export async function ensurePostgres(): Promise<string | undefined> {
  server ??= startServer();
  const adminUrl = await server;
  if (adminUrl === undefined) return undefined;
  const name = `strand_test_${randomBytes(6).toString("hex")}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {}, connect_timeout: 10 });
  try {
    await admin.unsafe(`create database ${name}`);
  } catch (error) {
    why = `cannot create a test database on ${adminUrl}: ${(error as Error).message}`;
    return undefined;
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Drops a database made by ensurePostgres(); every connection to it must be closed first. */
export async function dropTestDatabase(url: string): Promise<void> {
  const target = new URL(url);
  const name = target.pathname.slice(1);
  if (!/^strand_test_[0-9a-f]+$/.test(name)) throw new Error(`not a test database: ${name}`);
  target.pathname = "/postgres";
  const admin = postgres(target.toString(), { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`drop database if exists ${name} with (force)`);
  } finally {
    await admin.end();
  }
}

/**
 * Registers a failing test that explains why PostgreSQL is missing, under STRICT_SERVICES=1 only; call it
 * when ensurePostgres() returned undefined, next to the describe.skipIf(!url) block.
 */
export function failWithoutPostgresWhenStrict(available: boolean): void {
  if (available || !STRICT_SERVICES) return;
  describe("PostgreSQL under STRICT_SERVICES=1", () => {
    it("needs a PostgreSQL server", () => {
      throw new Error(`no PostgreSQL under STRICT_SERVICES=1: ${postgresUnavailableReason()}`);
    });
  });
}
