// The outbound address guard (SSRF): shared by webhook deliveries (src/webhooks) and store connectors
// (src/connectors), so it sits below both.
import { lookup } from "node:dns/promises";
import type { LookupFunction } from "node:net";
import ipaddr from "ipaddr.js";
import { ApiError } from "../errors.ts";

export type RejectionReason =
  | "invalid_url"
  | "scheme_not_allowed"
  | "localhost_rejected"
  | "dns_resolution_failed"
  | "private_ip_rejected";

/** Resolves a host name to every address it has; the DNS boundary, replaceable in tests. */
export type Resolver = (hostname: string) => Promise<string[]>;

export const systemResolver: Resolver = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((a) => a.address);

export class AddressRejected extends Error {
  readonly reason: RejectionReason;
  constructor(reason: RejectionReason, message: string) {
    super(message);
    this.reason = reason;
  }

  toApiError(): ApiError {
    return new ApiError("webhook_url_rejected", this.message, { extensions: { reason: this.reason } });
  }
}

export interface GuardOptions {
  /** WAKHA_WEBHOOK_ALLOW_PRIVATE: http and private or loopback targets, for development and tests only. */
  allowPrivate: boolean;
  resolve?: Resolver;
}

const MAX_URL_LENGTH = 2048;

/** IPv4-compatible IPv6 (::a.b.c.d, deprecated by RFC 4291): never a target, whatever address it embeds. */
function isIPv4Compatible(p: ipaddr.IPv6): boolean {
  return p.parts.slice(0, 6).every((x) => x === 0) && (p.parts[6] !== 0 || p.parts[7]! > 1);
}

/**
 * The IPv4 address an IPv6 address reaches when it embeds one (docs/webhooks.md): IPv4-mapped ::ffff:0:0/96,
 * SIIT ::ffff:0:0:0/96, NAT64 64:ff9b::/96 and IPv4-compatible ::/96 are judged as the IPv4 inside. 6to4
 * (2002::/16), Teredo (2001::/32) and local NAT64 (64:ff9b:1::/48) are not unicast ranges and are refused whole.
 */
function unwrap(address: string): ipaddr.IPv4 | ipaddr.IPv6 {
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === "ipv4") return parsed;
  const p = parsed as ipaddr.IPv6;
  const [a, b, c, d, e, f, g, h] = p.parts as [number, number, number, number, number, number, number, number];
  const mapped = a === 0 && b === 0 && c === 0 && d === 0 && e === 0 && f === 0xffff;
  const siit = a === 0 && b === 0 && c === 0 && d === 0 && e === 0xffff && f === 0;
  const nat64 = a === 0x64 && b === 0xff9b && c === 0 && d === 0 && e === 0 && f === 0;
  if (mapped || siit || nat64 || isIPv4Compatible(p)) return new ipaddr.IPv4([g >> 8, g & 255, h >> 8, h & 255]);
  return p;
}

/** Only globally routable unicast addresses are acceptable targets; an embedded IPv4 is judged as IPv4. */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === "ipv6" && isIPv4Compatible(parsed as ipaddr.IPv6)) return false;
  return unwrap(address).range() === "unicast";
}

function isLoopbackLiteral(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const range = unwrap(address).range();
  return range === "loopback" || range === "unspecified";
}

/**
 * The port policy (docs/webhooks.md): the scheme's default, 443 or 80, or 1024 to 65535 except the ports of
 * services that are never webhook receivers (databases, caches, container and cluster APIs, remote desktop).
 * Ports under 1024 other than 80 and 443 (0, SSH, SMTP, ...) are refused.
 */
export const REFUSED_PORTS: ReadonlySet<number> = new Set([
  1433, 1521, 2049, 2375, 2376, 2379, 2380, 3306, 3389, 4369, 5432, 5672, 5984, 6379, 6443, 9042, 9092, 9200, 9300,
  10250, 11211, 15672, 27017, 27018, 28017,
]);

export function isAllowedPort(port: number): boolean {
  return port === 443 || port === 80 || (port >= 1024 && port <= 65535 && !REFUSED_PORTS.has(port));
}

const LOCAL_NAMES = /(^|\.)localhost$|^localhost\.localdomain$/;

/**
 * Checks a webhook URL the way it will be used. WHATWG URL parsing already normalises the classic
 * disguises (2130706433, 0x7f.1, 017700000001, 127.1) to dotted IPv4, so the address checks see the truth.
 */
export function parseWebhookUrl(raw: string, allowPrivate: boolean): URL {
  if (raw.length > MAX_URL_LENGTH)
    throw new AddressRejected("invalid_url", `The URL is longer than ${MAX_URL_LENGTH} characters.`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new AddressRejected("invalid_url", "The URL cannot be parsed; send an absolute https URL.");
  }
  if (url.protocol !== "https:" && !(allowPrivate && url.protocol === "http:")) {
    throw new AddressRejected(
      "scheme_not_allowed",
      `Scheme "${url.protocol.replace(":", "")}" is not allowed; webhooks must use https.`,
    );
  }
  if (!url.hostname) throw new AddressRejected("invalid_url", "The URL has no host.");
  if (url.port !== "" && !isAllowedPort(Number(url.port))) {
    throw new AddressRejected(
      "invalid_url",
      `Port ${url.port} is not allowed: use 443, 80, or a port from 1024 to 65535 that is not a database, cache or admin service port (see the webhook docs).`,
    );
  }
  if (url.username || url.password)
    throw new AddressRejected(
      "invalid_url",
      "Credentials in the URL are not allowed; authenticate deliveries with the signature.",
    );
  if (url.hash) throw new AddressRejected("invalid_url", "A fragment (#...) has no meaning in a webhook URL.");
  const host = url.hostname
    .replace(/^\[|\]$/g, "")
    .replace(/\.$/, "")
    .toLowerCase();
  if (!allowPrivate && (LOCAL_NAMES.test(host) || isLoopbackLiteral(host))) {
    throw new AddressRejected(
      "localhost_rejected",
      `"${url.hostname}" is this machine or a local name; use a public host.`,
    );
  }
  return url;
}

/** Resolves the host and refuses it unless every address is public (one private address is enough to refuse). */
export async function checkHost(hostname: string, options: GuardOptions): Promise<string[]> {
  const host = hostname.replace(/^\[|\]$/g, "");
  let addresses: string[];
  if (ipaddr.isValid(host)) {
    addresses = [host];
  } else {
    try {
      addresses = await (options.resolve ?? systemResolver)(host);
    } catch {
      addresses = [];
    }
    if (addresses.length === 0) throw new AddressRejected("dns_resolution_failed", `"${hostname}" does not resolve.`);
  }
  if (!options.allowPrivate) {
    const bad = addresses.find((a) => !isPublicAddress(a));
    if (bad !== undefined)
      throw new AddressRejected(
        "private_ip_rejected",
        `"${hostname}" points to ${bad}, a private, loopback, link-local or reserved address.`,
      );
  }
  return addresses;
}

/** The full check at configuration time: the URL, then its host's addresses. */
export async function checkWebhookUrl(raw: string, options: GuardOptions): Promise<URL> {
  const url = parseWebhookUrl(raw, options.allowPrivate);
  await checkHost(url.hostname, options);
  return url;
}

/**
 * A socket `lookup` that re-checks at connection time, so the address actually connected to is the one that
 * was checked (defeats DNS rebinding between configuration and delivery).
 */
export function guardedLookup(options: GuardOptions): LookupFunction {
  return (hostname, opts, callback) => {
    checkHost(hostname, options).then(
      (addresses) => {
        const family = (a: string) => (a.includes(":") ? 6 : 4);
        const wanted =
          typeof opts === "object" && opts.family ? addresses.filter((a) => family(a) === opts.family) : addresses;
        const list = wanted.length ? wanted : addresses;
        if (typeof opts === "object" && opts.all) {
          (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(
            null,
            list.map((a) => ({ address: a, family: family(a) })),
          );
        } else {
          callback(null, list[0]!, family(list[0]!));
        }
      },
      (err: Error) => callback(Object.assign(err, { code: "EWAKHAGUARD" }) as NodeJS.ErrnoException, "", 0),
    );
  };
}
