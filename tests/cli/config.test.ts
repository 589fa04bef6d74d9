/**
 * `strand config show|stats|get`: the resolved config (with injected keys), pipeline statistics, one value.
 */
import { parse } from "smol-toml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COHORT } from "../support/cli-pipelines.js";
import { parseData, parseEnvelope, runStrand, tempFolder, type TempFolder } from "../support/strand-cli.js";

let folder: TempFolder;
beforeAll(() => {
  folder = tempFolder({ "main.oxoflow": COHORT, "profiles/site.toml": '[config]\nscratch = "/scratch"\n' });
});
afterAll(() => folder.remove());

const config = (...args: string[]) => runStrand(["config", ...args], { cwd: folder.dir });

describe.concurrent("strand config show", () => {
  it("prints the resolved config as TOML, injected keys included", async () => {
    const result = await config("show", "main.oxoflow");
    expect(result.exitCode).toBe(0);
    const shown = parse(result.stdout) as { config: Record<string, unknown> };
    expect(shown.config).toEqual({
      genome: "hg38",
      make_report: false,
      mapper_args: "-M",
      samples_list: "S1,S2,S3",
      samples_cohort: "S1,S2,S3",
    });
  });

  it("--json separates injected and overridden keys", async () => {
    const result = await config("show", "main.oxoflow", "--json", "genome=mm10");
    expect(result.exitCode).toBe(0);
    const body = parseData<{ config: Record<string, unknown>; injected: string[]; overridden: string[] }>(result);
    expect(body.config.genome).toBe("mm10");
    expect(body.injected).toEqual(["samples_cohort", "samples_list"]);
    expect(body.overridden).toEqual(["genome"]);
  });

  it("a profile's keys appear", async () => {
    const result = await config("show", "main.oxoflow", "--profile", "site");
    expect(result.stdout).toContain('scratch = "/scratch"');
  });

  it("the workflow is found in the current folder when not given", async () => {
    const [given, found] = await Promise.all([config("show", "main.oxoflow"), config("show")]);
    expect(found.stdout).toBe(given.stdout);
  });
});

describe.concurrent("strand config stats", () => {
  it("--json counts rules, jobs, dependencies and levels", async () => {
    const result = await config("stats", "main.oxoflow", "--json");
    expect(result.exitCode).toBe(0);
    const envelope = parseEnvelope(result);
    expect(envelope.command).toBe("config");
    const body = envelope.data;
    expect(body).toMatchObject({
      action: "stats",
      rules: 3,
      jobs: 5,
      shell_rules: 3,
      script_rules: 0,
      dependencies: 2,
      levels: 3,
      max_depth: 2,
      environments: [],
      total_threads: 3,
      wildcard_names: ["sample"],
      samples: 3,
      pairs: 0,
    });
  });

  it("text lists one statistic per line", async () => {
    const result = await config("stats", "main.oxoflow");
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/^rules\s+3$/m);
    expect(result.stdout).toMatch(/^jobs\s+5$/m);
    expect(result.stdout).toMatch(/^wildcard_names\s+sample$/m);
  });

  it("check is an alias of stats", async () => {
    const [stats, check] = await Promise.all([config("stats", "main.oxoflow"), config("check", "main.oxoflow")]);
    expect(check.exitCode).toBe(0);
    expect(check.stdout).toBe(stats.stdout);
  });
});

describe.concurrent("strand config get", () => {
  it("prints one value", async () => {
    const result = await config("get", "genome", "main.oxoflow");
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe("hg38\n");
  });

  it("prints injected keys and overrides", async () => {
    const [injected, overridden] = await Promise.all([config("get", "samples_list", "main.oxoflow"), config("get", "genome", "main.oxoflow", "--arg", "genome=mm10")]);
    expect(injected.stdout.trim()).toBe("S1,S2,S3");
    expect(overridden.stdout.trim()).toBe("mm10");
  });

  it("--json keeps the value's type", async () => {
    const body = parseData<{ key: string; value: unknown }>(await config("get", "make_report", "main.oxoflow", "--json"));
    expect(body).toEqual({ action: "get", key: "make_report", value: false });
  });

  it("an unknown key exits 1 naming it", async () => {
    const result = await config("get", "nope", "main.oxoflow");
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain("config has no key 'nope'");
  });

  it("get without a key, or no action at all, is a usage error (exit 2)", async () => {
    const [noKey, noAction, badAction] = await Promise.all([config("get"), config(), config("frob", "main.oxoflow")]);
    for (const result of [noKey, noAction, badAction]) expect(result.exitCode).toBe(2);
    expect(noKey.stderr).toContain("config get needs a KEY");
    expect(noAction.stderr).toContain("config needs an action");
  });
});
