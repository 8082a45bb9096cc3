// Issue 36.2: a customer who objects to the recording ("don't record me"), in every profile: the agent says it is
// stopped and the call goes on; no recording is kept (none of it: the audio before the objection is the customer's
// too), the call says recording_declined: true, and no recording.ready is sent.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LexiconIntentClassifier } from "../src/engine/dialogue/classifier.ts";
import { asksNotToBeCalled } from "../src/engine/dialogue/do-not-call.ts";
import { createDialogue, profileFor } from "../src/engine/dialogue/flow.ts";
import { objectsToRecording } from "../src/engine/dialogue/recording-objection.ts";
import type { Dialect, SimulatedCustomer } from "../src/engine/dialogue/types.ts";
import { dzPhrases } from "../src/engine/telephony/simulator/phrases/dz.ts";
import { frPhrases } from "../src/engine/telephony/simulator/phrases/fr.ts";
import { maPhrases } from "../src/engine/telephony/simulator/phrases/ma.ts";
import { tnPhrases } from "../src/engine/telephony/simulator/phrases/tn.ts";
import { cueOf } from "../src/engine/telephony/simulator/customer.ts";
import { callBody, insertShop, postCall } from "./calls-fixtures.ts";
import { NOW, ORDERS } from "./dialogue-fixtures.ts";
import { REQUESTS } from "./do-not-call-fixtures.ts";
import { createEngineDatabase, type EngineApp, eventsOf, startEngineApp, waitForEnd } from "./engine-fixtures.ts";
import { ENCRYPTION_KEY, newAccount, problem } from "./helpers.ts";
import { type Receiver, startReceiver } from "./webhook-receiver.ts";

/** "Don't record me" as customers of each profile say it: Arabic script, arabizi and French. */
export const OBJECTIONS: Record<Dialect, string[]> = {
  ma: ["ما تسجلنيش عافاك", "ma tsajjalnich", "ma bghitch tsajjlou lmkalma", "حبس التسجيل", "ne m'enregistrez pas"],
  dz: ["ما تسجلونيش", "ma tsajlounich khouya", "ma nhebch tsajlouni", "حبس التسجيل", "arrêtez l'enregistrement"],
  tn: ["ما تسجلنيش", "ma tsajjelnich", "ma n7ebech tsajjlouni", "وقفو التسجيل", "bla tasjil"],
  fr: [
    "Ne m'enregistrez pas, s'il vous plaît",
    "Arrêtez l'enregistrement",
    "Je ne veux pas être enregistrée",
    "je refuse l'enregistrement",
    "n'enregistrez pas cet appel",
  ],
};

const BANKS = { ma: maPhrases, dz: dzPhrases, tn: tnPhrases, fr: frPhrases } as const;
const CASES = [
  ["ma", "ar"],
  ["dz", "ar"],
  ["tn", "ar"],
  ["ma", "fr"],
  ["dz", "fr"],
  ["tn", "fr"],
  ["fr", "fr"],
] as const;

describe("the recording-objection detector", () => {
  for (const dialect of ["ma", "dz", "tn", "fr"] as const) {
    it(`recognises the objection in ${dialect}, and tells it apart from "don't call me again"`, () => {
      for (const text of OBJECTIONS[dialect]) {
        expect(objectsToRecording(text, dialect), text).toBe(true);
        expect(asksNotToBeCalled(text, dialect), text).toBe(false);
      }
      for (const text of REQUESTS[dialect]) expect(objectsToRecording(text, dialect), text).toBe(false);
    });

    it(`stays quiet on every line of the ${dialect} simulator's phrase bank`, () => {
      for (const lines of Object.values(BANKS[dialect])) {
        for (const text of lines as readonly string[]) expect(objectsToRecording(text, dialect), text).toBe(false);
      }
    });
  }
});

describe("the dialogue on an objection, in every profile", () => {
  it.each(CASES)(
    "%s in %s: says it stopped, asks its question again, and the call goes on to its outcome",
    async (dialect, language) => {
      const order = { ...ORDERS[dialect], language };
      const p = profileFor(order);
      const objection = language === "fr" ? OBJECTIONS.fr[0]! : OBJECTIONS[dialect][0]!;
      const yes = language === "fr" ? "oui c'est moi" : "iyeh";
      // At the identity check.
      const d = createDialogue(order, { classifier: new LexiconIntentClassifier(), now: NOW, random: () => 0 });
      d.opening();
      const stopped = await d.hear(objection, 3);
      expect(stopped.end).toBe(false);
      expect(stopped.text).toBe(`${p.recordingStopped()} ${p.identityAgain(order)}`);
      expect(cueOf(stopped.text)).toBe("identity");
      expect(d.recordingDeclined?.()).toBe(true);
      // Then at the confirmation question: said again, and the customer's yes still confirms.
      const readBack = await d.hear(yes, 7);
      expect(cueOf(readBack.text)).toBe("confirm");
      const again = await d.hear(objection, 11);
      expect(again.text).toBe(`${p.recordingStopped()} ${p.confirmationQuestion()}`);
      expect(cueOf(again.text)).toBe("confirm");
      const end = await d.hear(language === "fr" ? "oui je confirme" : "iyeh nconfirmi", 15);
      expect(end.end).toBe(true);
      expect(d.result()).toMatchObject({ outcome: "confirmed" });
      expect(d.recordingDeclined?.()).toBe(true);
    },
  );

  it("a call without an objection keeps its recording", async () => {
    const d = createDialogue(ORDERS.fr, { classifier: new LexiconIntentClassifier(), now: NOW, random: () => 0 });
    d.opening();
    await d.hear("oui c'est moi", 3);
    await d.hear("oui je confirme", 7);
    expect(d.recordingDeclined?.()).toBe(false);
  });
});

describe("an objection in each country, end to end: no recording kept, recording_declined, no recording.ready", () => {
  const PHONES = { MA: "+212612345641", DZ: "+213551234541", TN: "+21620123441", FR: "+33612345641" } as const;
  const DIALECT = { MA: "ma", DZ: "dz", TN: "tn", FR: "fr" } as const;
  const CONTROL = "+33612345649";
  let db: Awaited<ReturnType<typeof createEngineDatabase>>;
  let t: EngineApp;
  let receiver: Receiver;

  // Yes to the identity check, then the objection, then yes to the order; the control number never objects.
  function objecting(phone: string, dialect: Dialect): SimulatedCustomer {
    const yes = dialect === "fr" ? "oui je confirme" : "iyeh nconfirmi";
    return {
      pickup: "answer",
      ringSeconds: 1,
      reply: (_agent, turn) => {
        if (turn === 0) return { text: dialect === "fr" ? "oui c'est moi" : "iyeh", hangup: false, thinkSeconds: 1 };
        if (turn === 1 && phone !== CONTROL) return { text: OBJECTIONS[dialect][0]!, hangup: false, thinkSeconds: 1 };
        return { text: yes, hangup: false, thinkSeconds: 1 };
      },
    };
  }

  beforeAll(async () => {
    db = await createEngineDatabase();
    t = await startEngineApp({
      databaseUrl: db.url,
      speed: 200,
      parts: { customers: objecting },
      env: { WAKHA_WEBHOOK_ALLOW_PRIVATE: "on", WAKHA_ENCRYPTION_KEY: ENCRYPTION_KEY },
    });
    await t.startWorkers();
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
    await t?.close();
    await db?.drop();
  });

  it("completes each call confirmed with recording_declined true, recording_url null and GET recording 404; the control call keeps its recording", async () => {
    const acct = await newAccount(t.ctx, 5000);
    const shop = (await insertShop(t.ctx, acct.accountId)).externalId;
    expect(
      (
        await t.app.inject({
          method: "POST",
          url: "/v1/me/webhooks",
          headers: acct.headers,
          payload: { url: receiver.url },
        })
      ).statusCode,
    ).toBe(201);
    const create = async (country: "MA" | "DZ" | "TN" | "FR", phone: string) => {
      const res = await postCall(
        t,
        acct,
        callBody(shop, {
          country,
          customer: { name: "Nadia", phone_number: phone },
          order: { external_id: randomUUID(), items: [{ name: "Caftan", unit_price: "249.00" }] },
        }),
      );
      expect(res.statusCode, res.body).toBe(201);
      return res.json().id as string;
    };
    const control = await create("FR", CONTROL);
    const declined: string[] = [];
    for (const country of ["MA", "DZ", "TN", "FR"] as const) declined.push(await create(country, PHONES[country]));
    await waitForEnd(t, acct, control);
    // The control's recording arrives after its end: wait for it, so a recording the others kept would be there too.
    const deadline = Date.now() + 20_000;
    let controlOut = (await t.app.inject({ method: "GET", url: `/v1/calls/${control}`, headers: acct.headers })).json();
    while (!controlOut.recording_url && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      controlOut = (await t.app.inject({ method: "GET", url: `/v1/calls/${control}`, headers: acct.headers })).json();
    }
    expect(controlOut).toMatchObject({
      outcome: "confirmed",
      recording_declined: false,
      recording_url: expect.any(String),
    });
    for (const [i, id] of declined.entries()) {
      const ended = await waitForEnd(t, acct, id);
      const label = Object.keys(PHONES)[i]!;
      expect(ended, label).toMatchObject({ status: "completed", outcome: "confirmed", recording_declined: true });
      const transcript = (
        await t.app.inject({ method: "GET", url: `/v1/calls/${id}/transcript`, headers: acct.headers })
      ).json();
      expect(JSON.stringify(transcript), label).toContain(
        profileFor({
          dialect: DIALECT[label as keyof typeof DIALECT],
          language: label === "FR" ? "fr" : "ar",
        }).recordingStopped(),
      );
    }
    await new Promise((r) => setTimeout(r, 1000)); // time for a recording that should not be stored
    const stored = await t.ctx.db.query<{ id: string }>(
      "SELECT id::text FROM calls WHERE recording_path IS NOT NULL AND account_id = $1",
      [acct.accountId],
    );
    expect(stored.rows.map((r) => r.id)).toEqual([control]);
    for (const id of declined) {
      expect(
        (await t.app.inject({ method: "GET", url: `/v1/calls/${id}`, headers: acct.headers })).json().recording_url,
      ).toBeNull();
      problem(
        await t.app.inject({ method: "GET", url: `/v1/calls/${id}/recording`, headers: acct.headers }),
        "call_not_found",
        404,
      );
    }
    const ready = (await eventsOf(t.ctx, acct.accountId))
      .filter((e) => e.type === "recording.ready")
      .map((e) => e.payload.id);
    expect(ready).toEqual([control]);
    const ends = (await eventsOf(t.ctx, acct.accountId)).filter(
      (e) => e.type === "call.ended" && declined.includes(e.payload.id),
    );
    expect(ends.map((e) => e.payload.recording_declined)).toEqual([true, true, true, true]);
    expect(t.errors).toEqual([]);
  }, 120_000);
});
