// The console's home (issue 38.4): today, 7 and 30 days from one service function, calls by hour as server-drawn
// SVG (mirrored in Arabic), the latest calls that need a person; another account's calls never counted.
import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getOverview } from "../src/services/overview.ts";
import { callBody, insertShop, postCall } from "./calls-fixtures.ts";
import { newAccount, startApp, type TestAccount, type TestApp } from "./helpers.ts";

const NOW = Date.parse("2026-11-20T15:30:00Z");

async function signIn(t: TestApp, key: string, lang = "fr"): Promise<string> {
  const form = await t.app.inject({ method: "GET", url: "/console/sign-in" });
  const jar = new Map(form.cookies.map((c) => [c.name, c.value]));
  const csrf = /name="_csrf" value="([^"]+)"/.exec(form.body)![1]!;
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
  const res = await t.app.inject({
    method: "POST",
    url: "/console/sign-in",
    payload: new URLSearchParams({ _csrf: csrf, api_key: key }).toString(),
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: cookie() },
  });
  expect(res.statusCode).toBe(303);
  expect(res.headers.location).toBe("/console/overview");
  for (const c of res.cookies) jar.set(c.name, c.value);
  jar.set("wakha_lang", lang);
  return cookie();
}

describe("console overview (issue 38.4)", () => {
  let t: TestApp;
  let a: TestAccount;
  let b: TestAccount;
  const ids: Record<string, string> = {};

  /** A call created through /v1, then moved to the state a finished call has (the engine is not running here). */
  async function call(
    who: TestAccount,
    shop: string,
    name: string,
    at: string,
    set: string,
    params: unknown[] = [],
  ): Promise<string> {
    const res = await postCall(t, who, callBody(shop, { customer: { name, phone_number: "+212612345601" } }));
    const id = (res.json() as { id: string }).id;
    await t.ctx.db.query(`UPDATE calls SET created_at = $2, ${set} WHERE id = $1`, [id, at, ...params]);
    ids[name] = id;
    return id;
  }

  beforeAll(async () => {
    t = await startApp({ now: () => NOW });
    a = await newAccount(t.ctx, 100_000);
    b = await newAccount(t.ctx, 100_000);
    const shop = (await insertShop(t.ctx, a.accountId)).externalId;
    const other = (await insertShop(t.ctx, b.accountId)).externalId;
    const done =
      "status = 'completed', answered_at = created_at, ended_at = created_at + interval '1 minute', billed_seconds = 60";
    // Today (UTC): two confirmed, one declined, one still queued.
    await call(a, shop, "today-confirmed-1", "2026-11-20T09:10:00Z", `${done}, outcome = 'confirmed'`);
    await call(a, shop, "today-confirmed-2", "2026-11-20T09:40:00Z", `${done}, outcome = 'confirmed'`);
    await call(a, shop, "today-declined", "2026-11-20T10:05:00Z", `${done}, outcome = 'declined'`);
    await call(a, shop, "today-queued", "2026-11-20T14:00:00Z", "status = 'queued'");
    // Three days ago: a callback asked for and a question left open; not reached once.
    await call(a, shop, "d3-callback", "2026-11-17T18:00:00Z", `${done}, outcome = 'callback_requested'`);
    await call(
      a,
      shop,
      "d3-question",
      "2026-11-17T18:30:00Z",
      `${done}, outcome = 'no_decision', transcript = $3::jsonb`,
      [
        JSON.stringify([
          { speaker: "agent", text: "Bonjour", at: 0 },
          { speaker: "customer", text: "C'est quoi la taille ?", at: 3, intent: "question", confidence: 0.9 },
        ]),
      ],
    );
    await call(
      a,
      shop,
      "d3-no-answer",
      "2026-11-17T19:00:00Z",
      "status = 'no_answer', ended_at = created_at, billed_seconds = 0",
    );
    // Twenty days ago: a change requested; forty days ago: out of every period.
    await call(a, shop, "d20-change", "2026-10-31T11:00:00Z", `${done}, outcome = 'change_requested'`);
    await call(a, shop, "d40-confirmed", "2026-10-11T11:00:00Z", `${done}, outcome = 'confirmed'`);
    // Another account's calls, today: never counted, never listed.
    await call(b, other, "other-callback", "2026-11-20T09:00:00Z", `${done}, outcome = 'callback_requested'`);
  });
  afterAll(async () => t?.close());

  it("counts today, the last 7 and the last 30 days of the account's calls only, with calls by hour", async () => {
    const o = await getOverview(t.ctx, { accountId: a.accountId, keyId: a.keyId }, "UTC");
    expect(o.periods.today).toEqual({
      placed: 4,
      reached: 3,
      confirmed: 2,
      declined: 1,
      waiting: 1,
      billedSeconds: 180,
      confirmationRate: 2 / 3,
    });
    expect(o.periods.days7).toMatchObject({
      placed: 7,
      reached: 5,
      confirmed: 2,
      declined: 1,
      waiting: 1,
      billedSeconds: 300,
    });
    expect(o.periods.days30).toMatchObject({
      placed: 8,
      reached: 6,
      confirmed: 2,
      billedSeconds: 360,
      confirmationRate: 2 / 6,
    });
    expect(o.byHour).toHaveLength(24);
    expect(o.byHour[9]).toBe(2);
    expect(o.byHour[18]).toBe(2);
    expect(o.byHour.reduce((s, n) => s + n, 0)).toBe(8);
    expect(o.followUps.map((f) => [f.customerName, f.reason])).toEqual([
      ["d3-question", "question"],
      ["d3-callback", "callback_requested"],
      ["d20-change", "change_requested"],
    ]);
  });

  it("starts the periods at midnight in the account's time zone", async () => {
    // 15:30 UTC is 16:30 in Casablanca (UTC+1 in November): the same day; Pacific/Kiritimati (UTC+14) is already the 21st, which began at 10:00 UTC.
    expect(
      (await getOverview(t.ctx, { accountId: a.accountId, keyId: a.keyId }, "Africa/Casablanca")).periods.today.placed,
    ).toBe(4);
    expect(
      (await getOverview(t.ctx, { accountId: a.accountId, keyId: a.keyId }, "Pacific/Kiritimati")).periods.today.placed,
    ).toBe(2);
    const other = await getOverview(t.ctx, { accountId: b.accountId, keyId: b.keyId }, "UTC");
    expect(other.periods.days30.placed).toBe(1);
    expect(other.followUps.map((f) => f.id)).toEqual([ids["other-callback"]]);
  });

  it("is the console's home: figures, the hour chart as SVG and the calls that need a person, in each language", async () => {
    for (const lang of ["fr", "en", "ar"]) {
      const cookie = await signIn(t, a.apiKey, lang);
      const home = await t.app.inject({ method: "GET", url: "/console", headers: { cookie } });
      expect(home.headers.location).toBe("/console/overview");
      const page: LightMyRequestResponse = await t.app.inject({
        method: "GET",
        url: "/console/overview",
        headers: { cookie },
      });
      expect(page.statusCode).toBe(200);
      expect(page.body).toMatch(
        /<tr data-metric="placed">.*?<td class="num" data-period="today">4<\/td><td class="num" data-period="days7">7<\/td><td class="num" data-period="days30">8<\/td>/s,
      );
      expect(page.body).toContain('aria-labelledby="hour-caption"');
      expect(page.body).toContain(`data-call-id="${ids["d3-question"]}"`);
      expect(page.body).not.toContain(ids["other-callback"]!);
      expect(page.body).not.toContain("d40-confirmed");
      expect(page.body).toContain('<a href="/console/overview" aria-current="page"');
    }
    // Right to left: hour 0 is drawn at the right end of the chart.
    const ar = await t.app.inject({
      method: "GET",
      url: "/console/overview",
      headers: { cookie: await signIn(t, a.apiKey, "ar") },
    });
    expect(ar.body).toContain('dir="rtl"');
    const first = /<rect class="bar" x="([\d.]+)"[^>]*><title>0:00/.exec(ar.body);
    expect(Number(first![1])).toBeGreaterThan(500);
  });

  it("asks a visitor without a session to sign in", async () => {
    const res = await t.app.inject({ method: "GET", url: "/console/overview" });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toMatch(/^\/console\/sign-in/);
  });
});
