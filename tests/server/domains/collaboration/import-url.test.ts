/**
 * Import URLs: the accepted forms (strand+https and oxo+https share links, toml+https file locations) and the refusal,
 * with a message naming the problem, of everything else.
 */
import { describe, expect, it } from "vitest";
import { InvalidImportUrl, isSameHost, parseImportUrl } from "../../../../src/server/domains/collaboration/import-url.js";

/** The InvalidImportUrl thrown for `raw`, failing the test when it is accepted. */
function refusal(raw: string): InvalidImportUrl {
  try {
    parseImportUrl(raw);
  } catch (error) {
    if (error instanceof InvalidImportUrl) return error;
    throw error;
  }
  throw new Error(`accepted: ${raw}`);
}

describe("parseImportUrl accepts", () => {
  it("a share link", () => {
    expect(parseImportUrl("strand+https://strand.example.org/share/AbC_12-x")).toEqual({
      kind: "share",
      server: "strand",
      host: "strand.example.org",
      token: "AbC_12-x",
      fetchUrl: "https://strand.example.org/api/share/AbC_12-x",
    });
  });

  it("a share link with a port, lower-casing the host and the scheme", () => {
    expect(parseImportUrl("STRAND+HTTPS://Strand.Example.ORG:8443/share/t")).toEqual({
      kind: "share",
      server: "strand",
      host: "strand.example.org:8443",
      token: "t",
      fetchUrl: "https://strand.example.org:8443/api/share/t",
    });
  });

  it("a share link on an IPv6 literal, and drops the default port", () => {
    expect(parseImportUrl("strand+https://[2001:DB8::1]:443/share/t")).toMatchObject({ host: "[2001:db8::1]", fetchUrl: "https://[2001:db8::1]/api/share/t" });
  });

  it("an oxo-flow share link, whose landing is at the same /api/share/<token> address", () => {
    expect(parseImportUrl("oxo+https://Flow.Lab.example:3000/share/6f1c2a9e-8b7d-4c3e-9a1f-0e2d3c4b5a69")).toEqual({
      kind: "share",
      server: "oxo-flow",
      host: "flow.lab.example:3000",
      token: "6f1c2a9e-8b7d-4c3e-9a1f-0e2d3c4b5a69",
      fetchUrl: "https://flow.lab.example:3000/api/share/6f1c2a9e-8b7d-4c3e-9a1f-0e2d3c4b5a69",
    });
    expect(parseImportUrl("OXO+HTTPS://flow.lab.example/share/t")).toMatchObject({ server: "oxo-flow", fetchUrl: "https://flow.lab.example/api/share/t" });
  });

  it("a token of 128 characters", () => {
    const token = "a".repeat(128);
    expect(parseImportUrl(`strand+https://h.example/share/${token}`)).toMatchObject({ kind: "share", token });
  });

  it("a toml location, keeping path and query and dropping the fragment", () => {
    expect(parseImportUrl("toml+https://raw.example.com/lab/pipelines/rna.toml?ref=main#top")).toEqual({
      kind: "toml",
      fetchUrl: "https://raw.example.com/lab/pipelines/rna.toml?ref=main",
    });
  });

  it("a toml location with only a host", () => {
    expect(parseImportUrl("toml+https://files.example.com")).toEqual({ kind: "toml", fetchUrl: "https://files.example.com/" });
  });

  it("an internationalised host name, as punycode", () => {
    expect(parseImportUrl("toml+https://bücher.example/p.toml")).toEqual({ kind: "toml", fetchUrl: "https://xn--bcher-kva.example/p.toml" });
  });
});

describe("parseImportUrl refuses", () => {
  const cases: [label: string, raw: string, message: RegExp][] = [
    ["an unknown scheme", "galaxy+https://h.example/share/t", /unknown import URL scheme "galaxy\+https"/],
    ["oxo+http (the predecessor accepted it; only https is fetched)", "oxo+http://h.example/share/t", /"oxo\+http" is not allowed: only https/],
    ["an oxo-flow share path that is not /share/<token>", "oxo+https://h.example/api/share/t", /exactly \/share\/<token>/],
    ["an oxo-flow share link with user info", "oxo+https://admin@h.example/share/t", /user name or password/],
    ["a plain https URL", "https://h.example/p.toml", /plain https:\/\/ URL is not an import URL/],
    ["a plain http URL", "http://h.example/p.toml", /plain http:\/\/ URL/],
    ["strand+http", "strand+http://h.example/share/t", /"strand\+http" is not allowed: only https/],
    ["toml+http", "toml+http://h.example/p.toml", /"toml\+http" is not allowed: only https/],
    ["no scheme", "h.example/share/t", /does not start with a scheme/],
    ["a scheme without //", "toml+https:h.example/p.toml", /does not start with a scheme/],
    ["an empty string", "", /empty/],
    ["a missing host", "toml+https:///p.toml", /no host/],
    ["a missing host before a query", "toml+https://?x=1", /no host/],
    ["userinfo", "toml+https://user:pass@h.example/p.toml", /user name or password/],
    ["a user name only", "strand+https://user@h.example/share/t", /user name or password/],
    ["an empty userinfo", "toml+https://@h.example/p.toml", /user name or password/],
    ["a share path that is not /share/<token>", "strand+https://h.example/shares/t", /exactly \/share\/<token>/],
    ["a share path with a trailing slash", "strand+https://h.example/share/t/", /exactly \/share\/<token>/],
    ["a share path with dot segments", "strand+https://h.example/x/../share/t", /exactly \/share\/<token>/],
    ["a share path with encoded dots", "strand+https://h.example/share/%2e%2e", /exactly \/share\/<token>/],
    ["a share path with backslashes", "strand+https://h.example\\share\\t", /exactly \/share\/<token>/],
    ["a share link with a query", "strand+https://h.example/share/t?x=1", /exactly \/share\/<token>/],
    ["a share link with a fragment", "strand+https://h.example/share/t#x", /exactly \/share\/<token>/],
    ["a share link without a token", "strand+https://h.example/share/", /exactly \/share\/<token>/],
    ["a token with other characters", "strand+https://h.example/share/a.b", /exactly \/share\/<token>/],
    ["a token over 128 characters", `strand+https://h.example/share/${"a".repeat(129)}`, /exactly \/share\/<token>/],
    ["a space", "toml+https://h.example/my file.toml", /whitespace or control/],
    ["a leading space", " toml+https://h.example/p.toml", /whitespace or control/],
    ["a trailing newline", "toml+https://h.example/p.toml\n", /whitespace or control/],
    ["a tab", "toml+https://h.example/\tp.toml", /whitespace or control/],
    ["a NUL", "toml+https://h.example\u0000.evil/p.toml", /whitespace or control/],
    ["a DEL", "toml+https://h.example/\u007fp.toml", /whitespace or control/],
    ["a no-break space", "toml+https://h.example/\u00a0p.toml", /whitespace or control/],
    ["an invalid host", "toml+https://exa<mple.com/p.toml", /not a valid URL/],
    ["an invalid port", "toml+https://h.example:99999/p.toml", /not a valid URL/],
    ["an over-long URL", `toml+https://h.example/${"a".repeat(2048)}`, /too long \(2071 characters, at most 2048\)/],
  ];
  it.each(cases)("%s", (_label, raw, message) => {
    const error = refusal(raw);
    expect(error.message).toMatch(message);
    expect(error.suggestion.length).toBeGreaterThan(0);
  });

  it("suggests the https variant of a near-miss scheme", () => {
    expect(refusal("toml+http://h.example/p.toml").suggestion).toBe("use toml+https://");
    expect(refusal("oxo+http://h.example/share/t").suggestion).toBe("use oxo+https://");
  });

  it("suggests the oxo+ prefix for a share link copied from an oxo-flow page (which drops it)", () => {
    expect(refusal("https://flow.lab.example/share/6f1c2a9e").suggestion).toBe(
      "for a share link copied from an oxo-flow page, write oxo+https://flow.lab.example/share/6f1c2a9e; for a strand share, strand+https://flow.lab.example/share/6f1c2a9e",
    );
  });

  it("accepts exactly 2048 characters", () => {
    const prefix = "toml+https://h.example/";
    const raw = prefix + "a".repeat(2048 - prefix.length);
    expect(raw).toHaveLength(2048);
    expect(parseImportUrl(raw).kind).toBe("toml");
  });
});

describe("isSameHost", () => {
  it("compares case-insensitively", () => {
    expect(isSameHost("strand.example.org", ["Strand.Example.ORG"])).toBe(true);
  });

  it("treats port 443 as no port, on either side", () => {
    expect(isSameHost("strand.example.org", ["strand.example.org:443"])).toBe(true);
    expect(isSameHost("strand.example.org:443", ["strand.example.org"])).toBe(true);
  });

  it("keeps other ports apart", () => {
    expect(isSameHost("strand.example.org:8443", ["strand.example.org"])).toBe(false);
    expect(isSameHost("strand.example.org:8443", ["other.example", "strand.example.org:8443"])).toBe(true);
  });

  it("ignores a trailing dot on the name", () => {
    expect(isSameHost("strand.example.org.", ["strand.example.org"])).toBe(true);
    expect(isSameHost("strand.example.org.:8443", ["strand.example.org:8443"])).toBe(true);
  });

  it("compares IPv6 literals in their normal form", () => {
    expect(isSameHost("[2001:db8::1]", ["[2001:DB8:0:0:0:0:0:1]:443"])).toBe(true);
  });

  it("is false for other hosts and for no own hosts", () => {
    expect(isSameHost("evil.example", ["strand.example.org"])).toBe(false);
    expect(isSameHost("strand.example.org.evil.example", ["strand.example.org"])).toBe(false);
    expect(isSameHost("strand.example.org", [])).toBe(false);
  });

  it("matches a host parsed from a share link", () => {
    const source = parseImportUrl("strand+https://STRAND.example.org:443/share/t");
    expect(source.kind === "share" && isSameHost(source.host, ["strand.example.org"])).toBe(true);
  });
});
