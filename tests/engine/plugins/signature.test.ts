/**
 * Plugin signatures below the HTTP layer: the RFC 8032 Ed25519 test vectors through the module the service
 * and the command line sign and verify with, the canonical JSON the signature covers (independent of key
 * order, RFC 8785 numbers and escapes), and the semantic-version ranges of strand_version.
 */
import { describe, expect, it } from "vitest";
import { canonicalJson, CanonicalJsonError } from "../../../src/engine/plugins/canonical-json.js";
import { publicKeyOf, signBytes, signedBytes, signManifest, verifyBytes } from "../../../src/engine/plugins/signature.js";
import { compareSemVer, parseSemVer, satisfies, VersionRangeError } from "../../../src/engine/plugins/version-range.js";

const hex = (text: string) => Uint8Array.from(Buffer.from(text, "hex"));
const toHex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");

/** RFC 8032 section 7.1, TEST 1 to 3. */
const RFC8032_VECTORS = [
  {
    name: "TEST 1 (empty message)",
    secret: "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60",
    public: "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a",
    message: "",
    signature: "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b",
  },
  {
    name: "TEST 2 (one byte)",
    secret: "4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb",
    public: "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c",
    message: "72",
    signature: "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00",
  },
  {
    name: "TEST 3 (two bytes)",
    secret: "c5aa8df43f9f837bedb7442f31dcb7b166d38535076f094b85ce3a2e0b4458f7",
    public: "fc51cd8e6218a1a38da47ed00230f0580816ed13ba3303ac5deb911548908025",
    message: "af82",
    signature: "6291d657deec24024827e69c3abe01a30ce548a284743a445e3680d7db5ac3ac18ff9b538d16f290ae67f760984dc6594a7c15e9716ed28dc027beceea1ec40a",
  },
];

describe("Ed25519 (RFC 8032 section 7.1)", () => {
  for (const vector of RFC8032_VECTORS) {
    it(`${vector.name}: derives the public key, signs byte for byte and verifies`, () => {
      expect(toHex(publicKeyOf(hex(vector.secret)))).toBe(vector.public);
      expect(toHex(signBytes(hex(vector.message), hex(vector.secret)))).toBe(vector.signature);
      expect(verifyBytes(hex(vector.signature), hex(vector.message), hex(vector.public))).toBe(true);
    });

    it(`${vector.name}: a changed message, signature or key does not verify`, () => {
      const signature = hex(vector.signature);
      expect(verifyBytes(signature, new Uint8Array([...hex(vector.message), 0]), hex(vector.public))).toBe(false);
      const flipped = signature.slice();
      flipped[5]! ^= 1;
      expect(verifyBytes(flipped, hex(vector.message), hex(vector.public))).toBe(false);
      const other = RFC8032_VECTORS.find((candidate) => candidate !== vector)!;
      expect(verifyBytes(signature, hex(vector.message), hex(other.public))).toBe(false);
      expect(verifyBytes(signature.slice(0, 63), hex(vector.message), hex(vector.public))).toBe(false);
    });
  }

  it("signs a manifest over the canonical JSON of everything but its signature", () => {
    const secret = hex(RFC8032_VECTORS[0]!.secret);
    const signed = signManifest({ version: "1.0.0", name: "x", signature: { stale: true } }, secret, "ci");
    const signature = signed.signature as Record<string, string>;
    expect(signature).toMatchObject({ algorithm: "ed25519", key_id: "ci", public_key: Buffer.from(hex(RFC8032_VECTORS[0]!.public)).toString("base64") });
    expect(new TextDecoder().decode(signedBytes(signed))).toBe('{"name":"x","version":"1.0.0"}');
    expect(verifyBytes(Buffer.from(signature.value!, "base64"), signedBytes(signed), publicKeyOf(secret))).toBe(true);
  });
});

describe("canonical JSON (RFC 8785 style)", () => {
  it("does not depend on key order, at any depth", () => {
    const a = { name: "p", nested: { b: 1, a: [{ y: 2, x: 1 }] }, version: "1.0.0" };
    const b = { version: "1.0.0", nested: { a: [{ x: 1, y: 2 }], b: 1 }, name: "p" };
    expect(canonicalJson(a)).toBe(canonicalJson(b));
    expect(canonicalJson(a)).toBe('{"name":"p","nested":{"a":[{"x":1,"y":2}],"b":1},"version":"1.0.0"}');
  });

  it("sorts keys by UTF-16 code units and writes numbers and strings as JSON does", () => {
    expect(canonicalJson({ "\u20ac": 1, "\r": 2, "1": 3, a: 4, "\ud83d\ude00": 5, A: 6 })).toBe('{"\\r":2,"1":3,"A":6,"a":4,"€":1,"😀":5}');
    expect(canonicalJson([1e21, 1e-7, -0, 0.1 + 0.2, 333333333.3333333, 4.5, 1.0])).toBe("[1e+21,1e-7,0,0.30000000000000004,333333333.3333333,4.5,1]");
    expect(canonicalJson({ s: 'quote " backslash \\ tab \t control \u0001 é' })).toBe('{"s":"quote \\" backslash \\\\ tab \\t control \\u0001 é"}');
  });

  it("refuses what has no canonical form", () => {
    expect(() => canonicalJson({ bad: "\ud800" })).toThrow(CanonicalJsonError);
    expect(() => canonicalJson({ n: Number.NaN })).toThrow(/finite/);
    let deep: unknown = 1;
    for (let i = 0; i < 100; i++) deep = [deep];
    expect(() => canonicalJson(deep)).toThrow(/deeper/);
  });
});

describe("strand_version ranges", () => {
  const admits = (range: string, version: string) => satisfies(parseSemVer(version)!, range);

  it("orders versions by semver precedence", () => {
    const sorted = ["1.0.0-alpha", "1.0.0-alpha.1", "1.0.0-alpha.beta", "1.0.0-beta", "1.0.0-beta.2", "1.0.0-beta.11", "1.0.0-rc.1", "1.0.0"];
    for (let i = 1; i < sorted.length; i++) expect(compareSemVer(parseSemVer(sorted[i - 1]!)!, parseSemVer(sorted[i]!)!)).toBeLessThan(0);
    expect(parseSemVer("1.0")).toBeNull();
    expect(parseSemVer("01.0.0")).toBeNull();
    expect(parseSemVer("1.2.3+build.5")).not.toBeNull();
  });

  it("understands caret, tilde, x-ranges, comparators, hyphens and alternatives", () => {
    expect(admits("^0.1.0", "0.1.5")).toBe(true);
    expect(admits("^0.1.0", "0.2.0")).toBe(false);
    expect(admits("^1.2.3", "1.9.0")).toBe(true);
    expect(admits("^1.2.3", "2.0.0")).toBe(false);
    expect(admits("^0.0.3", "0.0.4")).toBe(false);
    expect(admits("~1.2.3", "1.2.9")).toBe(true);
    expect(admits("~1.2.3", "1.3.0")).toBe(false);
    expect(admits("1.x", "1.99.0")).toBe(true);
    expect(admits("1.2.*", "1.3.0")).toBe(false);
    expect(admits("*", "0.1.0")).toBe(true);
    expect(admits(">=0.1.0 <0.2.0", "0.1.0")).toBe(true);
    expect(admits(">= 0.2.0", "0.1.0")).toBe(false);
    expect(admits("<0.1", "0.0.9")).toBe(true);
    expect(admits(">0.1", "0.1.9")).toBe(false);
    expect(admits("<=0.1", "0.1.9")).toBe(true);
    expect(admits("0.0.1 - 0.1", "0.1.7")).toBe(true);
    expect(admits("0.0.1 - 0.1.0", "0.1.7")).toBe(false);
    expect(admits("^2.0.0 || ~0.1.0", "0.1.3")).toBe(true);
    expect(admits("=0.1.0", "0.1.0")).toBe(true);
  });

  it("admits a pre-release only where the range names one of the same version", () => {
    expect(admits("^1.0.0", "1.2.0-beta.1")).toBe(false);
    expect(admits(">=1.2.0-beta.0 <2", "1.2.0-beta.1")).toBe(true);
    expect(admits(">=1.2.0-beta.0 <2", "1.3.0-beta.1")).toBe(false);
  });

  it("refuses what is not a range", () => {
    expect(() => parseRangeOf("latest")).toThrow(VersionRangeError);
    expect(() => parseRangeOf(">=")).toThrow(VersionRangeError);
    expect(() => parseRangeOf("1.2.3.4")).toThrow(VersionRangeError);
  });
});

function parseRangeOf(range: string): boolean {
  return satisfies(parseSemVer("0.1.0")!, range);
}
