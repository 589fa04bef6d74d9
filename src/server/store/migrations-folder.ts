/** Where the committed drizzle-kit migrations live, from the sources (tsx) and from the build (dist/) alike. */
import { fileURLToPath } from "node:url";

/** The SQL dialects that have a migrations folder. */
export type MigrationDialect = "sqlite" | "pg";

/** The absolute path of `drizzle/<dialect>/` in the package. */
export function migrationsFolder(dialect: MigrationDialect): string {
  // src/server/store/ and dist/server/store/ are both three levels below the package root.
  return fileURLToPath(new URL(`../../../drizzle/${dialect}/`, import.meta.url));
}
