// Issue 32.6: listing a number ends its queued calls at once (failed, `number_do_not_call`, with call.ended), and a
// `scheduled_at` the calling hours moved says why (`schedule_reason`).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newAccount, startApp, type TestAccount, type TestApp } from "./helpers.ts";
import { callBody, insertShop, postCall } from "./calls-fixtures.ts";
import { eventsOf } from "./engine-fixtures.ts";

const DAY = 24 * 3600_000;

describe("do-not-call ends queued calls at once (issue 32.6)", () => {
  let t: TestApp;
  let a: TestAccount;
  let shop: string;
  beforeAll(async () => {
    t = await startApp({ env: { WAKHA_CALLING_HOURS: "off", WAKHA_WEBHOOK_ALLOW_PRIVATE: "true" } });
    a = await newAccount(t.ctx, 1000);
    shop = (await insertShop(t.ctx, a.accountId)).externalId;
    // an endpoint, so events are recorded (nothing is sent: no delivery worker runs here)
    const hook = await t.app.inject({
      method: "POST",
      url: "/v1/me/webhooks",
      headers: a.headers,
      payload: { url: "http://127.0.0.1:49999/hooks" },
    });
    expect(hook.statusCode, hook.body).toBe(201);
  });
  afterAll(async () => {
    await t?.close();
  });

  it("a call queued for days ends failed number_do_not_call when its number is listed, with call.ended; other numbers' calls stay", async () => {
    const phone = "+212612340777";
    const later = new Date(Date.now() + 3 * DAY).toISOString();
    const listed = (
      await postCall(t, a, callBody(shop, { scheduled_at: later, customer: { name: "Karim", phone_number: phone } }))
    ).json() as { id: string };
    const other = (
      await postCall(
        t,
        a,
        callBody(shop, { scheduled_at: later, customer: { name: "Nadia", phone_number: "+212612340778" } }),
      )
    ).json() as { id: string };
    const res = await t.app.inject({
      method: "POST",
      url: "/v1/me/do-not-call",
      headers: a.headers,
      payload: { phone_number: phone },
    });
    expect(res.statusCode, res.body).toBe(201);
    const call = (
      await t.app.inject({ method: "GET", url: `/v1/calls/${listed.id}`, headers: a.headers })
    ).json() as Record<string, unknown>;
    expect(call).toMatchObject({
      status: "failed",
      end_reason: "number_do_not_call",
      billed_seconds: 0,
      outcome_details: { error: { code: "number_do_not_call" } },
    });
    expect(call["ended_at"]).not.toBeNull();
    const kept = (
      await t.app.inject({ method: "GET", url: `/v1/calls/${other.id}`, headers: a.headers })
    ).json() as Record<string, unknown>;
    expect(kept["status"]).toBe("queued");
    const ended = (await eventsOf(t.ctx, a.accountId)).filter((e) => e.type === "call.ended");
    expect(ended.map((e) => JSON.stringify(e.payload))).toEqual([expect.stringContaining(listed.id)]);
    // listing it again changes nothing, and the ended call is not ended twice
    await t.app.inject({
      method: "POST",
      url: "/v1/me/do-not-call",
      headers: a.headers,
      payload: { phone_number: phone },
    });
    expect((await eventsOf(t.ctx, a.accountId)).filter((e) => e.type === "call.ended")).toHaveLength(1);
  });
});

describe("schedule_reason: why the calling hours moved scheduled_at (issue 32.6)", () => {
  let t: TestApp;
  let a: TestAccount;
  let shop: string;
  let clock = 0;
  beforeAll(async () => {
    t = await startApp({ now: () => clock, env: { WAKHA_CALLING_HOURS: "on" } });
    a = await newAccount(t.ctx, 10_000);
    shop = (await insertShop(t.ctx, a.accountId)).externalId;
  });
  afterAll(async () => {
    await t?.close();
  });

  const create = async (at: string, country: string, phone: string, scheduledAt?: string) => {
    clock = Date.parse(at);
    const res = await postCall(
      t,
      a,
      callBody(shop, {
        country,
        customer: { name: "Sami", phone_number: phone },
        ...(scheduledAt ? { scheduled_at: scheduledAt } : {}),
      }),
    );
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { id: string; scheduled_at: string | null; schedule_reason: string | null };
  };

  it("names outside_hours, friday_prayer, weekend and holiday, and null when the hours did not move the call", async () => {
    // 2027-01-05 is a Tuesday: 23:30 in Morocco is after the day's hours.
    expect((await create("2027-01-05T22:30:00Z", "MA", "+212612345601")).schedule_reason).toBe("outside_hours");
    // 2027-01-08 is a Friday: 13:00 in Morocco (UTC+1) is the Friday prayer.
    const prayer = await create("2027-01-08T12:00:00Z", "MA", "+212612345602");
    expect(prayer.schedule_reason).toBe("friday_prayer");
    expect(prayer.scheduled_at).not.toBeNull();
    // 2027-01-09 is a Saturday: France calls no one at weekends.
    expect((await create("2027-01-09T11:00:00Z", "FR", "+33612345603")).schedule_reason).toBe("weekend");
    // 2027-07-14 (a Wednesday) is a French public holiday; asked for by scheduled_at.
    expect((await create("2027-07-13T10:00:00Z", "FR", "+33612345604", "2027-07-14T10:00:00Z")).schedule_reason).toBe(
      "holiday",
    );
    // inside the hours: nothing moved
    const open = await create("2027-01-05T11:00:00Z", "MA", "+212612345605");
    expect([open.scheduled_at, open.schedule_reason]).toEqual([null, null]);
    // a GET gives the same reason
    const read = (
      await t.app.inject({ method: "GET", url: `/v1/calls/${prayer.id}`, headers: a.headers })
    ).json() as Record<string, unknown>;
    expect(read["schedule_reason"]).toBe("friday_prayer");
  });
});
