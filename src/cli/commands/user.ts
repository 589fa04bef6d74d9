/**
 * `strand user add NAME [--role admin|user|viewer] [--password-stdin]` and `strand user list`: accounts of a
 * team or hpc service, in the store the service uses (SERVICE_DATABASE_URL, else SERVICE_DATA_DIR: give the
 * same values the service has). `add` creates the account (role `user` unless given) or resets its password
 * (ending its sessions and tokens; its role changes only with --role, and the last administrator is never
 * demoted); without --password-stdin a random password is made and printed once. Both say which store they used.
 */
import { randomBytes } from "node:crypto";
import { encodeBase32LowerCaseNoPadding } from "@oslojs/encoding";
import { makeFinding } from "../../engine/findings.js";
import { AuthService } from "../../server/app.js";
import { ServiceError } from "../../server/errors.js";
import { ReportedFailure } from "../reported-failure.js";
import { USER_ROLES, type UserRole } from "../../server/store/accounts/contract.js";
import { optionValue, UsageError } from "../args.js";
import { printEnvelope } from "../json-envelope.js";
import { openServiceStore } from "../service-store.js";
import type { Command } from "./command.js";

/** The first line of standard input (a password piped in, never shown on the command line). */
async function firstLineOfStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8").split(/\r?\n/)[0] ?? "";
}

export const userCommand: Command = {
  usage: "strand user add NAME [--role admin|user|viewer] [--password-stdin] | strand user list   (in the service's store: set SERVICE_DATA_DIR or SERVICE_DATABASE_URL as the service has them)",
  options: [
    { name: "role", value: true, placeholder: "ROLE", description: "admin, user or viewer (a new account: user; an existing one keeps its role unless given)" },
    { name: "password-stdin", description: "read the password from the first line of standard input (default: make one and print it once)" },
  ],
  async run(args, output) {
    const [action, name] = args.positionals;
    if (action !== "add" && action !== "list") throw new UsageError(`strand user needs 'add NAME' or 'list', got '${action ?? ""}'`);
    if (action === "add" && !name) throw new UsageError("strand user add needs a username, e.g. strand user add alice --role admin");
    const role = optionValue(args, "role") as UserRole | undefined;
    if (role !== undefined && !USER_ROLES.includes(role)) throw new UsageError(`--role must be admin, user or viewer, got '${role}'`);
    const { store, where } = await openServiceStore();
    try {
      const auth = new AuthService(store);
      if (action === "list") {
        const users = await auth.users();
        if (args.flags.has("json")) printEnvelope(output, "user", { ok: true, data: { users, store: where }, findings: [] });
        else {
          output.err(`accounts in ${where}:`);
          for (const user of users) output.out(`${user.username.padEnd(24)} ${user.role.padEnd(6)} ${user.id}`);
          if (users.length === 0) output.err("  (none yet)");
        }
        return 0;
      }
      const generated = !args.flags.has("password-stdin");
      const password = generated ? encodeBase32LowerCaseNoPadding(randomBytes(10)) : await firstLineOfStdin();
      const { user, created, changed } = await auth.setAccount(name!, password, role);
      if (args.flags.has("json")) {
        printEnvelope(output, "user", { ok: true, data: { user, created, store: where, ...(generated ? { password } : {}) }, findings: [] });
      } else {
        const what = created ? "created" : changed ? "updated" : "unchanged";
        output.out(`${what} ${user.role} '${user.username}' (${user.id}) in ${where}${what === "updated" ? "; its sessions and tokens ended" : ""}`);
        if (generated) output.out(`password: ${password}   (shown once; change it after signing in: POST /api/auth/password)`);
      }
      return 0;
    } catch (error) {
      if (error instanceof ServiceError) throw new ReportedFailure(makeFinding(error.code, "error", error.message, { suggestion: error.extra.suggestion }));
      throw error;
    } finally {
      await store.close();
    }
  },
};
