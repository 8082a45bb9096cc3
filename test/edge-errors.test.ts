// Issue 20, finding 6: errors outside the app's reach (Node's parser), canonical cursors that show nothing of the
// account, Idempotency-Key length in characters.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { creditAccount } from "../src/services/accounts.ts";
import { newAccount, problem, type TestAccount } from "./helpers.ts";
import { callBody, insertShop } from "./calls-fixtures.ts";
import { type ListeningApp, startListening } from "./mcp-client.ts";
import { rawExchange, type RawResponse } from "./raw-http.ts";

const B64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/** The same bytes, another spelling: flips the lowest bit of the last character, a padding bit when the length leaves one. */
function flipPaddingBit(part: string): string | null {
  if (part.length % 4 === 0) return null;
  const last = B64URL.indexOf(part.at(-1)!);
  return part.slice(0, -1) + B64URL[last ^ 1];
}

function expectProblem(res: RawResponse, status: number, slug: string): Record<string, unknown> {
  expect(res.status).toBe(status);
  expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
  const body = JSON.parse(res.body) as Record<string, unknown>;
  expect(body["type"]).toMatch(new RegExp(`/errors/${slug}$`));
  expect(body["status"]).toBe(status);
  expect(res.headers["x-request-id"]).toMatch(/^[0-9a-f]{8}$/);
  expect(body["request_id"]).toBe(res.headers["x-request-id"]);
  expect(res.closed).toBe(true);
  return body;
}

describe("errors outside the app's reach (issue 20, finding 6)", () => {
  let t: ListeningApp;
  let a: TestAccount;
  let port: number;
  beforeAll(async () => {
    t = await startListening();
    port = Number(new URL(t.url).port);
    a = await newAccount(t.ctx, 1000);
    for (let i = 0; i < 3; i++) await creditAccount(t.ctx.db, a.accountId, 1);
  });
  afterAll(() => t.close());

  it("a 100,000-character cursor gets Node's 431 as problem+json with X-Request-Id", async () => {
    const res = await rawExchange(
      port,
      `GET /v1/calls?cursor=${"a".repeat(100_000)} HTTP/1.1\r\nHost: x\r\nAuthorization: ${a.headers.authorization}\r\n\r\n`,
    );
    const body = expectProblem(res, 431, "http_error");
    expect(body["detail"]).toMatch(/header/i);
  });

  it("a control character in a header gets Node's 400 as problem+json with X-Request-Id", async () => {
    const res = await rawExchange(
      port,
      `GET /v1/me HTTP/1.1\r\nHost: x\r\nX-Trace: a\u0001b\r\nAuthorization: ${a.headers.authorization}\r\n\r\n`,
    );
    expectProblem(res, 400, "bad_request");
  });

  it("a malformed request line gets a problem+json 400 too", async () => {
    expectProblem(await rawExchange(port, "GET /v1/me HTTP/9.Q\r\n\r\n"), 400, "bad_request");
  });

  it("cursors show neither the account id nor the filters", async () => {
    const page = (await t.app.inject({ method: "GET", url: "/v1/me/transactions?limit=1", headers: a.headers })).json();
    const cursor = page.next_cursor as string;
    const decoded = cursor
      .split(".")
      .map((p) => Buffer.from(p, "base64url").toString("latin1"))
      .join(" ");
    expect(decoded).not.toContain(a.accountId);
    expect(decoded).not.toContain(a.accountId.replaceAll("-", ""));
    const shop = (await insertShop(t.ctx, a.accountId, { merchant: "merchant-secret-name" })).externalId;
    for (let i = 0; i < 2; i++) {
      await t.app.inject({
        method: "POST",
        url: "/v1/calls",
        headers: { ...a.headers, "idempotency-key": `k-${i}-${shop}` },
        payload: callBody(shop),
      });
    }
    const calls = (
      await t.app.inject({
        method: "GET",
        url: "/v1/calls?limit=1&merchant_id=merchant-secret-name",
        headers: a.headers,
      })
    ).json();
    const decodedCalls = Buffer.from((calls.next_cursor as string).split(".")[0]!, "base64url").toString("latin1");
    expect(decodedCalls).not.toContain("merchant-secret-name");
    expect(decodedCalls).not.toContain(a.accountId);
  });

  it("refuses a cursor whose base64 changes only padding bits (canonical encodings only)", async () => {
    const page = (await t.app.inject({ method: "GET", url: "/v1/me/transactions?limit=1", headers: a.headers })).json();
    const [body, signature] = (page.next_cursor as string).split(".") as [string, string];
    const tampered = [flipPaddingBit(signature), flipPaddingBit(body)].filter((x) => x !== null);
    expect(tampered.length).toBeGreaterThan(0);
    const sigFlipped = flipPaddingBit(signature)!;
    // The lenient decoder reads the same bytes: only a canonical check can tell.
    expect(Buffer.from(sigFlipped, "base64url")).toEqual(Buffer.from(signature, "base64url"));
    problem(
      await t.app.inject({
        method: "GET",
        url: "/v1/me/transactions",
        query: { cursor: `${body}.${sigFlipped}` },
        headers: a.headers,
      }),
      "invalid_cursor",
      400,
    );
    for (const bad of [
      `${body}=.${signature}`,
      `${body}.${signature}=`,
      `${body.replaceAll("_", "/")}.${signature}+`,
    ]) {
      problem(
        await t.app.inject({ method: "GET", url: "/v1/me/transactions", query: { cursor: bad }, headers: a.headers }),
        "invalid_cursor",
        400,
      );
    }
    expect(
      (
        await t.app.inject({
          method: "GET",
          url: "/v1/me/transactions",
          query: { cursor: page.next_cursor },
          headers: a.headers,
        })
      ).statusCode,
    ).toBe(200);
  });

  describe("Idempotency-Key length counts characters, not bytes (spec part 8)", () => {
    let shop: string;
    beforeAll(async () => {
      shop = (await insertShop(t.ctx, a.accountId)).externalId;
    });
    const post = (key: Buffer, body: unknown) => {
      const payload = Buffer.from(JSON.stringify(body));
      return rawExchange(
        port,
        Buffer.concat([
          Buffer.from(
            `POST /v1/calls HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: ${payload.length}\r\nAuthorization: ${a.headers.authorization}\r\nIdempotency-Key: `,
          ),
          key,
          Buffer.from("\r\n\r\n"),
          payload,
        ]),
      );
    };

    it("accepts 255 two-byte characters (510 bytes) and refuses 256 with a count of 256", async () => {
      const ok = await post(Buffer.from("é".repeat(255), "utf8"), callBody(shop));
      expect(ok.status, ok.body).toBe(201);
      const tooLong = await post(Buffer.from("é".repeat(256), "utf8"), callBody(shop));
      expect(tooLong.status).toBe(400);
      expect(JSON.parse(tooLong.body)).toMatchObject({ detail: expect.stringContaining("256 characters") });
    });

    it("counts an astral character (4 bytes, 2 UTF-16 units) as one", async () => {
      const res = await post(Buffer.from("😀".repeat(255), "utf8"), callBody(shop));
      expect(res.status, res.body).toBe(201);
    });
  });
});
