/** The service instances in PostgreSQL. */
import { desc, eq, lt } from "drizzle-orm";
import type { PgDb } from "../postgres-queries.js";
import type { Clock } from "../record-fields.js";
import type { InstanceInput, InstanceRecord, InstanceStore } from "./contract.js";
import { instances } from "./schema-pg.js";

/** The service instances in the PostgreSQL database. */
export class PostgresInstanceStore implements InstanceStore {
  constructor(
    private readonly db: PgDb,
    private readonly now: Clock,
  ) {}

  async registerInstance(input: InstanceInput): Promise<InstanceRecord> {
    const row = { ...input, heartbeat_at: this.now() };
    const { id: _id, ...changes } = row;
    await this.db.insert(instances).values(row).onConflictDoUpdate({ target: instances.id, set: changes });
    return row;
  }

  async heartbeatInstance(id: string): Promise<boolean> {
    const updated = await this.db.update(instances).set({ heartbeat_at: this.now() }).where(eq(instances.id, id)).returning({ id: instances.id });
    return updated.length > 0;
  }

  async listInstances(): Promise<InstanceRecord[]> {
    return this.db.select().from(instances).orderBy(desc(instances.heartbeat_at), instances.id);
  }

  async removeInstance(id: string): Promise<boolean> {
    const removed = await this.db.delete(instances).where(eq(instances.id, id)).returning({ id: instances.id });
    return removed.length > 0;
  }

  async pruneInstances(before: string): Promise<string[]> {
    const removed = await this.db.delete(instances).where(lt(instances.heartbeat_at, before)).returning({ id: instances.id });
    return removed.map((row) => row.id);
  }
}
