/**
 * The guarded remote fetch: refusals that happen before any connection (the address guard itself is tested
 * in tests/engine/public-address.test.ts), and real
 * fetches against a local HTTPS server with a throwaway self-signed certificate made by `openssl`.
 * Without openssl the live-server tests skip, except under STRICT_SERVICES=1, where that is a failure.
 */
import { createServer as createHttpsServer, type Server as HttpsServer } from "node:https";
import type { IncomingMessage, ServerResponse } from "node:http";
import { createServer as createTcpServer, type AddressInfo, type Server as TcpServer, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { selfSignedCertificate } from "../../../support/self-signed-certificate.js";
import { fetchRemoteText, RemoteFetchError, type AddressLookup, type RemoteFetchReason } from "../../../../src/server/domains/collaboration/remote-fetch.js";

const STRICT_SERVICES = process.env.STRICT_SERVICES === "1";

/** The RemoteFetchError a fetch rejects with, failing the test when it succeeds or fails otherwise. */
async function refusal(fetching: Promise<unknown>): Promise<RemoteFetchError> {
  try {
    await fetching;
  } catch (error) {
    if (error instanceof RemoteFetchError) return error;
    throw error;
  }
  throw new Error("the fetch succeeded");
}

/** A lookup answering fixed addresses and counting its calls. */
function fixedLookup(...addresses: string[]): AddressLookup & { calls: string[] } {
  const calls: string[] = [];
  const lookup = async (hostname: string) => {
    calls.push(hostname);
    return addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
  };
  return Object.assign(lookup, { calls });
}

describe("fetchRemoteText refuses before connecting", () => {
  const refusals: [label: string, url: string, reason: RemoteFetchReason][] = [
    ["http://", "http://example.com/p.toml", "scheme"],
    ["ftp://", "ftp://example.com/p.toml", "scheme"],
    ["text that is no URL", "not a url", "scheme"],
    ["loopback 127.0.0.1", "https://127.0.0.1/p.toml", "address"],
    ["loopback in another spelling (127.1)", "https://127.1/p.toml", "address"],
    ["loopback [::1]", "https://[::1]/p.toml", "address"],
    ["IPv4-mapped loopback", "https://[::ffff:127.0.0.1]/p.toml", "address"],
    ["private 10.1.2.3", "https://10.1.2.3/p.toml", "address"],
    ["cloud metadata 169.254.169.254", "https://169.254.169.254/latest/meta-data/", "address"],
    ["cloud metadata in decimal", "https://2852039166/latest/meta-data/", "address"],
    ["unspecified 0.0.0.0", "https://0.0.0.0/p.toml", "address"],
  ];
  it.each(refusals)("%s", async (_label, url, reason) => {
    const lookup = fixedLookup("93.184.216.34");
    const error = await refusal(fetchRemoteText(url, { lookup }));
    expect(error.reason).toBe(reason);
    expect(lookup.calls).toEqual([]);
  });

  it("names the address and its kind", async () => {
    const error = await refusal(fetchRemoteText("https://169.254.169.254/latest/meta-data/"));
    expect(error.message).toBe("refusing to fetch from 169.254.169.254: it is a link-local address");
  });

  it("refuses a host name that resolves to a private address", async () => {
    const lookup = fixedLookup("10.0.0.7");
    const error = await refusal(fetchRemoteText("https://internal.example/p.toml", { lookup }));
    expect(error.reason).toBe("address");
    expect(error.message).toMatch(/internal\.example.*10\.0\.0\.7, a private address/);
    expect(lookup.calls).toEqual(["internal.example"]);
  });

  it("refuses a host name with one public and one private address", async () => {
    const error = await refusal(fetchRemoteText("https://mixed.example/p.toml", { lookup: fixedLookup("93.184.216.34", "127.0.0.1") }));
    expect(error.reason).toBe("address");
    expect(error.message).toMatch(/127\.0\.0\.1, a loopback address/);
  });

  it("refuses a host name resolving to an IPv4-mapped private IPv6 address", async () => {
    const error = await refusal(fetchRemoteText("https://mapped.example/p.toml", { lookup: fixedLookup("2606:4700::1", "::ffff:192.168.0.10") }));
    expect(error.reason).toBe("address");
    expect(error.message).toMatch(/IPv4-mapped private/);
  });

  it("reports a failed lookup as dns", async () => {
    const lookup: AddressLookup = () => Promise.reject(Object.assign(new Error("getaddrinfo ENOTFOUND nowhere.invalid"), { code: "ENOTFOUND" }));
    const error = await refusal(fetchRemoteText("https://nowhere.invalid/p.toml", { lookup }));
    expect(error.reason).toBe("dns");
    expect(error.message).toBe("could not resolve nowhere.invalid (ENOTFOUND)");
  });

  it("reports a lookup with no addresses as dns", async () => {
    const error = await refusal(fetchRemoteText("https://empty.example/p.toml", { lookup: fixedLookup() }));
    expect(error.reason).toBe("dns");
  });

  it("counts a lookup that never answers against the deadline", async () => {
    const started = Date.now();
    const error = await refusal(fetchRemoteText("https://slow-dns.example/p.toml", { lookup: () => new Promise(() => {}), timeoutMs: 100 }));
    expect(error.reason).toBe("timeout");
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it("never shows credentials or the query string in a message", async () => {
    const error = await refusal(fetchRemoteText("https://alice:s3cret@10.0.0.1/p.toml?token=t0ps3cret"));
    expect(error.reason).toBe("address");
    const scheme = await refusal(fetchRemoteText("http://alice:s3cret@example.com/p.toml?token=t0ps3cret"));
    for (const message of [error.message, scheme.message]) {
      expect(message).not.toMatch(/alice|s3cret|token|t0ps3cret/);
    }
  });
});

const certificate = selfSignedCertificate();

// Registered only when it applies, so a normal run without openssl shows the skip reason instead.
if (!certificate && STRICT_SERVICES) {
  describe("live HTTPS server under STRICT_SERVICES=1", () => {
    it("needs openssl", () => {
      throw new Error("openssl is not on PATH under STRICT_SERVICES=1: cannot make the test certificate");
    });
  });
}

describe.skipIf(!certificate)(`fetchRemoteText against a local HTTPS server${certificate ? "" : " (skipped: openssl is not on PATH)"}`, () => {
  const PIPELINE = '[workflow]\nname = "rna"\nversion = "1.0"\n# µ-scale ✓\n';
  let server: HttpsServer;
  let silent: TcpServer;
  let base: string;
  let port: number;
  let silentPort: number;
  let connections = 0;
  let redirectTargetHits = 0;
  const seenHosts: string[] = [];
  const socketClosed = new Map<string, Promise<void>>();
  const silentSockets = new Set<Socket>();

  /** Remembers when the server side of a request's socket closes, so tests can assert the client hung up. */
  function trackClose(name: string, request: IncomingMessage): void {
    socketClosed.set(name, new Promise((resolve) => request.socket.once("close", () => resolve())));
  }

  const routes: Record<string, (request: IncomingMessage, response: ServerResponse) => void> = {
    "/pipeline.toml": (_request, response) => {
      response.writeHead(200, { "content-type": "application/toml; charset=utf-8" });
      response.end(PIPELINE);
    },
    "/redirect": (_request, response) => {
      response.writeHead(302, { location: "/redirect-target" });
      response.end();
    },
    "/redirect-target": (_request, response) => {
      redirectTargetHits += 1;
      response.end(PIPELINE);
    },
    "/missing": (_request, response) => {
      response.writeHead(404, { "content-type": "text/plain" });
      response.end("no such pipeline");
    },
    "/large-declared": (_request, response) => {
      response.writeHead(200, { "content-length": "2048" });
      response.end("x".repeat(2048));
    },
    "/exactly-1024": (_request, response) => {
      response.end("y".repeat(1024));
    },
    "/large-streamed": (request, response) => {
      // No Content-Length: chunks keep coming until the client hangs up.
      trackClose("large-streamed", request);
      response.writeHead(200, { "content-type": "text/plain" });
      const writer = setInterval(() => response.write("z".repeat(256)), 5);
      request.socket.once("close", () => clearInterval(writer));
    },
    "/never-answers": (request) => {
      trackClose("never-answers", request);
    },
    "/trickle": (request, response) => {
      trackClose("trickle", request);
      response.writeHead(200, { "content-type": "text/plain" });
      const writer = setInterval(() => response.write("."), 50);
      request.socket.once("close", () => clearInterval(writer));
    },
    "/not-utf8": (_request, response) => {
      response.end(Buffer.from([0x6e, 0x61, 0x6d, 0x65, 0x20, 0xff, 0xfe, 0x0a]));
    },
    "/cut-short": (request, response) => {
      response.writeHead(200, { "content-length": "100" });
      response.write("only a part");
      setTimeout(() => request.socket.destroy(), 20);
    },
  };

  beforeAll(async () => {
    if (!certificate) return;
    server = createHttpsServer({ key: certificate.key, cert: certificate.cert }, (request, response) => {
      seenHosts.push(request.headers.host ?? "");
      const route = routes[new URL(request.url ?? "/", "https://localhost").pathname];
      if (route) route(request, response);
      else {
        response.writeHead(500);
        response.end();
      }
    });
    server.on("connection", () => (connections += 1));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
    base = `https://127.0.0.1:${port}`;
    // Accepts TCP connections and never says a word, not even the TLS handshake.
    silent = createTcpServer((socket) => {
      silentSockets.add(socket);
      socket.resume(); // read (and ignore) the ClientHello, so the client's hang-up is seen
      socket.once("close", () => silentSockets.delete(socket));
    });
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    silentPort = (silent.address() as AddressInfo).port;
  });

  afterAll(async () => {
    if (!certificate) return;
    server.closeAllConnections();
    for (const socket of silentSockets) socket.destroy();
    await Promise.all([new Promise((resolve) => server.close(resolve)), new Promise((resolve) => silent.close(resolve))]);
  });

  /** The fetch options of a test against the local server. */
  function local(extra: Parameters<typeof fetchRemoteText>[1] = {}): Parameters<typeof fetchRemoteText>[1] {
    return { allowPrivate: true, ca: certificate?.cert, ...extra };
  }

  /** Resolves once the named request's socket has closed on the server, or fails after a second. */
  async function expectClosed(name: string): Promise<void> {
    const closed = socketClosed.get(name);
    expect(closed, `the server saw no ${name} request`).toBeDefined();
    await Promise.race([closed, new Promise((_, reject) => setTimeout(() => reject(new Error(`${name}: the socket was left open`)), 1000))]);
  }

  it("returns a 200 body with its content type", async () => {
    await expect(fetchRemoteText(`${base}/pipeline.toml`, local())).resolves.toEqual({ text: PIPELINE, contentType: "application/toml; charset=utf-8" });
  });

  it("connects to the vetted address of a host name, once resolved, verifying TLS against the name", async () => {
    const lookup = fixedLookup("127.0.0.1");
    const result = await fetchRemoteText(`https://localhost:${port}/pipeline.toml`, local({ lookup }));
    expect(result.text).toBe(PIPELINE);
    expect(lookup.calls).toEqual(["localhost"]);
    expect(seenHosts.at(-1)).toBe(`localhost:${port}`);
  });

  it("checks the certificate against the host name, not the pinned address", async () => {
    const error = await refusal(fetchRemoteText(`https://pipelines.example:${port}/pipeline.toml`, local({ lookup: fixedLookup("127.0.0.1") })));
    expect(error.reason).toBe("network");
    expect(error.message).toMatch(/ERR_TLS_CERT_ALTNAME_INVALID/);
  });

  it("refuses an untrusted certificate", async () => {
    const error = await refusal(fetchRemoteText(`${base}/pipeline.toml`, { allowPrivate: true }));
    expect(error.reason).toBe("network");
    expect(error.message).toMatch(/self-signed|SELF_SIGNED/i);
  });

  it("refuses the local server without allowPrivate, before any connection", async () => {
    const before = connections;
    const direct = await refusal(fetchRemoteText(`${base}/pipeline.toml`, { ca: certificate?.cert }));
    const named = await refusal(fetchRemoteText(`https://localhost:${port}/pipeline.toml`, { ca: certificate?.cert, lookup: fixedLookup("127.0.0.1") }));
    expect([direct.reason, named.reason]).toEqual(["address", "address"]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(connections).toBe(before);
  });

  it("refuses a redirect without following it", async () => {
    const error = await refusal(fetchRemoteText(`${base}/redirect`, local()));
    expect(error.reason).toBe("redirect");
    expect(error.status).toBe(302);
    expect(error.message).toMatch(/\(302\)/);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(redirectTargetHits).toBe(0);
  });

  it("refuses a 404 with its status", async () => {
    const error = await refusal(fetchRemoteText(`${base}/missing`, local()));
    expect(error.reason).toBe("status");
    expect(error.status).toBe(404);
    expect(error.message).toBe(`${base}/missing answered with status 404`);
  });

  it("refuses a declared Content-Length over the cap", async () => {
    const error = await refusal(fetchRemoteText(`${base}/large-declared`, local({ maxBytes: 1024 })));
    expect(error.reason).toBe("too_large");
    expect(error.message).toMatch(/larger than 1024 bytes/);
  });

  it("accepts a body of exactly the cap", async () => {
    const result = await fetchRemoteText(`${base}/exactly-1024`, local({ maxBytes: 1024 }));
    expect(result.text).toHaveLength(1024);
  });

  it("stops a streamed body without Content-Length as soon as it passes the cap", async () => {
    const error = await refusal(fetchRemoteText(`${base}/large-streamed`, local({ maxBytes: 1024 })));
    expect(error.reason).toBe("too_large");
    await expectClosed("large-streamed");
  });

  it("times out on a server that accepts and never speaks", async () => {
    const started = Date.now();
    const error = await refusal(fetchRemoteText(`https://127.0.0.1:${silentPort}/pipeline.toml`, local({ timeoutMs: 300 })));
    expect(error.reason).toBe("timeout");
    expect(error.message).toMatch(/longer than 300 ms/);
    expect(Date.now() - started).toBeLessThan(2000);
    await expect.poll(() => silentSockets.size, { timeout: 1000 }).toBe(0);
  });

  it("times out on a request that is never answered, and hangs up", async () => {
    const started = Date.now();
    const error = await refusal(fetchRemoteText(`${base}/never-answers`, local({ timeoutMs: 300 })));
    expect(error.reason).toBe("timeout");
    expect(Date.now() - started).toBeLessThan(2000);
    await expectClosed("never-answers");
  });

  it("times out on a body that never ends: the deadline covers the body too", async () => {
    const started = Date.now();
    const error = await refusal(fetchRemoteText(`${base}/trickle`, local({ timeoutMs: 300 })));
    expect(error.reason).toBe("timeout");
    expect(Date.now() - started).toBeLessThan(2000);
    await expectClosed("trickle");
  });

  it("refuses a body that is not UTF-8 (reason network)", async () => {
    const error = await refusal(fetchRemoteText(`${base}/not-utf8`, local()));
    expect(error.reason).toBe("network");
    expect(error.message).toMatch(/not valid UTF-8/);
  });

  it("reports a body cut short as network", async () => {
    const error = await refusal(fetchRemoteText(`${base}/cut-short`, local()));
    expect(error.reason).toBe("network");
  });

  it("reports a refused connection as network", async () => {
    const closed = createTcpServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const freePort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const error = await refusal(fetchRemoteText(`https://127.0.0.1:${freePort}/pipeline.toml`, local()));
    expect(error.reason).toBe("network");
    expect(error.message).toMatch(/ECONNREFUSED/);
  });
});
