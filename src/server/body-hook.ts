/**
 * The validation hook of JSON-body routes: missing required fields are 400 MISSING_FIELD naming them (the
 * specification's code for a missing toml_content); any other shape problem is 400 BAD_REQUEST naming the
 * fields and what is wrong with each.
 */
import { ServiceError } from "./errors.js";

interface Issue {
  code: string;
  message: string;
  path: PropertyKey[];
  /** The failures of each alternative, for a union. */
  errors?: Issue[][];
}

/** A field that was not sent at all (for a union: no alternative accepted "nothing"). */
function isMissing(issue: Issue): boolean {
  if (issue.code === "invalid_type") return /received undefined/.test(issue.message);
  return issue.code === "invalid_union" && (issue.errors ?? []).length > 0 && issue.errors!.every((branch) => branch.some(isMissing));
}

/** Missing required fields are MISSING_FIELD (naming them); any other shape problem is BAD_REQUEST. */
// Typed loosely on purpose: one hook serves every JSON-body route (it only looks at the issues).
export const bodyHook = ((result: { success: boolean; error?: { issues: Issue[] } }) => {
  if (result.success || !result.error) return;
  const issues = result.error.issues;
  const missing = issues.filter(isMissing).map((issue) => issue.path.join("."));
  if (missing.length > 0) throw new ServiceError("MISSING_FIELD", `missing required field: ${missing.join(", ")}`, { suggestion: `send a JSON body with ${missing.map((field) => `"${field}"`).join(" and ")}` });
  throw new ServiceError("BAD_REQUEST", "the request does not match the expected shape", { detail: issues.map((issue) => `${issue.path.join(".") || "(body)"}: ${issue.message}`).join("; ") });
}) as never;
