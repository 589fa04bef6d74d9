/** The PostgreSQL tables of this area (saved pipelines and their revisions); drizzle-kit generates `drizzle/pg/` from every area's. */
import { sql } from "drizzle-orm";
import { check, index, integer, json, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { ownedBy } from "../pg-columns.js";

/** Saved pipelines; `revision` is bumped by every update inside a write transaction. */
export const pipelines = pgTable(
  "pipelines",
  {
    id: text().primaryKey(),
    name: text().notNull(),
    version: text(),
    description: text(),
    tags: json().$type<string[]>().notNull(),
    toml_content: text().notNull(),
    visibility: text({ enum: ["private", "workspace", "link"] }).notNull(),
    owner: text().notNull(),
    forked_from: text(),
    rules_count: integer().notNull().default(0),
    created_at: text().notNull(),
    updated_at: text().notNull(),
    revision: integer().notNull().default(1),
  },
  (t) => [
    index("pipelines_updated_idx").on(t.updated_at, t.id),
    index("pipelines_owner_idx").on(t.owner),
    check("pipelines_visibility_check", sql`${t.visibility} in ('private', 'workspace', 'link')`),
  ],
);

/** One row per revision of a pipeline, the current one included; the unique index makes a lost update fail loudly. */
export const pipelineRevisions = pgTable(
  "pipeline_revisions",
  {
    id: text().primaryKey(),
    pipeline_id: ownedBy(() => pipelines.id),
    revision: integer().notNull(),
    toml_content: text().notNull(),
    name: text().notNull(),
    created_at: text().notNull(),
    size_bytes: integer().notNull().default(0),
  },
  (t) => [uniqueIndex("pipeline_revisions_pipeline_revision_idx").on(t.pipeline_id, t.revision)],
);
