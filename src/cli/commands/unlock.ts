/**
 * `strand unlock [WORKFLOW|DIR]`: clears the run lock a crashed run left behind, after checking its owner
 * is gone (Snakemake's --unlock). A lock from another host needs --force, since its process cannot be seen.
 */
import { optionValue, type OptionSpec } from "../args.js";
import { printEnvelope } from "../json-envelope.js";
import { displayPath, paint } from "../print.js";
import { unlockRun } from "../../engine/run/run-lock.js";
import type { Command } from "./command.js";
import { workdirOf } from "./status.js";

const UNLOCK_OPTIONS: OptionSpec[] = [
  { name: "workdir", short: "d", value: true, placeholder: "DIR", description: "the workdir (default: the workflow's folder or the current folder)" },
  { name: "force", description: "clear a lock taken on another host without checking its process" },
];

export const unlockCommand: Command = {
  usage: "strand unlock [WORKFLOW|DIR] [-d DIR] [--force]",
  options: UNLOCK_OPTIONS,
  async run(args, output) {
    const workdir = workdirOf(args.positionals[0], optionValue(args, "workdir"));
    const result = unlockRun(workdir, { force: args.flags.has("force") });
    if (args.flags.has("json")) {
      printEnvelope(output, "unlock", { ok: true, data: { workdir, lock: result.path, removed: result.removed, owner: result.owner, reason: result.reason } });
      return 0;
    }
    if (result.removed) output.out(`${paint(output, "green", "✓")} unlocked ${displayPath(output, workdir)}: ${result.reason}`);
    else output.out(`${displayPath(output, workdir)} is not locked (${result.reason})`);
    return 0;
  },
};
