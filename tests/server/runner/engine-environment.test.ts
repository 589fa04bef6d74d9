/**
 * The allow-list a run's engine environment is built from: what passes (PATH, locale, TZ, scheduler and
 * module settings, the engine's own STRAND_* settings), what never does (the service's settings, keys,
 * secrets, tokens, passwords, database URLs, PostgreSQL's client variables, anything not listed), and
 * HOME and TMPDIR inside the run.
 */
import { describe, expect, it } from "vitest";
import { engineEnvironment, isAllowedName, isSecretName } from "../../../src/server/runner/engine-environment.js";

const FOLDERS = { home: "/data/users/u1/runs/r1/.strand/runs/r1/home", tmp: "/data/users/u1/runs/r1/.strand/runs/r1/tmp" };

describe("the engine environment's allow-list", () => {
  it("passes the basics, the locale and scheduler settings, and puts HOME and TMPDIR inside the run", () => {
    const env = engineEnvironment(
      {
        PATH: "/opt/tools/bin:/usr/bin",
        LANG: "en_GB.UTF-8",
        LC_ALL: "C.UTF-8",
        LC_NUMERIC: "C",
        TZ: "Europe/London",
        USER: "strand",
        LOGNAME: "strand",
        HOME: "/home/strand",
        TMPDIR: "/var/tmp",
        SLURM_CONF: "/etc/slurm/slurm.conf",
        SBATCH_PARTITION: "short",
        MODULEPATH: "/opt/modules",
        STRAND_CACHE_DIR: "/cache",
        https_proxy: "http://proxy.lab:3128",
      },
      FOLDERS,
    );
    expect(env).toEqual({
      PATH: "/opt/tools/bin:/usr/bin",
      LANG: "en_GB.UTF-8",
      LC_ALL: "C.UTF-8",
      LC_NUMERIC: "C",
      TZ: "Europe/London",
      USER: "strand",
      LOGNAME: "strand",
      HOME: FOLDERS.home,
      TMPDIR: FOLDERS.tmp,
      SLURM_CONF: "/etc/slurm/slurm.conf",
      SBATCH_PARTITION: "short",
      MODULEPATH: "/opt/modules",
      STRAND_CACHE_DIR: "/cache",
      https_proxy: "http://proxy.lab:3128",
    });
  });

  it("never passes the service's settings, keys, secrets, tokens, passwords, database URLs or PG variables, nor anything unlisted", () => {
    const source = {
      PATH: "/usr/bin",
      SERVICE_AI_API_KEY: "sk-1",
      SERVICE_OAUTH_GITHUB_CLIENT_SECRET: "s-2",
      SERVICE_OAUTH_ORCID_CLIENT_ID: "id-3",
      SERVICE_DATABASE_URL: "postgres://u:p@h/d",
      SERVICE_ADMIN_PASSWORD: "admin-pw",
      SERVICE_DATA_DIR: "/srv/strand",
      DATABASE_URL: "postgres://u:p@h/d",
      OPENAI_API_KEY: "sk-4",
      GITHUB_TOKEN: "ghp-5",
      AWS_SECRET_ACCESS_KEY: "aws-6",
      PGPASSWORD: "pg-7",
      PGHOST: "db",
      MYSQL_PASSWORD: "m-8",
      LAB_MADE_UP: "made-up",
      // Even a name the allow-list's prefixes would pass is dropped when it looks like a secret.
      STRAND_REGISTRY_TOKEN: "t-9",
      SLURM_JWT_TOKEN: "jwt",
      SBATCH_SECRET: "x",
      http_proxy: "http://alice:hunter2@proxy.lab:3128",
    };
    const env = engineEnvironment(source, FOLDERS, { STRAND_CONTAINER_RUNTIME: "podman", SERVICE_LEAK: "no" });
    expect(env).toEqual({ PATH: "/usr/bin", HOME: FOLDERS.home, TMPDIR: FOLDERS.tmp, STRAND_CONTAINER_RUNTIME: "podman" });
    for (const name of ["SERVICE_OAUTH_GITHUB_CLIENT_SECRET", "OPENAI_API_KEY", "GITHUB_TOKEN", "PGPASSWORD", "DATABASE_URL", "SERVICE_DATABASE_URL", "MYSQL_PASSWORD"]) {
      expect(isSecretName(name)).toBe(true);
      expect(isAllowedName(name)).toBe(false);
    }
    expect(isAllowedName("LAB_MADE_UP")).toBe(false);
    expect(isAllowedName("LC_TIME")).toBe(true);
  });

  it("gives a PATH even when the service has none", () => {
    expect(engineEnvironment({}, FOLDERS).PATH).toBe("/usr/local/bin:/usr/bin:/bin");
  });
});
