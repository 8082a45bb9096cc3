// Orders (issue 16): GET /v1/shops/{shop}/orders/{order}, GET /v1/orders, the supersede rule, settleOrder under
// concurrency, order.resolved delivered signed once per change, and a simulated call settling its order by voice.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ORDER_RESOLUTIONS,
  type OrderResolution,
  resolutionOfCall,
  type ResolutionState,
  supersedes,
} from "../src/domain/orders.ts";
import { settleOrder } from "../src/calls/orders/settle.ts";
import { verifyWebhook } from "../src/webhooks/signature.ts";
import { callBody, insertShop, postCall, type ShopFixture } from "./calls-fixtures.ts";
import { type EngineApp, startEngineWithReceiver, waitForEnd } from "./engine-fixtures.ts";
import { newAccount, problem, startApp, type TestAccount, type TestApp } from "./helpers.ts";
import type { Receiver } from "./webhook-receiver.ts";

const at = (iso: string) => new Date(iso);
const state = (
  resolution: OrderResolution,
  when: string | null,
  details: Record<string, unknown> | null = null,
): ResolutionState => ({ resolution, at: when === null ? null : at(when), details });

describe("the supersede rule (domain/orders.ts)", () => {
  const T1 = "2026-11-23T10:00:00Z";
  const T2 = "2026-11-23T11:00:00Z";
  const decisive = ["confirmed", "declined", "rescheduled", "change_requested", "wrong_number"] as const;

  it("never lets unresolved replace anything", () => {
    for (const current of ORDER_RESOLUTIONS) {
      expect(supersedes(state(current, current === "unresolved" ? null : T1), state("unresolved", T2)), current).toBe(
        false,
      );
    }
  });

  it("lets a decisive answer beat callback_requested and unresolved whatever the times, and never the reverse", () => {
    for (const d of decisive) {
      expect(supersedes(state("unresolved", null), state(d, T1)), d).toBe(true);
      expect(supersedes(state("callback_requested", T2), state(d, T1)), d).toBe(true);
      expect(supersedes(state(d, T1), state("callback_requested", T2)), d).toBe(false);
    }
    expect(supersedes(state("unresolved", null), state("callback_requested", T1))).toBe(true);
  });

  it("between decisive answers, lets the later one win, only when it says something else", () => {
    expect(supersedes(state("confirmed", T1), state("declined", T2))).toBe(true);
    expect(supersedes(state("declined", T2), state("confirmed", T1))).toBe(false);
    expect(supersedes(state("confirmed", T1), state("declined", T1))).toBe(false);
    expect(
      supersedes(
        state("confirmed", T1, { transcript_excerpt: "wakha" }),
        state("confirmed", T2, { transcript_excerpt: "oui" }),
      ),
    ).toBe(false);
    expect(
      supersedes(
        state("rescheduled", T1, { preferred_date: "2026-11-28" }),
        state("rescheduled", T2, { preferred_date: "2026-11-30" }),
      ),
    ).toBe(true);
    expect(
      supersedes(
        state("rescheduled", T1, { preferred_date: "2026-11-28", reason: null }),
        state("rescheduled", T2, { preferred_date: "2026-11-28" }),
      ),
    ).toBe(false);
    expect(
      supersedes(
        state("callback_requested", T1, { callback_at: "a" }),
        state("callback_requested", T2, { callback_at: "b" }),
      ),
    ).toBe(true);
  });

  it("gives the same result whatever order distinct-time answers are applied in", () => {
    const answers = [
      state("callback_requested", "2026-11-23T09:00:00Z"),
      state("confirmed", T1),
      state("declined", T2),
      state("unresolved", "2026-11-23T12:00:00Z"),
    ];
    const apply = (list: ResolutionState[]) =>
      list.reduce((cur, next) => (supersedes(cur, next) ? next : cur), state("unresolved", null));
    const permutations = (xs: ResolutionState[]): ResolutionState[][] =>
      xs.length <= 1
        ? [xs]
        : xs.flatMap((x, i) => permutations([...xs.slice(0, i), ...xs.slice(i + 1)]).map((p) => [x, ...p]));
    const results = new Set(permutations(answers).map((p) => apply(p).resolution));
    expect([...results]).toEqual(["declined"]);
  });

  it("maps a call's end to a resolution: completed outcomes, else unresolved", () => {
    expect(resolutionOfCall("completed", "confirmed")).toBe("confirmed");
    expect(resolutionOfCall("completed", "callback_requested")).toBe("callback_requested");
    expect(resolutionOfCall("completed", "no_decision")).toBe("unresolved");
    for (const status of ["no_answer", "busy", "voicemail", "failed", "canceled", "queued", "in_progress"] as const) {
      expect(resolutionOfCall(status, null), status).toBe("unresolved");
    }
  });
});

describe("GET /v1/shops/{shop}/orders/{order} and GET /v1/orders (issue 16)", () => {
  let t: TestApp;
  let acct: TestAccount;
  let stranger: TestAccount;
  let shopA: ShopFixture;
  let shopB: ShopFixture;
  let shopC: ShopFixture;
  /** The account's orders in creation order: [shop, order external id, internal id]. */
  const orders: { shop: string; ext: string; id: string; callId: string }[] = [];
  let strangerOrder: { shop: string; ext: string };

  const get = (url: string, who: TestAccount = acct) => t.app.inject({ method: "GET", url, headers: who.headers });
  const orderUrl = (shop: string, ext: string) =>
    `/v1/shops/${encodeURIComponent(shop)}/orders/${encodeURIComponent(ext)}`;
  const eventsOf = async (accountId: string) =>
    (
      await t.ctx.db.query<{ payload: { external_id: string; resolution: { value: string } } }>(
        "SELECT payload FROM webhook_events WHERE account_id = $1 AND type = 'order.resolved' ORDER BY created_at, id",
        [accountId],
      )
    ).rows.map((r) => r.payload);

  async function newOrder(who: TestAccount, shop: ShopFixture, overrides: Record<string, unknown> = {}) {
    const body = callBody(shop.externalId, overrides);
    const res = await postCall(t, who, body);
    expect(res.statusCode).toBe(201);
    const ext = (body["order"] as { external_id: string }).external_id;
    const { rows } = await t.ctx.db.query<{ id: string }>(
      "SELECT id FROM orders WHERE shop_id = $1 AND external_id = $2",
      [shop.id, ext],
    );
    return { shop: shop.externalId, ext, id: rows[0]!.id, callId: res.json().id as string };
  }

  beforeAll(async () => {
    t = await startApp({ env: { WAKHA_WEBHOOK_ALLOW_PRIVATE: "on" } });
    acct = await newAccount(t.ctx, 1000);
    stranger = await newAccount(t.ctx, 1000);
    // order.resolved is written only for an account with an active webhook; no delivery worker runs here.
    const hook = await t.app.inject({
      method: "POST",
      url: "/v1/me/webhooks",
      headers: acct.headers,
      payload: { url: "http://127.0.0.1:9999/hooks" },
    });
    expect(hook.statusCode).toBe(201);
    shopA = await insertShop(t.ctx, acct.accountId, { merchant: "merchant-1" });
    shopB = await insertShop(t.ctx, acct.accountId, { merchant: "merchant-1" });
    shopC = await insertShop(t.ctx, acct.accountId, { merchant: "merchant-2" });
    const strangerShop = await insertShop(t.ctx, stranger.accountId, {
      merchant: "merchant-1",
      externalId: shopA.externalId,
    });
    for (const shop of [shopA, shopA, shopB, shopC, shopA]) orders.push(await newOrder(acct, shop));
    const s = await newOrder(stranger, strangerShop);
    strangerOrder = { shop: s.shop, ext: s.ext };
    for (const [i, day] of ["2026-01-01", "2026-01-02", "2026-01-03", "2026-01-04", "2026-01-05"].entries()) {
      await t.ctx.db.query("UPDATE orders SET created_at = $2 WHERE id = $1", [orders[i]!.id, `${day}T12:00:00Z`]);
    }
    // Settle some by hand, as a call's end or a WhatsApp reply would.
    const settle = (
      i: number,
      resolution: OrderResolution,
      channel: "voice" | "whatsapp",
      details: Record<string, unknown> | null,
      when: string,
    ) =>
      settleOrder(t.ctx, t.ctx.db, {
        accountId: acct.accountId,
        orderId: orders[i]!.id,
        resolution,
        channel,
        at: at(when),
        details,
        ...(channel === "voice" ? { callId: orders[i]!.callId } : { messageId: `wamid.${i}` }),
      });
    await t.ctx.db.query(
      "UPDATE calls SET status = 'completed', outcome = 'confirmed', ended_at = '2026-01-02T12:05:00Z' WHERE id = $1",
      [orders[1]!.callId],
    );
    expect(await settle(1, "confirmed", "voice", { transcript_excerpt: "wakha" }, "2026-01-02T12:05:00Z")).toEqual({
      changed: true,
    });
    expect(await settle(2, "declined", "whatsapp", { reason: "too expensive" }, "2026-01-03T12:05:00Z")).toEqual({
      changed: true,
    });
    expect(
      await settle(3, "callback_requested", "voice", { callback_at: "2026-01-05T10:00:00Z" }, "2026-01-04T12:05:00Z"),
    ).toEqual({ changed: true });
  });
  afterAll(() => t?.close());

  it("reads an order with its items, attempts and resolution", async () => {
    const res = await get(orderUrl(orders[1]!.shop, orders[1]!.ext));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      external_id: orders[1]!.ext,
      shop_external_id: shopA.externalId,
      merchant_external_id: "merchant-1",
      status: "resolved",
      customer: { name: "Fatima Zahra", phone_number: "+212612345601" },
      items: [
        {
          product_external_id: null,
          variant_external_id: null,
          name: "Caftan",
          variant_name: null,
          unit_price: "249.00",
          quantity: 1,
        },
      ],
      amount: "249.00",
      currency: "MAD",
      country: "MA",
      language: "ar",
      created_at: "2026-01-02T12:00:00.000Z",
      attempts: [
        {
          id: orders[1]!.callId,
          status: "completed",
          outcome: "confirmed",
          created_at: expect.any(String),
          ended_at: "2026-01-02T12:05:00.000Z",
        },
      ],
      resolution: {
        value: "confirmed",
        channel: "voice",
        resolved_at: "2026-01-02T12:05:00.000Z",
        details: { transcript_excerpt: "wakha" },
        call_id: orders[1]!.callId,
        message_id: null,
      },
      // The WhatsApp fallback's messages (issue 16, test/whatsapp-fallback.test.ts): none for an order settled by voice.
      messages: [],
      // Nothing reported by a courier yet (issue 35, test/delivery-events.test.ts).
      delivery: { status: null, updated_at: null, events: [] },
    });
    const open = (await get(orderUrl(orders[0]!.shop, orders[0]!.ext))).json();
    expect(open).toMatchObject({
      status: "open",
      resolution: {
        value: "unresolved",
        channel: null,
        resolved_at: null,
        details: null,
        call_id: null,
        message_id: null,
      },
    });
    expect((await get(orderUrl(orders[2]!.shop, orders[2]!.ext))).json().resolution).toMatchObject({
      value: "declined",
      channel: "whatsapp",
      message_id: "wamid.2",
      call_id: null,
      details: { reason: "too expensive" },
    });
  });

  it("lists an order's retries as attempts, oldest first, with the latest attempt's items", async () => {
    const o = await newOrder(acct, shopC);
    const retry = await postCall(
      t,
      acct,
      callBody(shopC.externalId, {
        order: {
          external_id: o.ext,
          previous_attempts: 1,
          items: [{ name: "Caftan", unit_price: "199.00", quantity: 2 }],
        },
        amount: "398.00",
      }),
    );
    expect(retry.statusCode).toBe(201);
    const order = (await get(orderUrl(o.shop, o.ext))).json();
    expect(order.attempts.map((a: { id: string }) => a.id)).toEqual([o.callId, retry.json().id]);
    expect(order).toMatchObject({ amount: "398.00", items: [{ unit_price: "199.00", quantity: 2 }] });
    // Keep the list tests' fixtures as they were: this order is moved out of their date range.
    await t.ctx.db.query("UPDATE orders SET created_at = '2025-06-01T00:00:00Z' WHERE id = $1", [o.id]);
  });

  it("gives the same 404 not_found for a missing order, a missing shop and another account's order", async () => {
    const shapes = new Set<string>();
    const cases = [
      [shopA.externalId, randomUUID()],
      ["no-such-shop", orders[0]!.ext],
      [strangerOrder.shop, strangerOrder.ext],
      [shopA.externalId, strangerOrder.ext],
      ["bad\u0001shop", "x"],
      [shopA.externalId, "nul\u0000"],
    ] as const;
    for (const [shop, ext] of cases) {
      const url = orderUrl(shop, ext);
      const body = problem(await get(url), "not_found", 404);
      const { request_id: _r, instance, detail, ...rest } = body;
      expect(instance).toBe(url);
      shapes.add(
        JSON.stringify({
          ...rest,
          detail: String(detail).replace(ext.slice(0, 64), "<order>").replace(shop.slice(0, 64), "<shop>"),
        }),
      );
    }
    expect(shapes.size).toBe(1);
    // The stranger reads its own.
    expect((await get(orderUrl(strangerOrder.shop, strangerOrder.ext), stranger)).statusCode).toBe(200);
  });

  it("refuses a bad key on both routes with 401 invalid_api_key", async () => {
    const bad = { headers: { authorization: "Bearer wakha_sk_nope" } } as TestAccount;
    problem(await get("/v1/orders", bad), "invalid_api_key", 401);
    problem(await get(orderUrl(orders[0]!.shop, orders[0]!.ext), bad), "invalid_api_key", 401);
    problem(await t.app.inject({ method: "GET", url: "/v1/orders" }), "invalid_api_key", 401);
  });

  it("lists the account's orders newest first, never another account's", async () => {
    const page = (await get("/v1/orders?created_after=2026-01-01&created_before=2026-01-06")).json();
    expect(page.data.map((o: { external_id: string }) => o.external_id)).toEqual(orders.map((o) => o.ext).reverse());
    expect(page).toMatchObject({ has_more: false, next_cursor: null });
    expect((await get("/v1/orders", stranger)).json().data.map((o: { external_id: string }) => o.external_id)).toEqual([
      strangerOrder.ext,
    ]);
  });

  it("pages with limit and cursor, and keeps the filters in the cursor's scope", async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res = await get(
        `/v1/orders?created_after=2026-01-01&created_before=2026-01-06&limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
      );
      expect(res.statusCode).toBe(200);
      const page = res.json() as { data: { external_id: string }[]; has_more: boolean; next_cursor: string | null };
      expect(page.data.length).toBeLessThanOrEqual(2);
      expect(page.has_more).toBe(page.next_cursor !== null);
      seen.push(...page.data.map((o) => o.external_id));
      cursor = page.next_cursor;
    } while (cursor);
    expect(seen).toEqual(orders.map((o) => o.ext).reverse());
    const first = (await get("/v1/orders?status=open&limit=1")).json();
    expect(first.has_more).toBe(true);
    expect(
      (await get(`/v1/orders?status=open&limit=1&cursor=${encodeURIComponent(first.next_cursor)}`)).statusCode,
    ).toBe(200);
    problem(
      await get(`/v1/orders?status=resolved&limit=1&cursor=${encodeURIComponent(first.next_cursor)}`),
      "invalid_cursor",
      400,
    );
    problem(await get(`/v1/orders?limit=1&cursor=${encodeURIComponent(first.next_cursor)}`), "invalid_cursor", 400);
    problem(
      await get(`/v1/calls?status=queued&limit=1&cursor=${encodeURIComponent(first.next_cursor)}`),
      "invalid_cursor",
      400,
    );
    problem(
      await get(`/v1/orders?status=open&limit=1&cursor=${encodeURIComponent(first.next_cursor)}`, stranger),
      "invalid_cursor",
      400,
    );
  });

  it("filters by status, resolution, shop, merchant and creation time", async () => {
    const ids = async (query: string, range = "created_after=2026-01-01&created_before=2026-01-06") =>
      ((await get(`/v1/orders?${range}&${query}`)).json().data as { external_id: string }[]).map((o) => o.external_id);
    const ext = (...i: number[]) => i.map((n) => orders[n]!.ext);
    expect(await ids("status=resolved")).toEqual(ext(2, 1));
    expect(await ids("status=open")).toEqual(ext(4, 3, 0));
    expect(await ids("resolution=unresolved")).toEqual(ext(4, 0));
    expect(await ids("resolution=callback_requested")).toEqual(ext(3));
    expect(await ids("resolution=declined&status=open")).toEqual([]);
    expect(await ids(`shop_external_id=${shopA.externalId}`)).toEqual(ext(4, 1, 0));
    expect(await ids("merchant_id=merchant-1")).toEqual(ext(4, 2, 1, 0));
    expect(await ids("merchant_id=merchant-2")).toEqual(ext(3));
    expect(await ids("", "created_after=2026-01-02&created_before=2026-01-04")).toEqual(ext(2, 1));
    expect(await ids("", "created_after=2026-01-01&created_before=2026-01-03T12:00:00Z")).toEqual(ext(1, 0));
    expect(await ids("", "created_after=2026-01-02T12:00:00%2B00:00&created_before=2026-01-02T12:00:00.001Z")).toEqual(
      ext(1),
    );
  });

  it("refuses a bad status with 400 invalid_status_filter and other bad filters with 422", async () => {
    const body = problem(await get("/v1/orders?status=done"), "invalid_status_filter", 400);
    expect(String(body["detail"])).toContain("open, resolved");
    problem(await get("/v1/orders?resolution=maybe"), "validation_error", 422);
    problem(await get("/v1/orders?created_after=yesterday"), "validation_error", 422);
    problem(await get("/v1/orders?limit=101"), "validation_error", 422);
  });

  it("emits order.resolved once per change, with the order as GET shows it", async () => {
    const o = await newOrder(acct, shopB);
    const answer = { accountId: acct.accountId, orderId: o.id, channel: "whatsapp" as const, details: null };
    expect(
      await settleOrder(t.ctx, t.ctx.db, { ...answer, resolution: "unresolved", at: at("2026-11-23T09:00:00Z") }),
    ).toEqual({ changed: false });
    expect(
      await settleOrder(t.ctx, t.ctx.db, {
        ...answer,
        resolution: "confirmed",
        at: at("2026-11-23T10:00:00Z"),
        messageId: "wamid.a",
      }),
    ).toEqual({ changed: true });
    // A replay and a late, older answer change nothing.
    expect(
      await settleOrder(t.ctx, t.ctx.db, {
        ...answer,
        resolution: "confirmed",
        at: at("2026-11-23T10:00:00Z"),
        messageId: "wamid.a",
      }),
    ).toEqual({ changed: false });
    expect(
      await settleOrder(t.ctx, t.ctx.db, {
        ...answer,
        resolution: "declined",
        at: at("2026-11-23T09:30:00Z"),
        messageId: "wamid.old",
      }),
    ).toEqual({ changed: false });
    expect(
      await settleOrder(t.ctx, t.ctx.db, {
        ...answer,
        resolution: "callback_requested",
        at: at("2026-11-23T12:00:00Z"),
        messageId: "wamid.cb",
      }),
    ).toEqual({ changed: false });
    expect(
      await settleOrder(t.ctx, t.ctx.db, {
        ...answer,
        resolution: "declined",
        at: at("2026-11-23T11:00:00Z"),
        messageId: "wamid.b",
      }),
    ).toEqual({ changed: true });
    const mine = (await eventsOf(acct.accountId)).filter((e) => e.external_id === o.ext);
    expect(mine.map((e) => e.resolution.value)).toEqual(["confirmed", "declined"]);
    expect(mine[1]).toEqual((await get(orderUrl(o.shop, o.ext))).json());
    const { rows } = await t.ctx.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id
       WHERE e.account_id = $1 AND e.type = 'order.resolved' AND e.payload->>'external_id' = $2`,
      [acct.accountId, o.ext],
    );
    expect(rows[0]!.n).toBe(2);
  });

  it("refuses a settle that names the wrong source, or an order of another account, writing nothing", async () => {
    const o = await newOrder(acct, shopB);
    await expect(
      settleOrder(t.ctx, t.ctx.db, {
        accountId: acct.accountId,
        orderId: o.id,
        resolution: "confirmed",
        channel: "whatsapp",
        at: new Date(),
        details: null,
        callId: o.callId,
      }),
    ).rejects.toThrow();
    await expect(
      settleOrder(t.ctx, t.ctx.db, {
        accountId: stranger.accountId,
        orderId: o.id,
        resolution: "confirmed",
        channel: "voice",
        at: new Date(),
        details: null,
      }),
    ).rejects.toThrow();
    expect((await get(orderUrl(o.shop, o.ext))).json().resolution.value).toBe("unresolved");
  });

  it("judges a settle that waits for another's lock against that one's result: no lost update", async () => {
    const o = await newOrder(acct, shopB);
    const base = {
      accountId: acct.accountId,
      orderId: o.id,
      channel: "voice" as const,
      details: null,
      callId: o.callId,
    };
    let release!: () => void;
    const held = new Promise<void>((r) => {
      release = r;
    });
    let firstDone!: () => void;
    const firstApplied = new Promise<void>((r) => {
      firstDone = r;
    });
    // The later answer is applied first, in a transaction that stays open; the earlier one arrives meanwhile.
    const first = t.ctx.db.tx(async (client) => {
      const r = await settleOrder(t.ctx, client, { ...base, resolution: "confirmed", at: at("2026-11-23T11:00:00Z") });
      firstDone();
      await held;
      return r;
    });
    await firstApplied;
    const second = settleOrder(t.ctx, t.ctx.db, { ...base, resolution: "declined", at: at("2026-11-23T10:00:00Z") });
    // The second is blocked on the order's row lock until the first commits.
    const early = await Promise.race([
      second.then(() => "settled"),
      new Promise((r) => setTimeout(() => r("waiting"), 300)),
    ]);
    expect(early).toBe("waiting");
    release();
    expect(await first).toEqual({ changed: true });
    expect(await second).toEqual({ changed: false });
    expect((await get(orderUrl(o.shop, o.ext))).json().resolution).toMatchObject({
      value: "confirmed",
      resolved_at: "2026-11-23T11:00:00.000Z",
    });
    expect((await eventsOf(acct.accountId)).filter((e) => e.external_id === o.ext)).toHaveLength(1);
  });

  it("lets exactly one of many identical concurrent settles win, and the latest of many different ones stand", async () => {
    const o = await newOrder(acct, shopB);
    const base = { accountId: acct.accountId, orderId: o.id, channel: "whatsapp" as const, details: null };
    const same = await Promise.all(
      Array.from({ length: 8 }, () =>
        settleOrder(t.ctx, t.ctx.db, {
          ...base,
          resolution: "confirmed",
          at: at("2026-11-23T10:00:00Z"),
          messageId: "wamid.same",
        }),
      ),
    );
    expect(same.filter((r) => r.changed)).toHaveLength(1);
    const values: OrderResolution[] = [
      "declined",
      "confirmed",
      "rescheduled",
      "change_requested",
      "declined",
      "wrong_number",
    ];
    const different = await Promise.all(
      values.map((resolution, i) =>
        settleOrder(t.ctx, t.ctx.db, {
          ...base,
          resolution,
          at: at(`2026-11-23T11:0${i}:00Z`),
          messageId: `wamid.${i}`,
        }),
      ),
    );
    const order = (await get(orderUrl(o.shop, o.ext))).json();
    expect(order.resolution).toMatchObject({
      value: "wrong_number",
      message_id: "wamid.5",
      resolved_at: "2026-11-23T11:05:00.000Z",
    });
    const events = (await eventsOf(acct.accountId)).filter((e) => e.external_id === o.ext);
    expect(events).toHaveLength(1 + different.filter((r) => r.changed).length);
    expect(events.at(-1)!.resolution.value).toBe("wrong_number");
  });
});

describe("orders: the read rate limit", () => {
  it("counts GET /v1/orders in the per-key read bucket", async () => {
    const t = await startApp({ env: { WAKHA_RATE_LIMIT_SCALE: "0.002" } });
    try {
      const a = await newAccount(t.ctx, 0);
      const first = await t.app.inject({ method: "GET", url: "/v1/orders", headers: a.headers });
      expect(first.statusCode).toBe(200);
      expect(first.headers["x-ratelimit-limit"]).toBe("1");
      const refused = await t.app.inject({ method: "GET", url: "/v1/shops/s/orders/o", headers: a.headers });
      problem(refused, "rate_limit_exceeded", 429);
      expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
    } finally {
      await t.close();
    }
  });
});

describe("a simulated call settles its order by voice, and order.resolved reaches the receiver signed", () => {
  let t: EngineApp;
  let receiver: Receiver;
  let close: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    ({ t, receiver, close } = await startEngineWithReceiver());
  });
  afterAll(async () => {
    await close?.();
  });

  it("creates calls through the API; each decisive outcome settles its order via voice, an unanswered call leaves it open", async () => {
    const acct = await newAccount(t.ctx, 2000);
    const shop = await insertShop(t.ctx, acct.accountId);
    const hook = await t.app.inject({
      method: "POST",
      url: "/v1/me/webhooks",
      headers: acct.headers,
      payload: { url: `http://127.0.0.1:${receiver.port}/orders` },
    });
    expect(hook.statusCode).toBe(201);
    const secret = hook.json().secret as string;

    const cases = [
      ["01", "confirmed"],
      ["06", "rescheduled"],
      ["03", "unresolved"],
    ] as const;
    const made: { ext: string; callId: string; expected: string }[] = [];
    for (const [suffix, expected] of cases) {
      const ext = `CMD-${randomUUID().slice(0, 8)}`;
      const res = await postCall(
        t,
        acct,
        callBody(shop.externalId, {
          customer: { name: "Fatima Zahra", phone_number: `+2126123456${suffix}` },
          order: { external_id: ext, items: [{ name: "Caftan", unit_price: "249.00" }] },
        }),
      );
      expect(res.statusCode).toBe(201);
      made.push({ ext, callId: res.json().id, expected });
    }
    const ended = await Promise.all(made.map((m) => waitForEnd(t, acct, m.callId, 60_000)));
    for (const [i, m] of made.entries()) {
      const res = await t.app.inject({
        method: "GET",
        url: `/v1/shops/${shop.externalId}/orders/${m.ext}`,
        headers: acct.headers,
      });
      expect(res.statusCode).toBe(200);
      const order = res.json();
      expect(order.attempts, m.ext).toEqual([
        {
          id: m.callId,
          status: ended[i]!.status,
          outcome: ended[i]!.outcome,
          created_at: ended[i]!.created_at,
          ended_at: ended[i]!.ended_at,
        },
      ]);
      if (m.expected === "unresolved") {
        expect(order).toMatchObject({
          status: "open",
          resolution: { value: "unresolved", channel: null, call_id: null },
        });
      } else {
        expect(order).toMatchObject({
          status: "resolved",
          resolution: {
            value: m.expected,
            channel: "voice",
            call_id: m.callId,
            resolved_at: ended[i]!.ended_at,
            details: ended[i]!.outcome_details,
          },
        });
      }
    }

    // One order.resolved per settled order, signed, each once; none for the unanswered call.
    const mine = () =>
      receiver.requests.filter((r) => r.path === "/orders" && r.headers["x-service-event-type"] === "order.resolved");
    const deadline = Date.now() + 20_000;
    while (mine().length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 500));
    const got = mine();
    expect(got).toHaveLength(2);
    expect(new Set(got.map((r) => r.headers["x-service-event-id"])).size).toBe(2);
    for (const r of got) {
      expect(verifyWebhook(secret, r.headers["x-service-signature"] as string, r.body)).toBe(true);
      const event = JSON.parse(r.body);
      expect(event).toMatchObject({ type: "order.resolved", id: r.headers["x-service-event-id"] });
      const m = made.find((x) => x.ext === event.data.external_id)!;
      expect(event.data.resolution).toMatchObject({ value: m.expected, channel: "voice", call_id: m.callId });
    }
    const list = (
      await t.app.inject({ method: "GET", url: "/v1/orders?status=resolved", headers: acct.headers })
    ).json();
    expect(list.data.map((o: { external_id: string }) => o.external_id).sort()).toEqual(
      made
        .filter((m) => m.expected !== "unresolved")
        .map((m) => m.ext)
        .sort(),
    );
    expect(t.errors).toEqual([]);
  }, 90_000);
});
