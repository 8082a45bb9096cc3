// Issue 36.3: a customer's "never call me again" as data: outcome_details.opted_out, the number on the account's
// do-not-call list (source customer_request, the call as evidence), the customer.opted_out webhook, the store
// write-back saying so; and every call's legal basis (order_confirmation).
import { createHmac, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DO_NOT_CALL_END_REASON } from "../src/domain/do-not-call.ts";
import { LexiconIntentClassifier } from "../src/engine/dialogue/classifier.ts";
import { createDialogue } from "../src/engine/dialogue/flow.ts";
import type { SimulatedCustomer } from "../src/engine/dialogue/types.ts";
import { createWorkers } from "../src/root/job-handlers.ts";
import type { Workers } from "../src/jobs/runtime.ts";
import { resolutionNote, resolutionTags } from "../src/calls/orders/store-write-back.ts";
import type { Root } from "../src/root/root.ts";
import { callBody, insertShop, postCall } from "./calls-fixtures.ts";
import { NOW, ORDERS } from "./dialogue-fixtures.ts";
import { REQUESTS } from "./do-not-call-fixtures.ts";
import { createEngineDatabase, type EngineApp, startEngineApp, waitForEnd } from "./engine-fixtures.ts";
import { ENCRYPTION_KEY, newAccount, problem } from "./helpers.ts";
import { type Receiver, startReceiver } from "./webhook-receiver.ts";

const CASES = [
  ["ma", "ar"],
  ["dz", "ar"],
  ["tn", "ar"],
  ["ma", "fr"],
  ["dz", "fr"],
  ["tn", "fr"],
  ["fr", "fr"],
] as const;

describe("the dialogue on an opt-out, in every profile", () => {
  it.each(CASES)("%s in %s: declined, opted_out true, at any step", async (dialect, language) => {
    const order = { ...ORDERS[dialect], language };
    const request = language === "fr" ? REQUESTS.fr[0]! : REQUESTS[dialect][1]!;
    for (const replies of [[request], [language === "fr" ? "oui c'est moi" : "iyeh", request]]) {
      const d = createDialogue(order, { classifier: new LexiconIntentClassifier(), now: NOW, random: () => 0 });
      d.opening();
      let turn = { text: "", end: false };
      for (const [i, text] of replies.entries()) turn = await d.hear(text, 2 + i * 4);
      expect(turn.end).toBe(true);
      expect(d.result()).toMatchObject({
        outcome: "declined",
        end_reason: DO_NOT_CALL_END_REASON,
        outcome_details: { reason: "do_not_call", opted_out: true },
      });
    }
  });

  it("an ordinary decline is not an opt-out", async () => {
    const d = createDialogue(ORDERS.fr, { classifier: new LexiconIntentClassifier(), now: NOW, random: () => 0 });
    d.opening();
    await d.hear("oui c'est moi", 2);
    await d.hear("non, annulez la commande, je n'en veux plus", 6);
    if (!d.result()) await d.hear("c'est trop cher", 10);
    expect(d.result()?.outcome).toBe("declined");
    expect(d.result()?.outcome_details).not.toHaveProperty("opted_out");
  });
});

describe("the store write-back of an opt-out", () => {
  it("says the customer asked never to be called again, and tags the order", () => {
    const details = { reason: "do_not_call", opted_out: true, transcript_excerpt: "ne m'appelez plus" };
    expect(resolutionNote("declined", details, "voice")).toMatch(/ne plus jamais être appelé/);
    expect(resolutionTags("declined", details)).toEqual(["wakha:declined", "wakha:opted_out"]);
    expect(resolutionNote("declined", { reason: "trop cher" }, "voice")).not.toMatch(/jamais/);
    expect(resolutionTags("declined", { reason: "trop cher" })).toEqual(["wakha:declined"]);
  });
});

describe("an opt-out in each country, end to end: the call, the list, the webhook, the order", () => {
  const PHONES = { MA: "+212612345631", DZ: "+213551234531", TN: "+21620123431", FR: "+33612345631" } as const;
  const DIALECT = { MA: "ma", DZ: "dz", TN: "tn", FR: "fr" } as const;
  let db: Awaited<ReturnType<typeof createEngineDatabase>>;
  let t: EngineApp;
  let delivery: Workers<Root>;
  let receiver: Receiver;

  function asking(_phone: string, dialect: "ma" | "dz" | "tn" | "fr"): SimulatedCustomer {
    return {
      pickup: "answer",
      ringSeconds: 1,
      reply: (_agent, turn) =>
        turn === 0
          ? { text: dialect === "fr" ? "oui c'est moi" : "iyeh", hangup: false, thinkSeconds: 1 }
          : { text: REQUESTS[dialect][0]!, hangup: false, thinkSeconds: 1 },
    };
  }

  beforeAll(async () => {
    db = await createEngineDatabase();
    t = await startEngineApp({
      databaseUrl: db.url,
      speed: 200,
      parts: { customers: asking },
      env: { WAKHA_WEBHOOK_ALLOW_PRIVATE: "on", WAKHA_ENCRYPTION_KEY: ENCRYPTION_KEY },
    });
    await t.startWorkers();
    delivery = createWorkers(t.ctx, (m) => t.errors.push(m));
    await delivery.start(["deliverWebhook"]);
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await delivery?.stop();
    await receiver?.close();
    await t?.close();
    await db?.drop();
  });

  it("ends opted_out with legal_basis order_confirmation, lists the number with the call as evidence and sends customer.opted_out, signed", async () => {
    const acct = await newAccount(t.ctx, 5000);
    const shop = (await insertShop(t.ctx, acct.accountId)).externalId;
    const hook = await t.app.inject({
      method: "POST",
      url: "/v1/me/webhooks",
      headers: acct.headers,
      payload: { url: `http://127.0.0.1:${receiver.port}/optout` },
    });
    expect(hook.statusCode).toBe(201);
    const secret = hook.json().secret as string;
    const ids = new Map<string, string>();
    for (const country of ["MA", "DZ", "TN", "FR"] as const) {
      const phone = PHONES[country];
      const ext = `OPT-${randomUUID().slice(0, 8)}`;
      const body = {
        country,
        customer: { name: "Nadia", phone_number: phone },
        order: { external_id: ext, items: [{ name: "Caftan", unit_price: "249.00" }] },
      };
      const created = await postCall(t, acct, callBody(shop, body));
      expect(created.statusCode, created.body).toBe(201);
      expect(created.json()).toMatchObject({ legal_basis: "order_confirmation", recording_declined: false });
      const ended = await waitForEnd(t, acct, created.json().id);
      ids.set(phone, ended.id);
      expect(ended, country).toMatchObject({
        status: "completed",
        outcome: "declined",
        end_reason: "do_not_call_requested",
        legal_basis: "order_confirmation",
        outcome_details: { reason: "do_not_call", opted_out: true },
      });
      const entry = await t.app.inject({
        method: "GET",
        url: `/v1/me/do-not-call/${encodeURIComponent(phone)}`,
        headers: acct.headers,
      });
      expect(entry.json(), country).toMatchObject({
        source: "customer_request",
        call_id: ended.id,
        reason: REQUESTS[DIALECT[country]][0],
      });
      // The order's resolution carries the opt-out: it is what the store write-back writes (note and tag).
      const order = (
        await t.app.inject({ method: "GET", url: `/v1/shops/${shop}/orders/${ext}`, headers: acct.headers })
      ).json();
      expect(order.resolution, country).toMatchObject({
        value: "declined",
        call_id: ended.id,
        details: { opted_out: true },
      });
      problem(
        await postCall(t, acct, callBody(shop, { ...body, order: { ...body.order, external_id: randomUUID() } })),
        "number_do_not_call",
        422,
      );
    }
    const optOuts = () =>
      receiver.requests.filter(
        (r) => r.path === "/optout" && r.headers["x-service-event-type"] === "customer.opted_out",
      );
    const deadline = Date.now() + 20_000;
    while (optOuts().length < 4 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const got = optOuts();
    expect(got).toHaveLength(4);
    for (const r of got) {
      const [tPart, v1] = String(r.headers["x-service-signature"]).split(",");
      const stamp = tPart!.slice(2);
      expect(v1).toBe(`v1=${createHmac("sha256", secret).update(`${stamp}.${r.body}`).digest("hex")}`);
      const event = JSON.parse(r.body);
      expect(event.type).toBe("customer.opted_out");
      const phone = event.data.phone_number as string;
      expect(event.data).toMatchObject({
        call_id: ids.get(phone),
        shop_external_id: shop,
        order_external_id: expect.stringMatching(/^OPT-/),
        do_not_call: { source: "customer_request", call_id: ids.get(phone) },
      });
    }
    expect(t.errors).toEqual([]);
  }, 120_000);
});
