/**
 * The sandbox settings: `SERVICE_SANDBOX` (auto, bwrap, off) and `SERVICE_DATA_ROOTS`, team and hpc modes
 * refusing to start without bubblewrap unless the sandbox is turned off (with a message that says how to
 * fix it, also through a real `strand serve`), personal mode opting in, and the order of bwrap's mounts.
 */
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import { afterAll, describe, expect, it } from "vitest";
import { serviceConfig } from "../../../src/server/config.js";
import { engineSandboxCommand, jobSandboxPrefix, resolveSandbox, SandboxUnavailableError, type SandboxInputs, type SandboxPolicy } from "../../../src/server/runner/sandbox.js";
import { BWRAP_WORKS, failWithoutBwrapWhenStrict } from "../../support/bubblewrap.js";
import { assertBuilt, STRAND_BIN } from "../../support/strand-cli.js";

failWithoutBwrapWhenStrict();

const folder = mkdtempSync(join(tmpdir(), "strand-sandbox-config-"));
// As root the sandboxes run as an unprivileged account, which must pass through to the data folder.
chmodSync(folder, 0o711);
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** Inputs for a service whose PATH has no bwrap. */
function withoutBwrap(mode: SandboxInputs["mode"], setting: SandboxInputs["setting"]): SandboxInputs {
  return { mode, setting, dataDir: join(folder, "data"), configDir: join(folder, "config"), dataRoots: [], env: { PATH: join(folder, "no-tools") } };
}

function refusal(inputs: SandboxInputs): SandboxUnavailableError {
  try {
    resolveSandbox(inputs);
  } catch (error) {
    if (error instanceof SandboxUnavailableError) return error;
    throw error;
  }
  throw new Error("the sandbox was not refused");
}

describe("SERVICE_SANDBOX", () => {
  it("is auto unless set, and names itself when its value is wrong", () => {
    expect(serviceConfig({}).sandbox).toBe("auto");
    expect(serviceConfig({ SERVICE_SANDBOX: "off" }).sandbox).toBe("off");
    expect(() => serviceConfig({ SERVICE_SANDBOX: "docker" })).toThrow("SERVICE_SANDBOX must be auto, bwrap, off, got 'docker'");
  });

  it("reads SERVICE_DATA_ROOTS (colon or comma separated, absolute) and SERVICE_CONFIG_DIR", () => {
    const config = serviceConfig({ SERVICE_DATA_ROOTS: "/refs/genomes:/refs/indexes, /projects", SERVICE_CONFIG_DIR: "/etc/strand" });
    expect(config.dataRoots).toEqual(["/refs/genomes", "/refs/indexes", "/projects"]);
    expect(config.configDir).toBe("/etc/strand");
    expect(() => serviceConfig({ SERVICE_DATA_ROOTS: "refs" })).toThrow(/SERVICE_DATA_ROOTS must list absolute folders/);
  });

  it("team and hpc modes refuse to start without bwrap, saying how to fix it", () => {
    for (const mode of ["team", "hpc"] as const) {
      const error = refusal(withoutBwrap(mode, "auto"));
      expect(error.problem).toBe(
        `no job sandbox is available: bwrap (bubblewrap) is not on PATH, and ${mode} mode runs other people's pipelines (without a sandbox every job could read the database, the configuration and other users' runs)`,
      );
      expect(error.suggestion).toBe("install bubblewrap (Debian and Ubuntu: apt-get install bubblewrap), or set SERVICE_SANDBOX=off to run jobs unsandboxed and accept that risk");
    }
    expect(refusal(withoutBwrap("team", "bwrap")).problem).toMatch(/SERVICE_SANDBOX=bwrap asks for it/);
  });

  it("starts without a sandbox when it is turned off, and personal mode has none unless it asks for bwrap", () => {
    expect(resolveSandbox(withoutBwrap("team", "off"))).toBeUndefined();
    expect(resolveSandbox(withoutBwrap("hpc", "off"))).toBeUndefined();
    expect(resolveSandbox(withoutBwrap("personal", "auto"))).toBeUndefined();
    expect(refusal(withoutBwrap("personal", "bwrap")).problem).toMatch(/^no job sandbox is available: bwrap \(bubblewrap\) is not on PATH, and SERVICE_SANDBOX=bwrap asks for it/);
  });

  it("strand serve --mode team exits with the refusal when bwrap is missing", async () => {
    assertBuilt();
    const env = { PATH: join(folder, "no-tools"), HOME: folder, SERVICE_DATA_DIR: join(folder, "serve-data"), SERVICE_CONFIG_DIR: join(folder, "config"), NO_COLOR: "1", SERVICE_ALLOW_ROOT: "1" };
    const result = await execa(process.execPath, [STRAND_BIN, "serve", "-p", "0", "--mode", "team"], { env, extendEnv: false, reject: false, timeout: 30_000 });
    expect(result.exitCode).not.toBe(0);
    expect(result.stderr).toContain("no job sandbox is available: bwrap (bubblewrap) is not on PATH, and team mode runs other people's pipelines");
    expect(result.stderr).toContain("set SERVICE_SANDBOX=off to run jobs unsandboxed and accept that risk");
  });
});

describe.skipIf(!BWRAP_WORKS)("the sandbox policy", () => {
  it("hides the data and configuration folders, the account's home and /tmp, and keeps the engine readable", () => {
    const policy = resolveSandbox({ mode: "team", setting: "auto", dataDir: join(folder, "data"), configDir: join(folder, "config"), dataRoots: ["/srv/refs"] })!;
    expect(policy.kind).toBe("bwrap");
    expect(policy.hidden).toEqual(expect.arrayContaining(["/tmp", join(folder, "data"), join(folder, "config"), process.env.HOME ?? "/root"]));
    expect(policy.dataRoots).toEqual(["/srv/refs"]);
    expect(policy.engineFolders.some((path) => STRAND_BIN.startsWith(`${path}/`))).toBe(true);
  });

  it("hides again what a data folder of / would show, and binds the workspace last", () => {
    const data = join(folder, "data");
    const workspace = join(data, "users", "u1", "runs", "r1");
    const command = engineSandboxCommand(policyOf({ hidden: ["/tmp", folder], dataRoots: ["/"] }), workspace, ["node", "strand.js"], { scheduler: false });
    const text = command.join(" ");
    expect(text).toMatch(/^\/usr\/bin\/bwrap --unshare-user --unshare-pid --unshare-ipc --unshare-uts --unshare-cgroup-try --cap-drop ALL --ro-bind \/ \/ --proc \/proc --dev \/dev /);
    expect(text).toContain(`--tmpfs /tmp --tmpfs ${folder} --ro-bind / / --tmpfs /tmp --tmpfs ${folder} --tmpfs /run`);
    expect(text).toMatch(new RegExp(`--bind ${workspace} ${workspace} --chdir ${workspace} -- node strand.js$`));
  });

  it("gives jobs a sandbox of their own: no network, no further user namespaces, no scheduler programs or daemon sockets", () => {
    const workspace = join(folder, "data", "users", "u1", "runs", "r1");
    const policy = policyOf({ schedulerPrograms: ["/usr/bin/sbatch"], sockets: { munge: "/srv/munge/munge.sock", hidden: ["/srv/docker.sock"] } });
    const prefix = jobSandboxPrefix(policy, workspace, { network: "none" }).join(" ");
    expect(prefix).toMatch(/^\/usr\/bin\/bwrap --unshare-user --unshare-pid .* --cap-drop ALL --disable-userns /);
    expect(prefix).toContain("--unshare-net");
    expect(prefix).toContain("--ro-bind /dev/null /usr/bin/sbatch");
    expect(prefix).toContain("--unsetenv MUNGE_SOCKET --unsetenv DOCKER_HOST --unsetenv CONTAINER_HOST");
    expect(prefix).toMatch(new RegExp(`--bind ${workspace} ${workspace} --$`));
    // Set-up downloads: the host's network; a scheduler target's engine sees MUNGE, others do not.
    expect(jobSandboxPrefix(policy, workspace, { network: "host" }).join(" ")).not.toContain("--unshare-net");
    expect(engineSandboxCommand(policy, workspace, ["node"], { scheduler: false }).join(" ")).not.toContain("/run/munge");
  });
});

/** A sandbox policy for checking argument lists (nothing is run). */
function policyOf(overrides: Partial<SandboxPolicy>): SandboxPolicy {
  return {
    kind: "bwrap",
    program: "/usr/bin/bwrap",
    hidden: ["/tmp"],
    dataRoots: [],
    engineFolders: [],
    jobNetwork: "none",
    sockets: { hidden: [] },
    schedulerPrograms: [],
    limits: { processes: 1024, workspaceQuotaBytes: 0 },
    limitMechanism: "rlimits",
    ...overrides,
  };
}
