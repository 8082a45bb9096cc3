// Slow clients and connection floods against a real `wakha serve` with its documented defaults (README, "HTTP
// limits"; issue 20, finding 2): a body trickled at one byte per second, unauthenticated /mcp, 200 idle
// keep-alive sockets, 30 silent TCP sockets, and more connections than one client may hold.
import type { Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type Child, createAccountCli, startWakha, wakhaEnv } from "../../bench/processes.ts";
import { openSocket } from "../raw-http.ts";

const databaseUrl = inject("databaseUrl");
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let child: Child & { port: number; url: string };
let apiKey: string;

beforeAll(async () => {
  child = await startWakha("serve", wakhaEnv(databaseUrl, { WAKHA_ROLE: "api" }));
  apiKey = (await createAccountCli(databaseUrl, 100, "slow-clients")).api_key;
});

afterAll(async () => {
  await child?.stop();
});

interface Watched {
  socket: Socket;
  closedAt: () => number | null;
  received: () => string;
}

async function watched(): Promise<Watched> {
  const socket = await openSocket(child.port);
  let closedAt: number | null = null;
  let data = "";
  socket.on("data", (c: Buffer) => (data += c.toString("latin1")));
  socket.on("error", () => undefined);
  socket.on("close", () => (closedAt = Date.now()));
  return { socket, closedAt: () => closedAt, received: () => data };
}

async function untilClosed(sockets: Watched[], timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end && sockets.some((s) => s.closedAt() === null)) await sleep(100);
}

describe("slow clients against `wakha serve` defaults", () => {
  // These wait out the server's timeouts, each on sockets of its own: they wait together (at most 233 sockets at
  // once, under the 256 one client may hold). The flood below runs after them, alone.
  describe.concurrent("timeouts", () => {
    it("cuts off an authenticated POST /v1/calls body trickled at one byte per second within the 30 s request timeout", async () => {
      const s = await watched();
      const started = Date.now();
      s.socket.write(
        `POST /v1/calls HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${apiKey}\r\nIdempotency-Key: trickle\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n`,
      );
      const timer = setInterval(() => s.closedAt() === null && s.socket.write(" "), 1_000);
      await untilClosed([s], 45_000);
      clearInterval(timer);
      expect(s.closedAt()).not.toBeNull();
      expect(s.closedAt()! - started).toBeLessThan(33_000);
      expect(s.received()).toMatch(/^HTTP\/1\.1 408/);
    });

    it.each(["/v1/calls", "/mcp"])(
      "answers an unauthenticated trickled body on %s with 401 and closes at once",
      async (path) => {
        const s = await watched();
        const started = Date.now();
        s.socket.write(
          `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nIdempotency-Key: k\r\nContent-Length: 1000\r\n\r\n{`,
        );
        const timer = setInterval(() => s.closedAt() === null && s.socket.write(" "), 1_000);
        await untilClosed([s], 10_000);
        clearInterval(timer);
        expect(s.received()).toMatch(/^HTTP\/1\.1 401/);
        expect(s.closedAt()! - started).toBeLessThan(2_000);
      },
    );

    it("closes 200 idle keep-alive sockets within the 10 s keep-alive timeout", async () => {
      const sockets: Watched[] = [];
      for (let i = 0; i < 200; i++) sockets.push(await watched());
      await Promise.all(
        sockets.map(
          (s) =>
            new Promise<void>((resolve) => {
              s.socket.write(`GET /openapi.json HTTP/1.1\r\nHost: x\r\n\r\n`);
              const check = setInterval(() => {
                if (/\r\n\r\n/.test(s.received()) || s.closedAt() !== null) {
                  clearInterval(check);
                  resolve();
                }
              }, 20);
            }),
        ),
      );
      const answered = Date.now();
      await untilClosed(sockets, 15_000);
      expect(sockets.filter((s) => s.closedAt() === null)).toHaveLength(0);
      expect(Math.max(...sockets.map((s) => s.closedAt()!)) - answered).toBeLessThan(15_000);
    });

    it("closes 30 silent TCP sockets within the 10 s headers timeout", async () => {
      const started = Date.now();
      const sockets = await Promise.all(Array.from({ length: 30 }, () => watched()));
      await untilClosed(sockets, 15_000);
      expect(sockets.filter((s) => s.closedAt() === null)).toHaveLength(0);
      expect(Math.max(...sockets.map((s) => s.closedAt()!)) - started).toBeLessThan(12_000);
    });
  });

  it("holds at most 256 connections from one client, and serves again once the flood ends", async () => {
    const sockets: Watched[] = [];
    for (let i = 0; i < 300; i++) sockets.push(await watched());
    await sleep(500);
    const refused = sockets.filter((s) => s.closedAt() !== null).length;
    expect(refused).toBeGreaterThanOrEqual(44);
    for (const s of sockets) s.socket.destroy();
    await sleep(300);
    const res = await fetch(`${child.url}/v1/me`, { headers: { authorization: `Bearer ${apiKey}` } });
    expect(res.status).toBe(200);
  });
});
