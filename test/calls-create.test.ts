import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newAccount, problem, startApp, type TestAccount, type TestApp } from "./helpers.ts";
import { callBody, countCalls, insertProduct, insertShop, postCall, type ShopFixture, uid } from "./calls-fixtures.ts";

const CALL_OUT_FIELDS = [
  "id",
  "status",
  "outcome",
  "end_reason",
  "shop_external_id",
  "customer",
  "amount",
  "currency",
  "country",
  "language",
  "dialect",
  "channel",
  "order",
  "outcome_details",
  "created_at",
  "answered_at",
  "ended_at",
  "duration_seconds",
  "billed_seconds",
  "recording_url",
  "scheduled_at",
  "retry_of", // issue 15 (CONTRACT §11)
  "legal_basis",
  "recording_declined", // issue 36 (CONTRACT §12)
  "schedule_reason", // issue 32.6
  "billing_adjustment",
  "waiting_reason", // issue 31.1, 31.3
  "transfer", // issue 34
].sort();

describe("POST /v1/calls (spec 2.1, 2.2, part 4; CONTRACT §4)", () => {
  let t: TestApp;
  let acct: TestAccount;
  let shop: ShopFixture;
  beforeAll(async () => {
    t = await startApp();
    acct = await newAccount(t.ctx, 1000);
    shop = await insertShop(t.ctx, acct.accountId);
    await insertProduct(t.ctx, shop.id, "caftan", [{ id: "caftan-m", price: "450.00", name: "M" }], {
      name: "Caftan brodé",
    });
    await insertProduct(t.ctx, shop.id, "babouche", [
      { id: "bab-red", price: "120.00", name: "Red" },
      { id: "bab-blue", price: "130.5", name: "Blue" },
      { id: "bab-old", price: "99", name: "Old", status: "retired" },
    ]);
    await insertProduct(t.ctx, shop.id, "tajine", [
      { id: "t-small", price: "80", status: "retired" },
      { id: "t-big", price: "150" },
    ]);
    await insertProduct(t.ctx, shop.id, "archived", [{ id: "a1", price: "10" }], { status: "archived" });
  });
  afterAll(() => t.close());

  const items = (lines: unknown[]) => ({ external_id: uid("order"), items: lines });

  it("creates a queued call: 201, Location, CallOut with no internal field, one job in the same transaction", async () => {
    const res = await postCall(t, acct, callBody(shop.externalId));
    expect(res.statusCode).toBe(201);
    const call = res.json();
    expect(res.headers["location"]).toBe(`/v1/calls/${call.id}`);
    expect(res.headers["x-idempotent-replay"]).toBeUndefined();
    expect(Object.keys(call).sort()).toEqual(CALL_OUT_FIELDS);
    expect(call).toMatchObject({
      status: "queued",
      outcome: null,
      end_reason: null,
      shop_external_id: shop.externalId,
      amount: "249.00",
      currency: "MAD",
      country: "MA",
      language: "ar",
      dialect: "ma",
      channel: "gsm",
      outcome_details: null,
      answered_at: null,
      ended_at: null,
      duration_seconds: null,
      billed_seconds: null,
      recording_url: null,
      customer: { name: "Fatima Zahra", phone_number: "+212612345601" },
    });
    expect(call.order.previous_attempts).toBe(0);
    expect(call.order.items).toEqual([
      {
        product_external_id: null,
        variant_external_id: null,
        name: "Caftan",
        variant_name: null,
        unit_price: "249.00",
        quantity: 1,
      },
    ]);
    expect(call.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    for (const internal of ["account_id", "shop_id", "order_id", "seq", "recording_path", "cancel_requested_at"])
      expect(res.body).not.toContain(internal);
    const { rows: jobs } = await t.ctx.db.query("SELECT name, data, state FROM pgboss.job WHERE id = $1", [call.id]);
    expect(jobs).toEqual([{ name: "place-call", data: { call_id: call.id }, state: "created" }]);
    const read = await t.app.inject({ method: "GET", url: `/v1/calls/${call.id}`, headers: acct.headers });
    expect(read.body).toBe(res.body);
  });

  it("defaults language by country and keeps the dialect of the country", async () => {
    const cases: [string, string | undefined, string, string, string][] = [
      ["MA", undefined, "ar", "ma", "MAD"],
      ["DZ", undefined, "ar", "dz", "DZD"],
      ["TN", undefined, "ar", "tn", "TND"],
      ["FR", undefined, "fr", "fr", "EUR"],
      ["MA", "fr", "fr", "ma", "MAD"],
      ["DZ", "fr", "fr", "dz", "DZD"],
      ["TN", "fr", "fr", "tn", "TND"],
      ["FR", "fr", "fr", "fr", "EUR"],
      ["TN", "ar", "ar", "tn", "TND"],
    ];
    for (const [country, language, expected, dialect, currency] of cases) {
      // A mobile number of the call's country (issue 31.5: other countries' numbers are not called).
      const phone = { MA: "+212612345601", DZ: "+213551234501", TN: "+21620123401", FR: "+33612345601" }[country]!;
      const res = await postCall(
        t,
        acct,
        callBody(shop.externalId, {
          country,
          customer: { name: "Fatima Zahra", phone_number: phone },
          ...(language ? { language } : {}),
        }),
      );
      expect(res.statusCode, `${country}/${language}`).toBe(201);
      expect(res.json()).toMatchObject({ language: expected, dialect, currency, country });
    }
  });

  it("refuses FR with ar: 422 language_not_supported_for_country, nothing created", async () => {
    const before = await countCalls(t.ctx, acct.accountId);
    const body = problem(
      await postCall(t, acct, callBody(shop.externalId, { country: "FR", language: "ar" })),
      "language_not_supported_for_country",
      422,
    );
    expect(body["detail"]).toContain("FR");
    expect(await countCalls(t.ctx, acct.accountId)).toBe(before);
  });

  describe("item lines against the call's shop (spec 2.2)", () => {
    it("resolves a single-variant product automatically, with the catalogue name and price", async () => {
      const res = await postCall(
        t,
        acct,
        callBody(shop.externalId, { order: items([{ product_external_id: "caftan", quantity: 2 }]) }),
      );
      expect(res.statusCode).toBe(201);
      expect(res.json().order.items).toEqual([
        {
          product_external_id: "caftan",
          variant_external_id: "caftan-m",
          name: "Caftan brodé",
          variant_name: "M",
          unit_price: "450.00",
          quantity: 2,
        },
      ]);
    });

    it("resolves a named variant; a line's own name and unit_price replace the catalogue's", async () => {
      const res = await postCall(
        t,
        acct,
        callBody(shop.externalId, {
          order: items([
            { product_external_id: "babouche", variant_external_id: "bab-blue" },
            {
              product_external_id: "babouche",
              variant_external_id: "bab-red",
              unit_price: "99.90",
              name: "Promo babouche",
            },
            { name: "Livraison", unit_price: "30" },
            { name: "Cadeau", unit_price: "0", quantity: 3 },
          ]),
        }),
      );
      expect(res.statusCode).toBe(201);
      expect(res.json().order.items).toEqual([
        {
          product_external_id: "babouche",
          variant_external_id: "bab-blue",
          name: "Product babouche",
          variant_name: "Blue",
          unit_price: "130.5",
          quantity: 1,
        },
        {
          product_external_id: "babouche",
          variant_external_id: "bab-red",
          name: "Promo babouche",
          variant_name: "Red",
          unit_price: "99.90",
          quantity: 1,
        },
        {
          product_external_id: null,
          variant_external_id: null,
          name: "Livraison",
          variant_name: null,
          unit_price: "30",
          quantity: 1,
        },
        {
          product_external_id: null,
          variant_external_id: null,
          name: "Cadeau",
          variant_name: null,
          unit_price: "0",
          quantity: 3,
        },
      ]);
    });

    it("ignores retired variants: one active variant left is resolved automatically", async () => {
      const res = await postCall(
        t,
        acct,
        callBody(shop.externalId, { order: items([{ product_external_id: "tajine" }]) }),
      );
      expect(res.statusCode).toBe(201);
      expect(res.json().order.items[0]).toMatchObject({ variant_external_id: "t-big", unit_price: "150" });
    });

    it("needs a variant on a product with several active ones: 422 order_item_variant_required listing them", async () => {
      const body = problem(
        await postCall(t, acct, callBody(shop.externalId, { order: items([{ product_external_id: "babouche" }]) })),
        "order_item_variant_required",
        422,
      );
      expect(body["detail"]).toContain("bab-red");
      expect(body["detail"]).toContain("bab-blue");
      expect(body["detail"]).not.toContain("bab-old");
    });

    it.each([
      ["an unknown product", { product_external_id: "nope" }],
      ["an unknown variant", { product_external_id: "babouche", variant_external_id: "bab-green" }],
      ["a retired variant", { product_external_id: "babouche", variant_external_id: "bab-old" }],
      ["an archived product", { product_external_id: "archived" }],
    ])("refuses %s: 422 order_item_unknown_product, nothing created", async (_name, line) => {
      const before = await countCalls(t.ctx, acct.accountId);
      problem(
        await postCall(t, acct, callBody(shop.externalId, { order: items([{ name: "ok", unit_price: "1" }, line]) })),
        "order_item_unknown_product",
        422,
      );
      expect(await countCalls(t.ctx, acct.accountId)).toBe(before);
    });

    it("resolves products in the call's shop only", async () => {
      const other = await insertShop(t.ctx, acct.accountId);
      await insertProduct(t.ctx, other.id, "only-there", [{ id: "v", price: "5" }]);
      problem(
        await postCall(t, acct, callBody(shop.externalId, { order: items([{ product_external_id: "only-there" }]) })),
        "order_item_unknown_product",
        422,
      );
      expect(
        (await postCall(t, acct, callBody(other.externalId, { order: items([{ product_external_id: "only-there" }]) })))
          .statusCode,
      ).toBe(201);
    });
  });

  describe("shop_external_id (CONTRACT §10)", () => {
    it("gives the same 404 shop_not_found for a missing, an archived and another account's shop", async () => {
      const archived = await insertShop(t.ctx, acct.accountId, { status: "archived" });
      const stranger = await newAccount(t.ctx, 100);
      const foreign = await insertShop(t.ctx, stranger.accountId, { externalId: `foreign-${uid("x")}` });
      const details = new Set<unknown>();
      for (const ext of ["never-created", archived.externalId, foreign.externalId]) {
        const body = problem(await postCall(t, acct, callBody(ext)), "shop_not_found", 404);
        details.add(String(body["detail"]).replace(ext, "<shop>"));
        expect(Object.keys(body).sort()).toEqual(["detail", "instance", "request_id", "status", "title", "type"]);
      }
      expect(details.size).toBe(1);
    });

    it("is decided after the body's validation and before the item lines", async () => {
      problem(await postCall(t, acct, callBody("never-created", { amount: 12 })), "validation_error", 422);
      problem(
        await postCall(t, acct, callBody("never-created", { order: items([{ product_external_id: "nope" }]) })),
        "shop_not_found",
        404,
      );
    });
  });

  describe("order.external_id (spec 7.3.2)", () => {
    it("is unique per shop: 409 order_external_id_already_exists with a hint, even with a new Idempotency-Key", async () => {
      const order = items([{ name: "x", unit_price: "1" }]);
      expect((await postCall(t, acct, callBody(shop.externalId, { order }))).statusCode).toBe(201);
      const before = await countCalls(t.ctx, acct.accountId);
      const body = problem(
        await postCall(t, acct, callBody(shop.externalId, { order, amount: "300" })),
        "order_external_id_already_exists",
        409,
      );
      expect(body["hint"]).toMatch(/Idempotency-Key/);
      expect(body["hint"]).toMatch(/previous_attempts to 1/);
      expect(await countCalls(t.ctx, acct.accountId)).toBe(before);
    });

    it("accepts a new attempt on the order with a higher previous_attempts, and refuses a repeat of it", async () => {
      const order = items([{ name: "x", unit_price: "1" }]);
      const first = await postCall(t, acct, callBody(shop.externalId, { order }));
      const again = await postCall(t, acct, callBody(shop.externalId, { order: { ...order, previous_attempts: 1 } }));
      expect(again.statusCode).toBe(201);
      expect(again.json().id).not.toBe(first.json().id);
      expect(again.json().order).toMatchObject({ external_id: order.external_id, previous_attempts: 1 });
      const body = problem(
        await postCall(t, acct, callBody(shop.externalId, { order: { ...order, previous_attempts: 1 } })),
        "order_external_id_already_exists",
        409,
      );
      expect(body["hint"]).toMatch(/previous_attempts to 2/);
      const { rows } = await t.ctx.db.query(
        "SELECT count(DISTINCT order_id)::int AS orders, count(*)::int AS calls FROM calls WHERE order_external_id = $1",
        [order.external_id],
      );
      expect(rows[0]).toEqual({ orders: 1, calls: 2 });
    });

    it("concurrent creations of one new order under different keys: one call and its job, the others 409 with nothing written", async () => {
      const order = items([{ name: "x", unit_price: "1" }]);
      const keys = Array.from({ length: 8 }, () => uid("key"));
      const since = (await t.ctx.db.query<{ now: Date }>("SELECT now() AS now")).rows[0]!.now;
      const responses = await Promise.all(
        keys.map((key) => postCall(t, acct, callBody(shop.externalId, { order }), key)),
      );
      const created = responses.filter((r) => r.statusCode === 201);
      expect(created).toHaveLength(1);
      for (const r of responses.filter((x) => x.statusCode !== 201))
        problem(r, "order_external_id_already_exists", 409);
      const { rows } = await t.ctx.db.query(
        `SELECT (SELECT count(*) FROM calls WHERE account_id = $1 AND order_external_id = $2)::int AS calls,
                (SELECT count(*) FROM idempotency_keys WHERE account_id = $1 AND key = ANY($3))::int AS keys,
                (SELECT count(*) FROM pgboss.job j WHERE j.name = 'place-call' AND j.created_on >= $4
                   AND NOT EXISTS (SELECT 1 FROM calls c WHERE c.id = j.id))::int AS orphan_jobs,
                (SELECT count(*) FROM pgboss.job WHERE name = 'place-call' AND id = $5)::int AS job`,
        [acct.accountId, order.external_id, keys, since, created[0]!.json().id],
      );
      expect(rows[0]).toEqual({ calls: 1, keys: 1, orphan_jobs: 0, job: 1 });
    });

    it("may repeat in another shop of the account", async () => {
      const other = await insertShop(t.ctx, acct.accountId);
      const order = items([{ name: "x", unit_price: "1" }]);
      expect((await postCall(t, acct, callBody(shop.externalId, { order }))).statusCode).toBe(201);
      expect((await postCall(t, acct, callBody(other.externalId, { order }))).statusCode).toBe(201);
    });
  });

  describe("balance gate (spec 2.10)", () => {
    it.each([[0], [9]])(
      "refuses a balance of %i s: 402 insufficient_balance, nothing created or stored",
      async (balance) => {
        const poor = await newAccount(t.ctx, balance);
        const poorShop = await insertShop(t.ctx, poor.accountId);
        const body = problem(
          await postCall(t, poor, callBody(poorShop.externalId), "poor-key"),
          "insufficient_balance",
          402,
        );
        expect(body["balance_seconds"]).toBe(balance);
        expect(body["required_seconds"]).toBe(10);
        expect(await countCalls(t.ctx, poor.accountId)).toBe(0);
        const { rows } = await t.ctx.db.query(
          `SELECT (SELECT count(*) FROM orders WHERE account_id = $1)::int AS orders,
                (SELECT count(*) FROM idempotency_keys WHERE account_id = $1)::int AS keys,
                (SELECT balance_seconds FROM accounts WHERE id = $1)::int AS balance`,
          [poor.accountId],
        );
        expect(rows[0]).toEqual({ orders: 0, keys: 0, balance });
      },
    );

    it("accepts exactly 10 s and bills nothing at creation", async () => {
      const just = await newAccount(t.ctx, 10);
      const justShop = await insertShop(t.ctx, just.accountId);
      expect((await postCall(t, just, callBody(justShop.externalId))).statusCode).toBe(201);
      const { rows } = await t.ctx.db.query("SELECT balance_seconds FROM accounts WHERE id = $1", [just.accountId]);
      expect(rows[0]!.balance_seconds).toBe(10);
    });
  });
});
