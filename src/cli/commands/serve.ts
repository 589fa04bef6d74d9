/**
 * `strand serve`: the HTTP service (API and browser app) on 127.0.0.1:8080 by default.
 */
import { serviceConfig } from "../../server/config.js";
import { startService } from "../../server/serve.js";
import { optionValue, UsageError, type OptionSpec } from "../args.js";
import { packageVersion } from "../main.js";
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
    const service = await startService(config, packageVersion());
    output.err(`strand ${packageVersion()} serving on ${service.url} (mode ${config.mode}); API description at ${service.url}/api/openapi.json`);
    await new Promise<void>((resolve) => {
      const stop = () => {
        output.err("stopping");
        void service.close().then(resolve);
      };
      process.once("SIGINT", stop);
      process.once("SIGTERM", stop);
    });
    return 0;
  },
};
