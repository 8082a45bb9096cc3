// How long a client may take and how many connections it may hold (issue 20, finding 2). Node enforces the
// timeouts; this module sets them, counts connections per client address, and closes a connection whose request
// was answered before its body was read (an early 401 or 413), so a slow or hostile client cannot pin sockets.
import type { Server } from "node:http";
import type { Socket } from "node:net";
import type { FastifyInstance } from "fastify";
import type { HttpLimits } from "../http-config.ts";

/** The Fastify constructor options that carry the timeouts. */
export function serverTimeoutOptions(limits: HttpLimits) {
  const requestTimeout = limits.WAKHA_HTTP_REQUEST_TIMEOUT_MS;
  // Node requires headersTimeout <= requestTimeout, and checks both every connectionsCheckingInterval.
  const headersTimeout = Math.min(limits.WAKHA_HTTP_HEADERS_TIMEOUT_MS, requestTimeout);
  return {
    requestTimeout,
    keepAliveTimeout: limits.WAKHA_HTTP_KEEP_ALIVE_TIMEOUT_MS,
    http: { headersTimeout, requestTimeout, connectionsCheckingInterval: Math.max(50, Math.min(1_000, Math.floor(headersTimeout / 4))) },
  };
}

/** Refuses connections past the per-client cap: the socket is closed before any byte is read. */
export function capConnectionsPerClient(server: Server, max: number): void {
  if (max <= 0) return;
  const open = new Map<string, number>();
  server.on("connection", (socket: Socket) => {
    const client = socket.remoteAddress ?? "unknown";
    const count = (open.get(client) ?? 0) + 1;
    if (count > max) {
      socket.destroy();
      return;
    }
    open.set(client, count);
    socket.once("close", () => {
      const left = (open.get(client) ?? 1) - 1;
      if (left <= 0) open.delete(client);
      else open.set(client, left);
    });
  });
}

/**
 * Closes the connection after a response sent before the request body was read in full (an early 401, 413 or
 * 400): otherwise Node keeps reading the unread body to reuse the connection, at whatever pace the client sends it.
 */
export function closeAfterEarlyAnswers(app: FastifyInstance): void {
  app.addHook("onSend", async (request, reply) => {
    if (request.raw.complete === false) reply.header("Connection", "close");
  });
}
