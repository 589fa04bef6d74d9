/**
 * The service image: the repository's Dockerfile, .dockerignore and compose.yaml, checked as text (stages,
 * pinned bases, non-root user, health check, volumes, the files the service reads at run time, paths that
 * exist in the build context), and built and started when a container engine answers (`docker info` or
 * `podman info`). Without one the build is skipped, except under STRICT_SERVICES=1 on a machine where docker
 * is installed (a daemon socket or DOCKER_HOST) but does not answer: that fails.
 */
import { existsSync, readFileSync } from "node:fs";
import { join, posix } from "node:path";
import { execa } from "execa";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { PROJECT_ROOT } from "../support/strand-cli.js";

const STRICT_SERVICES = process.env.STRICT_SERVICES === "1";
const read = (file: string): string => readFileSync(join(PROJECT_ROOT, file), "utf8");
const manifest = JSON.parse(read("package.json")) as { version: string; files: string[]; scripts: Record<string, string> };

/** One Dockerfile instruction, its arguments with continuation lines joined, and the stage it belongs to. */
interface Instruction {
  keyword: string;
  args: string;
  /** Index of the stage (FROM) it follows; -1 before the first FROM. */
  stage: number;
  line: number;
}

/** Splits a Dockerfile into instructions (comments and blank lines dropped, `\` continuations joined). */
function instructions(text: string): Instruction[] {
  const result: Instruction[] = [];
  let stage = -1;
  let pending = "";
  let start = 0;
  text.split("\n").forEach((raw, index) => {
    const line = raw.trim();
    if (pending === "" && (line === "" || line.startsWith("#"))) return;
    if (pending !== "" && line.startsWith("#")) return; // comment lines inside a continuation are ignored
    if (pending === "") start = index + 1;
    if (line.endsWith("\\")) {
      pending += `${line.slice(0, -1)} `;
      return;
    }
    const full = (pending + line).trim();
    pending = "";
    const match = /^(\S+)\s*(.*)$/s.exec(full)!;
    const keyword = match[1]!.toUpperCase();
    if (keyword === "FROM") stage++;
    result.push({ keyword, args: match[2]!.trim(), stage, line: start });
  });
  return result;
}

/** The words of a JSON (exec) form, or the whitespace-separated words of the shell form. */
function words(args: string): string[] {
  if (args.startsWith("[")) return JSON.parse(args) as string[];
  return args.split(/\s+/).filter(Boolean);
}

/** The `--flag=value` options in front of an instruction's arguments, and what follows them. */
function flags(args: string): { options: Record<string, string>; rest: string } {
  const options: Record<string, string> = {};
  let rest = args;
  for (let match = /^--([a-z-]+)=(\S+)\s+/.exec(rest); match; match = /^--([a-z-]+)=(\S+)\s+/.exec(rest)) {
    options[match[1]!] = match[2]!;
    rest = rest.slice(match[0].length);
  }
  return { options, rest };
}

/** True when an image reference has a tag with a version number in it (and is not `latest`). */
function pinned(image: string): boolean {
  const tag = /:([^/:@]+)$/.exec(image.split("@")[0]!)?.[1];
  return tag !== undefined && tag !== "latest" && /\d/.test(tag);
}

const dockerfile = instructions(read("Dockerfile"));
const froms = dockerfile.filter((item) => item.keyword === "FROM");
const finalStage = froms.length - 1;
const inFinal = dockerfile.filter((item) => item.stage === finalStage);
const stageNames = new Map(froms.map((item) => [/\bAS\s+(\S+)$/i.exec(item.args)?.[1]?.toLowerCase(), item.stage] as const).filter(([name]) => name !== undefined));
/** The ARG defaults declared before the first FROM (they may name the base images). */
const globalArgs = new Map(dockerfile.filter((item) => item.keyword === "ARG" && item.stage === -1).map((item) => item.args.split("=") as [string, string]));
const substitute = (text: string): string => text.replace(/\$\{?(\w+)\}?/g, (whole, name: string) => globalArgs.get(name) ?? whole);
const finalEnv = new Map(
  inFinal
    .filter((item) => item.keyword === "ENV")
    .flatMap((item) => [...item.args.matchAll(/(\w+)=("[^"]*"|\S+)/g)].map((match) => [match[1]!, match[2]!.replace(/^"|"$/g, "")] as const)),
);

/** The .dockerignore patterns (without comments), as matchers of a context-relative path. */
const ignored = read(".dockerignore")
  .split("\n")
  .map((line) => line.trim())
  .filter((line) => line !== "" && !line.startsWith("#"))
  .map((pattern) => {
    const source = pattern.replace(/^\/+|\/+$/g, "").replace(/[.+^${}()|[\]\\]/g, "\\$&").replace(/\*\*/g, "\0").replace(/\*/g, "[^/]*").replace(/\0/g, ".*").replace(/\?/g, "[^/]");
    return { pattern, test: (path: string) => new RegExp(`^${source}(/.*)?$`).test(path) };
  });

describe("the Dockerfile of the service image", () => {
  it("has a build stage and a runtime stage on one pinned base, never `latest`", () => {
    expect(froms.length).toBeGreaterThanOrEqual(2);
    for (const from of froms) {
      const image = substitute(words(from.args)[0]!);
      expect(pinned(image), `line ${from.line}: FROM ${image} is not pinned to a version`).toBe(true);
    }
    // better-sqlite3 is compiled in the build stage: the runtime must have the same base to load it.
    const bases = new Set(froms.map((from) => substitute(words(from.args)[0]!)).filter((image) => !stageNames.has(image.toLowerCase())));
    expect([...bases]).toEqual(["node:20.19-bookworm-slim"]);
  });

  it("runs as a non-root user in the final stage", () => {
    const users = inFinal.filter((item) => item.keyword === "USER");
    expect(users.length, "the final stage sets no USER").toBeGreaterThan(0);
    const user = users.at(-1)!.args.split(":")[0]!;
    expect(["root", "0"]).not.toContain(user);
    // Nothing after the last USER switches back to root.
    expect(inFinal.indexOf(users.at(-1)!)).toBeGreaterThan(inFinal.findLastIndex((item) => item.keyword === "RUN"));
  });

  it("checks its health at /api/health with Node (no curl in the slim image) on SERVICE_PORT", () => {
    const check = inFinal.find((item) => item.keyword === "HEALTHCHECK");
    expect(check, "no HEALTHCHECK").toBeDefined();
    expect(check!.args).toContain("/api/health");
    expect(check!.args).toContain("127.0.0.1");
    expect(check!.args).toContain("SERVICE_PORT");
    expect(check!.args).toMatch(/CMD \["node",/);
    expect(check!.args).not.toMatch(/\bcurl\b|\bwget\b/);
  });

  it("keeps the database, runs and configuration in volumes, listens on every address, exposes the port", () => {
    const volumes = inFinal.filter((item) => item.keyword === "VOLUME").flatMap((item) => words(item.args));
    expect(volumes).toContain("/data");
    expect(volumes).toContain("/config");
    expect(finalEnv.get("SERVICE_DATA_DIR")).toBe("/data");
    expect(finalEnv.get("SERVICE_CONFIG_DIR")).toBe("/config");
    expect(finalEnv.get("SERVICE_HOST")).toBe("0.0.0.0");
    const exposed = inFinal.filter((item) => item.keyword === "EXPOSE").flatMap((item) => words(item.args));
    expect(exposed).toContain(finalEnv.get("SERVICE_PORT") ?? "8080");
  });

  it("starts the service the way `npm start` does, without npm", () => {
    // npm start: `npm run build && node bin/strand.js serve`; the image is built already.
    const started = manifest.scripts.start!.split("&&").at(-1)!.trim().split(/\s+/);
    expect(started).toEqual(["node", "bin/strand.js", "serve"]);
    const command = [...inFinal.filter((item) => item.keyword === "ENTRYPOINT"), ...inFinal.filter((item) => item.keyword === "CMD")].flatMap((item) => words(item.args));
    expect(command).not.toContain("npm");
    expect(command).toContain("node");
    expect(command.some((word) => word.endsWith("/bin/strand.js"))).toBe(true);
    expect(command.at(-1)).toBe("serve");
  });

  it("puts everything the service reads at run time into the final stage", () => {
    // The package's files (bin, dist, templates, drizzle migrations), package.json (the version) and the
    // production dependencies.
    const destinations = inFinal
      .filter((item) => item.keyword === "COPY")
      .map((item) => {
        const parts = words(flags(item.args).rest);
        return posix.basename(parts.at(-1)!.replace(/\/$/, ""));
      });
    for (const needed of [...manifest.files, "package.json", "node_modules"]) expect(destinations, `${needed} is not copied into the image`).toContain(needed);
  });

  it("copies only paths that exist in the build context and are not excluded by .dockerignore", () => {
    const fromContext = dockerfile.filter((item) => (item.keyword === "COPY" || item.keyword === "ADD") && flags(item.args).options.from === undefined);
    expect(fromContext.length).toBeGreaterThan(0);
    for (const item of fromContext) {
      const sources = words(flags(item.args).rest).slice(0, -1);
      for (const source of sources) {
        const path = posix.normalize(source).replace(/^\.\/|\/$/g, "");
        expect(existsSync(join(PROJECT_ROOT, path)), `line ${item.line}: COPY ${source} does not exist in the repository`).toBe(true);
        const rule = ignored.find((matcher) => matcher.test(path));
        expect(rule, `line ${item.line}: COPY ${source} is excluded by .dockerignore (${rule?.pattern})`).toBeUndefined();
      }
    }
  });

  it("copies from the build stage only what that stage copied in or builds (dist/, node_modules/)", () => {
    const tsBuild = JSON.parse(read("tsconfig.build.json")) as { compilerOptions: { outDir: string } };
    for (const item of dockerfile.filter((entry) => entry.keyword === "COPY" && flags(entry.args).options.from !== undefined)) {
      const stage = stageNames.get(flags(item.args).options.from!.toLowerCase());
      expect(stage, `line ${item.line}: COPY --from names no stage of this file`).toBeDefined();
      const stageLines = dockerfile.filter((entry) => entry.stage === stage);
      const workdir = stageLines.filter((entry) => entry.keyword === "WORKDIR").at(-1)?.args ?? "/";
      const produced = [tsBuild.compilerOptions.outDir, "node_modules"].map((name) => posix.join(workdir, name));
      const copiedIn = stageLines
        .filter((entry) => entry.keyword === "COPY" && flags(entry.args).options.from === undefined)
        .flatMap((entry) => {
          const parts = words(flags(entry.args).rest);
          const dest = posix.resolve(workdir, parts.at(-1)!);
          // `COPY a b ./` puts a and b into the folder; `COPY src ./src` names the target.
          return parts.at(-1)!.endsWith("/") ? parts.slice(0, -1).map((source) => posix.join(dest, posix.basename(source))) : [dest];
        });
      for (const source of words(flags(item.args).rest).slice(0, -1)) {
        const path = posix.resolve(workdir, source);
        expect([...produced, ...copiedIn], `line ${item.line}: ${path} is neither copied into nor built in the build stage`).toContain(path);
      }
    }
    expect(existsSync(join(PROJECT_ROOT, "package-lock.json"))).toBe(true);
  });

  it("labels the image (OCI) with the package's version and license", () => {
    const args = new Map(inFinal.filter((item) => item.keyword === "ARG").map((item) => item.args.split("=") as [string, string]));
    const labels = inFinal.filter((item) => item.keyword === "LABEL").map((item) => item.args).join(" ");
    for (const key of ["source", "title", "version", "licenses"]) expect(labels).toContain(`org.opencontainers.image.${key}=`);
    expect(labels).toContain(`org.opencontainers.image.licenses="${(JSON.parse(read("package.json")) as { license: string }).license}"`);
    expect(labels).toContain('org.opencontainers.image.version="${STRAND_VERSION}"');
    expect(args.get("STRAND_VERSION"), "ARG STRAND_VERSION must default to package.json's version").toBe(manifest.version);
  });

  it("has a .dockerignore that keeps local state out of the build context", () => {
    for (const path of ["node_modules", "dist", ".git", "coverage", "strand.db", "tests"]) {
      expect(ignored.some((matcher) => matcher.test(path)), `${path} is not in .dockerignore`).toBe(true);
    }
  });
});

describe("compose.yaml", () => {
  const compose = parse(read("compose.yaml")) as {
    services: Record<string, { image?: string; build?: unknown; environment?: Record<string, string>; depends_on?: Record<string, { condition: string }>; healthcheck?: { test: string[] | string }; volumes?: string[]; ports?: string[] }>;
    volumes: Record<string, unknown>;
  };
  const services = Object.entries(compose.services);
  const postgres = services.find(([, service]) => service.image?.startsWith("postgres:"));
  const strand = services.find(([, service]) => service.build !== undefined);

  it("pins every image", () => {
    for (const [name, service] of services) {
      expect(service.image, `service ${name} names no image`).toBeDefined();
      expect(pinned(service.image!), `service ${name}: ${service.image} is not pinned to a version`).toBe(true);
    }
    // The built image is tagged as `strand export -f docker` expects its base.
    expect(strand?.[1].image).toBe(`strand:${manifest.version}`);
  });

  it("runs the service on PostgreSQL once PostgreSQL is healthy", () => {
    expect(postgres, "no postgres service").toBeDefined();
    expect(strand, "no service built from the Dockerfile").toBeDefined();
    const [postgresName, db] = postgres!;
    const [, service] = strand!;
    expect(JSON.stringify(db.healthcheck?.test)).toContain("pg_isready");
    expect(service.depends_on?.[postgresName]?.condition).toBe("service_healthy");
    const url = service.environment?.SERVICE_DATABASE_URL ?? "";
    expect(url).toMatch(new RegExp(`^postgres://[^@]+@${postgresName}:5432/`));
    // The password comes from the environment (with a local-only default), the same on both sides.
    expect(url).toContain("${STRAND_DB_PASSWORD:-");
    expect(db.environment?.POSTGRES_PASSWORD).toMatch(/^\$\{STRAND_DB_PASSWORD:-[^}]+\}$/);
    expect(url).toContain(db.environment!.POSTGRES_PASSWORD!);
  });

  it("keeps data in named volumes and publishes the service on the loopback address only", () => {
    const named = Object.keys(compose.volumes);
    for (const [name, service] of services) {
      for (const volume of service.volumes ?? []) expect(named, `service ${name}: ${volume} is not a named volume`).toContain(volume.split(":")[0]);
    }
    expect(strand![1].volumes?.map((volume) => volume.split(":")[1])).toEqual(expect.arrayContaining(["/data", "/config"]));
    for (const port of strand![1].ports ?? []) expect(port).toMatch(/^127\.0\.0\.1:/);
  });
});

// ---------------------------------------------------------------------------------------------------------
// Building and starting the image, when a container engine answers.

/** The first of docker and podman whose `info` succeeds, or why none does. */
async function containerEngine(): Promise<{ program: string } | { why: string; dockerInstalled: boolean }> {
  const reasons: string[] = [];
  for (const program of ["docker", "podman"]) {
    const info = await execa(program, ["info"], { reject: false, timeout: 30_000, all: true });
    if (info.exitCode === 0) return { program };
    reasons.push(`${program} info: ${info.failed && info.exitCode === undefined ? "not installed" : String(info.all ?? "").trim().split("\n").at(-1)}`);
  }
  const dockerCli = (await execa("sh", ["-c", "command -v docker"], { reject: false })).exitCode === 0;
  // A docker client alone is not an installation; a daemon socket or DOCKER_HOST says one is meant to be here.
  const dockerInstalled = dockerCli && (Boolean(process.env.DOCKER_HOST) || existsSync("/var/run/docker.sock"));
  return { why: reasons.join("; "), dockerInstalled };
}

const engine = await containerEngine();
const program = "program" in engine ? engine.program : undefined;

if (!program && STRICT_SERVICES && "dockerInstalled" in engine && engine.dockerInstalled) {
  describe("the service image under STRICT_SERVICES=1", () => {
    it("needs a working container engine to build the image", () => {
      throw new Error(`docker is installed but does not answer: ${engine.why}`);
    });
  });
}

describe.skipIf(!program)(`building and starting the image (${program ?? ("why" in engine ? engine.why : "")})`, () => {
  const tag = "strand:images-test";

  it("builds, runs as a non-root user and answers /api/health", { timeout: 45 * 60_000 }, async () => {
    // podman writes OCI images by default, which have no HEALTHCHECK; the docker format keeps it.
    const format = program === "podman" ? ["--format", "docker"] : [];
    const build = await execa(program!, ["build", ...format, "-t", tag, "."], { cwd: PROJECT_ROOT, reject: false, all: true, timeout: 40 * 60_000 });
    expect(build.exitCode, `${program} build failed:\n${String(build.all ?? "").slice(-4000)}`).toBe(0);

    const id = await execa(program!, ["run", "--rm", "--entrypoint", "id", tag, "-u"], { reject: false, all: true, timeout: 120_000 });
    expect(id.exitCode, String(id.all)).toBe(0);
    expect(id.stdout.trim()).not.toBe("0");

    const started = await execa(program!, ["run", "-d", "-p", "127.0.0.1::8080", tag], { reject: false, all: true, timeout: 120_000 });
    expect(started.exitCode, String(started.all)).toBe(0);
    const container = started.stdout.trim().split("\n").at(-1)!;
    try {
      const port = (await execa(program!, ["port", container, "8080/tcp"])).stdout.trim().split("\n")[0]!.split(":").at(-1)!;
      let status = 0;
      let body = "";
      for (let attempt = 0; attempt < 60 && status !== 200; attempt++) {
        try {
          const response = await fetch(`http://127.0.0.1:${port}/api/health`);
          status = response.status;
          body = await response.text();
        } catch {
          // not listening yet
        }
        if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 1000));
      }
      const logs = await execa(program!, ["logs", container], { reject: false, all: true });
      expect(status, `no healthy answer from the container; its log:\n${String(logs.all ?? "").slice(-4000)}`).toBe(200);
      // The engine is "ok" only when the compiled command line runs are started with is in the image.
      expect(JSON.parse(body)).toMatchObject({ status: "ok", components: { database: { status: "ok" }, engine: { status: "ok" } } });
    } finally {
      await execa(program!, ["rm", "-f", container], { reject: false });
    }
  });
});
