// Issue 20, finding 2: slow clients are timed out, early answers close the connection, and one client cannot hold
// more than its share of connections. Small limits keep each case under a few seconds; the flood cases live in
// test/reliability/slow-clients.reliability.ts.
import type { Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newAccount, type TestAccount } from "./helpers.ts";
import { type ListeningApp, startListening } from "./mcp-client.ts";
import { openSocket, parseRaw, rawExchange } from "./raw-http.ts";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Sends `head`, then one byte of `trickle` every `everyMs` until the server closes; resolves with what came back. */
async function trickle(port: number, head: string, trickleText: string, everyMs: number, giveUpMs = 5_000) {
  const started = Date.now();
  const socket = await openSocket(port);
  const chunks: Buffer[] = [];
  let closed = false;
  socket.on("data", (c) => chunks.push(c));
  socket.on("error", () => undefined);
  socket.on("close", () => (closed = true));
  socket.write(head);
  for (let i = 0; i < trickleText.length && !closed && Date.now() - started < giveUpMs; i++) {
    await sleep(everyMs);
    if (!closed) socket.write(trickleText[i]!);
  }
  while (!closed && Date.now() - started < giveUpMs) await sleep(20);
  socket.destroy();
  return { ...parseRaw(Buffer.concat(chunks).toString("latin1")), closed, elapsedMs: Date.now() - started };
}

function watchClose(socket: Socket): () => boolean {
  let closed = false;
  socket.on("close", () => (closed = true));
  socket.on("error", () => undefined);
  return () => closed;
}

describe("slow clients and connection limits (issue 20, finding 2)", () => {
  let t: ListeningApp;
  let a: TestAccount;
  let port: number;
  beforeAll(async () => {
    t = await startListening({
      env: {
        WAKHA_HTTP_HEADERS_TIMEOUT_MS: "600",
        WAKHA_HTTP_REQUEST_TIMEOUT_MS: "1200",
        WAKHA_HTTP_KEEP_ALIVE_TIMEOUT_MS: "500",
        WAKHA_HTTP_MAX_CONNECTIONS_PER_CLIENT: "8",
      },
    });
    port = Number(new URL(t.url).port);
    a = await newAccount(t.ctx, 100);
  });
  afterAll(() => t.close());

  it("closes a silent TCP connection after the headers timeout", async () => {
    const res = await rawExchange(port, "", 3_000);
    expect(res.closed).toBe(true);
    expect(res.elapsedMs).toBeLessThan(2_000);
  });

  it("answers 408 problem+json to headers trickled past the headers timeout, and closes", async () => {
    const res = await trickle(port, "GET /v1/me HTTP/1.1\r\n", `Host: x\r\nX-Slow: ${"a".repeat(100)}\r\n\r\n`, 100);
    expect(res.closed).toBe(true);
    expect(res.elapsedMs).toBeLessThan(2_500);
    expect(res.status).toBe(408);
    expect(res.headers["content-type"]).toMatch(/problem\+json/);
    expect(res.headers["x-request-id"]).toMatch(/^[0-9a-f]{8}$/);
  });

  it("cuts off an authenticated body trickled at a byte per 100 ms on POST /v1/calls", async () => {
    const head = `POST /v1/calls HTTP/1.1\r\nHost: x\r\nAuthorization: ${a.headers.authorization}\r\nIdempotency-Key: slow-1\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n`;
    const res = await trickle(port, head, " ".repeat(500), 100);
    expect(res.closed).toBe(true);
    expect(res.elapsedMs).toBeLessThan(3_000);
    expect(res.status).toBe(408);
  });

  it.each(["/v1/calls", "/mcp"])(
    "answers 401 before the body on %s and closes the connection at once",
    async (path) => {
      const head = `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nIdempotency-Key: k\r\nContent-Length: 500\r\n\r\n{"a":`;
      const res = await trickle(port, head, " ".repeat(500), 100);
      expect(res.status).toBe(401);
      expect(res.headers["connection"]).toBe("close");
      expect(res.closed).toBe(true);
      expect(res.elapsedMs).toBeLessThan(800);
    },
  );

  it("answers 413 to an announced over-limit body and closes the connection", async () => {
    const res = await rawExchange(
      port,
      `POST /v1/shops HTTP/1.1\r\nHost: x\r\nAuthorization: ${a.headers.authorization}\r\nContent-Type: application/json\r\nContent-Length: 5000000\r\n\r\n{`,
      2_000,
    );
    expect(res.status).toBe(413);
    expect(res.headers["connection"]).toBe("close");
    expect(res.closed).toBe(true);
    expect(res.elapsedMs).toBeLessThan(1_000);
  });

  it("closes an idle kept-alive connection after the keep-alive timeout", async () => {
    const socket = await openSocket(port);
    const closed = watchClose(socket);
    const chunks: Buffer[] = [];
    socket.on("data", (c) => chunks.push(c));
    socket.write(`GET /v1/me HTTP/1.1\r\nHost: x\r\nAuthorization: ${a.headers.authorization}\r\n\r\n`);
    await sleep(300);
    expect(parseRaw(Buffer.concat(chunks).toString("latin1")).status).toBe(200);
    expect(closed()).toBe(false);
    const started = Date.now();
    while (!closed() && Date.now() - started < 3_000) await sleep(20);
    expect(closed()).toBe(true);
    expect(Date.now() - started).toBeLessThan(1_500);
  });

  it("silent connections cannot lock an address out: a connection past the cap evicts the oldest silent one (issue 31.7)", async () => {
    const sockets = await Promise.all(Array.from({ length: 8 }, () => openSocket(port)));
    const watchers = sockets.map(watchClose);
    // Another client behind the same address gets through at once, and the oldest silent connection gave way.
    const res = await rawExchange(
      port,
      `GET /v1/me HTTP/1.1\r\nHost: x\r\nConnection: close\r\nAuthorization: ${a.headers.authorization}\r\n\r\n`,
    );
    expect(res.status).toBe(200);
    await sleep(50);
    expect(watchers[0]!()).toBe(true);
    expect(watchers.slice(1).filter((w) => w()).length).toBe(0);
    // Renewing the silent connections does not help: each new one only evicts another silent one.
    for (let i = 0; i < 8; i++) sockets.push(await openSocket(port));
    const again = await rawExchange(
      port,
      `GET /v1/me HTTP/1.1\r\nHost: x\r\nConnection: close\r\nAuthorization: ${a.headers.authorization}\r\n\r\n`,
    );
    expect(again.status).toBe(200);
    for (const s of sockets) s.destroy();
    await sleep(100);
  });

  it("refuses a connection past the per-client cap when every connection of the address is in use", async () => {
    // Eight connections that each sent a request (kept alive after their answer): none is silent, so none gives way.
    const sockets = await Promise.all(Array.from({ length: 8 }, () => openSocket(port)));
    await Promise.all(
      sockets.map(
        (s) =>
          new Promise<void>((resolve) => {
            s.once("data", () => resolve());
            s.write(`GET /v1/me HTTP/1.1\r\nHost: x\r\nAuthorization: ${a.headers.authorization}\r\n\r\n`);
          }),
      ),
    );
    const watchers = sockets.map(watchClose);
    const extra = await openSocket(port);
    const extraClosed = watchClose(extra);
    await sleep(100);
    expect(extraClosed()).toBe(true);
    expect(watchers.filter((w) => w()).length).toBe(0);
    for (const s of sockets) s.destroy();
    await sleep(100);
    const res = await rawExchange(
      port,
      `GET /v1/me HTTP/1.1\r\nHost: x\r\nConnection: close\r\nAuthorization: ${a.headers.authorization}\r\n\r\n`,
    );
    expect(res.status).toBe(200);
  });
});
