/**
 * This service process among the others serving the same database (docs/guide/operating.md, "Several
 * instances"). Each `strand serve` process has an id — SERVICE_INSTANCE_ID, or `<host>-<pid>-<random>` — that
 * its health answer and log lines carry; it registers in the store's `instances` table when it starts,
 * renews a heartbeat every few seconds, and removes itself when it stops. Health lists the peers it sees.
 *
 * SQLite is served by one process: a second `strand serve` on the same database finds the first one's fresh
 * heartbeat and refuses to start, before it touches any run. A registration left by a process that died
 * (kill -9) does not hold the database: on the same host its pid is gone, elsewhere its heartbeat goes stale.
 */
import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import type { InstanceRecord, InstanceStore } from "./store/instances/contract.js";

/** How often an instance renews its heartbeat. */
export const HEARTBEAT_MS = 5_000;

/** A heartbeat older than this is an instance that stopped without saying so. */
export const STALE_AFTER_MS = 30_000;

/** Registrations older than this are removed by any instance (a peer list stays short). */
const FORGET_AFTER_MS = 60 * 60_000;

/** What health says of another instance. */
export interface PeerView {
  instance_id: string;
  host: string;
  pid: number;
  version: string;
  started_at: string;
  heartbeat_at: string;
  /** Its heartbeat is fresh (within STALE_AFTER_MS). */
  alive: boolean;
}

/** Why a second instance does not start on a SQLite database. */
export class SoleInstanceError extends Error {
  constructor(
    readonly problem: string,
    readonly suggestion: string,
  ) {
    super(`${problem}; ${suggestion}`);
  }
}

/** This process's instance id: SERVICE_INSTANCE_ID when set (letters, digits, `.`, `_`, `-`), else made now. */
export function instanceId(configured?: string): string {
  if (configured) return configured;
  const host = hostname().replace(/[^A-Za-z0-9._-]/g, "-").slice(0, 40) || "host";
  return `${host}-${process.pid}-${randomBytes(3).toString("hex")}`;
}

/** Whether a process with this pid runs on this host (EPERM: it does, as another account). */
function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** This instance's registration, heartbeat and view of its peers. */
export class InstanceRegistry {
  private timer: NodeJS.Timeout | undefined;
  private seen: InstanceRecord[] = [];
  private readonly startedAt = new Date().toISOString();

  constructor(
    private readonly store: InstanceStore,
    readonly id: string,
    private readonly version: string,
    private readonly options: { storage: "sqlite" | "postgres"; where: string; log?: (message: string) => void; heartbeatMs?: number; staleAfterMs?: number },
  ) {}

  /** Whether a registration is of a process that still runs. */
  private live(record: InstanceRecord, now = Date.now()): boolean {
    if (now - Date.parse(record.heartbeat_at) > (this.options.staleAfterMs ?? STALE_AFTER_MS)) return false;
    return record.host !== hostname() || processAlive(record.pid);
  }

  /**
   * Registers this instance and starts its heartbeat. On SQLite, another live instance refuses the start
   * (two starting at once: the one that started later, or the larger id at the same moment, gives way).
   */
  async start(): Promise<void> {
    // Registrations of processes on this host that are gone (killed without a goodbye) are removed at once.
    for (const record of await this.store.listInstances()) {
      if (record.id !== this.id && record.host === hostname() && !processAlive(record.pid)) await this.store.removeInstance(record.id);
    }
    const others = async () => (await this.store.listInstances()).filter((record) => record.id !== this.id && this.live(record));
    const sole = this.options.storage === "sqlite";
    if (sole) this.refuseIfServed(await others());
    await this.store.registerInstance({ id: this.id, host: hostname(), pid: process.pid, version: this.version, started_at: this.startedAt });
    if (sole) {
      const first = (await others()).filter((record) => record.started_at < this.startedAt || (record.started_at === this.startedAt && record.id < this.id));
      if (first.length > 0) {
        await this.store.removeInstance(this.id);
        this.refuseIfServed(first);
      }
    }
    await this.beat();
    this.timer = setInterval(() => void this.beat(), this.options.heartbeatMs ?? HEARTBEAT_MS);
    this.timer.unref();
  }

  private refuseIfServed(live: InstanceRecord[]): void {
    const other = live[0];
    if (!other) return;
    throw new SoleInstanceError(
      `another strand service (instance ${other.id}, process ${other.pid} on ${other.host}, started ${other.started_at}) serves the SQLite database in ${this.options.where}, and SQLite is served by one process`,
      "stop that service first, or give each instance a data folder of its own (SERVICE_DATA_DIR); several instances on one database need PostgreSQL (SERVICE_DATABASE_URL)",
    );
  }

  /** Renews the heartbeat (registering again when a peer removed this instance as stale) and reads the peers. */
  private async beat(): Promise<void> {
    try {
      if (!(await this.store.heartbeatInstance(this.id))) {
        await this.store.registerInstance({ id: this.id, host: hostname(), pid: process.pid, version: this.version, started_at: this.startedAt });
      }
      await this.store.pruneInstances(new Date(Date.now() - FORGET_AFTER_MS).toISOString());
      this.seen = await this.store.listInstances();
    } catch (error) {
      this.options.log?.(`instance ${this.id}: the heartbeat failed: ${(error as Error).message}`);
    }
  }

  /** The other instances registered on this database, as the last heartbeat read them. */
  peers(): PeerView[] {
    const now = Date.now();
    return this.seen
      .filter((record) => record.id !== this.id)
      .map((record) => ({ instance_id: record.id, host: record.host, pid: record.pid, version: record.version, started_at: record.started_at, heartbeat_at: record.heartbeat_at, alive: this.live(record, now) }));
  }

  /** Stops the heartbeat and removes the registration. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.store.removeInstance(this.id).catch(() => undefined);
  }
}
