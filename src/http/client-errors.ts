// Errors Node's HTTP parser raises before Fastify sees a request (an over-long header block, a control character
// in a header, a malformed request line, a request that timed out): answered as problem+json with a request id,
// like every other error, then the connection is closed because the parser cannot resynchronise on it.
import { randomBytes } from "node:crypto";
import type { Socket } from "node:net";
import { ERRORS, type ErrorSlug } from "../errors.ts";

interface ParserError extends Error {
  code?: string;
  rawPacket?: unknown;
}

const STATUS_TEXT: Record<number, string> = {
  400: "Bad Request",
  408: "Request Timeout",
  413: "Content Too Large",
  431: "Request Header Fields Too Large",
};

function describe(err: ParserError): { status: number; slug: ErrorSlug; detail: string } {
  switch (err.code) {
    case "HPE_HEADER_OVERFLOW":
      return {
        status: 431,
        slug: "http_error",
        detail: "The request line and headers exceed 16 KiB (a cursor or header that long is never valid).",
      };
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return {
        status: 408,
        slug: "http_error",
        detail: "The request was not received in full in time; send the headers and body without pauses.",
      };
    case "HPE_INVALID_HEADER_TOKEN":
      return {
        status: 400,
        slug: "bad_request",
        detail:
          "A header name or value contains a character HTTP does not allow (a control character or a raw newline).",
      };
    default:
      return { status: 400, slug: "bad_request", detail: "The request is not valid HTTP/1.1 and could not be parsed." };
  }
}

/** The path of the request line, when the parser got that far; never the query, which may hold secrets. */
function instanceOf(err: ParserError): string {
  const packet = Buffer.isBuffer(err.rawPacket) ? err.rawPacket : Buffer.alloc(0);
  const line = packet.subarray(0, 2048).toString("latin1").split("\r\n")[0] ?? "";
  const target = line.split(" ")[1] ?? "";
  const path = target.split("?")[0] ?? "";
  return /^\/[\x21-\x7e]{0,300}$/.test(path) ? path : "/";
}

/** Fastify's `clientErrorHandler`: writes the problem+json and closes the socket. */
export function clientErrorHandler(docsUrl: string, log?: (info: Record<string, unknown>) => void) {
  return (err: ParserError, socket: Socket): void => {
    if (err.code === "ECONNRESET" || socket.destroyed) return;
    const { status, slug, detail } = describe(err);
    const requestId = randomBytes(4).toString("hex");
    log?.({ request_id: requestId, code: err.code, status });
    const body = JSON.stringify({
      type: `${docsUrl}/errors/${slug}`,
      title: slug === "http_error" ? `HTTP ${status}` : ERRORS[slug].title,
      status,
      detail,
      instance: instanceOf(err),
      request_id: requestId,
    });
    if (socket.writable) {
      socket.end(
        `HTTP/1.1 ${status} ${STATUS_TEXT[status] ?? "Error"}\r\nContent-Type: application/problem+json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
          `X-Request-Id: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
      );
    }
    // A peer that never reads must not hold the socket: destroy it shortly after the answer is flushed.
    setTimeout(() => socket.destroy(), 1_000).unref();
  };
}
