/**
 * The shared address guard of imports and webhooks: which addresses are public (IANA's special-purpose
 * registries, and IPv6 forms that carry an IPv4 address judged by it).
 */
import { describe, expect, it } from "vitest";
import { isPublicAddress } from "../../src/engine/public-address.js";

describe("isPublicAddress", () => {
  const publicAddresses = [
    "8.8.8.8",
    "1.1.1.1",
    "93.184.216.34",
    "100.63.255.255",
    "100.128.0.0",
    "172.15.255.255",
    "172.32.0.0",
    "169.253.255.255",
    "192.167.255.255",
    "223.255.255.255",
    "2606:4700:4700::1111",
    "2001:4860:4860::8888",
    "2a00:1450:4001:80b::200e",
    "::ffff:8.8.8.8",
    "::ffff:808:808",
    "64:ff9b::8.8.8.8",
    "2002:808:808::1",
  ];
  const nonPublicAddresses = [
    ["127.0.0.1", "loopback"],
    ["127.255.255.254", "loopback"],
    ["0.0.0.0", "unspecified"],
    ["0.1.2.3", "unspecified"],
    ["10.0.0.1", "private"],
    ["10.255.255.255", "private"],
    ["172.16.0.1", "private"],
    ["172.31.255.255", "private"],
    ["192.168.1.1", "private"],
    ["169.254.169.254", "link-local (cloud metadata)"],
    ["169.254.0.1", "link-local"],
    ["100.64.0.1", "carrier-grade NAT"],
    ["100.127.255.255", "carrier-grade NAT"],
    ["192.0.0.8", "IETF protocol"],
    ["192.0.2.1", "documentation"],
    ["198.18.0.1", "benchmarking"],
    ["198.51.100.7", "documentation"],
    ["203.0.113.9", "documentation"],
    ["224.0.0.1", "multicast"],
    ["239.255.255.250", "multicast"],
    ["240.0.0.1", "reserved"],
    ["255.255.255.255", "broadcast"],
    ["::1", "IPv6 loopback"],
    ["::", "IPv6 unspecified"],
    ["0:0:0:0:0:0:0:1", "IPv6 loopback, long form"],
    ["fe80::1", "IPv6 link-local"],
    ["fe80::1%eth0", "IPv6 link-local with a zone"],
    ["febf:ffff::1", "IPv6 link-local, top of the block"],
    ["fec0::1", "IPv6 site-local"],
    ["fc00::1", "unique-local"],
    ["fd12:3456:789a::1", "unique-local"],
    ["ff02::1", "IPv6 multicast"],
    ["::ffff:127.0.0.1", "IPv4-mapped loopback"],
    ["::ffff:7f00:1", "IPv4-mapped loopback, hex form"],
    ["::ffff:169.254.169.254", "IPv4-mapped metadata"],
    ["::ffff:10.0.0.1", "IPv4-mapped private"],
    ["::FFFF:192.168.0.1", "IPv4-mapped private, upper case"],
    ["::127.0.0.1", "IPv4-compatible"],
    ["::8.8.8.8", "IPv4-compatible (deprecated, refused whole)"],
    ["64:ff9b::127.0.0.1", "NAT64 loopback"],
    ["64:ff9b::a9fe:a9fe", "NAT64 metadata"],
    ["64:ff9b:1::1", "local-use NAT64"],
    ["2002:7f00:1::1", "6to4 of loopback"],
    ["2002:a00:1::", "6to4 of private"],
    ["2001:db8::1", "IPv6 documentation"],
    ["2001::1", "Teredo"],
    ["100::1", "discard-only"],
    ["4000::1", "outside global unicast"],
    ["localhost", "not an address"],
    ["127.1", "not a dotted quad"],
    ["", "empty"],
  ] as const;

  it.each(publicAddresses)("%s is public", (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });

  it.each(nonPublicAddresses)("%s is not public (%s)", (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });
});

