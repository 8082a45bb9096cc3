import { createServer } from "node:http";
import { request } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import {
  AddressRejected,
  checkWebhookUrl,
  guardedLookup,
  isPublicAddress,
  type Resolver,
} from "../src/net/address-guard.ts";

// The DNS boundary is faked: these names resolve as a hostile or careless zone would make them.
const zone: Record<string, string[]> = {
  "hooks.example.com": ["93.184.216.34"],
  "v6.example.com": ["2606:2800:220:1:248:1893:25c8:1946"],
  "dual.example.com": ["93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946"],
  "loopback.attacker.test": ["127.0.0.1"],
  "rebind.attacker.test": ["93.184.216.34", "10.0.0.7"],
  "metadata.attacker.test": ["169.254.169.254"],
  "v6loop.attacker.test": ["::1"],
  "mapped.attacker.test": ["::ffff:192.168.1.1"],
  "cgnat.attacker.test": ["100.64.12.1"],
  "ula.attacker.test": ["fd12:3456:789a::1"],
  "linklocal6.attacker.test": ["fe80::1"],
  "zero.attacker.test": ["0.0.0.0"],
  "private172.attacker.test": ["172.16.5.4"],
};
const resolve: Resolver = async (name) => {
  const found = zone[name];
  if (!found) throw Object.assign(new Error("ENOTFOUND"), { code: "ENOTFOUND" });
  return found;
};

type Case = [url: string, expected: "ok" | AddressRejected["reason"]];
const corpus: Case[] = [
  ["https://hooks.example.com/wakha", "ok"],
  ["https://hooks.example.com:8443/path?x=1", "ok"],
  ["https://v6.example.com/", "ok"],
  ["https://dual.example.com/", "ok"],
  ["https://93.184.216.34/hook", "ok"],
  ["https://[2606:2800:220:1:248:1893:25c8:1946]/", "ok"],
  ["not a url", "invalid_url"],
  ["https://", "invalid_url"],
  ["//hooks.example.com/x", "invalid_url"],
  ["https://user:pass@hooks.example.com/", "invalid_url"],
  ["https://hooks.example.com/#frag", "invalid_url"],
  [`https://hooks.example.com/${"a".repeat(2100)}`, "invalid_url"],
  ["http://hooks.example.com/", "scheme_not_allowed"],
  ["ftp://hooks.example.com/", "scheme_not_allowed"],
  ["file:///etc/passwd", "scheme_not_allowed"],
  ["gopher://hooks.example.com/", "scheme_not_allowed"],
  ["javascript:alert(1)", "scheme_not_allowed"],
  ["https://localhost/", "localhost_rejected"],
  ["https://LOCALHOST:443/", "localhost_rejected"],
  ["https://api.localhost/", "localhost_rejected"],
  ["https://localhost./", "localhost_rejected"],
  ["https://127.0.0.1/", "localhost_rejected"],
  ["https://127.1/", "localhost_rejected"],
  ["https://2130706433/", "localhost_rejected"],
  ["https://0x7f.1/", "localhost_rejected"],
  ["https://0x7f.0.0.1/", "localhost_rejected"],
  ["https://017700000001/", "localhost_rejected"],
  ["https://0.0.0.0/", "localhost_rejected"],
  ["https://0/", "localhost_rejected"],
  ["https://[::1]/", "localhost_rejected"],
  ["https://[::]/", "localhost_rejected"],
  ["https://[0:0:0:0:0:0:0:1]/", "localhost_rejected"],
  ["https://[::ffff:127.0.0.1]/", "localhost_rejected"],
  ["https://[::ffff:a9fe:a9fe]/", "private_ip_rejected"],
  ["https://169.254.169.254/latest/meta-data/", "private_ip_rejected"],
  ["https://10.0.0.1/", "private_ip_rejected"],
  ["https://172.16.0.1/", "private_ip_rejected"],
  ["https://172.31.255.255/", "private_ip_rejected"],
  ["https://192.168.0.1/", "private_ip_rejected"],
  ["https://100.64.0.1/", "private_ip_rejected"],
  ["https://100.127.255.254/", "private_ip_rejected"],
  ["https://224.0.0.1/", "private_ip_rejected"],
  ["https://255.255.255.255/", "private_ip_rejected"],
  ["https://198.18.0.1/", "private_ip_rejected"],
  ["https://[fc00::1]/", "private_ip_rejected"],
  ["https://[fd00:ec2::254]/", "private_ip_rejected"],
  ["https://[fe80::1]/", "private_ip_rejected"],
  ["https://[ff02::1]/", "private_ip_rejected"],
  ["https://[::ffff:10.0.0.1]/", "private_ip_rejected"],
  ["https://loopback.attacker.test/", "private_ip_rejected"],
  ["https://rebind.attacker.test/", "private_ip_rejected"],
  ["https://metadata.attacker.test/", "private_ip_rejected"],
  ["https://v6loop.attacker.test/", "private_ip_rejected"],
  ["https://mapped.attacker.test/", "private_ip_rejected"],
  ["https://cgnat.attacker.test/", "private_ip_rejected"],
  ["https://ula.attacker.test/", "private_ip_rejected"],
  ["https://linklocal6.attacker.test/", "private_ip_rejected"],
  ["https://zero.attacker.test/", "private_ip_rejected"],
  ["https://private172.attacker.test/", "private_ip_rejected"],
  ["https://nxdomain.example.invalid/", "dns_resolution_failed"],
  ["https://does-not-exist.example.com/", "dns_resolution_failed"],
];

describe("webhook address guard", () => {
  it("has a corpus of at least 40 addresses", () => expect(corpus.length).toBeGreaterThanOrEqual(40));

  it.each(corpus)("%s -> %s", async (url, expected) => {
    const outcome = await checkWebhookUrl(url, { allowPrivate: false, resolve }).then(
      () => "ok",
      (err: unknown) => (err instanceof AddressRejected ? err.reason : `unexpected ${String(err)}`),
    );
    expect(outcome).toBe(expected);
  });

  it("opens http and private targets only when allowed", async () => {
    await expect(
      checkWebhookUrl("http://127.0.0.1:9999/hook", { allowPrivate: true, resolve }),
    ).resolves.toBeInstanceOf(URL);
    await expect(
      checkWebhookUrl("http://rebind.attacker.test/", { allowPrivate: true, resolve }),
    ).resolves.toBeInstanceOf(URL);
    await expect(checkWebhookUrl("ftp://127.0.0.1/", { allowPrivate: true, resolve })).rejects.toMatchObject({
      reason: "scheme_not_allowed",
    });
  });

  it("classifies addresses", () => {
    expect(isPublicAddress("8.8.8.8")).toBe(true);
    expect(isPublicAddress("::ffff:8.8.8.8")).toBe(true);
    expect(isPublicAddress("::ffff:127.0.0.1")).toBe(false);
    expect(isPublicAddress("not-an-ip")).toBe(false);
  });

  it("re-checks at connection time, so a name that rebinds to a private address never connects", async () => {
    const server = createServer((_req, res) => res.end("reached"));
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const { port } = server.address() as AddressInfo;
    try {
      const attempt = (allowPrivate: boolean) =>
        new Promise<string>((resolvePromise) => {
          const req = request(
            { host: "loopback.attacker.test", port, path: "/", lookup: guardedLookup({ allowPrivate, resolve }) },
            (res) => {
              res.setEncoding("utf8");
              let body = "";
              res.on("data", (c: string) => (body += c));
              res.on("end", () => resolvePromise(body));
            },
          );
          req.on("error", (err) => resolvePromise(`error: ${err.message}`));
          req.end();
        });
      expect(await attempt(false)).toMatch(/^error: .*127\.0\.0\.1/);
      expect(await attempt(true)).toBe("reached");
    } finally {
      server.close();
    }
  });
});

// Issue 20, finding 4: IPv4 addresses embedded in IPv6, and the port policy (docs/webhooks.md).
describe("webhook address guard: IPv6 embeddings of IPv4 and ports", () => {
  const embedZone: Record<string, string[]> = {
    "compat.attacker.test": ["::7f00:1"],
    "nat64.attacker.test": ["64:ff9b::a00:1"],
    "nat64-public.example.com": ["64:ff9b::5db8:d822"],
    "sixtofour.attacker.test": ["2002:7f00:1::1"],
    "teredo.attacker.test": ["2001:0:4136:e378:8000:63bf:80ff:fffe"],
  };
  const embedResolve: Resolver = async (name) => embedZone[name] ?? resolve(name);
  const check = (url: string) =>
    checkWebhookUrl(url, { allowPrivate: false, resolve: embedResolve }).then(
      () => "ok",
      (err: unknown) => (err instanceof AddressRejected ? err.reason : `unexpected ${String(err)}`),
    );

  it.each<Case>([
    ["https://[::127.0.0.1]/", "localhost_rejected"],
    ["https://[::7f00:1]/", "localhost_rejected"],
    ["https://[::0.0.0.1]/", "localhost_rejected"],
    ["https://[::10.0.0.1]/", "private_ip_rejected"],
    ["https://[::93.184.216.34]/", "private_ip_rejected"],
    ["https://[::ffff:0:7f00:1]/", "localhost_rejected"],
    ["https://[::ffff:0:a00:1]/", "private_ip_rejected"],
    ["https://[64:ff9b::127.0.0.1]/", "localhost_rejected"],
    ["https://[64:ff9b::a9fe:a9fe]/", "private_ip_rejected"],
    ["https://[64:ff9b:1::a00:1]/", "private_ip_rejected"],
    ["https://[2002:7f00:1::]/", "private_ip_rejected"],
    ["https://[2002:a9fe:a9fe::1]/", "private_ip_rejected"],
    ["https://[2002:5db8:d822::1]/", "private_ip_rejected"],
    ["https://[2001:0:4136:e378:8000:63bf:80ff:fffe]/", "private_ip_rejected"],
    ["https://[2001::1]/", "private_ip_rejected"],
    ["https://compat.attacker.test/", "private_ip_rejected"],
    ["https://nat64.attacker.test/", "private_ip_rejected"],
    ["https://sixtofour.attacker.test/", "private_ip_rejected"],
    ["https://teredo.attacker.test/", "private_ip_rejected"],
    ["https://[64:ff9b::5db8:d822]/", "ok"],
    ["https://nat64-public.example.com/", "ok"],
    ["https://[::ffff:93.184.216.34]/", "ok"],
  ])("%s -> %s", async (url, expected) => expect(await check(url)).toBe(expected));

  it.each<Case>([
    ["https://hooks.example.com:0/", "invalid_url"],
    ["https://hooks.example.com:22/", "invalid_url"],
    ["https://hooks.example.com:25/", "invalid_url"],
    ["https://hooks.example.com:1023/", "invalid_url"],
    ["https://hooks.example.com:3306/", "invalid_url"],
    ["https://hooks.example.com:5432/", "invalid_url"],
    ["https://hooks.example.com:6379/", "invalid_url"],
    ["https://hooks.example.com:2375/", "invalid_url"],
    ["https://hooks.example.com:11211/", "invalid_url"],
    ["https://hooks.example.com:27017/", "invalid_url"],
    ["https://hooks.example.com:443/", "ok"],
    ["https://hooks.example.com:80/", "ok"],
    ["https://hooks.example.com:1024/", "ok"],
    ["https://hooks.example.com:8080/", "ok"],
    ["https://hooks.example.com:8443/", "ok"],
    ["https://hooks.example.com:65535/", "ok"],
  ])("port policy: %s -> %s", async (url, expected) => expect(await check(url)).toBe(expected));

  it("applies the port policy even when private targets are allowed (development)", async () => {
    await expect(checkWebhookUrl("http://127.0.0.1:22/", { allowPrivate: true, resolve })).rejects.toMatchObject({
      reason: "invalid_url",
    });
  });

  it("judges embeddings at connection time too", () => {
    expect(isPublicAddress("::7f00:1")).toBe(false);
    expect(isPublicAddress("::808:808")).toBe(false);
    expect(isPublicAddress("64:ff9b::808:808")).toBe(true);
    expect(isPublicAddress("64:ff9b::7f00:1")).toBe(false);
    expect(isPublicAddress("2002:808:808::1")).toBe(false);
  });
});
