// How long a client may take and how many connections it may hold (issue 20, finding 2). Node enforces the
// timeouts; this module sets them, counts connections per client address, and closes a connection whose request
// was answered before its body was read (an early 401 or 413), so a slow or hostile client cannot pin sockets.
import type { Server } from "node:http";
import type { Socket } from "node:net";
import type { FastifyInstance } from "fastify";
import type { HttpLimits } from "../config/http.ts";

/** The Fastify constructor options that carry the timeouts. */
export function serverTimeoutOptions(limits: HttpLimits) {
  const requestTimeout = limits.WAKHA_HTTP_REQUEST_TIMEOUT_MS;
  // Node requires headersTimeout <= requestTimeout, and checks both every connectionsCheckingInterval.
  const headersTimeout = Math.min(limits.WAKHA_HTTP_HEADERS_TIMEOUT_MS, requestTimeout);
  return {
    requestTimeout,
    keepAliveTimeout: limits.WAKHA_HTTP_KEEP_ALIVE_TIMEOUT_MS,
    http: {
      headersTimeout,
      requestTimeout,
      connectionsCheckingInterval: Math.max(50, Math.min(1_000, Math.floor(headersTimeout / 4))),
    },
  };
}

/**
 * Caps the connections of one client address (issue 20, finding 2) without letting silent ones lock the address out
 * (issue 31.7: 256 connections that never sent a byte held the cap for the headers timeout, renewable for ever, so
 * behind a NAT one shop's bad script locked out the others). A connection past the cap evicts the oldest connection of
 * that address that has not yet sent a request; only when every one of them has is the new connection refused, before
 * any byte is read. A silent connection is thus held no longer than until the next connection of its address.
 */
export function capConnectionsPerClient(server: Server, max: number): void {
  if (max <= 0) return;
  const open = new Map<string, number>();
  // Per address, its connections that have sent no request yet, oldest first (a Set keeps insertion order).
  const silent = new Map<string, Set<Socket>>();
  const spoke = (socket: Socket) => {
    const client = socket.remoteAddress ?? "unknown";
    const set = silent.get(client);
    if (set?.delete(socket) && set.size === 0) silent.delete(client);
  };
  server.on("request", (request: { socket: Socket }) => spoke(request.socket));
  server.on("upgrade", (_request: unknown, socket: Socket) => spoke(socket));
  server.on("connection", (socket: Socket) => {
    const client = socket.remoteAddress ?? "unknown";
    if ((open.get(client) ?? 0) >= max) {
      const oldest = silent.get(client)?.values().next().value;
      if (!oldest) {
        socket.destroy();
        return;
      }
      spoke(oldest);
      oldest.destroy();
    }
    open.set(client, (open.get(client) ?? 0) + 1);
    let set = silent.get(client);
    if (!set) silent.set(client, (set = new Set()));
    set.add(socket);
    socket.once("close", () => {
      spoke(socket);
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
