// drizzle-kit configuration for the embedded SQLite store: `drizzle-kit generate --config drizzle.sqlite.config.ts`.
import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "sqlite",
  schema: "./src/server/store/schema-sqlite.ts",
  out: "./drizzle/sqlite",
});
