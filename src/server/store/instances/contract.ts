/**
 * The service instances serving one database: each `strand serve` process registers itself when it
 * starts, renews its heartbeat while it runs and removes itself when it stops. Health shows the peers an
 * instance sees; on SQLite, which one process serves, a live registered instance makes a second one refuse
 * to start. Timestamps are RFC 3339 UTC strings.
 */

/** One running (or lately running) service process. */
export interface InstanceRecord {
  /** SERVICE_INSTANCE_ID, or `<host>-<pid>-<random>` made at start. */
  id: string;
  /** The host name the process runs on. */
  host: string;
  pid: number;
  /** The service's version. */
  version: string;
  started_at: string;
  /** When the process last said it was alive. */
  heartbeat_at: string;
}

/** What an instance registers: everything but the heartbeat, which is now. */
export type InstanceInput = Omit<InstanceRecord, "heartbeat_at">;

/** The registry of service instances. */
export interface InstanceStore {
  /** Registers an instance (replacing a record with its id), its heartbeat now. */
  registerInstance(input: InstanceInput): Promise<InstanceRecord>;

  /** Renews an instance's heartbeat; false when it is not registered (removed as stale by a peer). */
  heartbeatInstance(id: string): Promise<boolean>;

  /** Every registered instance, the most recent heartbeat first. */
  listInstances(): Promise<InstanceRecord[]>;

  /** Removes an instance; false when there was none. */
  removeInstance(id: string): Promise<boolean>;

  /** Removes the instances whose heartbeat is older than `before`; returns their ids. */
  pruneInstances(before: string): Promise<string[]>;
}
