/**
 * The one guard for requests the engine or the service make to addresses a pipeline or a client chose
 * (pipeline imports, webhooks): which addresses are public, and a host's addresses resolved once, each
 * vetted, then pinned into the connection through a custom `lookup`, so a second DNS answer cannot rebind it
 * to the loopback or the private network (the previous product fetched anything, cloud metadata at
 * 169.254.169.254 included).
 */
import { promises as dns, type LookupAddress } from "node:dns";
import { isIP, type LookupFunction } from "node:net";

/** Resolves a host name to all its addresses. */
export type AddressLookup = (hostname: string) => Promise<{ address: string; family: number }[]>;

/** The system resolver, all addresses. */
export const systemLookup: AddressLookup = (hostname) => dns.lookup(hostname, { all: true, verbatim: true });

/** A host that may not be reached: it does not resolve (`dns`), or an address of it is not public (`address`). */
export class AddressRefusal extends Error {
  constructor(
    readonly reason: "dns" | "address",
    message: string,
    /** For `address`: the kind of address ("loopback", "private", …). */
    readonly category?: string,
  ) {
    super(message);
    this.name = "AddressRefusal";
  }
}

/**
 * All addresses of `hostname` (an IP literal, brackets allowed, is its own single address), each one public
 * unless `allowPrivate`. Messages name the host (callers that must not show it use `reason` and `category`).
 */
export async function vetHost(hostname: string, options: { lookup?: AddressLookup; allowPrivate?: boolean } = {}): Promise<LookupAddress[]> {
  const host = hostname.replace(/^\[(.*)\]$/, "$1");
  let addresses: LookupAddress[];
  const literalFamily = isIP(host);
  if (literalFamily !== 0) {
    addresses = [{ address: host, family: literalFamily }];
  } else {
    try {
      addresses = await (options.lookup ?? systemLookup)(host);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? "lookup failed";
      throw new AddressRefusal("dns", `could not resolve ${host} (${code})`);
    }
    if (addresses.length === 0) throw new AddressRefusal("dns", `${host} has no addresses`);
  }
  if (!options.allowPrivate) {
    for (const { address } of addresses) {
      const category = nonPublicCategory(address);
      if (category !== null) {
        const what = literalFamily !== 0 ? "it is" : `it resolves to ${address},`;
        throw new AddressRefusal("address", `${host}: ${what} a ${category} address`, category);
      }
    }
  }
  return addresses;
}

/** A `net` lookup that answers with the vetted addresses only, so the socket cannot reach anything else. */
export function pinnedLookup(addresses: LookupAddress[]): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all) callback(null, addresses);
    else {
      const first = addresses[0] as LookupAddress;
      callback(null, first.address, first.family);
    }
  };
}


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
export function nonPublicCategory(address: string): string | null {
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
