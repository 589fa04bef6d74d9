// drizzle-kit configuration for both stores. The dialect comes from DRIZZLE_DIALECT (`sqlite`, the default,
// or `pg`); each store area keeps its tables in `src/server/store/<area>/schema-<dialect>.ts`, and the
// migrations of each dialect live in `drizzle/<dialect>/`. `npm run db:generate` runs it for both.
import { defineConfig } from "drizzle-kit";

const dialect = process.env.DRIZZLE_DIALECT ?? "sqlite";
if (dialect !== "sqlite" && dialect !== "pg") {
  throw new Error(`DRIZZLE_DIALECT must be sqlite or pg (got ${dialect})`);
}

export default defineConfig({
  dialect: dialect === "pg" ? "postgresql" : "sqlite",
  schema: `./src/server/store/*/schema-${dialect}.ts`,
  out: `./drizzle/${dialect}`,
});
