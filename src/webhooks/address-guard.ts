import { lookup } from "node:dns/promises";
import type { LookupFunction } from "node:net";
import ipaddr from "ipaddr.js";
import { ApiError } from "../errors.ts";

export type RejectionReason = "invalid_url" | "scheme_not_allowed" | "localhost_rejected" | "dns_resolution_failed" | "private_ip_rejected";

/** Resolves a host name to every address it has; the DNS boundary, replaceable in tests. */
export type Resolver = (hostname: string) => Promise<string[]>;

export const systemResolver: Resolver = async (hostname) => (await lookup(hostname, { all: true, verbatim: true })).map((a) => a.address);

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

/** Only globally routable unicast addresses are acceptable targets; IPv4-mapped IPv6 is judged as IPv4. */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === "ipv6" && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  return parsed.range() === "unicast";
}

function isLoopbackLiteral(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === "ipv6" && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  return parsed.range() === "loopback" || parsed.range() === "unspecified";
}

const LOCAL_NAMES = /(^|\.)localhost$|^localhost\.localdomain$/;

/**
 * Checks a webhook URL the way it will be used. WHATWG URL parsing already normalises the classic
 * disguises (2130706433, 0x7f.1, 017700000001, 127.1) to dotted IPv4, so the address checks see the truth.
 */
export function parseWebhookUrl(raw: string, allowPrivate: boolean): URL {
  if (raw.length > MAX_URL_LENGTH) throw new AddressRejected("invalid_url", `The URL is longer than ${MAX_URL_LENGTH} characters.`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new AddressRejected("invalid_url", "The URL cannot be parsed; send an absolute https URL.");
  }
  if (url.protocol !== "https:" && !(allowPrivate && url.protocol === "http:")) {
    throw new AddressRejected("scheme_not_allowed", `Scheme "${url.protocol.replace(":", "")}" is not allowed; webhooks must use https.`);
  }
  if (!url.hostname) throw new AddressRejected("invalid_url", "The URL has no host.");
  if (url.username || url.password) throw new AddressRejected("invalid_url", "Credentials in the URL are not allowed; authenticate deliveries with the signature.");
  if (url.hash) throw new AddressRejected("invalid_url", "A fragment (#...) has no meaning in a webhook URL.");
  const host = url.hostname.replace(/^\[|\]$/g, "").replace(/\.$/, "").toLowerCase();
  if (!allowPrivate && (LOCAL_NAMES.test(host) || isLoopbackLiteral(host))) {
    throw new AddressRejected("localhost_rejected", `"${url.hostname}" is this machine or a local name; use a public host.`);
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
    if (bad !== undefined) throw new AddressRejected("private_ip_rejected", `"${hostname}" points to ${bad}, a private, loopback, link-local or reserved address.`);
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
        const wanted = typeof opts === "object" && opts.family ? addresses.filter((a) => family(a) === opts.family) : addresses;
        const list = wanted.length ? wanted : addresses;
        if (typeof opts === "object" && opts.all) {
          (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, list.map((a) => ({ address: a, family: family(a) })));
        } else {
          callback(null, list[0]!, family(list[0]!));
        }
      },
      (err: Error) => callback(Object.assign(err, { code: "EWAKHAGUARD" }) as NodeJS.ErrnoException, "", 0),
    );
  };
}
