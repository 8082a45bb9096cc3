// A real HTTP receiver on 127.0.0.1 for the webhook tests: records every request, answers as told.
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface Answer {
  status: number;
  body?: string;
  headers?: Record<string, string>;
  /** Wait this long before answering. */
  delayMs?: number;
}

export interface Receiver {
  url: string;
  port: number;
  requests: ReceivedRequest[];
  /** Chooses the answer to each request (default 200 "ok"); `n` counts from 1. */
  respond: (request: ReceivedRequest, n: number) => Answer;
  /** Resolves once `count` requests (in total) have arrived. */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedRequest[]>;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const requests: ReceivedRequest[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];
  const receiver = {} as Receiver;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const request: ReceivedRequest = {
        method: req.method ?? "",
        path: req.url ?? "",
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      };
      requests.push(request);
      const answer = receiver.respond(request, requests.length);
      setTimeout(() => {
        res.writeHead(answer.status, answer.headers ?? {});
        res.end(answer.body ?? "");
        for (const w of waiters.filter((w) => requests.length >= w.count)) w.resolve();
      }, answer.delayMs ?? 0);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  Object.assign(receiver, {
    url: `http://127.0.0.1:${port}/hooks/wakha`,
    port,
    requests,
    respond: () => ({ status: 200, body: "ok" }),
    waitFor(count: number, timeoutMs = 20_000) {
      if (requests.length >= count) return Promise.resolve(requests);
      return new Promise<ReceivedRequest[]>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`receiver got ${requests.length} of ${count} requests`)),
          timeoutMs,
        );
        waiters.push({
          count,
          resolve: () => {
            clearTimeout(timer);
            resolve(requests);
          },
        });
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
  return receiver;
}
