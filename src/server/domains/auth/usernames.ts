/**
 * What a new username may be. People tell accounts apart by their names (in the audit log, on shared
 * pipelines, in the list of users), so a new name must not be mistaken for another: it starts and ends with
 * a letter or digit, has no two marks (`.`, `-`, `_`) in a row, and must not look like an existing name once
 * case and marks are set aside (`bob.`, `b.ob` and `BOB` all look like `bob`). Sign-in still takes every name
 * accepted before these rules, so older accounts keep working.
 */
import type { User } from "../../store/accounts/contract.js";
import { ServiceError } from "../../errors.js";

/** Longest username. */
export const MAX_USERNAME_LENGTH = 64;

/** Every name ever accepted (sign-in looks such names up; older accounts may end in a mark). */
export const SIGN_IN_USERNAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** A new name: letters and digits, single marks between them. */
const NEW_USERNAME = /^[A-Za-z0-9]+(?:[._-][A-Za-z0-9]+)*$/;

/** What a name looks like to a reader: lower case, without marks. */
export function usernameSkeleton(username: string): string {
  return username.toLowerCase().replace(/[._-]/g, "");
}

/** Refuses a new name outside the accepted shape, with 400 naming the rule. */
export function checkNewUsername(username: string): void {
  if (username.length <= MAX_USERNAME_LENGTH && NEW_USERNAME.test(username)) return;
  throw new ServiceError("BAD_REQUEST", `'${username.slice(0, 80)}' is not a valid username`, {
    suggestion: `use 1 to ${MAX_USERNAME_LENGTH} letters and digits, with single dots, dashes or underscores between them (starting and ending with a letter or digit)`,
  });
}

/** The existing account a new name would be mistaken for, if any. */
export function lookAlike(username: string, existing: readonly Pick<User, "username">[]): Pick<User, "username"> | undefined {
  const skeleton = usernameSkeleton(username);
  return existing.find((user) => usernameSkeleton(user.username) === skeleton);
}

/** Refuses a new name that looks like an existing account's, with 409. */
export function refuseLookAlike(username: string, existing: readonly Pick<User, "username">[]): void {
  const twin = lookAlike(username, existing);
  if (!twin) return;
  throw new ServiceError("CONFLICT", `the username '${username}' looks like the existing account '${twin.username}'`, {
    suggestion: "choose a name that differs in more than upper and lower case and . - _ (names are compared without them)",
  });
}
