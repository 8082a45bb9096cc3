// One HTTP POST to a webhook receiver, through the address guard, never following redirects.
import http from "node:http";
import https from "node:https";
import { isIP } from "node:net";
import { AddressRejected, checkHost, guardedLookup, parseWebhookUrl } from "../net/address-guard.ts";

export const ATTEMPT_TIMEOUT_MS = 10_000;
/** Bytes of the receiver's answer kept per attempt. */
export const EXCERPT_BYTES = 1024;
// Past this much response body the socket is dropped instead of drained.
const MAX_DRAIN_BYTES = 64 * 1024;

export interface SendOptions {
  allowPrivate: boolean;
  timeoutMs?: number;
}

/** What one attempt produced: a status code, or an error before any status (address refused, timeout, reset). */
export interface SendResult {
  statusCode: number | null;
  /** The first EXCERPT_BYTES of the body as text (NUL removed), or null. */
  excerpt: string | null;
  error: string | null;
  durationMs: number;
  /** The Location header of a 3xx, which is never followed. */
  location: string | null;
}

// Separate keep-alive pools per guard setting, so a socket opened under one policy never serves the other.
const AGENTS = {
  open: {
    http: new http.Agent({ keepAlive: true, maxSockets: 256 }),
    https: new https.Agent({ keepAlive: true, maxSockets: 256 }),
  },
  guarded: {
    http: new http.Agent({ keepAlive: true, maxSockets: 256 }),
    https: new https.Agent({ keepAlive: true, maxSockets: 256 }),
  },
};

function describe(err: unknown): string {
  if (err instanceof AddressRejected) return `${err.reason}: ${err.message}`;
  const e = err as NodeJS.ErrnoException & { reason?: string };
  if (e.code === "EWAKHAGUARD" && e.reason) return `${e.reason}: ${e.message}`;
  return e.code ? `${e.code}: ${e.message}` : String(e.message ?? err);
}

/**
 * POSTs `body` to `rawUrl`. The URL is parsed and checked afresh, and the socket's address is checked at
 * connect time (guardedLookup), so a name that now resolves to a private address is refused (DNS rebinding).
 */
export async function sendWebhook(
  rawUrl: string,
  body: string,
  headers: Record<string, string>,
  options: SendOptions,
): Promise<SendResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  let url: URL;
  try {
    url = parseWebhookUrl(rawUrl, options.allowPrivate);
    const host = url.hostname.replace(/^\[|\]$/g, "");
    // An IP literal never goes through `lookup`: check it here.
    if (isIP(host)) await checkHost(url.hostname, options);
  } catch (err) {
    return { statusCode: null, excerpt: null, error: describe(err), durationMs: elapsed(), location: null };
  }
  const timeoutMs = options.timeoutMs ?? ATTEMPT_TIMEOUT_MS;
  const deadline = { at: started + timeoutMs, label: `${timeoutMs / 1000} s` };
  let result = await post(url, body, headers, options.allowPrivate, deadline);
  // A kept-alive socket the receiver had already closed fails before any answer: that is not the receiver's
  // fault, so send once more on a fresh connection rather than wait hours for the next attempt.
  if (result.staleSocket) result = await post(url, body, headers, options.allowPrivate, deadline);
  const { staleSocket: _s, ...out } = result;
  return { ...out, durationMs: elapsed() };
}

type PostResult = Omit<SendResult, "durationMs"> & { staleSocket: boolean };

function post(
  url: URL,
  body: string,
  headers: Record<string, string>,
  allowPrivate: boolean,
  deadline: { at: number; label: string },
): Promise<PostResult> {
  const secure = url.protocol === "https:";
  const pool = allowPrivate ? AGENTS.open : AGENTS.guarded;
  const timeoutMs = Math.max(1, Math.round(deadline.at - performance.now()));
  return new Promise<PostResult>((resolve) => {
    let settled = false;
    const finish = (result: Omit<SendResult, "durationMs">, staleSocket = false) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...result, staleSocket });
    };
    const request = (secure ? https : http).request(url, {
      method: "POST",
      agent: secure ? pool.https : pool.http,
      lookup: guardedLookup({ allowPrivate }),
      headers: { ...headers, "Content-Length": String(Buffer.byteLength(body)) },
    });
    const timer = setTimeout(() => {
      request.destroy(Object.assign(new Error(`no complete answer within ${deadline.label}`), { code: "ETIMEDOUT" }));
    }, timeoutMs);
    request.on("error", (err: NodeJS.ErrnoException) => {
      const stale = request.reusedSocket && (err.code === "ECONNRESET" || err.code === "EPIPE");
      finish({ statusCode: null, excerpt: null, error: describe(err), location: null }, stale);
    });
    request.on("response", (response) => {
      const chunks: Buffer[] = [];
      let kept = 0;
      let seen = 0;
      const done = (error: string | null) => {
        // stream: true holds back a character cut at the 1 KiB boundary instead of turning it into U+FFFD.
        const excerpt = chunks.length
          ? new TextDecoder().decode(Buffer.concat(chunks), { stream: true }).replaceAll("\u0000", "")
          : null;
        const status = response.statusCode ?? null;
        const location =
          status !== null && status >= 300 && status < 400 ? String(response.headers.location ?? "") || null : null;
        finish({ statusCode: status, excerpt, error, location });
      };
      response.on("data", (chunk: Buffer) => {
        seen += chunk.length;
        if (kept < EXCERPT_BYTES) {
          const part = chunk.subarray(0, EXCERPT_BYTES - kept);
          chunks.push(part);
          kept += part.length;
        }
        if (seen > MAX_DRAIN_BYTES) {
          response.destroy();
          done(null);
        }
      });
      response.on("end", () => done(null));
      response.on("error", (err) => done(describe(err)));
      response.on("aborted", () => done("the receiver closed the connection mid-answer"));
      response.on("close", () => done(null));
    });
    request.end(body);
  });
}
