/**
 * One guarded server-side GET, for importing pipelines from other hosts.
 *
 * A URL sent by a client must not turn the service into a proxy into its own network (the previous product
 * fetched anything, cloud metadata at 169.254.169.254 included). So: https only; the host is resolved once
 * and refused if any of its addresses is not public (unless `allowPrivate`, for tests); the connection is
 * pinned to the vetted addresses through a custom `lookup`, so a second DNS answer cannot rebind it, while
 * TLS is still verified against the host name; redirects are refused, not followed; one deadline covers DNS,
 * connect and body; the body is capped while it streams and must be UTF-8.
 *
 * Error messages name the host and path only, never userinfo or the query string.
 */
import { promises as dns, type LookupAddress } from "node:dns";
import { request, type RequestOptions } from "node:https";
import { isIP, type LookupFunction } from "node:net";
import { rootCertificates } from "node:tls";

/** Why a remote fetch was refused or failed. */
export type RemoteFetchReason = "scheme" | "address" | "dns" | "timeout" | "too_large" | "redirect" | "status" | "network";

/** A refused or failed remote fetch; `status` is set for reasons `status` and `redirect`. */
export class RemoteFetchError extends Error {
  constructor(
    readonly reason: RemoteFetchReason,
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = "RemoteFetchError";
  }
}

/** Resolves a host name to all its addresses. */
export type AddressLookup = (hostname: string) => Promise<{ address: string; family: number }[]>;

/** Limits and test hooks of a remote fetch. */
export interface RemoteFetchOptions {
  /** Allow loopback, private and other non-public addresses (tests only). */
  allowPrivate?: boolean;
  /** Deadline for the whole fetch, DNS to last byte (default 10 s). */
  timeoutMs?: number;
  /** Largest body accepted, in bytes (default 1 MiB). */
  maxBytes?: number;
  /** A CA to trust in addition to the usual roots (tests with a self-signed certificate). */
  ca?: string | Buffer;
  /** Host name resolution (default: the system resolver, all addresses). */
  lookup?: AddressLookup;
}

/** The body of a successful fetch. */
export interface RemoteText {
  text: string;
  contentType: string | null;
}

const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_MAX_BYTES = 1024 * 1024;

const systemLookup: AddressLookup = (hostname) => dns.lookup(hostname, { all: true, verbatim: true });

/** Fetches a text document over HTTPS from a public host, within the limits above. */
export async function fetchRemoteText(url: string, options: RemoteFetchOptions = {}): Promise<RemoteText> {
  const target = parseHttpsUrl(url);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const deadline = Date.now() + timeoutMs;
  const addresses = await beforeDeadline(resolveVetted(target, options.lookup ?? systemLookup, options.allowPrivate ?? false), timeoutMs, target);
  return getPinned(target, addresses, {
    remainingMs: Math.max(0, deadline - Date.now()),
    timeoutMs,
    maxBytes: options.maxBytes ?? DEFAULT_MAX_BYTES,
    ca: options.ca,
  });
}

/** The URL as error messages may show it: scheme, host and path, no credentials or query. */
function shown(url: URL): string {
  return `${url.protocol}//${url.host}${url.pathname}`;
}

function parseHttpsUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new RemoteFetchError("scheme", "not a valid URL");
  }
  if (url.protocol !== "https:") throw new RemoteFetchError("scheme", `only https URLs can be fetched, not ${url.protocol}`);
  return url;
}

/** Rejects with a timeout error if `work` has not settled within `timeoutMs`. */
async function beforeDeadline<T>(work: Promise<T>, timeoutMs: number, url: URL): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expiry = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(timeoutError(url, timeoutMs)), timeoutMs);
  });
  try {
    return await Promise.race([work, expiry]);
  } finally {
    clearTimeout(timer);
  }
}

function timeoutError(url: URL, timeoutMs: number): RemoteFetchError {
  return new RemoteFetchError("timeout", `fetching ${shown(url)} took longer than ${timeoutMs} ms`);
}

/** All addresses of the URL's host, each checked; an IP literal is its own single address. */
async function resolveVetted(url: URL, lookup: AddressLookup, allowPrivate: boolean): Promise<LookupAddress[]> {
  const hostname = url.hostname.replace(/^\[(.*)\]$/, "$1");
  let addresses: LookupAddress[];
  const literalFamily = isIP(hostname);
  if (literalFamily !== 0) {
    addresses = [{ address: hostname, family: literalFamily }];
  } else {
    try {
      addresses = await lookup(hostname);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? "lookup failed";
      throw new RemoteFetchError("dns", `could not resolve ${hostname} (${code})`);
    }
    if (addresses.length === 0) throw new RemoteFetchError("dns", `${hostname} has no addresses`);
  }
  if (!allowPrivate) {
    for (const { address } of addresses) {
      const category = nonPublicCategory(address);
      if (category !== null) {
        const what = literalFamily !== 0 ? "it is" : `it resolves to ${address},`;
        throw new RemoteFetchError("address", `refusing to fetch from ${hostname}: ${what} a ${category} address`);
      }
    }
  }
  return addresses;
}

/** A `net` lookup that answers with the vetted addresses only, so the socket cannot reach anything else. */
function pinnedLookup(addresses: LookupAddress[]): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all) callback(null, addresses);
    else {
      const first = addresses[0] as LookupAddress;
      callback(null, first.address, first.family);
    }
  };
}

interface RequestLimits {
  remainingMs: number;
  timeoutMs: number;
  maxBytes: number;
  ca: string | Buffer | undefined;
}

/** The GET itself, over a fresh connection to the vetted addresses. */
function getPinned(url: URL, addresses: LookupAddress[], limits: RequestLimits): Promise<RemoteText> {
  const hostname = url.hostname.replace(/^\[(.*)\]$/, "$1");
  const requestOptions: RequestOptions = {
    method: "GET",
    hostname,
    port: url.port === "" ? 443 : Number(url.port),
    path: `${url.pathname}${url.search}`,
    headers: { host: url.host, accept: "*/*", "accept-encoding": "identity", "user-agent": "strand-import" },
    lookup: pinnedLookup(addresses),
    // SNI and certificate checks use the name; an IP literal is verified against the certificate's IP entries.
    ...(isIP(hostname) === 0 ? { servername: hostname } : {}),
    ...(limits.ca !== undefined ? { ca: [...rootCertificates, limits.ca] } : {}),
    agent: false,
  };
  return new Promise<RemoteText>((resolve, reject) => {
    let settled = false;
    const finish = (outcome: RemoteText | RemoteFetchError): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (outcome instanceof RemoteFetchError) {
        req.destroy();
        reject(outcome);
      } else resolve(outcome);
    };
    const timer = setTimeout(() => finish(timeoutError(url, limits.timeoutMs)), limits.remainingMs);

    const req = request(requestOptions, (response) => {
      const status = response.statusCode ?? 0;
      if (status >= 300 && status < 400) {
        return finish(new RemoteFetchError("redirect", `${shown(url)} answered with a redirect (${status}); redirects are not followed`, status));
      }
      if (status < 200 || status >= 300) {
        return finish(new RemoteFetchError("status", `${shown(url)} answered with status ${status}`, status));
      }
      const declaredLength = Number(response.headers["content-length"]);
      if (Number.isFinite(declaredLength) && declaredLength > limits.maxBytes) {
        return finish(tooLarge(url, limits.maxBytes));
      }
      const chunks: Buffer[] = [];
      let received = 0;
      response.on("data", (chunk: Buffer) => {
        received += chunk.length;
        if (received > limits.maxBytes) return finish(tooLarge(url, limits.maxBytes));
        chunks.push(chunk);
      });
      response.on("end", () => {
        try {
          const text = new TextDecoder("utf-8", { fatal: true }).decode(Buffer.concat(chunks));
          finish({ text, contentType: response.headers["content-type"] ?? null });
        } catch {
          finish(new RemoteFetchError("network", `the body of ${shown(url)} is not valid UTF-8`));
        }
      });
      response.on("error", (error) => finish(networkError(url, error)));
      response.on("close", () => {
        if (!response.complete) finish(new RemoteFetchError("network", `${shown(url)} closed the connection before the body was complete`));
      });
    });
    req.on("error", (error) => finish(networkError(url, error)));
    req.end();
  });
}

function tooLarge(url: URL, maxBytes: number): RemoteFetchError {
  return new RemoteFetchError("too_large", `${shown(url)} is larger than ${maxBytes} bytes`);
}

function networkError(url: URL, error: Error): RemoteFetchError {
  const code = (error as NodeJS.ErrnoException).code;
  return new RemoteFetchError("network", `could not fetch ${shown(url)}: ${code !== undefined ? `${code} ` : ""}${error.message}`);
}

// ---- address classification -------------------------------------------------------------------------------

/** A block of addresses that must not be fetched from, with the word error messages use for it. */
interface AddressBlock {
  prefix: number[];
  bits: number;
  category: string;
}

function v4Block(base: string, bits: number, category: string): AddressBlock {
  return { prefix: ipv4Bytes(base) as number[], bits, category };
}

function v6Block(base: string, bits: number, category: string): AddressBlock {
  return { prefix: ipv6Bytes(base) as number[], bits, category };
}

// IANA's special-purpose registries, restricted to what is not globally reachable (or not meant to be).
const IPV4_BLOCKS: AddressBlock[] = [
  v4Block("0.0.0.0", 8, "unspecified"),
  v4Block("10.0.0.0", 8, "private"),
  v4Block("100.64.0.0", 10, "carrier-grade NAT"),
  v4Block("127.0.0.0", 8, "loopback"),
  v4Block("169.254.0.0", 16, "link-local"),
  v4Block("172.16.0.0", 12, "private"),
  v4Block("192.0.0.0", 24, "IETF protocol"),
  v4Block("192.0.2.0", 24, "documentation"),
  v4Block("192.88.99.0", 24, "6to4 relay"),
  v4Block("192.168.0.0", 16, "private"),
  v4Block("198.18.0.0", 15, "benchmarking"),
  v4Block("198.51.100.0", 24, "documentation"),
  v4Block("203.0.113.0", 24, "documentation"),
  v4Block("224.0.0.0", 4, "multicast"),
  v4Block("255.255.255.255", 32, "broadcast"),
  v4Block("240.0.0.0", 4, "reserved"),
];

const IPV4_MAPPED = v6Block("::ffff:0:0", 96, "IPv4-mapped");
const NAT64 = v6Block("64:ff9b::", 96, "NAT64");
const SIX_TO_FOUR = v6Block("2002::", 16, "6to4");
const GLOBAL_UNICAST = v6Block("2000::", 3, "global unicast");

const IPV6_BLOCKS: AddressBlock[] = [
  v6Block("::", 128, "unspecified"),
  v6Block("::1", 128, "loopback"),
  v6Block("::", 96, "IPv4-compatible"),
  v6Block("64:ff9b:1::", 48, "local NAT64"),
  v6Block("100::", 64, "discard-only"),
  v6Block("2001::", 32, "Teredo"),
  v6Block("2001:10::", 28, "ORCHID"),
  v6Block("2001:20::", 28, "ORCHID"),
  v6Block("2001:db8::", 32, "documentation"),
  v6Block("3fff::", 20, "documentation"),
  v6Block("fc00::", 7, "unique-local"),
  v6Block("fe80::", 10, "link-local"),
  v6Block("fec0::", 10, "site-local"),
  v6Block("ff00::", 8, "multicast"),
];

/** True when an address (IPv4 or IPv6 text) is globally reachable, i.e. safe to fetch from. */
export function isPublicAddress(address: string): boolean {
  return nonPublicCategory(address) === null;
}

/** Null for a public address, otherwise what kind of address it is; text that is no address is "invalid". */
function nonPublicCategory(address: string): string | null {
  const v4 = ipv4Bytes(address);
  if (v4 !== null) return blockOf(v4, IPV4_BLOCKS);
  const v6 = ipv6Bytes(address);
  if (v6 === null) return "invalid";
  // Forms that carry an IPv4 address are judged by it: they reach it through a translator or the v4 stack.
  if (inBlock(v6, IPV4_MAPPED)) return embedded(v6.slice(12), "IPv4-mapped");
  if (inBlock(v6, NAT64)) return embedded(v6.slice(12), "NAT64");
  if (inBlock(v6, SIX_TO_FOUR)) return embedded(v6.slice(2, 6), "6to4");
  const special = blockOf(v6, IPV6_BLOCKS);
  if (special !== null) return special;
  return inBlock(v6, GLOBAL_UNICAST) ? null : "reserved";
}

function embedded(v4: number[], form: string): string | null {
  const category = blockOf(v4, IPV4_BLOCKS);
  return category === null ? null : `${form} ${category}`;
}

function blockOf(bytes: number[], blocks: AddressBlock[]): string | null {
  return blocks.find((block) => inBlock(bytes, block))?.category ?? null;
}

function inBlock(bytes: number[], block: AddressBlock): boolean {
  if (bytes.length !== block.prefix.length) return false;
  for (let bit = 0; bit < block.bits; bit += 8) {
    const index = bit / 8;
    const remaining = Math.min(8, block.bits - bit);
    const mask = (0xff << (8 - remaining)) & 0xff;
    if (((bytes[index] as number) & mask) !== ((block.prefix[index] as number) & mask)) return false;
  }
  return true;
}

/** The four bytes of a dotted-quad IPv4 address, or null. */
function ipv4Bytes(text: string): number[] | null {
  if (isIP(text) !== 4) return null;
  return text.split(".").map(Number);
}

/** The sixteen bytes of an IPv6 address (zone id ignored, embedded dotted quad allowed), or null. */
function ipv6Bytes(text: string): number[] | null {
  const address = text.split("%")[0] ?? "";
  if (isIP(address) !== 6) return null;
  let hex = address;
  let tail: number[] = [];
  const lastColon = address.lastIndexOf(":");
  const last = address.slice(lastColon + 1);
  if (last.includes(".")) {
    const v4 = ipv4Bytes(last);
    if (v4 === null) return null;
    tail = v4;
    hex = `${address.slice(0, lastColon + 1)}0:0`;
  }
  const halves = hex.split("::");
  const groupsOf = (part: string | undefined): string[] => (part ? part.split(":") : []);
  const head = groupsOf(halves[0]);
  const rear = groupsOf(halves[1]);
  const groups = halves.length === 2 ? [...head, ...Array<string>(8 - head.length - rear.length).fill("0"), ...rear] : head;
  if (groups.length !== 8) return null;
  const bytes = groups.flatMap((group) => {
    const value = Number.parseInt(group, 16);
    return [value >> 8, value & 0xff];
  });
  if (tail.length === 4) bytes.splice(12, 4, ...tail);
  return bytes;
}
