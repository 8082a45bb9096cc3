// Issue 15: calling hours in the customer's local time, with a fake clock. The policy itself (Friday prayer in
// Casablanca, Ramadan 2027 evenings, 21:00 in Paris, holidays, overrides), then calls created through the API and MCP.
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { claimCall } from "../src/calls/call-states.ts";
import { localToUtc } from "../src/domain/local-time.ts";
import { easterSunday, hijriDate, isPublicHoliday, isRamadan, sunset } from "../src/domain/calendar.ts";
import { DEFAULT_CALLING_HOURS, effectiveHours, nextCallingTime } from "../src/calls/policy/calling-hours.ts";
import type { Country } from "../src/domain/locale.ts";
import { newAccount, problem, type TestAccount } from "./helpers.ts";
import { callBody, entries, insertShop, postCall } from "./calls-fixtures.ts";
import { connect, ok, type ListeningApp, startListening } from "./mcp-client.ts";

const local = (date: string, hh: number, mm: number, country: Country) => localToUtc(date, hh, mm, country);
const next = (at: Date, country: Country, ...o: Parameters<typeof effectiveHours>[1][]) =>
  nextCallingTime(at, country, effectiveHours(country, ...o));

describe("the calendars", () => {
  it("reads Ramadan 1448 (2027) and the Eids from Intl's islamic-umalqura calendar", () => {
    expect(hijriDate("2027-02-08")).toEqual({ year: 1448, month: 9, day: 1 });
    expect(isRamadan("2027-02-07")).toBe(false);
    expect(isRamadan("2027-02-20")).toBe(true);
    expect(isRamadan("2027-03-09")).toBe(false); // 1 Shawwal: Eid al-Fitr
    for (const c of ["MA", "DZ", "TN"] as const) expect(isPublicHoliday("2027-03-09", c), c).toBe(true);
  });

  it("knows the fixed and the movable holidays of each country", () => {
    expect(isPublicHoliday("2026-11-18", "MA")).toBe(true); // Independence Day
    expect(isPublicHoliday("2026-11-01", "DZ")).toBe(true); // Revolution Day
    expect(isPublicHoliday("2026-12-17", "TN")).toBe(true); // Revolution Day
    expect(easterSunday(2027)).toBe("2027-03-28");
    expect(isPublicHoliday("2027-03-29", "FR")).toBe(true); // Easter Monday
    expect(isPublicHoliday("2027-05-06", "FR")).toBe(true); // Ascension
    expect(isPublicHoliday("2026-11-24", "FR")).toBe(false);
  });

  it("times iftar at sunset, within minutes of the published tables", () => {
    // Casablanca, 20 February 2027: about 18:18 local (UTC+0 in Ramadan). Paris, 21 June: about 21:58 local.
    expect(Math.abs(sunset("2027-02-20", "MA").getTime() - Date.parse("2027-02-20T18:18:00Z"))).toBeLessThan(
      5 * 60_000,
    );
    expect(Math.abs(sunset("2026-06-21", "FR").getTime() - Date.parse("2026-06-21T19:58:00Z"))).toBeLessThan(
      5 * 60_000,
    );
  });
});

describe("the calling-hours policy", () => {
  it("holds a Friday noon call in Casablanca until the end of the prayer pause", () => {
    const noon = local("2026-11-27", 12, 0, "MA");
    expect(next(noon, "MA")).toEqual(local("2026-11-27", 14, 30, "MA"));
    expect(next(local("2026-11-27", 11, 0, "MA"), "MA")).toEqual(local("2026-11-27", 11, 0, "MA")); // open before the prayer
    // Same in Algiers and Tunis; not in Paris (where 12:00 is open and 13:00 is the lunch break).
    expect(next(local("2026-11-27", 13, 0, "DZ"), "DZ")).toEqual(local("2026-11-27", 14, 30, "DZ"));
    expect(next(local("2026-11-27", 13, 0, "TN"), "TN")).toEqual(local("2026-11-27", 14, 30, "TN"));
    expect(next(local("2026-11-27", 12, 0, "FR"), "FR")).toEqual(local("2026-11-27", 12, 0, "FR"));
  });

  it("holds a call in a Ramadan 2027 evening until an hour after iftar, and late evenings until the next day", () => {
    const iftar = sunset("2027-02-20", "MA");
    const opening = new Date(iftar.getTime() + 60 * 60_000);
    expect(next(local("2027-02-20", 17, 0, "MA"), "MA")).toEqual(opening); // the afternoon before iftar waits
    expect(next(new Date(iftar.getTime() + 10 * 60_000), "MA")).toEqual(opening); // the meal itself waits
    expect(next(local("2027-02-20", 21, 30, "MA"), "MA")).toEqual(local("2027-02-20", 21, 30, "MA")); // the evening is open
    expect(next(local("2027-02-20", 23, 30, "MA"), "MA")).toEqual(local("2027-02-21", 10, 30, "MA"));
    // Outside Ramadan 22:00 is closed in Casablanca.
    expect(next(local("2027-01-20", 22, 0, "MA"), "MA")).toEqual(local("2027-01-21", 9, 0, "MA"));
  });

  it("holds 21:00 in Paris until 10:00 the next weekday; weekends and holidays are closed in France", () => {
    expect(next(local("2026-11-23", 21, 0, "FR"), "FR")).toEqual(local("2026-11-24", 10, 0, "FR"));
    expect(next(local("2026-11-24", 13, 20, "FR"), "FR")).toEqual(local("2026-11-24", 14, 0, "FR"));
    expect(next(local("2026-11-27", 20, 30, "FR"), "FR")).toEqual(local("2026-11-30", 10, 0, "FR")); // Friday night to Monday
    expect(next(local("2026-12-24", 20, 0, "FR"), "FR")).toEqual(local("2026-12-28", 10, 0, "FR")); // over Christmas and the weekend
  });

  it("skips public holidays in the Maghreb (Independence Day, Eid al-Fitr 2027)", () => {
    expect(next(local("2026-11-18", 10, 0, "MA"), "MA")).toEqual(local("2026-11-19", 9, 0, "MA"));
    const afterEid = next(local("2027-03-09", 10, 0, "TN"), "TN")!;
    expect(afterEid).toEqual(local("2027-03-12", 9, 0, "TN")); // Tunisia keeps three days of Eid
  });

  it("applies the account's then the shop's overrides, field by field", () => {
    const account = { MA: { days: { sun: [] }, friday_prayer: { from: "12:30", to: "15:00" } } };
    const shop = { MA: { friday_prayer: null } };
    expect(next(local("2026-11-29", 11, 0, "MA"), "MA", account)).toEqual(local("2026-11-30", 9, 0, "MA")); // no Sundays
    expect(next(local("2026-11-27", 14, 40, "MA"), "MA", account)).toEqual(local("2026-11-27", 15, 0, "MA"));
    expect(next(local("2026-11-27", 13, 0, "MA"), "MA", account, shop)).toEqual(local("2026-11-27", 13, 0, "MA"));
    expect(next(local("2026-11-23", 23, 0, "FR"), "FR", { FR: { enabled: false } })).toEqual(
      local("2026-11-23", 23, 0, "FR"),
    );
    expect(
      next(local("2026-11-23", 12, 0, "FR"), "FR", { FR: { days: { mon: [], tue: [], wed: [], thu: [], fri: [] } } }),
    ).toBeNull();
    expect(DEFAULT_CALLING_HOURS.FR.days.sat).toEqual([]);
  });

  it("follows dated exceptions (issue 38.2): a day closed, short hours, a holiday opened, the prayer still kept", () => {
    const account = {
      MA: {
        exceptions: [
          { date: "2026-11-24", windows: [] },
          { date: "2026-11-25", windows: [{ from: "15:00", to: "17:00" }] },
          { date: "2026-11-27", windows: [{ from: "11:00", to: "16:00" }] },
        ],
      },
    };
    expect(next(local("2026-11-24", 10, 0, "MA"), "MA", account)).toEqual(local("2026-11-25", 15, 0, "MA")); // closed, then short hours
    expect(next(local("2026-11-25", 17, 0, "MA"), "MA", account)).toEqual(local("2026-11-26", 9, 0, "MA"));
    expect(next(local("2026-11-27", 12, 30, "MA"), "MA", account)).toEqual(local("2026-11-27", 14, 30, "MA")); // Friday prayer kept
    // 18 November is Morocco's Independence Day: closed by default, open when an exception says so.
    expect(
      next(local("2026-11-18", 10, 0, "MA"), "MA", {
        MA: { exceptions: [{ date: "2026-11-18", windows: [{ from: "10:00", to: "12:00" }] }] },
      }),
    ).toEqual(local("2026-11-18", 10, 0, "MA"));
    // The shop's list replaces the account's.
    expect(next(local("2026-11-24", 10, 0, "MA"), "MA", account, { MA: { exceptions: [] } })).toEqual(
      local("2026-11-24", 10, 0, "MA"),
    );
    expect(DEFAULT_CALLING_HOURS.MA.exceptions).toEqual([]);
  });
});

describe("calls created outside the calling hours (fake clock)", () => {
  let t: ListeningApp;
  let a: TestAccount;
  let shop: string;
  let client: Client;
  let clock = 0;
  beforeAll(async () => {
    t = await startListening({ now: () => clock, env: { WAKHA_CALLING_HOURS: "on" } });
    a = await newAccount(t.ctx, 1000);
    shop = (await insertShop(t.ctx, a.accountId)).externalId;
    client = await connect(t.url, a.apiKey);
  });
  afterAll(async () => {
    await client?.close();
    await t?.close();
  });

  const job = async (id: string) =>
    (
      await t.ctx.db.query<{ start_after: Date }>(
        "SELECT start_after FROM pgboss.job WHERE name = 'place-call' AND id = $1",
        [id],
      )
    ).rows[0]!;
  const create = async (country: Country, phone: string, extra: Record<string, unknown> = {}) => {
    const res = await postCall(
      t,
      a,
      callBody(shop, { country, customer: { name: "Nadia", phone_number: phone }, ...extra }),
    );
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { id: string; status: string; scheduled_at: string | null };
  };

  it("queues a Friday noon call in Casablanca with scheduled_at at the end of the prayer, its job waiting for it", async () => {
    clock = local("2026-11-27", 12, 0, "MA").getTime();
    const call = await create("MA", "+212612345601");
    expect(call).toMatchObject({ status: "queued", scheduled_at: local("2026-11-27", 14, 30, "MA").toISOString() });
    expect((await job(call.id)).start_after.toISOString()).toBe(call.scheduled_at);
  });

  it("queues a call in a Ramadan 2027 evening until an hour after iftar", async () => {
    clock = local("2027-02-20", 18, 30, "MA").getTime();
    const call = await create("MA", "+212612345601");
    expect(call.scheduled_at).toBe(new Date(sunset("2027-02-20", "MA").getTime() + 3600_000).toISOString());
  });

  it("queues 21:00 in Paris until 10:00 the next morning; inside the hours, scheduled_at stays null", async () => {
    clock = local("2026-11-23", 21, 0, "FR").getTime();
    expect((await create("FR", "+33612345601", { amount: "49.00" })).scheduled_at).toBe(
      local("2026-11-24", 10, 0, "FR").toISOString(),
    );
    clock = local("2026-11-24", 11, 0, "FR").getTime();
    expect((await create("FR", "+33612345601")).scheduled_at).toBeNull();
  });

  it("moves a scheduled_at that falls outside the hours to their next opening", async () => {
    clock = local("2026-11-24", 11, 0, "FR").getTime();
    const call = await create("FR", "+33612345601", { scheduled_at: local("2026-11-24", 13, 15, "FR").toISOString() });
    expect(call.scheduled_at).toBe(local("2026-11-24", 14, 0, "FR").toISOString());
  });

  it("follows the account's and the shop's hours, set over REST and MCP", async () => {
    clock = local("2026-11-27", 12, 0, "MA").getTime();
    const put = await t.app.inject({
      method: "PUT",
      url: "/v1/me/calling-hours",
      headers: a.headers,
      payload: { MA: { friday_prayer: { from: "13:00", to: "14:00" } } },
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json()).toMatchObject({
      override: { MA: { friday_prayer: { from: "13:00", to: "14:00" } } },
      effective: { MA: { friday_prayer: { from: "13:00", to: "14:00" } }, FR: { days: { sat: [] } } },
    });
    expect((await create("MA", "+212612345601")).scheduled_at).toBeNull(); // 12:00 is open now
    await ok(client, "set_calling_hours", {
      shop_external_id: shop,
      hours: { MA: { days: { fri: [{ from: "15:00", to: "18:00" }] } } },
    });
    expect((await create("MA", "+212612345601")).scheduled_at).toBe(local("2026-11-27", 15, 0, "MA").toISOString());
    const read = await ok<{ effective: { MA: { days: { fri: unknown } } } }>(client, "get_calling_hours", {
      shop_external_id: shop,
    });
    expect(read.effective.MA.days.fri).toEqual([{ from: "15:00", to: "18:00" }]);
    await ok(client, "set_calling_hours", { shop_external_id: shop, hours: {} });
    const back = await t.app.inject({ method: "PUT", url: "/v1/me/calling-hours", headers: a.headers, payload: {} });
    expect(back.json().override).toBeNull();
    expect((await create("MA", "+212612345601")).scheduled_at).toBe(local("2026-11-27", 14, 30, "MA").toISOString());
  });

  it("holds at the claim a call that became due outside the hours (a wait for a place, a change of hours)", async () => {
    clock = local("2026-11-27", 11, 0, "MA").getTime();
    const call = await create("MA", "+212612345601");
    expect(call.scheduled_at).toBeNull();
    clock = local("2026-11-27", 12, 30, "MA").getTime(); // the prayer pause has begun when a worker takes it
    expect(await claimCall(t.ctx, call.id)).toBeNull();
    const held = (await t.app.inject({ method: "GET", url: `/v1/calls/${call.id}`, headers: a.headers })).json();
    expect(held).toMatchObject({ status: "queued", scheduled_at: local("2026-11-27", 14, 30, "MA").toISOString() });
    const { rows: jobs } = await t.ctx.db.query<{ start_after: Date }>(
      "SELECT start_after FROM pgboss.job WHERE name = 'place-call' AND data->>'call_id' = $1 AND state = 'created' AND id <> $1::uuid",
      [call.id],
    );
    expect(jobs.map((j) => j.start_after.toISOString())).toEqual([held.scheduled_at]);

    // Hours changed to none at all: the call ends failed rather than wait forever.
    const c2 = await create("MA", "+212612345601");
    await t.app.inject({
      method: "PUT",
      url: "/v1/me/calling-hours",
      headers: a.headers,
      payload: { MA: { days: { sun: [], mon: [], tue: [], wed: [], thu: [], fri: [], sat: [] } } },
    });
    expect(await claimCall(t.ctx, c2.id)).toBeNull();
    const failed = (await t.app.inject({ method: "GET", url: `/v1/calls/${c2.id}`, headers: a.headers })).json();
    expect(failed).toMatchObject({ status: "failed", end_reason: "no_calling_hours", billed_seconds: 0 });
    await t.app.inject({ method: "PUT", url: "/v1/me/calling-hours", headers: a.headers, payload: {} });
  });

  it("validates the hours and keeps them per account", async () => {
    for (const payload of [
      { MA: { days: { mon: [{ from: "18:00", to: "09:00" }] } } },
      { MA: { friday_prayer: { from: "25:00", to: "26:00" } } },
      { XX: {} },
      { MA: { days: { funday: [] } } },
    ]) {
      problem(
        await t.app.inject({ method: "PUT", url: "/v1/me/calling-hours", headers: a.headers, payload }),
        "validation_error",
        422,
      );
    }
    const res = await t.app.inject({
      method: "PUT",
      url: "/v1/me/calling-hours",
      headers: a.headers,
      payload: { FR: { days: { mon: [{ from: "09:00", to: "08:00" }] } } },
    });
    expect(entries(res)).toEqual([["body.FR.days.mon.0.to", "value_error"]]);
    const b = await newAccount(t.ctx, 0);
    problem(
      await t.app.inject({ method: "GET", url: `/v1/shops/${shop}/calling-hours`, headers: b.headers }),
      "shop_not_found",
      404,
    );
    expect(
      (await t.app.inject({ method: "GET", url: "/v1/me/calling-hours", headers: b.headers })).json().override,
    ).toBeNull();
  });
});
