// The console's rates page (issue 35): confirmation and delivered rates over time, by shop and by hour of the first
// dial, from the service behind GET /v1/analytics/orders, in French, English and Arabic; the overview's delivered tile.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
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
  for (const c of res.cookies) jar.set(c.name, c.value);
  jar.set("wakha_lang", lang);
  return cookie();
}

describe("console rates page (issue 35)", () => {
  let t: TestApp;
  let a: TestAccount;
  let b: TestAccount;
  let shopA: string;
  let shopB: string;
  let theirs: string;

  /** One order with one call, created and first dialed at the given times, then resolved and delivered as asked. */
  async function order(
    who: TestAccount,
    shop: string,
    created: string,
    dialed: string,
    resolution: string,
    delivery: string | null,
  ): Promise<void> {
    const ext = `o-${Math.random().toString(36).slice(2, 10)}`;
    const res = await postCall(
      t,
      who,
      callBody(shop, { order: { external_id: ext, items: [{ name: "Caftan", unit_price: "249.00" }] } }),
    );
    expect(res.statusCode, res.body).toBe(201);
    const id = (res.json() as { id: string }).id;
    const db = t.ctx.db;
    await db.query(
      "UPDATE calls SET created_at = $2, dialed_at = $3, status = 'completed', billed_seconds = 60, ended_at = $3 WHERE id = $1",
      [id, created, dialed],
    );
    await db.query(
      `UPDATE orders SET created_at = $2, resolution = $3, resolution_channel = CASE WHEN $3 = 'unresolved' THEN NULL ELSE 'voice' END,
              resolved_at = CASE WHEN $3 = 'unresolved' THEN NULL ELSE $2::timestamptz END, delivery_status = $4
       WHERE id = (SELECT order_id FROM calls WHERE id = $1)`,
      [id, created, resolution, delivery],
    );
  }

  beforeAll(async () => {
    t = await startApp({ now: () => NOW });
    a = await newAccount(t.ctx, 100_000);
    b = await newAccount(t.ctx, 100_000);
    shopA = (await insertShop(t.ctx, a.accountId, { externalId: "rates-shop-a" })).externalId;
    shopB = (await insertShop(t.ctx, a.accountId, { externalId: "rates-shop-b" })).externalId;
    theirs = (await insertShop(t.ctx, b.accountId, { externalId: "their-shop" })).externalId;
    // The last 30 days: shop A three orders (two confirmed, one delivered, one refused; one declined), shop B one
    // confirmed and delivered. Dialed at 09:xx and 14:xx UTC.
    await order(a, shopA, "2026-11-02T09:00:00Z", "2026-11-02T09:10:00Z", "confirmed", "delivered");
    await order(a, shopA, "2026-11-03T09:00:00Z", "2026-11-03T09:20:00Z", "confirmed", "refused");
    await order(a, shopA, "2026-11-10T14:00:00Z", "2026-11-10T14:05:00Z", "declined", null);
    await order(a, shopB, "2026-11-18T14:00:00Z", "2026-11-18T14:30:00Z", "confirmed", "delivered");
    // Sixty days ago: only in the 90-day view.
    await order(a, shopB, "2026-09-21T09:00:00Z", "2026-09-21T09:01:00Z", "declined", null);
    // Another account's, in the same days: never shown.
    await order(b, theirs, "2026-11-05T09:00:00Z", "2026-11-05T09:01:00Z", "confirmed", "delivered");
  });
  afterAll(() => t?.close());

  it("shows the rates of the last 30 days by day, shop and hour in each language, and none of another account's", async () => {
    for (const lang of ["fr", "en", "ar"]) {
      const cookie = await signIn(t, a.apiKey, lang);
      const page = await t.app.inject({ method: "GET", url: "/console/rates?days=30", headers: { cookie } });
      expect(page.statusCode, page.body).toBe(200);
      const body = page.body;
      expect(body).toContain(`<html lang="${lang}" dir="${lang === "ar" ? "rtl" : "ltr"}">`);
      expect(body).toContain('<a href="/console/rates" aria-current="page"');
      expect(body).toMatch(/<option value="30" selected>/);
      // Tiles: 4 orders, 3 confirmed of 4, 2 delivered of 3 confirmed.
      expect(body).toMatch(/data-tile="orders">.*?<p class="tile-big">4<\/p>/s);
      expect(body).toMatch(/data-tile="confirmation_rate">.*?<p class="muted">3 \/ 4<\/p>/s);
      expect(body).toMatch(/data-tile="delivered_rate">.*?<p class="muted">2 \/ 3<\/p>/s);
      // By day: four days with orders; by shop: both shops; by hour: 9 and 14 UTC.
      expect(body.match(/<tr data-period="2026-11-\d\d">/g)).toHaveLength(4);
      expect(body).toMatch(/<tr data-shop="rates-shop-a">.*?data-rate="confirmation">[^<]*66[.,]7/s);
      expect(body).toContain('<tr data-shop="rates-shop-b">');
      expect(body).toContain('<tr data-hour="9">');
      expect(body).toContain('<tr data-hour="14">');
      expect(body).toContain('aria-labelledby="rates-time-caption"');
      expect(body).toContain('aria-labelledby="rates-hour-caption"');
      expect(body).not.toContain("their-shop");
    }
  });

  it("reads 90 days for an unknown period, one shop when asked, and nothing for a shop the account does not have", async () => {
    const cookie = await signIn(t, a.apiKey, "en");
    const wide = (await t.app.inject({ method: "GET", url: "/console/rates?days=7", headers: { cookie } })).body;
    expect(wide).toMatch(/<option value="90" selected>/);
    expect(wide).toMatch(/data-tile="orders">.*?<p class="tile-big">5<\/p>/s);
    // Weeks beyond 30 days.
    expect(wide).toContain("Rates by week");
    const one = (
      await t.app.inject({ method: "GET", url: `/console/rates?days=30&shop=${shopB}`, headers: { cookie } })
    ).body;
    expect(one).toMatch(/data-tile="orders">.*?<p class="tile-big">1<\/p>/s);
    expect(one).not.toContain('<tr data-shop="rates-shop-a">');
    const none = (await t.app.inject({ method: "GET", url: `/console/rates?shop=${theirs}`, headers: { cookie } }))
      .body;
    expect(none).toMatch(/data-tile="orders">.*?<p class="tile-big">0<\/p>/s);
    expect(none).toContain("No order in this period.");
  });

  it("puts the delivered rate of the last 30 days on the overview, linked to the rates page", async () => {
    const cookie = await signIn(t, a.apiKey, "fr");
    const page = await t.app.inject({ method: "GET", url: "/console/overview", headers: { cookie } });
    expect(page.statusCode).toBe(200);
    expect(page.body).toMatch(
      /data-tile="delivered_rate"><p class="tile-name"><a href="\/console\/rates\?days=30">.*?<span class="muted">2 \/ 3<\/span>/s,
    );
    const theirsPage = await t.app.inject({
      method: "GET",
      url: "/console/overview",
      headers: { cookie: await signIn(t, b.apiKey, "fr") },
    });
    expect(theirsPage.body).toMatch(/data-tile="delivered_rate">.*?<span class="muted">1 \/ 1<\/span>/s);
  });

  it("asks a visitor without a session to sign in", async () => {
    const res = await t.app.inject({ method: "GET", url: "/console/rates" });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toMatch(/^\/console\/sign-in/);
  });
});
