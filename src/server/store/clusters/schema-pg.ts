/** The PostgreSQL tables of this area (the cluster registry); drizzle-kit generates `drizzle/pg/` from every area's. */
import { boolean, integer, json, pgTable, text } from "drizzle-orm/pg-core";
import type { ClusterAccess, ClusterEnginePlacement, ClusterResults, ClusterScheduler } from "./contract.js";

/** Remote clusters reached over SSH. */
export const clusters = pgTable("clusters", {
  id: text().primaryKey(),
  name: text().notNull(),
  ssh_host: text().notNull(),
  ssh_port: integer().notNull(),
  ssh_user: text().notNull(),
  sealed_private_key: text(),
  key_path: text(),
  host_key_sha256: text(),
  seen_host_key_sha256: text(),
  scheduler: text().$type<ClusterScheduler>().notNull(),
  remote_dir: text().notNull(),
  results: text().$type<ClusterResults>().notNull(),
  engine_placement: text().$type<ClusterEnginePlacement>().notNull().default("login_node"),
  engine_job_options: json().$type<string[]>().notNull().default([]),
  max_runs_per_user: integer(),
  access: json().$type<ClusterAccess>().notNull(),
  enabled: boolean().notNull(),
  created_at: text().notNull(),
  updated_at: text().notNull(),
  updated_by: text(),
});
