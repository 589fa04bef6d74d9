/** The service instances in SQLite. */
import { desc, eq, lt } from "drizzle-orm";
import type { Clock } from "../record-fields.js";
import type { SqliteDb } from "../sqlite-queries.js";
import type { InstanceInput, InstanceRecord, InstanceStore } from "./contract.js";
import { instances } from "./schema-sqlite.js";

/** The service instances in the SQLite database. */
export class SqliteInstanceStore implements InstanceStore {
  constructor(
    private readonly db: SqliteDb,
    private readonly now: Clock,
  ) {}

  async registerInstance(input: InstanceInput): Promise<InstanceRecord> {
    const row = { ...input, heartbeat_at: this.now() };
    const { id: _id, ...changes } = row;
    this.db.insert(instances).values(row).onConflictDoUpdate({ target: instances.id, set: changes }).run();
    return row;
  }

  async heartbeatInstance(id: string): Promise<boolean> {
    return this.db.update(instances).set({ heartbeat_at: this.now() }).where(eq(instances.id, id)).run().changes > 0;
  }

  async listInstances(): Promise<InstanceRecord[]> {
    return this.db.select().from(instances).orderBy(desc(instances.heartbeat_at), instances.id).all();
  }

  async removeInstance(id: string): Promise<boolean> {
    return this.db.delete(instances).where(eq(instances.id, id)).run().changes > 0;
  }

  async pruneInstances(before: string): Promise<string[]> {
    return this.db.delete(instances).where(lt(instances.heartbeat_at, before)).returning({ id: instances.id }).all().map((row) => row.id);
  }
}
