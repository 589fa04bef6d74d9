/**
 * `strand license [FILE]`: the license status, resolved as the service resolves it (SERVICE_LICENSE, the
 * configuration directory, the legacy path, the embedded academic license), or the check of one file.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { checkLicenseText, licenseFiles, resolveLicense } from "../../license/license.js";
import { makeFinding } from "../../engine/findings.js";
import { printEnvelope } from "../json-envelope.js";
import type { Command } from "./command.js";
import { licensePlacesFrom } from "../../server/settings.js";

export const licenseCommand: Command = {
  usage: "strand license [FILE] [--json]",
  options: [],
  async run(args, output) {
    const file = args.positionals[0];
    const places = licensePlacesFrom(process.env);
    const status = file ? await checkLicenseText(readFileSync(resolve(file), "utf8"), { source: "file", path: resolve(file) }, places) : await resolveLicense(places);
    if (args.flags.has("json")) {
      printEnvelope(output, "license", {
        ok: !(file && status.problem),
        data: { ...status, searched: file ? [resolve(file)] : licenseFiles(places).map((entry) => entry.path) },
        findings: status.problem ? [makeFinding("LICENSE", file ? "error" : "info", `${status.path}: ${status.problem}`)] : [],
      });
      return file && status.problem ? 1 : 0;
    }
    const who = status.licensee ? ` for ${status.licensee}` : "";
    const until = status.expires_at ? `, valid until ${status.expires_at}` : "";
    output.out(`${status.type} license${who}${until} (${status.problem ? "embedded" : (status.path ?? "embedded")})`);
    if (status.problem) output.out(`  not accepted: ${status.path}: ${status.problem}`);
    output.out(`  the license is informational and never restricts what strand does; contact ${status.contact}`);
    return file && status.problem ? 1 : 0;
  },
};
