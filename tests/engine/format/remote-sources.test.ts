/**
 * URL includes and `repo` modules: fetched wherever the pipeline says on a person's own machine, and from
 * public addresses only under a shared service (`STRAND_REMOTE_SOURCES=public`, which the service sets for its
 * runs): an include on the loopback is refused without being contacted, and a redirect is never followed.
 */
import { createServer, type Server } from "node:http";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { loadPipeline } from "../../../src/engine/format/load.js";
import { repositoryHost, vetRepository } from "../../../src/engine/format/remote-sources.js";
import { engineError, removeTempDirs, tempDir, writeFile } from "../../support/temp-workspace.js";

const requests: string[] = [];
let server: Server;
let base = "";

beforeAll(async () => {
  server = createServer((request, response) => {
    requests.push(request.url ?? "");
    if (request.url === "/moved.toml") {
      response.writeHead(307, { location: "/module.toml" }).end();
      return;
    }
    response.writeHead(200, { "content-type": "text/plain" }).end('[workflow]\nname = "module"\n\n[[rules]]\nname = "remote_rule"\noutput = ["r.txt"]\nshell = "touch r.txt"\n');
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});

afterAll(() => {
  server.close();
  removeTempDirs();
});

afterEach(() => {
  delete process.env.STRAND_REMOTE_SOURCES;
  requests.length = 0;
});

const main = (include: string) => `[workflow]\nname = "main"\n\n[[include]]\n${include}\n`;

describe("URL includes", () => {
  it("are fetched from any address on one's own machine", async () => {
    const pipeline = await loadPipeline(writeFile(tempDir(), "main.oxoflow", main(`path = "${base}/module.toml"`)));
    expect(pipeline.rules.map((rule) => rule.name)).toEqual(["remote_rule"]);
    expect(requests).toEqual(["/module.toml"]);
  });

  it("never follow a redirect", async () => {
    const error = await engineError(loadPipeline(writeFile(tempDir(), "main.oxoflow", main(`path = "${base}/moved.toml"`))));
    expect(error.code).toBe("INCLUDE_ERROR");
    expect(error.message).toMatch(/HTTP 307 \(a redirect, which is never followed/);
    expect(requests).toEqual(["/moved.toml"]);
  });

  it("are refused on the loopback under a shared service, which never contacts it", async () => {
    process.env.STRAND_REMOTE_SOURCES = "public";
    const error = await engineError(loadPipeline(writeFile(tempDir(), "main.oxoflow", main(`path = "${base}/module.toml"`))));
    expect(error.code).toBe("INCLUDE_ERROR");
    expect(error.message).toContain("is not fetched: 127.0.0.1: it is a loopback address");
    expect(error.finding.suggestion).toMatch(/public addresses only/);
    expect(requests).toEqual([]);
    // Cloud metadata the same way.
    const metadata = await engineError(loadPipeline(writeFile(tempDir(), "main.oxoflow", main('path = "http://169.254.169.254/latest/meta-data/"'))));
    expect(metadata.message).toMatch(/link-local address/);
  });

  it("repo modules on a private host are refused under a shared service before git runs", async () => {
    process.env.STRAND_REMOTE_SOURCES = "public";
    const error = await engineError(loadPipeline(writeFile(tempDir(), "main.oxoflow", main(`path = "m.toml"\nrepo = "${base}/modules.git"\nref = "v1"`)), { cacheDir: tempDir() }));
    expect(error.code).toBe("INCLUDE_ERROR");
    expect(error.message).toMatch(/module .* is not fetched: 127\.0\.0\.1: it is a loopback address/);
    expect(requests).toEqual([]);
  });

  it("repo modules under a shared service go over https or http only, held to the vetted addresses", async () => {
    for (const repo of ["git@github.com:lab/qc.git", "ssh://git@93.184.216.34/qc.git", "git://93.184.216.34/qc.git"]) {
      const error = await engineError(vetRepository(repo, true));
      expect(error.message, repo).toMatch(/clones modules over https \(or http\) only/);
    }
    expect(await vetRepository("https://93.184.216.34/lab/qc.git", true)).toEqual({ resolve: ["93.184.216.34:443:93.184.216.34"] });
    expect(await vetRepository("http://[2606:2800:220:1::1]:8080/qc.git", true)).toEqual({ resolve: ["2606:2800:220:1::1:8080:[2606:2800:220:1::1]"] });
    // Local repositories are what the sandbox shows; one's own machine is not held at all.
    expect(await vetRepository("/srv/git/qc.git", true)).toBeUndefined();
    expect(await vetRepository("git@github.com:lab/qc.git", false)).toBeUndefined();
  });

  it("reads a repository's host from every address form git takes", () => {
    expect(repositoryHost("https://git.lab.example/qc.git")).toBe("git.lab.example");
    expect(repositoryHost("ssh://git@10.0.0.5:2222/qc.git")).toBe("10.0.0.5");
    expect(repositoryHost("git@github.com:lab/qc.git")).toBe("github.com");
    expect(repositoryHost("/srv/git/qc.git")).toBeUndefined();
    expect(repositoryHost("file:///srv/git/qc.git")).toBeUndefined();
    expect(repositoryHost("../qc")).toBeUndefined();
  });
});
