// One log line per request, written when the answer has gone out: method, route (the template, e.g.
// /v1/calls/:id), the URL with secrets masked by shape, status, milliseconds and the request id (reqId). It
// replaces Fastify's two lines per request ("incoming request" and "request completed"): half the records
// through the redacting formatter, and the one kept says everything the two did. At LOG_LEVEL=warn or above
// nothing is logged for a request that succeeded; a 5xx is logged at error by the problem handler anyway.
import type { FastifyInstance } from "fastify";
import pino from "pino";
import { redactSecrets } from "./secrets.ts";

let stdout: pino.DestinationStream | null = null;

/**
 * Standard output, written in blocks of at least 4 KiB (or each second) rather than one write(2) per line: the
 * request lines cost a quarter of GET /v1/calls/{id}'s throughput with a write per line (bench/results/latest.md).
 * Flushed synchronously at exit, so a crash's last lines are not lost. One per process, shared by every app.
 */
export function bufferedStdout(): pino.DestinationStream {
  if (stdout) return stdout;
  const dest = pino.destination({ dest: 1, sync: false, minLength: 4096 });
  setInterval(() => dest.flush(), 1_000).unref();
  process.once("exit", () => {
    try {
      dest.flushSync();
    } catch {
      // Nothing left to write to.
    }
  });
  stdout = dest;
  return dest;
}

export function installRequestLog(app: FastifyInstance): void {
  // Decided once: no hook at all (no cost) unless info lines are wanted.
  if (!["info", "debug", "trace"].includes(app.log.level)) return;
  app.addHook("onResponse", async (request, reply) => {
    request.log.info(
      {
        method: request.method,
        route: request.routeOptions.url ?? null,
        url: redactSecrets(request.url),
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 10) / 10,
      },
      "request",
    );
  });
}
