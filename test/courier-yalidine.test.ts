// Yalidine's webhooks (issue 35) against a fake of its documented boundary: Yalidine's own sample payloads replayed
// verbatim, signed as its documentation says (X-YALIDINE-SIGNATURE = hex HMAC-SHA256 of the raw body with the secret
// key), its GET crc_token check; duplicates, out-of-order events, unknown parcels, bad signatures and addresses.
import { createHmac } from "node:crypto";
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { algeriaTimeToIso, yalidineStatus } from "../src/connectors/couriers/yalidine.ts";
import { callBody, insertShop, postCall, type ShopFixture } from "./calls-fixtures.ts";
import { connect, fails, type ListeningApp, ok, startListening } from "./mcp-client.ts";
import { newAccount, problem, type TestAccount } from "./helpers.ts";

const SECRET = "yalidine-webhook-secret-0123456789";
const sample = (name: string) => readFileSync(new URL(`./fixtures/vendors/yalidine/${name}`, import.meta.url));

/** Yalidine's side of the wire: what its webhook service sends to the address it was given. */
class FakeYalidine {
  readonly app: ListeningApp["app"];
  readonly path: string;
  readonly secret: string;
  constructor(app: ListeningApp["app"], path: string, secret: string) {
    this.app = app;
    this.path = path;
    this.secret = secret;
  }
  sign(body: Buffer): string {
    return createHmac("sha256", this.secret).update(body).digest("hex");
  }
  post(body: Buffer, signature: string | null = this.sign(body)) {
    return this.app.inject({
      method: "POST",
      url: this.path,
      headers: { "content-type": "application/json", ...(signature ? { "x-yalidine-signature": signature } : {}) },
      payload: body,
    });
  }
  validate(token: string) {
    return this.app.inject({ method: "GET", url: `${this.path}?subscribe=1&crc_token=${encodeURIComponent(token)}` });
  }
  /** A parcel_status_updated delivery in the documented shape. */
  static status(
    events: { id: string; at: string; tracking: string; status: string; reason?: string | null }[],
  ): Buffer {
    return Buffer.from(
      JSON.stringify({
        type: "parcel_status_updated",
        events: events.map((e) => ({
          event_id: e.id,
          occurred_at: e.at,
          data: { tracking: e.tracking, status: e.status, reason: e.reason ?? null },
        })),
      }),
    );
  }
}

describe("Yalidine parcel webhooks (issue 35)", () => {
  let t: ListeningApp;
  let acct: TestAccount;
  let stranger: TestAccount;
  let shop: ShopFixture;
  let yalidine: FakeYalidine;
  let path: string;

  const order = async (ext: string) =>
    (
      await t.app.inject({ method: "GET", url: `/v1/shops/${shop.externalId}/orders/${ext}`, headers: acct.headers })
    ).json();

  beforeAll(async () => {
    t = await startListening();
    acct = await newAccount(t.ctx, 1000);
    stranger = await newAccount(t.ctx, 1000);
    shop = await insertShop(t.ctx, acct.accountId);
    for (const ext of ["myfirstorder", "mysecondorder", "thirdorder"]) {
      expect(
        (
          await postCall(
            t,
            acct,
            callBody(shop.externalId, {
              country: "DZ",
              customer: { name: "Yacine", phone_number: "+213550123401" },
              order: { external_id: ext, items: [{ name: "Montre", unit_price: "4500" }] },
            }),
          )
        ).statusCode,
      ).toBe(201);
    }
    const res = await t.app.inject({
      method: "PUT",
      url: `/v1/shops/${shop.externalId}/couriers/yalidine`,
      headers: acct.headers,
      payload: { webhook_secret: SECRET },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      courier: "yalidine",
      shop_external_id: shop.externalId,
      webhook_secret_last4: "6789",
    });
    expect(res.json()).not.toHaveProperty("webhook_secret");
    path = new URL(res.json().webhook_url as string).pathname;
    yalidine = new FakeYalidine(t.app, path, SECRET);
  });
  afterAll(() => t?.close());

  it("answers Yalidine's crc_token check with the token, and only at a configured address", async () => {
    const res = await yalidine.validate("crc-4f2a");
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe("crc-4f2a");
    expect(
      (await t.app.inject({ method: "GET", url: `/couriers/yalidine/nope?subscribe=1&crc_token=x` })).statusCode,
    ).toBe(404);
  });

  it("links parcels to orders from parcel_created, then records parcel_status_updated (Yalidine's samples, verbatim)", async () => {
    expect((await yalidine.post(sample("parcel-created.json"))).json()).toEqual({
      status: "ok",
      recorded: 0,
      duplicates: 0,
      linked: 2,
      ignored: 0,
    });
    expect((await yalidine.post(sample("parcel-status-updated.json"))).json()).toEqual({
      status: "ok",
      recorded: 2,
      duplicates: 0,
      linked: 0,
      ignored: 0,
    });
    expect((await order("myfirstorder")).delivery).toMatchObject({
      status: "out_for_delivery",
      updated_at: "2022-04-27T23:01:26.000Z",
      events: [
        {
          event_id: "yalidine:kMX49vEjBTcJHsFLf8tnYR5GO3I1gyAN",
          status: "out_for_delivery",
          carrier: "yalidine",
          tracking_number: "yal-111AAA",
          reason: null,
          source: "yalidine",
        },
      ],
    });
    expect((await order("mysecondorder")).delivery).toMatchObject({
      status: "unreachable",
      events: [{ reason: "Client ne répond pas", tracking_number: "yal-222BBB" }],
    });
    // Yalidine retries and redelivers: the same events again change nothing.
    expect((await yalidine.post(sample("parcel-status-updated.json"))).json()).toMatchObject({
      recorded: 0,
      duplicates: 2,
    });
    expect((await order("myfirstorder")).delivery.events).toHaveLength(1);
  });

  it("lets the latest occurred_at decide when Yalidine's events arrive out of order", async () => {
    await yalidine.post(
      FakeYalidine.status([{ id: "late-livre", at: "2022-04-29 10:00:00", tracking: "yal-111AAA", status: "Livré" }]),
    );
    await yalidine.post(
      FakeYalidine.status([
        { id: "early-sorti", at: "2022-04-29 08:00:00", tracking: "yal-111AAA", status: "Sorti en livraison" },
      ]),
    );
    const delivery = (await order("myfirstorder")).delivery;
    expect(delivery.status).toBe("delivered");
    expect(delivery.events.map((e: { status: string }) => e.status)).toEqual([
      "out_for_delivery",
      "out_for_delivery",
      "delivered",
    ]);
  });

  it("finds a parcel by the tracking number a delivery event named, and ignores unknown parcels and preparation statuses", async () => {
    const api = await t.app.inject({
      method: "POST",
      url: `/v1/shops/${shop.externalId}/orders/thirdorder/delivery-events`,
      headers: acct.headers,
      payload: {
        event_id: "api-1",
        status: "in_transit",
        occurred_at: "2022-05-01T08:00:00Z",
        carrier: "yalidine",
        tracking_number: "yal-333CCC",
      },
    });
    expect(api.statusCode).toBe(201);
    const res = await yalidine.post(
      FakeYalidine.status([
        {
          id: "r1",
          at: "2022-05-02 09:00:00",
          tracking: "yal-333CCC",
          status: "Retourné au vendeur",
          reason: "Refus client",
        },
        { id: "u1", at: "2022-05-02 09:00:00", tracking: "yal-999ZZZ", status: "Livré" },
        { id: "p1", at: "2022-05-02 09:00:00", tracking: "yal-333CCC", status: "En préparation" },
      ]),
    );
    expect(res.json()).toEqual({ status: "ok", recorded: 1, duplicates: 0, linked: 0, ignored: 2 });
    expect((await order("thirdorder")).delivery).toMatchObject({ status: "returned" });
  });

  it("refuses a missing or wrong signature (401), a body that is not Yalidine's (400) and an unknown address (404), recording nothing", async () => {
    const body = FakeYalidine.status([
      { id: "forged", at: "2022-06-01 10:00:00", tracking: "yal-222BBB", status: "Livré" },
    ]);
    expect((await yalidine.post(body, null)).statusCode).toBe(401);
    expect(
      (await yalidine.post(body, createHmac("sha256", "guessed-secret").update(body).digest("hex"))).statusCode,
    ).toBe(401);
    const bad = Buffer.from(JSON.stringify({ hello: "world" }));
    const refused = await yalidine.post(bad);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({ detail: expect.stringContaining("not a Yalidine webhook") });
    expect(
      (
        await t.app.inject({
          method: "POST",
          url: "/couriers/yalidine/unknown-token",
          payload: body,
          headers: { "content-type": "application/json", "x-yalidine-signature": yalidine.sign(body) },
        })
      ).statusCode,
    ).toBe(404);
    expect((await order("mysecondorder")).delivery.status).toBe("unreachable");
  });

  it("keeps the courier webhook to its account: another account's shop is shop_not_found, a bad key 401; MCP reads it", async () => {
    problem(
      await t.app.inject({
        method: "GET",
        url: `/v1/shops/${shop.externalId}/couriers/yalidine`,
        headers: stranger.headers,
      }),
      "shop_not_found",
      404,
    );
    problem(
      await t.app.inject({
        method: "PUT",
        url: `/v1/shops/${shop.externalId}/couriers/yalidine`,
        headers: { authorization: "Bearer nope" },
        payload: { webhook_secret: SECRET },
      }),
      "invalid_api_key",
      401,
    );
    problem(
      await t.app.inject({
        method: "PUT",
        url: `/v1/shops/${shop.externalId}/couriers/yalidine`,
        headers: acct.headers,
        payload: { webhook_secret: "short" },
      }),
      "validation_error",
      422,
    );
    const client = await connect(t.url, acct.apiKey);
    expect(await ok(client, "get_courier", { shop_external_id: shop.externalId, courier: "yalidine" })).toMatchObject({
      webhook_url: expect.stringContaining(path),
    });
    const other = await insertShop(t.ctx, acct.accountId);
    await fails(client, "get_courier", { shop_external_id: other.externalId, courier: "yalidine" }, "not_found");
    await client.close();
  });

  it("maps Yalidine's words and Algerian time", () => {
    expect(
      [
        "Livré",
        "Sorti en livraison",
        "Tentative échouée",
        "Echèc livraison",
        "Retour vers vendeur",
        "Vers Wilaya",
        "En préparation",
      ].map(yalidineStatus),
    ).toEqual(["delivered", "out_for_delivery", "unreachable", "refused", "returned", "in_transit", null]);
    expect(algeriaTimeToIso("2022-04-28 00:01:26")).toBe("2022-04-27T23:01:26.000Z");
  });

  it("stops at a removed webhook", async () => {
    expect(
      (
        await t.app.inject({
          method: "DELETE",
          url: `/v1/shops/${shop.externalId}/couriers/yalidine`,
          headers: acct.headers,
        })
      ).statusCode,
    ).toBe(204);
    expect((await yalidine.validate("x")).statusCode).toBe(404);
    problem(
      await t.app.inject({
        method: "GET",
        url: `/v1/shops/${shop.externalId}/couriers/yalidine`,
        headers: acct.headers,
      }),
      "not_found",
      404,
    );
  });
});
