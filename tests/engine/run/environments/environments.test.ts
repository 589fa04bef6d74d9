/**
 * Environments: the exact wrapping text of every backend, wrapped commands run through stand-in backend
 * programs (small bash scripts on PATH that run what they are handed, as the real ones do inside the
 * environment), a real Python venv, and set-up happening once across jobs and processes.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { execa } from "execa";
import { afterAll, describe, expect, it } from "vitest";
import type { Environment } from "../../../../src/engine/format/model.js";
import { backendAvailable, ensureEnvironment, environmentKey, environmentLockPath, missingBackendHint, recordedEnvironments } from "../../../../src/engine/run/environments/environment-setup.js";
import { condaEnvironmentName, pulledImagePath, resolveBackendBinaries, wrapCommand } from "../../../../src/engine/run/environments/environment-wrap.js";
import { engineError, removeTempDirs, tempDir, writeFile } from "../../../support/temp-workspace.js";

afterAll(removeTempDirs);

const REPO_ROOT = fileURLToPath(new URL("../../../..", import.meta.url));
const SYSTEM_PATH = "/usr/bin:/bin";
const SHIM = `'if command -v bash >/dev/null 2>&1; then exec bash -c "$1"; else exec sh -c "$1"; fi'`;
const MACHINE = 16_000;

/**
 * A stand-in for a backend program. `run`/`exec` skip to the `bash -c …` or `sh -c …` part and run it with
 * STRAND_FAKE_INSIDE set, so a line that ran outside the "environment" shows up; other sub-commands are
 * set-up steps: they are recorded in $FAKE_CALLS, `pull` waits $FAKE_PULL_SECONDS and can fail on request.
 */
const FAKE_BACKEND = `#!/bin/bash
name=\${0##*/}
if [ -n "$FAKE_CALLS" ]; then printf '%s %s\\n' "$name" "$*" >> "$FAKE_CALLS"; fi
case "$1" in
  run|exec)
    while [ $# -gt 0 ] && [ "$1" != bash ] && [ "$1" != sh ]; do shift; done
    export STRAND_FAKE_INSIDE=$name
    exec "$@" ;;
  pull)
    if [ -n "$FAKE_PULL_ERROR" ]; then echo "$FAKE_PULL_ERROR" >&2; exit 1; fi
    [ -n "$FAKE_PULL_SECONDS" ] && sleep "$FAKE_PULL_SECONDS"
    if [ "$name" = apptainer ] || [ "$name" = singularity ]; then : > "$2"; fi
    exit 0 ;;
  image) exit 1 ;;
  *) exit 0 ;;
esac
`;

/** A folder holding stand-ins named `names`; returns the folder. */
function fakeBackends(names: string[]): string {
  const dir = join(tempDir(), "bin");
  mkdirSync(dir, { recursive: true });
  for (const name of names) {
    writeFileSync(join(dir, name), FAKE_BACKEND);
    chmodSync(join(dir, name), 0o755);
  }
  return dir;
}

/** Runs wrapped text the way the executor does (`bash -c`, in the workdir). */
async function runWrapped(text: string, cwd: string, env: NodeJS.ProcessEnv) {
  return execa("/usr/bin/bash", ["-c", text], { cwd, env, extendEnv: false, reject: false, stdin: "ignore" });
}

/** A command of several lines with single quotes, double quotes, `$` and a backslash; each line records where it ran. */
const TRICKY_COMMAND = [
  `echo "1 inside=$STRAND_FAKE_INSIDE" >> out.txt`,
  `echo 'it'"'"'s line 2 inside='"$STRAND_FAKE_INSIDE" >> out.txt`,
  `value='a  b'; echo "3 $value inside=$STRAND_FAKE_INSIDE" >> out.txt`,
  `printf '%s\\n' "4 back\\\\slash 'single' inside=$STRAND_FAKE_INSIDE" >> out.txt`,
].join("\n");

function expectedLines(inside: string): string {
  return [`1 inside=${inside}`, `it's line 2 inside=${inside}`, `3 a  b inside=${inside}`, `4 back\\slash 'single' inside=${inside}`, ""].join("\n");
}

describe("wrapCommand: the text of each backend", () => {
  const workdir = "/data/run 1";
  const base = { workdir, machineMemoryMb: MACHINE };

  it("conda by environment name", () => {
    expect(wrapCommand({ conda: "bioinfo" }, "bwa mem ref.fa r.fq > out.sam", base)).toBe(
      `conda run --no-capture-output -n bioinfo bash -c 'export PATH="$CONDA_PREFIX/bin:$PATH"; bwa mem ref.fa r.fq > out.sam'`,
    );
  });

  it("conda by environment file: its name: field, else the file stem (also when the file is missing)", () => {
    const dir = tempDir();
    writeFile(dir, "envs/qc.yml", "# QC tools\nname: 'qc-tools'  # used by fastqc\nchannels:\n  - conda-forge\ndependencies:\n  - fastqc\n");
    writeFile(dir, "envs/align.yaml", "channels: [bioconda]\ndependencies:\n  - bwa\n  - name: not-this\n");
    const options = { workdir: dir, machineMemoryMb: MACHINE };
    expect(wrapCommand({ conda: "envs/qc.yml" }, "fastqc x", options)).toBe(
      `conda run --no-capture-output -n qc-tools bash -c 'export PATH="$CONDA_PREFIX/bin:$PATH"; fastqc x'`,
    );
    expect(condaEnvironmentName("envs/align.yaml", dir)).toBe("align");
    expect(condaEnvironmentName("envs/missing_env.yml", dir)).toBe("missing_env");
  });

  it("conda rejects a name outside [A-Za-z0-9_-]", async () => {
    const error = await engineError(() => wrapCommand({ conda: "envs/bwa-0.7.yml" }, "bwa", { ...base, ruleName: "align" }));
    expect(error.code).toBe("ENV_ERROR");
    expect(error.message).toContain("'bwa-0.7'");
    expect(error.finding.rule).toBe("align");
    expect(error.finding.suggestion).toContain("name:");
  });

  it("conda by prefix (quoted when it has spaces)", () => {
    expect(wrapCommand({ conda: "envs/qc.yml", conda_prefix: "/opt/my envs/qc" }, "fastqc x", base)).toBe(
      `conda run --no-capture-output -p '/opt/my envs/qc' bash -c 'export PATH="$CONDA_PREFIX/bin:$PATH"; fastqc x'`,
    );
  });

  it("mamba and micromamba, by name and by prefix", () => {
    expect(wrapCommand({ mamba: "rnaseq" }, "salmon quant", { ...base, binaries: { mamba: "mamba" } })).toBe(`mamba run -n rnaseq bash -c 'salmon quant'`);
    expect(wrapCommand({ mamba: "rnaseq", mamba_prefix: "/opt/envs/rna" }, "salmon quant", { ...base, binaries: { mamba: "micromamba" } })).toBe(
      `micromamba run -p /opt/envs/rna bash -c 'salmon quant'`,
    );
  });

  it("mamba is preferred; micromamba is used when it is the only one on PATH", () => {
    const both = fakeBackends(["mamba", "micromamba"]);
    const onlyMicro = fakeBackends(["micromamba"]);
    expect(wrapCommand({ mamba: "rna" }, "true", { ...base, env: { PATH: both } })).toMatch(/^mamba run/);
    expect(wrapCommand({ mamba: "rna" }, "true", { ...base, env: { PATH: onlyMicro } })).toMatch(/^micromamba run/);
  });

  it("pixi quotes the whole command (Decision 9)", () => {
    expect(wrapCommand({ pixi: "envs/pixi.toml" }, "echo a\necho 'b'", base)).toBe(`pixi run --manifest-path '/data/run 1/envs/pixi.toml' bash -c 'echo a\necho '\\''b'\\'''`);
  });

  it("docker: user, memory clamped to the machine, workdir mounted at the same path, bash-or-sh shim", () => {
    const docker = { ...base, binaries: { container: "docker" as const } };
    expect(wrapCommand({ docker: "biocontainers/samtools:1.17" }, "samtools view x.bam", { ...docker, memoryMb: 64_000 })).toBe(
      `docker run --rm --user $(id -u):$(id -g) --memory 16000m -v '/data/run 1:/data/run 1' -w '/data/run 1' biocontainers/samtools:1.17 sh -c ${SHIM} sh 'samtools view x.bam'`,
    );
    expect(wrapCommand({ docker: "ubuntu:22.04" }, "true", { ...docker, memoryMb: 2048.7 })).toContain(" --memory 2048m -v ");
    expect(wrapCommand({ docker: "ubuntu:22.04" }, "true", docker)).not.toContain("--memory");
  });

  it("podman: keeps the caller's uid with --userns=keep-id", () => {
    expect(wrapCommand({ docker: "ubuntu:22.04" }, "true", { ...base, memoryMb: 512, binaries: { container: "podman" } })).toBe(
      `podman run --rm --userns=keep-id --memory 512m -v '/data/run 1:/data/run 1' -w '/data/run 1' ubuntu:22.04 sh -c ${SHIM} sh 'true'`,
    );
  });

  it("podman is used when forced by STRAND_CONTAINER_RUNTIME or when it is the only runtime on PATH", async () => {
    const both = fakeBackends(["docker", "podman"]);
    const onlyPodman = fakeBackends(["podman"]);
    const run = (env: NodeJS.ProcessEnv) => wrapCommand({ docker: "alpine" }, "true", { ...base, env });
    expect(run({ PATH: both })).toMatch(/^docker run/);
    expect(run({ PATH: both, STRAND_CONTAINER_RUNTIME: "podman" })).toMatch(/^podman run/);
    expect(run({ PATH: onlyPodman })).toMatch(/^podman run/);
    expect(run({ PATH: onlyPodman, STRAND_CONTAINER_RUNTIME: "docker" })).toMatch(/^docker run/);
    expect(run({ PATH: SYSTEM_PATH })).toMatch(/^docker run/);
    expect((await engineError(() => run({ PATH: both, STRAND_CONTAINER_RUNTIME: "nerdctl" }))).code).toBe("ENV_ERROR");
  });

  it("singularity/apptainer: local image as written, remote URIs as their pulled .sif", () => {
    expect(wrapCommand({ singularity: "images/my tools.sif" }, "bwa", { ...base, binaries: { singularity: "apptainer" } })).toBe(
      `apptainer exec --bind '/data/run 1:/data/run 1' '/data/run 1/images/my tools.sif' sh -c ${SHIM} sh 'bwa'`,
    );
    const sif = pulledImagePath("docker://biocontainers/bwa:0.7.17", workdir);
    expect(sif.startsWith("/data/run 1/.strand/env-cache/images/docker_biocontainers_bwa_0.7.17-")).toBe(true);
    expect(sif).toMatch(/-[0-9a-f]{8}\.sif$/);
    expect(wrapCommand({ singularity: "docker://biocontainers/bwa:0.7.17" }, "bwa", { ...base, binaries: { singularity: "singularity" } })).toBe(
      `singularity exec --bind '/data/run 1:/data/run 1' '${sif}' sh -c ${SHIM} sh 'bwa'`,
    );
    const onlySingularity = fakeBackends(["singularity"]);
    expect(wrapCommand({ singularity: "x.sif" }, "true", { ...base, env: { PATH: onlySingularity } })).toMatch(/^singularity exec/);
    expect(wrapCommand({ singularity: "x.sif" }, "true", { ...base, env: { PATH: fakeBackends(["singularity", "apptainer"]) } })).toMatch(/^apptainer exec/);
  });

  it("venv: activation, then the whole command in bash", () => {
    expect(wrapCommand({ venv: "my venv/" }, "python a.py\npython b.py", base)).toBe(`source '/data/run 1/my venv/bin/activate' && bash -c 'python a.py\npython b.py'`);
    expect(wrapCommand({ venv: "~/venvs/qc" }, "true", base)).toBe(`source "$HOME"/venvs/qc/bin/activate && bash -c 'true'`);
  });

  it("modules: initialise the module system when needed, load, run the whole command", () => {
    expect(wrapCommand({ modules: ["samtools/1.17", "bwa"] }, "bwa index ref.fa", base)).toBe(
      `type module >/dev/null 2>&1 || for strand_module_init in "\${MODULESHOME:-/nonexistent}/init/bash" /etc/profile.d/modules.sh ` +
        `/usr/share/lmod/lmod/init/bash /usr/share/Modules/init/bash; do if [ -f "$strand_module_init" ]; then . "$strand_module_init"; break; fi; done; ` +
        `module load samtools/1.17 bwa && bash -c 'bwa index ref.fa'`,
    );
  });

  it("system: the command unchanged; the priority decides between several keys", () => {
    expect(wrapCommand({}, "echo 'x'\necho y", base)).toBe("echo 'x'\necho y");
    const several: Environment = { conda: "a", mamba: "b", docker: "c" };
    expect(wrapCommand(several, "true", { ...base, binaries: { mamba: "mamba" } })).toBe(`mamba run -n b bash -c 'true'`);
    expect(environmentKey(several)).toBe("mamba:b");
    expect(environmentKey({ conda: "envs/x.yml", conda_prefix: "/opt/x" })).toBe("conda:envs/x.yml@/opt/x");
  });
});

describe("wrapped commands run entirely inside the environment", () => {
  const cases: { name: string; environment: Environment; programs: string[]; inside: string }[] = [
    { name: "conda", environment: { conda: "bioinfo" }, programs: ["conda"], inside: "conda" },
    { name: "micromamba", environment: { mamba: "bioinfo" }, programs: ["micromamba"], inside: "micromamba" },
    { name: "pixi", environment: { pixi: "pixi.toml" }, programs: ["pixi"], inside: "pixi" },
    { name: "docker", environment: { docker: "ubuntu:22.04" }, programs: ["docker"], inside: "docker" },
    { name: "podman", environment: { docker: "ubuntu:22.04" }, programs: ["podman"], inside: "podman" },
    { name: "apptainer", environment: { singularity: "docker://ubuntu:22.04" }, programs: ["apptainer"], inside: "apptainer" },
  ];
  for (const { name, environment, programs, inside } of cases) {
    it(`${name}: every line of a multi-line command with quotes ran inside`, async () => {
      const workdir = join(tempDir(), "work dir");
      mkdirSync(workdir);
      const env = { PATH: `${fakeBackends(programs)}:${SYSTEM_PATH}` };
      const text = wrapCommand(environment, TRICKY_COMMAND, { workdir, memoryMb: 1024, machineMemoryMb: MACHINE, env });
      const result = await runWrapped(text, workdir, env);
      expect(result.stderr).toBe("");
      expect(result.exitCode).toBe(0);
      expect(readFileSync(join(workdir, "out.txt"), "utf8")).toBe(expectedLines(inside));
    });
  }

  it("a container without bash runs the command with sh", async () => {
    const workdir = tempDir();
    const bin = fakeBackends(["docker"]);
    symlinkSync("/usr/bin/dash", join(bin, "sh"));
    symlinkSync("/usr/bin/id", join(bin, "id"));
    const env = { PATH: bin };
    const text = wrapCommand({ docker: "alpine" }, `if [ -z "$BASH_VERSION" ]; then echo "sh ran it" > out.txt; fi`, { workdir, machineMemoryMb: MACHINE, env });
    const result = await runWrapped(text, workdir, env);
    expect(result.exitCode).toBe(0);
    expect(readFileSync(join(workdir, "out.txt"), "utf8")).toBe("sh ran it\n");
  });

  it("modules: a module system found through MODULESHOME is initialised, the modules loaded, every line run", async () => {
    const workdir = tempDir();
    const moduleHome = tempDir();
    writeFile(moduleHome, "init/bash", `module() { echo "module $*" >> modules.log; export STRAND_FAKE_INSIDE=modules; }\n`);
    const env = { PATH: SYSTEM_PATH, MODULESHOME: moduleHome };
    expect(backendAvailable("modules", env)).toBe(true);
    expect(backendAvailable("modules", { PATH: SYSTEM_PATH, MODULESHOME: "/nonexistent" })).toBe(existsSync("/etc/profile.d/modules.sh") || existsSync("/usr/share/lmod/lmod/init/bash") || existsSync("/usr/share/Modules/init/bash"));
    const text = wrapCommand({ modules: ["samtools/1.17", "bwa"] }, TRICKY_COMMAND, { workdir, machineMemoryMb: MACHINE, env });
    const result = await runWrapped(text, workdir, env);
    expect(result.exitCode).toBe(0);
    expect(readFileSync(join(workdir, "modules.log"), "utf8")).toBe("module load samtools/1.17 bwa\n");
    expect(readFileSync(join(workdir, "out.txt"), "utf8")).toBe(expectedLines("modules"));
  });

  it("a real Python venv: created once, and a wrapped multi-line command runs inside it", async () => {
    const workdir = join(tempDir(), "work dir");
    writeFile(workdir, "requirements.txt", ""); // PyPI is unreachable here; an empty file still exercises `pip install -r`
    const lockDir = join(tempDir(), "locks");
    const messages: string[] = [];
    await ensureEnvironment({ venv: "my venv" }, { workdir, lockDir, log: (line) => messages.push(line) });
    expect(existsSync(join(workdir, "my venv", "bin", "activate"))).toBe(true);
    expect(messages).toEqual(["setting up venv environment my venv", "venv environment my venv is ready"]);
    expect(Object.keys(recordedEnvironments(join(workdir, ".strand/env-cache/environment_cache.json")))).toEqual(["venv:my venv"]);

    const command = `python -c 'import sys; print(sys.prefix)'\necho "second: $VIRTUAL_ENV"`;
    const text = wrapCommand({ venv: "my venv" }, command, { workdir, machineMemoryMb: MACHINE });
    const result = await runWrapped(text, workdir, process.env);
    expect(result.exitCode).toBe(0);
    const venvDir = realpathSync(join(workdir, "my venv"));
    expect(result.stdout.split("\n")).toEqual([venvDir, `second: ${join(workdir, "my venv")}`]);
  });
});

describe("ensureEnvironment: set-up runs once", () => {
  /** Reads the recorded set-up calls, one per line. */
  function calls(file: string): string[] {
    return existsSync(file) ? readFileSync(file, "utf8").trim().split("\n").filter(Boolean) : [];
  }

  it("two concurrent jobs in one process share one set-up; the lock is released; the cache records it", async () => {
    const workdir = tempDir();
    const lockDir = join(tempDir(), "locks");
    const callsFile = join(workdir, "calls.txt");
    const env: NodeJS.ProcessEnv = { ...process.env, PATH: `${fakeBackends(["docker"])}:${SYSTEM_PATH}`, FAKE_CALLS: callsFile, FAKE_PULL_SECONDS: "0.5" };
    delete env.STRAND_CONTAINER_RUNTIME;
    const environment = { docker: "biocontainers/samtools:1.17" };
    await Promise.all([ensureEnvironment(environment, { workdir, lockDir, env }), ensureEnvironment(environment, { workdir, lockDir, env })]);
    expect(calls(callsFile)).toEqual(["docker image inspect biocontainers/samtools:1.17", "docker pull biocontainers/samtools:1.17"]);
    expect(existsSync(environmentLockPath("docker:biocontainers/samtools:1.17", lockDir))).toBe(false);
    const cached = recordedEnvironments(join(workdir, ".strand/env-cache/environment_cache.json"));
    expect(cached["docker:biocontainers/samtools:1.17"]).toMatchObject({ kind: "docker", spec: "biocontainers/samtools:1.17", fingerprint: "" });
    await ensureEnvironment(environment, { workdir, lockDir, env });
    expect(calls(callsFile)).toHaveLength(2);
  });

  it("two engine processes set an environment up once, and a later process finds it in the cache", async () => {
    const workdir = tempDir();
    const lockDir = join(tempDir(), "locks");
    const callsFile = join(workdir, "calls.txt");
    const script = writeFile(
      tempDir(),
      "ensure.mts",
      `import { ensureEnvironment } from ${JSON.stringify(pathToFileURL(join(REPO_ROOT, "src/engine/run/environments/environment-setup.ts")).href)};\n` +
        `const [workdir, lockDir] = process.argv.slice(2);\n` +
        `const started = Date.now();\n` +
        `await ensureEnvironment({ docker: "biocontainers/bwa:0.7.17" }, { workdir, lockDir, log: (line) => console.log(line) });\n` +
        `console.log(JSON.stringify({ started, ended: Date.now() }));\n`,
    );
    const env: NodeJS.ProcessEnv = { ...process.env, PATH: `${fakeBackends(["docker"])}:${SYSTEM_PATH}`, FAKE_CALLS: callsFile, FAKE_PULL_SECONDS: "2" };
    delete env.STRAND_CONTAINER_RUNTIME;
    const engine = () => execa(process.execPath, ["--import", "tsx", script, workdir, lockDir], { cwd: REPO_ROOT, env, extendEnv: false });
    const [first, second] = await Promise.all([engine(), engine()]);
    const times = [first, second].map((result) => JSON.parse(result.stdout.split("\n").at(-1)!) as { started: number; ended: number });
    // Both asked for the environment before either had it: the second really waited for the first.
    expect(Math.max(times[0]!.started, times[1]!.started)).toBeLessThan(Math.min(times[0]!.ended, times[1]!.ended));
    expect(calls(callsFile).filter((line) => line.startsWith("docker pull"))).toEqual(["docker pull biocontainers/bwa:0.7.17"]);
    expect([first.stdout, second.stdout].filter((out) => out.includes("is ready"))).toHaveLength(1);
    const before = calls(callsFile).length;
    const third = await engine();
    expect(third.stdout).not.toContain("setting up");
    expect(calls(callsFile)).toHaveLength(before);
  });

  it("conda: create-or-update from the environment file, verified; editing the file sets it up again", async () => {
    const workdir = tempDir();
    const lockDir = join(tempDir(), "locks");
    const callsFile = join(workdir, "calls.txt");
    writeFile(workdir, "envs/qc.yml", "name: qc\ndependencies:\n  - fastqc\n");
    const script = writeFile(
      tempDir(),
      "ensure.mts",
      `import { ensureEnvironment } from ${JSON.stringify(pathToFileURL(join(REPO_ROOT, "src/engine/run/environments/environment-setup.ts")).href)};\n` +
        `await ensureEnvironment({ conda: "envs/qc.yml" }, { workdir: process.argv[2], lockDir: process.argv[3] });\n`,
    );
    const env = { ...process.env, PATH: `${fakeBackends(["conda"])}:${SYSTEM_PATH}`, FAKE_CALLS: callsFile };
    const engine = () => execa(process.execPath, ["--import", "tsx", script, workdir, lockDir], { cwd: REPO_ROOT, env, extendEnv: false });
    await engine();
    await engine();
    const firstRound = [
      "conda env create -n qc -f envs/qc.yml",
      `conda run -n qc bash -c test -n "$(ls -A "$CONDA_PREFIX/bin" 2>/dev/null)"`,
    ];
    expect(calls(callsFile)).toEqual(firstRound);
    writeFile(workdir, "envs/qc.yml", "name: qc\ndependencies:\n  - fastqc\n  - multiqc\n");
    await engine();
    expect(calls(callsFile)).toEqual([...firstRound, ...firstRound]);
  });

  it("singularity: a remote image is pulled once to its .sif; a missing local image is an ENV_ERROR", async () => {
    const workdir = tempDir();
    const lockDir = join(tempDir(), "locks");
    const callsFile = join(workdir, "calls.txt");
    const env: NodeJS.ProcessEnv = { ...process.env, PATH: `${fakeBackends(["apptainer"])}:${SYSTEM_PATH}`, FAKE_CALLS: callsFile };
    const uri = "docker://biocontainers/fastqc:0.11.9";
    await ensureEnvironment({ singularity: uri }, { workdir, lockDir, env });
    const sif = pulledImagePath(uri, workdir);
    expect(existsSync(sif)).toBe(true);
    expect(calls(callsFile)).toEqual([`apptainer pull ${sif.replace(/\.sif$/, ".partial.sif")} ${uri}`]);
    const error = await engineError(ensureEnvironment({ singularity: "images/none.sif" }, { workdir, lockDir, env, ruleName: "qc" }));
    expect(error.code).toBe("ENV_ERROR");
    expect(error.message).toBe("singularity image images/none.sif was not found");
  });

  it("waits for a set-up held by another live process only STRAND_ENV_LOCK_TIMEOUT_SECS, in $STRAND_LOCK_DIR", async () => {
    const workdir = tempDir();
    const lockDir = join(tempDir(), "locks");
    const env: NodeJS.ProcessEnv = { ...process.env, PATH: `${fakeBackends(["docker"])}:${SYSTEM_PATH}`, STRAND_LOCK_DIR: lockDir, STRAND_ENV_LOCK_TIMEOUT_SECS: "1" };
    delete env.STRAND_CONTAINER_RUNTIME;
    const lockPath = environmentLockPath("docker:alpine:3.19", lockDir);
    writeFile(lockDir, lockPath.slice(lockDir.length + 1), JSON.stringify({ pid: process.pid, host: hostname(), started_at: "", purpose: "another engine" }));
    const started = Date.now();
    const error = await engineError(ensureEnvironment({ docker: "alpine:3.19" }, { workdir, env, ruleName: "qc" }));
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    expect(error.code).toBe("ENV_ERROR");
    expect(error.message).toContain("timed out after 1 s");
    expect(error.finding.suggestion).toContain(lockPath);
  });

  it("a failing set-up is an ENV_ERROR with the last lines of its output, and is tried again later", async () => {
    const workdir = tempDir();
    const lockDir = join(tempDir(), "locks");
    const env: NodeJS.ProcessEnv = { ...process.env, PATH: `${fakeBackends(["docker"])}:${SYSTEM_PATH}`, FAKE_PULL_ERROR: "Error response from daemon: manifest unknown" };
    delete env.STRAND_CONTAINER_RUNTIME;
    const error = await engineError(ensureEnvironment({ docker: "no/such:image" }, { workdir, lockDir, env, ruleName: "align" }));
    expect(error.code).toBe("ENV_ERROR");
    expect(error.message).toBe("setting up docker environment no/such:image failed: Error response from daemon: manifest unknown");
    expect(error.finding.rule).toBe("align");
    expect(error.finding.suggestion).toContain("docker image inspect no/such:image >/dev/null 2>&1 || docker pull no/such:image");
    delete env.FAKE_PULL_ERROR;
    await ensureEnvironment({ docker: "no/such:image" }, { workdir, lockDir, env });
  });
});

describe("missing backends", () => {
  it("a missing conda is an ENV_ERROR naming the rule and environment, with the Miniforge hint", async () => {
    const workdir = tempDir();
    const env = { PATH: SYSTEM_PATH };
    expect(backendAvailable("conda", env)).toBe(false);
    const error = await engineError(ensureEnvironment({ conda: "envs/qc.yml" }, { workdir, env, ruleName: "fastqc", skipSetup: true }));
    expect(error.code).toBe("ENV_ERROR");
    expect(error.message).toBe("conda is not installed (needed by rule fastqc for environment envs/qc.yml)");
    expect(error.finding.suggestion).toBe(missingBackendHint("conda"));
    expect(error.finding.suggestion).toContain("https://github.com/conda-forge/miniforge");
  });

  it("every backend has an install hint with its official address, and availability follows PATH", async () => {
    for (const kind of ["conda", "mamba", "pixi", "docker", "singularity", "venv", "modules"] as const) {
      expect(missingBackendHint(kind)).toMatch(/https:\/\//);
    }
    const empty = { PATH: tempDir() };
    for (const kind of ["conda", "mamba", "pixi", "docker", "singularity", "venv"] as const) expect(backendAvailable(kind, empty)).toBe(false);
    expect(backendAvailable("system", empty)).toBe(true);
    const full = { PATH: fakeBackends(["conda", "micromamba", "pixi", "podman", "singularity", "python3"]) };
    for (const kind of ["conda", "mamba", "pixi", "docker", "singularity", "venv"] as const) expect(backendAvailable(kind, full)).toBe(true);
    expect(resolveBackendBinaries(full)).toEqual({ mamba: "micromamba", container: "podman", singularity: "singularity" });
    expect(backendAvailable("docker", { ...full, STRAND_CONTAINER_RUNTIME: "docker" })).toBe(false);

    const messages = [
      [{ mamba: "rna" }, "mamba (or micromamba) is not installed (needed by rule r for environment rna)"],
      [{ docker: "alpine" }, "docker is not installed (needed by rule r for environment alpine)"],
      [{ singularity: "x.sif" }, "apptainer (or singularity) is not installed (needed by rule r for environment x.sif)"],
      [{ pixi: "pixi.toml" }, "pixi is not installed (needed by rule r for environment pixi.toml)"],
      [{ venv: "missing-venv" }, "python3 is not installed (needed by rule r for environment missing-venv)"],
    ] as const;
    for (const [environment, message] of messages) {
      const error = await engineError(ensureEnvironment(environment, { workdir: tempDir(), env: empty, ruleName: "r" }));
      expect(error.message).toBe(message);
    }
    const forced = await engineError(ensureEnvironment({ docker: "alpine" }, { workdir: tempDir(), env: { ...full, STRAND_CONTAINER_RUNTIME: "docker" }, ruleName: "r" }));
    expect(forced.message).toBe("docker is not installed (needed by rule r for environment alpine)");
  });

  it("skipSetup checks the backend but runs nothing", async () => {
    const workdir = tempDir();
    const callsFile = join(workdir, "calls.txt");
    const env: NodeJS.ProcessEnv = { ...process.env, PATH: `${fakeBackends(["docker"])}:${SYSTEM_PATH}`, FAKE_CALLS: callsFile };
    delete env.STRAND_CONTAINER_RUNTIME;
    await ensureEnvironment({ docker: "alpine" }, { workdir, env, skipSetup: true });
    expect(existsSync(callsFile)).toBe(false);
    expect(existsSync(join(workdir, ".strand"))).toBe(false);
  });
});
