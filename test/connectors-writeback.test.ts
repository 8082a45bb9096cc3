// Issue 17, outcomes back: a Shopify-shaped order webhook becomes a call, the simulated customer decides (CONTRACT §5:
// a number ending 01 confirms, 02 declines, 09 asks for a change), and the resolution appears on the fake store as a
// `wakha:*` tag and a note; rate limits are retried, revoked credentials end as `failed`, each visible in the log.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requeueStuckWriteBacks, resolutionNote } from "../src/calls/orders/store-write-back.ts";
import { type ConnectorEngine, startConnectorEngine } from "./connector-fixtures.ts";
import { type EngineApp, waitForEnd } from "./engine-fixtures.ts";
import { FakeShopify, shopifyOrder } from "./fakes/shopify.ts";
import type { TestAccount } from "./helpers.ts";

const TOKEN = "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";
const SECRET = "0f1e2d3c4b5a69788796a5b4c3d2e1f0";

describe("Shopify write-back of resolutions", () => {
  let fake: FakeShopify;
  let env: ConnectorEngine;
  let t: EngineApp;
  let a: TestAccount;
  let shop: string;
  let path: string;
  let orderSeq = 6_000_000_000 + Math.floor(Math.random() * 1_000_000) * 100;

  beforeAll(async () => {
    fake = await new FakeShopify().start();
    fake.tokens.add(TOKEN);
    env = await startConnectorEngine({ WAKHA_SHOPIFY_ADMIN_URL: fake.url });
    ({ t, a, shop } = env);
    const res = await t.app.inject({
      method: "PUT",
      url: `/v1/shops/${shop}/connector`,
      headers: a.headers,
      payload: {
        platform: "shopify",
        store_url: "https://wakha-test.myshopify.com",
        access_token: TOKEN,
        webhook_secret: SECRET,
      },
    });
    path = new URL(res.json().webhook_url as string).pathname;
  }, 60_000);
  afterAll(async () => {
    await env?.close();
    await fake?.close();
  });

  /** Places a Shopify order for `phone` on the fake store and delivers its webhook; returns the order id and its call. */
  async function order(phone: string, tags: string[] = []): Promise<{ id: string; callId: string }> {
    const id = String(++orderSeq);
    fake.addOrder(id, "Livrer avant 18h\nWakha: ancienne ligne", tags);
    const raw = JSON.stringify(shopifyOrder({ id: Number(id), phone }));
    const res = await t.app.inject({
      method: "POST",
      url: path,
      headers: fake.deliveryHeaders(raw, SECRET),
      payload: raw,
    });
    expect(res.json()).toEqual({ status: "ok", result: "call_created" });
    const { rows } = await t.ctx.db.query<{ id: string }>("SELECT id FROM calls WHERE order_external_id = $1", [id]);
    return { id, callId: rows[0]!.id };
  }

  const writeBack = (platformOrderId: string, timeoutMs?: number) => env.writeBackOf(platformOrderId, timeoutMs);

  it("a confirmed order gets the tag wakha:confirmed and a French note, the merchant's tags and note kept", async () => {
    const { id, callId } = await order("06 12 34 56 01", ["vip", "wakha:callback_requested"]);
    const call = await waitForEnd(t, a, callId);
    expect(call).toMatchObject({
      status: "completed",
      outcome: "confirmed",
      customer: { phone_number: "+212612345601" },
    });
    const entry = await writeBack(id);
    expect(entry).toMatchObject({
      status: "succeeded",
      resolution: "confirmed",
      attempts: 1,
      last_error: null,
      call_id: callId,
    });
    // An earlier wakha: tag and Wakha: line are replaced; the merchant's own are kept.
    expect(fake.orders.get(id)).toEqual({
      id,
      tags: ["vip", "wakha:confirmed"],
      note: "Livrer avant 18h\nWakha: commande confirmée par le client par téléphone. Livraison : adresse confirmée par le client.",
    });
    // The shipping address was read back and confirmed (issue 35): Shopify gets it as an order attribute too.
    expect(fake.attributes.get(id)).toEqual([{ key: "wakha_address_confirmed", value: "yes" }]);
    const calls = fake.requests.filter((r) => JSON.stringify(r.variables).includes(`Order/${id}`));
    expect(calls.every((r) => r.token === TOKEN)).toBe(true);
  });

  it("the address read back (issue 35): 16 corrects the city; the note says so and the order attributes carry it, the merchant's kept", async () => {
    const { id, callId } = await order("06 12 34 56 16");
    fake.attributes.set(id, [
      { key: "gift_wrap", value: "yes" },
      { key: "wakha_landmark", value: "old" },
    ]);
    const call = await waitForEnd(t, a, callId);
    expect(call).toMatchObject({
      outcome: "confirmed",
      customer: { address: { city: "Casablanca", line1: "12 rue Ibn Battouta" } },
      outcome_details: { delivery: { address_confirmed: false, corrected: { city: "Rabat" } } },
    });
    expect(await writeBack(id)).toMatchObject({ status: "succeeded", resolution: "confirmed" });
    expect(fake.orders.get(id)!.note).toBe(
      "Livrer avant 18h\nWakha: commande confirmée par le client par téléphone. Livraison : ville corrigée par le client : Rabat.",
    );
    expect(fake.attributes.get(id)).toEqual([
      { key: "gift_wrap", value: "yes" },
      { key: "wakha_address_confirmed", value: "no" },
      { key: "wakha_corrected_city", value: "Rabat" },
    ]);
  });

  it("a change request goes into the note in French", async () => {
    const { id, callId } = await order("0612345609");
    const call = await waitForEnd(t, a, callId);
    expect(call.outcome).toBe("change_requested");
    expect(await writeBack(id)).toMatchObject({ status: "succeeded", resolution: "change_requested" });
    const o = fake.orders.get(id)!;
    expect(o.tags).toEqual(["wakha:change_requested"]);
    expect(o.note).toMatch(/^Livrer avant 18h\nWakha: le client par téléphone demande une modification : .+\.$/);
  });

  it("retries a throttled and a rate-limited (429 Retry-After) write-back, then succeeds", async () => {
    fake.throttleNext = 1;
    fake.http429Next = 1;
    const { id, callId } = await order("0612345602");
    expect((await waitForEnd(t, a, callId)).outcome).toBe("declined");
    const entry = await writeBack(id, 30_000);
    expect(entry).toMatchObject({ status: "succeeded", resolution: "declined", last_error: null });
    // One attempt is refused with 429, one throttled (the fake's bucket emptied), and one succeeds. A retry can meet one
    // more transient refusal (a throttle while the bucket refills, or a slow answer under load): seen once in CI, with
    // the machine's other core busy, as a fourth attempt.
    expect(entry.attempts).toBeGreaterThanOrEqual(3);
    expect(entry.attempts).toBeLessThanOrEqual(4);
    expect(fake.orders.get(id)!.tags).toEqual(["wakha:declined"]);
    expect(fake.requests.map((r) => r.outcome)).toEqual(expect.arrayContaining(["throttled", "429"]));
  });

  it("records a write-back with revoked credentials as failed, with the platform's refusal", async () => {
    fake.tokens.delete(TOKEN);
    try {
      const { id, callId } = await order("0612345601");
      await waitForEnd(t, a, callId);
      const entry = await writeBack(id);
      expect(entry).toMatchObject({ status: "failed", reason: "credentials_refused", attempts: 1 });
      expect(String(entry["last_error"])).toMatch(/401/);
      expect(fake.orders.get(id)!.tags).toEqual([]);
      // Issue 32.5: once the token works again, the failed write-back is sent again on request.
      fake.tokens.add(TOKEN);
      const url = `/v1/shops/${shop}/connector/events/${String(entry["id"])}/retry`;
      const retried = await t.app.inject({ method: "POST", url, headers: a.headers });
      expect(retried.statusCode, retried.body).toBe(200);
      expect(retried.json()).toMatchObject({ id: entry["id"], status: "pending", reason: null, attempts: 0 });
      const deadline = Date.now() + 15_000;
      while (Date.now() < deadline && fake.orders.get(id)!.tags.length === 0)
        await new Promise((r) => setTimeout(r, 100));
      expect(fake.orders.get(id)!.tags).toEqual(["wakha:confirmed"]);
      expect(await writeBack(id)).toMatchObject({ status: "succeeded", attempts: 1 });
      // only a failed one can be retried; an unknown id, or another account's, is not found
      const again = await t.app.inject({ method: "POST", url, headers: a.headers });
      expect([again.statusCode, again.json().type]).toEqual([409, expect.stringMatching(/\/conflict$/)]);
      for (const other of [
        `/v1/shops/${shop}/connector/events/${"0".repeat(8)}-0000-4000-8000-${"0".repeat(12)}/retry`,
        `/v1/shops/${shop}/connector/events/nope/retry`,
      ]) {
        expect((await t.app.inject({ method: "POST", url: other, headers: a.headers })).statusCode).toBe(404);
      }
    } finally {
      fake.tokens.add(TOKEN);
    }
  });

  it("writes a decline's reason in the note's language (French), not the engine's English label", () => {
    expect(resolutionNote("declined", { reason: "too expensive" }, "voice")).toBe(
      "commande refusée par le client par téléphone. Motif : trop cher.",
    );
    expect(resolutionNote("declined", { reason: "changed their mind" }, "whatsapp")).toBe(
      "commande refusée par le client sur WhatsApp. Motif : a changé d'avis.",
    );
    // the customer's own words, when no reason was recognised, are kept as said
    expect(resolutionNote("declined", { reason: "ma bghitch" }, "voice")).toContain("Motif : ma bghitch.");
  });

  it("the minute sweep re-sends a pending write-back whose job was lost", async () => {
    const { id, callId } = await order("0612345601");
    await waitForEnd(t, a, callId);
    await writeBack(id);
    fake.orders.get(id)!.tags = [];
    // A write-back recorded, its job gone (a crash before pg-boss ran it), untouched for 11 minutes.
    const { rows } = await t.ctx.db.query<{ id: string }>(
      `INSERT INTO connector_events (id, connector_id, account_id, kind, status, platform_order_id, order_id, resolution, attempts, updated_at)
       SELECT gen_random_uuid(), connector_id, account_id, 'write_back', 'pending', platform_order_id, order_id, 'confirmed', 1, now() - interval '11 minutes'
       FROM connector_events WHERE kind = 'order' AND platform_order_id = $1 RETURNING id`,
      [id],
    );
    // (The engine's own minute sweep may get there first: then this finds nothing left to send.)
    expect(await requeueStuckWriteBacks(t.ctx)).toBeLessThanOrEqual(1);
    expect(await requeueStuckWriteBacks(t.ctx)).toBe(0);
    const deadline = Date.now() + 15_000;
    let status = "";
    while (Date.now() < deadline) {
      const r = await t.ctx.db.query<{ status: string; attempts: number }>(
        "SELECT status, attempts FROM connector_events WHERE id = $1",
        [rows[0]!.id],
      );
      status = `${r.rows[0]!.status}/${r.rows[0]!.attempts}`;
      if (status.startsWith("succeeded")) break;
      await new Promise((res) => setTimeout(res, 100));
    }
    expect(status).toBe("succeeded/2");
    expect(fake.orders.get(id)!.tags).toEqual(["wakha:confirmed"]);
  });

  it("logged no engine or worker error", () => {
    expect(t.errors).toEqual([]);
  });
});
