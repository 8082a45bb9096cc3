import { createServer, type AddressInfo, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sendWebhook } from "../src/webhooks/sender.ts";
import { startReceiver, type Receiver } from "./webhook-receiver.ts";

describe("sendWebhook: one bounded attempt", () => {
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(() => receiver.close());

  const open = { allowPrivate: true };

  it("gives up after the timeout with no status", async () => {
    receiver.respond = () => ({ status: 200, delayMs: 1_500 });
    const result = await sendWebhook(receiver.url, "{}", {}, { ...open, timeoutMs: 200 });
    expect(result.statusCode).toBeNull();
    expect(result.error).toMatch(/^ETIMEDOUT: no complete answer within 0.2 s/);
    expect(result.durationMs).toBeLessThan(1_000);
  });

  it("keeps at most 1 KiB of the answer, without NUL characters", async () => {
    receiver.respond = () => ({ status: 500, body: `\u0000${"é".repeat(4000)}` });
    const result = await sendWebhook(receiver.url, "{}", {}, open);
    expect(result.statusCode).toBe(500);
    expect(Buffer.byteLength(result.excerpt!)).toBeLessThanOrEqual(1024);
    expect(result.excerpt).not.toContain("\u0000");
  });

  it("reports a refused connection as an error", async () => {
    // A port that was just free: ports under 1024 (other than 80 and 443) are refused by the port policy before any connection.
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, "127.0.0.1", r));
    const { port } = probe.address() as AddressInfo;
    await new Promise((r) => probe.close(r));
    const result = await sendWebhook(`http://127.0.0.1:${port}/x`, "{}", {}, open);
    expect(result.statusCode).toBeNull();
    expect(result.error).toMatch(/^ECONNREFUSED/);
  });

  it("sends again on a fresh connection when a kept-alive socket turns out closed", async () => {
    // Answers the first request of each connection with keep-alive, then resets the connection on the next.
    const sockets: Socket[] = [];
    let requests = 0;
    const server = createServer((socket) => {
      sockets.push(socket);
      let served = 0;
      socket.on("data", () => {
        requests++;
        if (served++ === 0) socket.write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: keep-alive\r\n\r\nok");
        else socket.resetAndDestroy();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    try {
      expect((await sendWebhook(url, "{}", {}, open)).statusCode).toBe(200);
      const second = await sendWebhook(url, "{}", {}, open);
      expect(second).toMatchObject({ statusCode: 200, error: null });
      expect(requests).toBe(3);
      expect(sockets).toHaveLength(2);
    } finally {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("returns the Location of a 3xx without following it", async () => {
    receiver.respond = (req) => (req.path === "/a" ? { status: 307, headers: { location: "/b" } } : { status: 200 });
    const before = receiver.requests.length;
    const result = await sendWebhook(`http://127.0.0.1:${receiver.port}/a`, "{}", {}, open);
    expect(result).toMatchObject({ statusCode: 307, location: "/b" });
    expect(receiver.requests.slice(before).map((r) => r.path)).toEqual(["/a"]);
  });
});
