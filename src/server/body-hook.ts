/**
 * The validation hook of JSON-body routes: missing required fields are 400 MISSING_FIELD naming them (the
 * specification's code for a missing toml_content); any other shape problem is 400 BAD_REQUEST naming the
 * fields and what is wrong with each.
 */
import { ServiceError } from "./errors.js";

/** Missing required fields are MISSING_FIELD (naming them); any other shape problem is BAD_REQUEST. */
// Typed loosely on purpose: one hook serves every JSON-body route (it only looks at the issues).
export const bodyHook = ((result: { success: boolean; error?: { issues: { code: string; message: string; path: PropertyKey[] }[] } }) => {
  if (result.success || !result.error) return;
  const issues = result.error.issues;
  const missing = issues.filter((issue) => issue.code === "invalid_type" && /received undefined/.test(issue.message)).map((issue) => issue.path.join("."));
  if (missing.length > 0) throw new ServiceError(400, "MISSING_FIELD", `missing required field: ${missing.join(", ")}`, { suggestion: `send a JSON body with ${missing.map((field) => `"${field}"`).join(" and ")}` });
  throw new ServiceError(400, "BAD_REQUEST", "the request does not match the expected shape", { detail: issues.map((issue) => `${issue.path.join(".") || "(body)"}: ${issue.message}`).join("; ") });
}) as never;
