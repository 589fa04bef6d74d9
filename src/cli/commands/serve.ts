/**
 * `strand serve`: the HTTP service (API and browser app) on 127.0.0.1:8080 by default.
 */
import { EngineError } from "../../engine/findings.js";
import { engineVersion } from "../../engine/version.js";
import { serviceConfig, type ServiceConfig } from "../../server/config.js";
import { StartRefusedError, startService } from "../../server/serve.js";
import { SandboxUnavailableError } from "../../server/runner/sandbox.js";
import { optionValue, UsageError, type OptionSpec } from "../args.js";
import type { Command } from "./command.js";

const SERVE_OPTIONS: OptionSpec[] = [
  { name: "host", value: true, placeholder: "ADDRESS", description: "listen address (default SERVICE_HOST or 127.0.0.1)" },
  { name: "port", short: "p", value: true, placeholder: "PORT", description: "port (default SERVICE_PORT or 8080; 0 picks a free one)" },
  { name: "mode", value: true, placeholder: "MODE", description: "personal (default), team or hpc" },
];

export const serveCommand: Command = {
  usage: "strand serve [--host ADDRESS] [-p PORT] [--mode personal|team|hpc]",
  options: SERVE_OPTIONS,
  async run(args, output) {
    // On a terminal a person reads these lines; elsewhere (a container, systemd, a log shipper) each is a JSON
    // log line like the service's own, with the same fields.
    const plain = process.stderr.isTTY === true;
    const say = (level: "info" | "fatal", message: string, fields: Record<string, unknown> = {}) =>
      output.err(plain ? message : JSON.stringify({ level, time: new Date().toISOString(), service: "strand", ...fields, msg: message }));
    try {
      return await serve(args, say);
    } catch (error) {
      if (plain || !(error instanceof EngineError || error instanceof UsageError)) throw error;
      const suggestion = error instanceof UsageError ? error.suggestion : error.finding.suggestion;
      say("fatal", `strand serve failed: ${error.message}`, { code: error instanceof UsageError ? "USAGE_ERROR" : error.code, ...(suggestion ? { suggestion } : {}) });
      return error instanceof UsageError ? 2 : 1;
    }
  },
};

/** Starts the service and serves until SIGINT or SIGTERM. */
async function serve(args: Parameters<Command["run"]>[0], say: (level: "info" | "fatal", message: string, fields?: Record<string, unknown>) => void): Promise<number> {
  const portText = optionValue(args, "port");
  const port = portText === undefined ? undefined : Number(portText);
  if (port !== undefined && (!Number.isInteger(port) || port < 0 || port > 65535)) throw new UsageError(`--port needs a port number, got '${portText}'`);
  const mode = optionValue(args, "mode") as "personal" | "team" | "hpc" | undefined;
  let config;
  try {
    config = serviceConfig(process.env, { host: optionValue(args, "host"), port, mode });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  let service;
  try {
    service = await startService(config, engineVersion());
  } catch (error) {
    throw startFailure(error as NodeJS.ErrnoException, config);
  }
  const where = service.storage === "sqlite" ? `SQLite in ${config.dataDir}` : "PostgreSQL";
  say("info", `strand ${engineVersion()} serving on ${service.url} (mode ${config.mode}, storage ${where}); API documentation at ${service.url}/api/docs`, { instance_id: service.instanceId, url: service.url });
  await new Promise<void>((resolve) => {
    const stop = () => {
      say("info", "stopping", { instance_id: service.instanceId });
      void service.close().then(resolve);
    };
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  });
  return 0;
}

/** Why the service could not start, with what to change: the port, the data directory or the database. */
function startFailure(error: NodeJS.ErrnoException, config: ServiceConfig): EngineError {
  if (error instanceof SandboxUnavailableError || error instanceof StartRefusedError) return new EngineError("SERVICE_ERROR", error.problem, { suggestion: error.suggestion });
  if (error.code === "EADDRINUSE") return new EngineError("SERVICE_ERROR", `port ${config.port} on ${config.host} is already in use`, { suggestion: "stop the other server or choose another port with --port or SERVICE_PORT" });
  if (error.code === "EACCES" && error.syscall === "listen") return new EngineError("SERVICE_ERROR", `not allowed to listen on ${config.host}:${config.port}`, { suggestion: "choose a port above 1023 with --port or SERVICE_PORT" });
  if (config.databaseUrl) return new EngineError("SERVICE_ERROR", `cannot open the database named by SERVICE_DATABASE_URL: ${error.message}`, { suggestion: "check the URL (postgres://user:password@host:5432/database) and that the server is running" });
  return new EngineError("SERVICE_ERROR", `cannot open the data directory ${config.dataDir}: ${error.message}`, { suggestion: "set SERVICE_DATA_DIR to a folder the service may write" });
}
