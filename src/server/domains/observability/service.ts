/**
 * The observability domain's logic, free of HTTP: the health document. The database is checked with a
 * round trip (its latency is reported); the engine is the `strand` program runs are started with (it must
 * be there; the runs under way are counted); the AI component reports
 * whether a provider is configured. The service is degraded when a required component is not ok, and the
 * route answers 503 when the database cannot be reached.
 */
import type { z } from "@hono/zod-openapi";
import type { LicenseStatus } from "../../../license/license.js";
import type { HealthDocument } from "./schemas.js";
import { describeSandbox, type SandboxDescription } from "../../runner/sandbox.js";
import type { PeerView } from "../../instance-registry.js";

export interface HealthContext {
  version: string;
  mode: "personal" | "team" | "hpc";
  startedAt: number;
  /** A cheap database round trip (rejects when the database is unreachable). */
  pingDatabase(): Promise<void>;
  license(): Promise<LicenseStatus>;
  /** The configured AI provider, or null when none is. */
  aiProvider(): string | null;
  /** Whether runs can be started (the engine program is there) and how many are under way. */
  engine(): { available: boolean; detail?: string; active: number; queued: number };
  /** The job sandbox in use (default: none). */
  sandbox?: () => SandboxDescription;
  /** This instance's id and the peers it sees. */
  instance: InstanceView;
}

/** This process among the service instances of its database. */
export interface InstanceView {
  id: string;
  peers(): PeerView[];
}

type Health = z.infer<typeof HealthDocument>;

/** How long a database check may take before the database counts as down. */
const DATABASE_TIMEOUT_MS = 2_000;

async function databaseStatus(ping: () => Promise<void>): Promise<Health["components"]["database"]> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([ping(), new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${DATABASE_TIMEOUT_MS} ms`)), DATABASE_TIMEOUT_MS)))]);
    return { status: "ok", latency_ms: Math.round((performance.now() - started) * 100) / 100 };
  } catch (error) {
    return { status: "down", latency_ms: null, detail: (error as Error).message };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Shares one database check between the health requests that arrive while it is under way, so a burst of
 * probes costs one round trip; every answer still reflects a check that started after the request came in
 * or was already running.
 */
export function sharedCheck<T>(check: () => Promise<T>): () => Promise<T> {
  let running: Promise<T> | undefined;
  return () => {
    running ??= check().finally(() => {
      running = undefined;
    });
    return running;
  };
}

function engineStatus(context: HealthContext): Health["components"]["engine"] {
  const engine = context.engine();
  return {
    status: engine.available ? "ok" : "down",
    version: context.version,
    active_runs: engine.active,
    queued_runs: engine.queued,
    ...(engine.detail ? { detail: engine.detail } : {}),
  };
}

/** What the public health document says of the sandbox (no folders: they are server paths). */
function sandboxStatus(sandbox: SandboxDescription): Health["components"]["sandbox"] {
  const { hidden: _hidden, data_roots: _roots, ...shown } = sandbox;
  return { status: sandbox.kind === "bwrap" ? "ok" : "off", ...shown };
}

/** The health document. */
export async function healthDocument(context: HealthContext): Promise<Health> {
  const [database, license] = await Promise.all([databaseStatus(context.pingDatabase), context.license()]);
  const provider = context.aiProvider();
  const components: Health["components"] = {
    database,
    engine: engineStatus(context),
    ai: { status: provider ? "ok" : "not_configured", provider },
    sandbox: sandboxStatus(context.sandbox?.() ?? describeSandbox(undefined)),
  };
  return {
    status: database.status === "ok" && components.engine.status === "ok" ? "ok" : "degraded",
    version: context.version,
    mode: context.mode,
    instance_id: context.instance.id,
    peers: context.instance.peers(),
    uptime_s: Math.round((Date.now() - context.startedAt) / 1000),
    license: { type: license.type, valid: license.valid },
    components,
  };
}
