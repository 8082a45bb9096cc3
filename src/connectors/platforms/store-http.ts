// One HTTP request to a store's API (WooCommerce, YouCan), shared by the platform adapters. The store's address is
// the merchant's to give, so it goes through the same address guard as outbound webhooks (src/webhooks): checked
// when parsed and again at connect time (DNS rebinding), redirects never followed. Failures become StoreApiError,
// transient or not, with the platform's Retry-After.
import http from "node:http";
import https from "node:https";
import { isIP } from "node:net";
import { AddressRejected, checkHost, guardedLookup, parseWebhookUrl } from "../../net/address-guard.ts";
import { StoreApiError } from "../platform.ts";

export const STORE_TIMEOUT_MS = 20_000;
// A catalogue page of 100 products with descriptions stays far below this; past it the answer is refused.
const MAX_RESPONSE_BYTES = 16 * 1024 * 1024;

export interface StoreHttpOptions {
  /** WAKHA_WEBHOOK_ALLOW_PRIVATE: http and loopback/private store addresses, for development and tests only. */
  allowPrivate: boolean;
  timeoutMs?: number;
}

export interface StoreResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

const AGENTS = {
  open: {
    http: new http.Agent({ keepAlive: true, maxSockets: 64 }),
    https: new https.Agent({ keepAlive: true, maxSockets: 64 }),
  },
  guarded: {
    http: new http.Agent({ keepAlive: true, maxSockets: 64 }),
    https: new https.Agent({ keepAlive: true, maxSockets: 64 }),
  },
};

/** Retry-After as milliseconds: delta-seconds or an HTTP-date (RFC 9110 10.2.3); null when absent or unreadable. */
export function retryAfterMs(value: string | string[] | undefined, now = Date.now()): number | null {
  const raw = Array.isArray(value) ? value[0] : value;
  if (raw === undefined || raw.trim() === "") return null;
  if (/^\d+$/.test(raw.trim())) return Number(raw.trim()) * 1000;
  const at = Date.parse(raw);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/** The common reading of a refused call: 401/403 are revoked or insufficient credentials, 429 and 5xx pass. */
export function storeError(
  platform: string,
  what: string,
  response: StoreResponse,
  detail: string | null,
): StoreApiError {
  const { status } = response;
  const transient = status === 429 || status >= 500;
  const location = status >= 300 && status < 400 ? response.headers.location : undefined;
  const reason =
    status === 401 || status === 403
      ? "the store refused the credentials (revoked, expired or missing a permission)"
      : location
        ? `HTTP ${status}, redirected to ${location} (redirects are not followed: use that address as the store's)`
        : `HTTP ${status}`;
  return new StoreApiError(`${platform} ${what}: ${reason}${detail ? `: ${detail}` : ""}`, {
    status,
    transient,
    retryAfterMs: transient ? retryAfterMs(response.headers["retry-after"]) : null,
  });
}

/** Sends one request and reads the whole answer; network failures are transient, a refused address is not. */
export async function storeRequest(
  method: string,
  rawUrl: string,
  headers: Record<string, string>,
  body: string | null,
  options: StoreHttpOptions,
): Promise<StoreResponse> {
  let url: URL;
  try {
    url = parseWebhookUrl(rawUrl, options.allowPrivate);
    if (isIP(url.hostname.replace(/^\[|\]$/g, ""))) await checkHost(url.hostname, options);
  } catch (err) {
    const message = err instanceof AddressRejected ? `${err.reason}: ${err.message}` : String(err);
    throw new StoreApiError(`The store address is refused: ${message}`, { status: null, transient: false });
  }
  const first = await send(method, url, headers, body, options);
  // A kept-alive socket the store had already closed fails before any answer: once more on a fresh one.
  const result = first.staleSocket ? await send(method, url, headers, body, options) : first;
  if (result.response) return result.response;
  throw new StoreApiError(`The store did not answer: ${result.error}`, { status: null, transient: !result.refused });
}

interface Attempt {
  response: StoreResponse | null;
  error: string | null;
  staleSocket: boolean;
  refused: boolean;
}

function send(
  method: string,
  url: URL,
  headers: Record<string, string>,
  body: string | null,
  options: StoreHttpOptions,
): Promise<Attempt> {
  const secure = url.protocol === "https:";
  const pool = options.allowPrivate ? AGENTS.open : AGENTS.guarded;
  const timeoutMs = options.timeoutMs ?? STORE_TIMEOUT_MS;
  return new Promise<Attempt>((resolve) => {
    let settled = false;
    const finish = (attempt: Attempt) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(attempt);
    };
    const request = (secure ? https : http).request(url, {
      method,
      agent: secure ? pool.https : pool.http,
      lookup: guardedLookup({ allowPrivate: options.allowPrivate }),
      headers: {
        accept: "application/json",
        ...headers,
        ...(body !== null ? { "content-length": String(Buffer.byteLength(body)) } : {}),
      },
    });
    const timer = setTimeout(
      () => request.destroy(Object.assign(new Error(`no answer within ${timeoutMs} ms`), { code: "ETIMEDOUT" })),
      timeoutMs,
    );
    request.on("error", (err: NodeJS.ErrnoException & { reason?: string }) => {
      const stale = request.reusedSocket && (err.code === "ECONNRESET" || err.code === "EPIPE");
      const refused = err.code === "EWAKHAGUARD";
      finish({
        response: null,
        error: refused ? `${err.reason ?? "refused"}: ${err.message}` : `${err.code ?? "error"}: ${err.message}`,
        staleSocket: stale,
        refused,
      });
    });
    request.on("response", (response) => {
      const chunks: Buffer[] = [];
      let size = 0;
      response.on("data", (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_RESPONSE_BYTES) {
          response.destroy();
          finish({
            response: null,
            error: `answer larger than ${MAX_RESPONSE_BYTES} bytes`,
            staleSocket: false,
            refused: true,
          });
          return;
        }
        chunks.push(chunk);
      });
      response.on("end", () =>
        finish({
          response: {
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks).toString("utf8"),
          },
          error: null,
          staleSocket: false,
          refused: false,
        }),
      );
      response.on("error", (err) => finish({ response: null, error: err.message, staleSocket: false, refused: false }));
      response.on("aborted", () =>
        finish({
          response: null,
          error: "the store closed the connection mid-answer",
          staleSocket: false,
          refused: false,
        }),
      );
    });
    request.end(body ?? undefined);
  });
}

/** JSON.parse that returns null instead of throwing: a store's error page is often HTML. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
