/**
 * Password hashing with Argon2id (`@node-rs/argon2`, computed on libuv's thread pool, off the event loop),
 * with the OWASP-recommended parameters (19 MiB, 2 passes, 1 lane), and the password rules of accounts.
 */
import { hash, verify } from "@node-rs/argon2";
import { ServiceError } from "../../errors.js";

/** Argon2id: the hybrid variant (the package's `Algorithm.Argon2id`, a const enum). */
const ARGON2ID = 2;

const PARAMETERS = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/** Shortest and longest accepted password (the longest bounds the work one sign-in attempt can cause). */
export const PASSWORD_LENGTH = { min: 8, max: 256 } as const;

/** A hash of a password nobody has, verified when a sign-in names an unknown user so both cases take as long. */
let decoyHash: Promise<string> | undefined;

/** The PHC string of an Argon2id hash of `password`. */
export function hashPassword(password: string): Promise<string> {
  return hash(password, PARAMETERS);
}

/** Whether `password` matches `passwordHash`; without a hash (unknown user, OAuth-only account) false, after as much work. */
export async function verifyPassword(passwordHash: string | null, password: string): Promise<boolean> {
  if (passwordHash === null) {
    decoyHash ??= hashPassword("no account has this password, it only costs the time a real check costs");
    await verify(await decoyHash, password).catch(() => false);
    return false;
  }
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

/** Refuses a password outside the accepted length, naming the rule. */
export function checkNewPassword(password: string, field = "password"): void {
  if ([...password].length < PASSWORD_LENGTH.min) {
    throw new ServiceError("BAD_REQUEST", `${field} must have at least ${PASSWORD_LENGTH.min} characters`, { suggestion: "choose a longer password, for example a few random words" });
  }
  if ([...password].length > PASSWORD_LENGTH.max) throw new ServiceError("BAD_REQUEST", `${field} must have at most ${PASSWORD_LENGTH.max} characters`);
}
