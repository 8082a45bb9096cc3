// Issue 37.2 end to end: a simulator call placed by the engine answers from the shop's knowledge as it is when the call
// is placed (read with the shop at the claim), and records what it could not answer on the call.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ModelIntentClassifier } from "../src/engine/dialogue/model/model.ts";
import type { SimulatedCustomer } from "../src/engine/dialogue/types.ts";
import { cueOf } from "../src/engine/telephony/simulator/customer.ts";
import { newAccount, type TestAccount } from "./helpers.ts";
import { createEngineDatabase, type EngineApp, startEngineApp, waitForEnd } from "./engine-fixtures.ts";
import { SHOP_KNOWLEDGE } from "./knowledge-fixtures.ts";

/** A customer who says who they are, asks how to pay, then confirms. */
function asker(): SimulatedCustomer {
  let asked = false;
  return {
    pickup: "answer",
    ringSeconds: 2,
    reply(agentText) {
      if (cueOf(agentText) === "identity") return { text: "iyeh ana", hangup: false, thinkSeconds: 1 };
      if (!asked) {
        asked = true;
        return { text: "wach n9der nkhalas b lkart?", hangup: false, thinkSeconds: 1 };
      }
      return { text: "iyeh, wakha, sifto", hangup: false, thinkSeconds: 1 };
    },
  };
}

describe("the shop's answers on a placed call (issue 37)", () => {
  let db: { url: string; drop(): Promise<void> };
  let t: EngineApp;
  let a: TestAccount;
  const shop = `s-${randomUUID().slice(0, 8)}`;
  beforeAll(async () => {
    db = await createEngineDatabase();
    t = await startEngineApp({
      databaseUrl: db.url,
      parts: { classifier: new ModelIntentClassifier(), customers: () => asker() },
    });
    await t.startWorkers();
    a = await newAccount(t.ctx, 3600);
    await t.app.inject({
      method: "POST",
      url: "/v1/shops",
      headers: a.headers,
      payload: { external_id: shop, merchant_external_id: "m", name: "Dar Lbahja" },
    });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await db?.drop();
  });

  const place = async () => {
    const created = await t.app.inject({
      method: "POST",
      url: "/v1/calls",
      headers: { ...a.headers, "idempotency-key": randomUUID() },
      payload: {
        shop_external_id: shop,
        customer: { name: "Fatima", phone_number: "+212612345699" },
        amount: "690.00",
        country: "MA",
        order: { external_id: randomUUID(), items: [{ name: "Caftan", unit_price: "690.00" }] },
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const call = await waitForEnd(t, a, created.json().id);
    const transcript = (
      await t.app.inject({ method: "GET", url: `/v1/calls/${call.id}/transcript`, headers: a.headers })
    ).json();
    return {
      call,
      agent: transcript.turns
        .filter((e: { speaker: string }) => e.speaker === "agent")
        .map((e: { text: string }) => e.text)
        .join("\n"),
    };
  };

  it("with knowledge: the payment question is answered from it and the call confirms with nothing unanswered", async () => {
    expect(
      (
        await t.app.inject({
          method: "PUT",
          url: `/v1/shops/${shop}/knowledge`,
          headers: a.headers,
          payload: SHOP_KNOWLEDGE as object,
        })
      ).statusCode,
    ).toBe(200);
    const { call, agent } = await place();
    expect(call.outcome).toBe("confirmed");
    expect(agent).toContain("بالكارط عند الليفرور");
    expect(call.outcome_details).not.toHaveProperty("unanswered_questions");
  }, 30_000);

  it("after DELETE, the next call says it does not know and records the question on the call", async () => {
    expect(
      (await t.app.inject({ method: "DELETE", url: `/v1/shops/${shop}/knowledge`, headers: a.headers })).statusCode,
    ).toBe(204);
    const { call, agent } = await place();
    expect(call.outcome).toBe("confirmed");
    expect(agent).not.toContain("بالكارط");
    expect(call.outcome_details).toMatchObject({ unanswered_questions: ["wach n9der nkhalas b lkart?"] });
  }, 30_000);
});
