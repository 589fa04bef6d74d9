/** The SQLite tables of this area (saved pipelines and their revisions); drizzle-kit generates `drizzle/sqlite/` from every area's. */
import { sql } from "drizzle-orm";
import { check, index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { ownedBy } from "../sqlite-columns.js";

/** Saved pipelines; `revision` is bumped by every update inside a write transaction. */
export const pipelines = sqliteTable(
  "pipelines",
  {
    id: text().primaryKey(),
    name: text().notNull(),
    version: text(),
    description: text(),
    tags: text({ mode: "json" }).$type<string[]>().notNull(),
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
    // Covers the listing (every column but the text), so a listing never reads the rows, whose text sits in
    // the middle of the record and would otherwise be walked through for the columns after it.
    index("pipelines_listing_idx").on(t.updated_at, t.id, t.name, t.version, t.description, t.tags, t.visibility, t.owner, t.forked_from, t.rules_count, t.created_at, t.revision),
    index("pipelines_owner_idx").on(t.owner),
    check("pipelines_visibility_check", sql`${t.visibility} in ('private', 'workspace', 'link')`),
  ],
);

/** One row per revision of a pipeline, the current one included; the unique index makes a lost update fail loudly. */
export const pipelineRevisions = sqliteTable(
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
