// drizzle-kit configuration for the PostgreSQL store: `drizzle-kit generate --config drizzle.pg.config.ts`.
import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "postgresql",
  schema: "./src/server/store/schema-pg.ts",
  out: "./drizzle/pg",
});
