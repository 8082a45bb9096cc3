// The console without a browser (issue 18): the session cookie and its flags, CSRF on every form, the security
// headers, idle and absolute expiry, the sign-in rate limit, a revoked key ending its sessions, another account's
// call out of reach, errors shown with title and remedy, and text from the database never becoming markup.
import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { settleOrder } from "../src/calls/orders/settle.ts";
import { SESSION_IDLE_MS, SESSION_MAX_MS } from "../src/services/console.ts";
import { callBody, insertShop, postCall } from "./calls-fixtures.ts";
import { newAccount, startApp, type TestAccount, type TestApp } from "./helpers.ts";
import { startReceiver } from "./webhook-receiver.ts";

/** A cookie jar for inject(): the Set-Cookie values of each answer, sent back on the next request. */
class Browser {
  readonly jar = new Map<string, string>();
  readonly t: TestApp;
  constructor(t: TestApp) {
    this.t = t;
  }
  cookieHeader(): string {
    return [...this.jar].map(([k, v]) => `${k}=${v}`).join("; ");
  }
  keep(res: LightMyRequestResponse): LightMyRequestResponse {
    for (const c of res.cookies as { name: string; value: string; maxAge?: number; expires?: Date }[]) {
      if (c.value === "" || (c.expires && c.expires.getTime() < Date.now())) this.jar.delete(c.name);
      else this.jar.set(c.name, c.value);
    }
    return res;
  }
  async get(url: string, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
    return this.keep(
      await this.t.app.inject({ method: "GET", url, headers: { cookie: this.cookieHeader(), ...headers } }),
    );
  }
  async post(
    url: string,
    form: Record<string, string | string[]>,
    headers: Record<string, string> = {},
  ): Promise<LightMyRequestResponse> {
    const body = new URLSearchParams();
    for (const [k, v] of Object.entries(form)) for (const one of Array.isArray(v) ? v : [v]) body.append(k, one);
    return this.keep(
      await this.t.app.inject({
        method: "POST",
        url,
        payload: body.toString(),
        headers: { "content-type": "application/x-www-form-urlencoded", cookie: this.cookieHeader(), ...headers },
      }),
    );
  }
  /** The CSRF token of the last form of a page. */
  static csrf(res: LightMyRequestResponse): string {
    const m = [...res.body.matchAll(/name="_csrf" value="([^"]+)"/g)].at(-1);
    if (!m) throw new Error(`no CSRF token in ${res.statusCode} ${res.body.slice(0, 300)}`);
    return m[1]!;
  }
  async signIn(apiKey: string): Promise<LightMyRequestResponse> {
    const page = await this.get("/console/sign-in");
    return this.post("/console/sign-in", { _csrf: Browser.csrf(page), api_key: apiKey, next: "/console/calls" });
  }
}

describe("console: sessions and security (issue 18)", () => {
  let t: TestApp;
  let acct: TestAccount;
  let clock = Date.now();

  beforeAll(async () => {
    t = await startApp({ now: () => clock, env: { WAKHA_BASE_URL: "https://wakha.example.test" } });
    acct = await newAccount(t.ctx, 1000);
  });
  afterAll(async () => t.close());

  it("signs in with an API key: an HttpOnly, SameSite=Strict, Secure cookie on /console, then the calls page", async () => {
    const b = new Browser(t);
    const res = await b.signIn(acct.apiKey);
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe("/console/calls");
    const cookie = (
      res.cookies as {
        name: string;
        httpOnly?: boolean;
        sameSite?: string;
        secure?: boolean;
        path?: string;
        value: string;
      }[]
    ).find((c) => c.name === "wakha_session")!;
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Strict", secure: true, path: "/console" });
    // The cookie is a random session id, not the key, and the key is stored nowhere in the session table.
    expect(cookie.value).not.toContain(acct.apiKey);
    const { rows } = await t.ctx.db.query("SELECT * FROM console_sessions WHERE account_id = $1", [acct.accountId]);
    expect(JSON.stringify(rows)).not.toContain(cookie.value);
    const calls = await b.get("/console/calls");
    expect(calls.statusCode).toBe(200);
    expect(calls.headers["content-type"]).toContain("text/html");
    expect(calls.headers["cache-control"]).toBe("no-store");
    expect(calls.body).toContain('lang="fr" dir="ltr"');
  });

  it("sends a strict Content-Security-Policy and no inline script on every page", async () => {
    const b = new Browser(t);
    await b.signIn(acct.apiKey);
    for (const url of [
      "/console/calls",
      "/console/keys",
      "/console/webhook",
      "/console/balance",
      "/console/shops",
      "/console/policy",
      "/console/settings",
    ]) {
      const res = await b.get(url);
      expect(res.statusCode, url).toBe(200);
      const csp = String(res.headers["content-security-policy"]);
      expect(csp).toContain("default-src 'none'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toContain("unsafe-inline");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(res.headers["x-content-type-options"]).toBe("nosniff");
      // Scripts only by src from our origin; no inline handlers or style attributes.
      expect(res.body).not.toMatch(/<script(?![^>]*\bsrc="\/console\/assets\/)[^>]*>/);
      expect(res.body).not.toMatch(/\son[a-z]+="/);
      expect(res.body).not.toMatch(/\sstyle="/);
    }
    const signIn = await new Browser(t).get("/console/sign-in");
    expect(signIn.statusCode).toBe(200);
    expect(String(signIn.headers["content-security-policy"])).toContain("default-src 'none'");
    const js = await b.get("/console/assets/console.js");
    expect(js.statusCode).toBe(200);
    expect(js.headers["content-type"]).toContain("javascript");
  });

  it("asks a visitor without a session to sign in, and answers 401 to the event stream and the recording", async () => {
    const b = new Browser(t);
    const page = await b.get("/console/calls?status=queued");
    expect(page.statusCode).toBe(303);
    expect(page.headers.location).toBe(
      `/console/sign-in?ended=0&next=${encodeURIComponent("/console/calls?status=queued")}`,
    );
    expect((await b.get("/console/calls/events?ids=x")).statusCode).toBe(401);
    expect((await b.get("/console/calls/6f1c2d3e-4b5a-4c6d-8e7f-8091a2b3c4d5/recording")).statusCode).toBe(401);
  });

  it("refuses a form without its CSRF token, with a token of another session, and from a signed-out token", async () => {
    const b = new Browser(t);
    await b.signIn(acct.apiKey);
    const keysPage = await b.get("/console/keys");
    const before = (
      await t.ctx.db.query("SELECT count(*)::int AS n FROM api_keys WHERE account_id = $1", [acct.accountId])
    ).rows[0]!.n;
    const missing = await b.post("/console/keys", { name: "no-token" });
    expect(missing.statusCode).toBe(403);
    expect(missing.body).toContain("CSRF");
    const other = new Browser(t);
    await other.signIn(acct.apiKey);
    const otherToken = Browser.csrf(await other.get("/console/keys"));
    expect((await b.post("/console/keys", { name: "foreign-token", _csrf: otherToken })).statusCode).toBe(403);
    // A token made before sign-in (bound to no session) does not open a signed-in form either.
    const anonymous = Browser.csrf(await new Browser(t).get("/console/sign-in"));
    expect((await b.post("/console/keys", { name: "anon-token", _csrf: anonymous })).statusCode).toBe(403);
    const after = (
      await t.ctx.db.query("SELECT count(*)::int AS n FROM api_keys WHERE account_id = $1", [acct.accountId])
    ).rows[0]!.n;
    expect(after).toBe(before);
    // With its own token the same form works.
    const ok = await b.post("/console/keys", { name: "with-token", _csrf: Browser.csrf(keysPage) });
    expect(ok.statusCode).toBe(200);
    expect(ok.body).toMatch(/<code id="new-secret">wakha_sk_[\w-]+<\/code>/);
    // Sign-in itself needs the token too.
    const noTokenSignIn = await new Browser(t).post("/console/sign-in", { api_key: acct.apiKey });
    expect(noTokenSignIn.statusCode).toBe(403);
    expect(noTokenSignIn.cookies.find((c: { name: string }) => c.name === "wakha_session")).toBeUndefined();
  });

  it("ends a session after 30 idle minutes, and after 12 hours even when in use", async () => {
    const b = new Browser(t);
    await b.signIn(acct.apiKey);
    clock += SESSION_IDLE_MS - 60_000;
    expect((await b.get("/console/calls")).statusCode).toBe(200);
    clock += SESSION_IDLE_MS - 60_000; // still used within each 30 minutes
    expect((await b.get("/console/calls")).statusCode).toBe(200);
    clock += SESSION_IDLE_MS + 1000;
    const idle = await b.get("/console/calls");
    expect(idle.statusCode).toBe(303);
    expect(idle.headers.location).toContain("/console/sign-in?ended=1");

    const c = new Browser(t);
    await c.signIn(acct.apiKey);
    const steps = Math.ceil(SESSION_MAX_MS / (SESSION_IDLE_MS - 60_000));
    let last = 200;
    for (let i = 0; i < steps; i++) {
      clock += SESSION_IDLE_MS - 60_000;
      last = (await c.get("/console/balance")).statusCode;
      if (last !== 200) break;
    }
    expect(last).toBe(303);
  });

  it("signs out: the session is deleted and its cookie opens nothing", async () => {
    const b = new Browser(t);
    await b.signIn(acct.apiKey);
    const token = b.jar.get("wakha_session")!;
    const page = await b.get("/console/calls");
    const out = await b.post("/console/sign-out", { _csrf: Browser.csrf(page) });
    expect(out.statusCode).toBe(303);
    expect(out.headers.location).toBe("/console/sign-in?out=1");
    const replay = await t.app.inject({
      method: "GET",
      url: "/console/calls",
      headers: { cookie: `wakha_session=${token}` },
    });
    expect(replay.statusCode).toBe(303);
    // A live session is not signed out by a forged form; an ended one signs out without a token.
    const c = new Browser(t);
    await c.signIn(acct.apiKey);
    expect((await c.post("/console/sign-out", {})).statusCode).toBe(403);
    expect((await c.get("/console/calls")).statusCode).toBe(200);
    expect((await b.post("/console/sign-out", {})).statusCode).toBe(303);
  });

  it("ends every session of a key when the key is revoked (from the console or /v1)", async () => {
    const other = await t.app.inject({
      method: "POST",
      url: "/v1/me/api-keys",
      headers: acct.headers,
      payload: { name: "to-revoke" },
    });
    const { id, api_key } = other.json() as { id: string; api_key: string };
    const b = new Browser(t);
    expect((await b.signIn(api_key)).statusCode).toBe(303);
    expect((await b.get("/console/keys")).statusCode).toBe(200);
    const revoke = await t.app.inject({ method: "DELETE", url: `/v1/me/api-keys/${id}`, headers: acct.headers });
    expect(revoke.statusCode).toBe(204);
    expect((await b.get("/console/keys")).statusCode).toBe(303);
    const again = await b.signIn(api_key);
    expect(again.statusCode).toBe(401);
    expect(again.body).toContain("Clé d&#39;API invalide");
  });

  it("shows a wrong key's error with its title and remedy, and keeps no cookie", async () => {
    const b = new Browser(t);
    const res = await b.signIn("wakha_sk_not-a-real-key");
    expect(res.statusCode).toBe(401);
    expect(res.body).toContain('data-error="invalid_api_key"');
    expect(res.body).toContain("Clé d&#39;API invalide");
    expect(res.body).toMatch(/<p lang="en" dir="ltr">/); // the API's own English detail, marked as such on a French page
    expect(res.body).toMatch(/Que faire/);
    expect(b.jar.has("wakha_session")).toBe(false);
  });

  it("rate-limits sign-in attempts per address: 429 with Retry-After past 10 a minute", async () => {
    clock += 120_000; // a fresh window: the earlier tests signed in from the same address
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      const b = new Browser(t);
      const page = await b.get("/console/sign-in");
      const res = await b.post("/console/sign-in", { _csrf: Browser.csrf(page), api_key: "wakha_sk_guess" }, {});
      statuses.push(res.statusCode);
      if (res.statusCode === 429) {
        expect(Number(res.headers["retry-after"])).toBeGreaterThan(0);
        expect(res.body).toContain('data-error="rate_limit_exceeded"');
      }
    }
    expect(statuses.slice(0, 10).every((s) => s === 401 || s === 303)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
    // A right key is refused too while the address is over its limit: guessing cannot go on.
    expect((await new Browser(t).signIn(acct.apiKey)).statusCode).toBe(429);
    clock += 120_000;
    expect((await new Browser(t).signIn(acct.apiKey)).statusCode).toBe(303);
  });
});

describe("console: pages on the services, scoped to the session's account (issue 18)", () => {
  let t: TestApp;
  let a: TestAccount;
  let other: TestAccount;
  let shop: string;
  const browser = new Map<string, Browser>();

  beforeAll(async () => {
    t = await startApp({ env: { WAKHA_RATE_LIMIT_SCALE: "100" } });
    a = await newAccount(t.ctx, 1000);
    other = await newAccount(t.ctx, 1000);
    shop = (await insertShop(t.ctx, a.accountId)).externalId;
    for (const [name, acct] of [
      ["a", a],
      ["other", other],
    ] as const) {
      const b = new Browser(t);
      await b.signIn(acct.apiKey);
      browser.set(name, b);
    }
  });
  afterAll(async () => t.close());

  it("lists calls newest first with /v1's filters and cursor, and escapes what the API stored", async () => {
    const ids: string[] = [];
    for (const name of ["Amina", "<script>alert(1)</script>", "Karim"]) {
      const res = await postCall(t, a, callBody(shop, { customer: { name, phone_number: "+212612345601" } }));
      ids.push((res.json() as { id: string }).id);
    }
    const b = browser.get("a")!;
    const page = await b.get("/console/calls?limit=2");
    expect(page.statusCode).toBe(200);
    const order = [...page.body.matchAll(/data-call-id="([^"]+)"/g)].map((m) => m[1]);
    expect(order).toEqual([ids[2], ids[1]]);
    expect(page.body).not.toContain("<script>alert(1)</script>");
    expect(page.body).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(page.body).toMatch(/249,00\s?MAD/);
    const next = /<a rel="next" href="([^"]+)"/.exec(page.body)![1]!.replaceAll("&amp;", "&");
    const second = await b.get(next);
    expect([...second.body.matchAll(/data-call-id="([^"]+)"/g)].map((m) => m[1])).toEqual([ids[0]]);
    const filtered = await b.get("/console/calls?status=completed");
    expect(filtered.body).not.toContain("data-call-id=");
    const bad = await b.get("/console/calls?created_after=yesterday");
    expect(bad.statusCode).toBe(422);
    expect(bad.body).toContain('data-error="validation_error"');
    expect(bad.body).toContain("created_after");
  });

  it("shows a call to its account and 404 to another account's session, by URL", async () => {
    const { id } = (await postCall(t, a, callBody(shop))).json() as { id: string };
    const mine = await browser.get("a")!.get(`/console/calls/${id}`);
    expect(mine.statusCode).toBe(200);
    expect(mine.body).toContain("Fatima Zahra");
    const theirs = await browser.get("other")!.get(`/console/calls/${id}`);
    expect(theirs.statusCode).toBe(404);
    expect(theirs.body).toContain('data-error="call_not_found"');
    expect(theirs.body).not.toContain("Fatima Zahra");
    expect((await browser.get("other")!.get(`/console/calls/${id}/recording`)).statusCode).toBe(404);
    // The live stream only reports the session's own calls: over a real socket, since the stream never ends.
    const address = await t.app.listen({ host: "127.0.0.1", port: 0 });
    const read = async (who: Browser) => {
      const res = await fetch(`${address}/console/calls/events?ids=${id}`, { headers: { cookie: who.cookieHeader() } });
      expect(res.headers.get("content-type")).toContain("text/event-stream");
      const reader = res.body!.getReader();
      let text = "";
      while (!text.includes("event: status") && text.length < 10_000) {
        const chunk = await Promise.race([reader.read(), new Promise<null>((r) => setTimeout(() => r(null), 2500))]);
        if (!chunk || chunk.done) break;
        text += Buffer.from(chunk.value).toString();
      }
      await reader.cancel();
      return text;
    };
    expect(await read(browser.get("a")!)).toContain(`"id":"${id}","status":"queued"`);
    const first = await read(browser.get("other")!);
    expect(first).not.toContain(id);
  });

  it("lists orders newest first with /v1's filters and cursor; an order's page shows its resolution and attempts; 404 across accounts; ids escaped", async () => {
    const orderShop = (await insertShop(t.ctx, a.accountId)).externalId;
    const made: { ext: string; callId: string; orderId: string }[] = [];
    for (const ext of ["ord-1", "<img src=x onerror=alert(1)>", "ord-3"]) {
      const res = await postCall(
        t,
        a,
        callBody(orderShop, { order: { external_id: ext, items: [{ name: "Caftan", unit_price: "249.00" }] } }),
      );
      expect(res.statusCode).toBe(201);
      const callId = (res.json() as { id: string }).id;
      const { rows } = await t.ctx.db.query<{ order_id: string }>("SELECT order_id FROM calls WHERE id = $1", [callId]);
      made.push({ ext, callId, orderId: rows[0]!.order_id });
    }
    await t.ctx.db.query(
      "UPDATE calls SET status = 'completed', outcome = 'confirmed', ended_at = '2026-11-20T10:05:00Z' WHERE id = $1",
      [made[0]!.callId],
    );
    expect(
      await settleOrder(t.ctx, t.ctx.db, {
        accountId: a.accountId,
        orderId: made[0]!.orderId,
        resolution: "confirmed",
        channel: "voice",
        at: new Date("2026-11-20T10:05:00Z"),
        details: { transcript_excerpt: "wakha, <b>oui</b>" },
        callId: made[0]!.callId,
      }),
    ).toEqual({ changed: true });
    const b = browser.get("a")!;
    const list = await b.get(`/console/orders?shop_external_id=${orderShop}&limit=2`);
    expect(list.statusCode).toBe(200);
    const exts = (body: string) =>
      [...body.matchAll(/data-order="([^"]+)"/g)].map((m) => m[1]!.replaceAll("&lt;", "<").replaceAll("&gt;", ">"));
    expect(exts(list.body)).toEqual(["ord-3", made[1]!.ext]);
    expect(list.body).not.toContain("<img src=x");
    expect(list.body).toContain("&lt;img src=x onerror=alert(1)&gt;");
    expect(list.body).toMatch(/249,00\s?MAD/);
    expect(list.body).toContain(`href="/console/orders/${orderShop}/${encodeURIComponent(made[1]!.ext)}"`);
    const next = /<a rel="next" href="([^"]+)"/.exec(list.body)![1]!.replaceAll("&amp;", "&");
    const second = await b.get(next);
    expect(exts(second.body)).toEqual(["ord-1"]);
    expect(second.body).toContain('data-resolution="confirmed"');
    // Filters: resolved orders are the one settled; open ones the two others.
    expect(exts((await b.get(`/console/orders?shop_external_id=${orderShop}&status=resolved`)).body)).toEqual([
      "ord-1",
    ]);
    expect(exts((await b.get(`/console/orders?shop_external_id=${orderShop}&resolution=unresolved`)).body)).toEqual([
      "ord-3",
      made[1]!.ext,
    ]);
    const bad = await b.get("/console/orders?status=closed");
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('data-error="invalid_status_filter"');
    // The order's page: resolution with its channel and the call that settled it, items, attempts linked to their calls.
    const page = await b.get(`/console/orders/${orderShop}/ord-1`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(`data-settled-by="${made[0]!.callId}"`);
    expect(page.body).toContain(`<tr data-call-id="${made[0]!.callId}">`);
    expect(page.body).toContain("Caftan");
    expect(page.body).toContain("wakha, &lt;b&gt;oui&lt;/b&gt;");
    expect(page.body).toContain("Confirmée · Canal: voix");
    const escaped = await b.get(`/console/orders/${orderShop}/${encodeURIComponent(made[1]!.ext)}`);
    expect(escaped.statusCode).toBe(200);
    expect(escaped.body).not.toContain("<img src=x");
    expect(escaped.body).toContain("Non résolue");
    // The call page links to its order.
    const call = await b.get(`/console/calls/${made[0]!.callId}`);
    expect(call.body).toContain(`href="/console/orders/${orderShop}/ord-1"`);
    // Another account's session: the same URL is not found, and its list holds none of them.
    const theirs = await browser.get("other")!.get(`/console/orders/${orderShop}/ord-1`);
    expect(theirs.statusCode).toBe(404);
    expect(theirs.body).toContain('data-error="not_found"');
    expect(theirs.body).not.toContain("Caftan");
    expect((await browser.get("other")!.get("/console/orders")).body).not.toContain("data-order=");
  });

  it("switches to Arabic (right to left) and to English with a form, and keeps the choice", async () => {
    const b = browser.get("a")!;
    const page = await b.get("/console/balance");
    const res = await b.post("/console/lang", { _csrf: Browser.csrf(page), lang: "ar", next: "/console/balance" });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe("/console/balance");
    const ar = await b.get("/console/balance");
    expect(ar.body).toContain('lang="ar" dir="rtl"');
    expect(ar.body).toContain("الرصيد");
    // An outside address is never followed.
    const evil = await b.post("/console/lang", { _csrf: Browser.csrf(ar), lang: "en", next: "https://evil.example/" });
    expect(evil.headers.location).toBe("/console/overview");
    expect((await b.get("/console/balance")).body).toContain('lang="en" dir="ltr"');
  });

  it("creates and revokes a key, configures the webhook with errors shown, and keeps the time zone", async () => {
    const b = browser.get("a")!;
    const created = await b.post("/console/keys", {
      _csrf: Browser.csrf(await b.get("/console/keys")),
      name: "from-console",
    });
    const keyId = /data-key-id="([^"]+)">\s*<td[^>]*>from-console/.exec(created.body)![1]!;
    const revoked = await b.post(`/console/keys/${keyId}/revoke`, { _csrf: Browser.csrf(created) });
    expect(revoked.statusCode).toBe(303);
    const list = await t.app.inject({ method: "GET", url: "/v1/me/api-keys", headers: a.headers });
    expect((list.json() as { data: { id: string; status: string }[] }).data.find((k) => k.id === keyId)?.status).toBe(
      "revoked",
    );

    const hookPage = await b.get("/console/webhook");
    const refused = await b.post("/console/webhook", { _csrf: Browser.csrf(hookPage), url: "http://127.0.0.1/hook" });
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain('data-error="webhook_url_rejected"');

    const settings = await b.get("/console/settings");
    expect(
      (await b.post("/console/settings", { _csrf: Browser.csrf(settings), time_zone: "Africa/Casablanca" })).statusCode,
    ).toBe(303);
    expect((await b.get("/console/settings")).body).toContain("<option selected>Africa/Casablanca</option>");
    expect(
      (await b.post("/console/settings", { _csrf: Browser.csrf(settings), time_zone: "Mars/Olympus" })).statusCode,
    ).toBe(422);
  });

  it("edits the retry policy, the calling hours and the do-not-call list, errors shown with their fields", async () => {
    const b = browser.get("a")!;
    const page = await b.get("/console/policy");
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(
      'name="tue_0_from" class="clock" type="text" inputmode="numeric" maxlength="5" placeholder="HH:MM" dir="ltr" value="09:00"',
    );
    const retry = await b.post("/console/policy/retry", {
      _csrf: Browser.csrf(page),
      enabled: "true",
      max_attempts: "4",
      delays_minutes: "15, 60",
      on: "busy",
    });
    expect(retry.statusCode).toBe(303);
    expect(
      (await t.app.inject({ method: "GET", url: "/v1/me/retry-policy", headers: a.headers })).json(),
    ).toMatchObject({ effective: { enabled: true, max_attempts: 4, delays_minutes: [15, 60], on: ["busy"] } });
    // The calling hours as a weekly grid per country: Monday with a lunch break, Sunday closed, no holiday rule.
    const grid: Record<string, string> = {
      _csrf: Browser.csrf(page),
      enabled: "true",
      prayer_from: "12:00",
      prayer_to: "14:30",
    };
    for (const d of ["tue", "wed", "thu", "fri", "sat"])
      Object.assign(grid, { [`${d}_0_from`]: "09:00", [`${d}_0_to`]: "21:00" });
    Object.assign(grid, {
      mon_0_from: "09:00",
      mon_0_to: "12:00",
      mon_1_from: "14:00",
      mon_1_to: "19:00",
      closed_sun: "1",
    });
    const hours = await b.post("/console/policy/hours/MA", grid);
    expect(hours.statusCode).toBe(303);
    const saved = (await t.app.inject({ method: "GET", url: "/v1/me/calling-hours", headers: a.headers })).json() as {
      override: Record<string, Record<string, unknown>>;
      effective: Record<string, { ramadan: unknown }>;
    };
    expect(saved.override["MA"]).toMatchObject({
      public_holidays: false,
      friday_prayer: { from: "12:00", to: "14:30" },
      days: {
        mon: [
          { from: "09:00", to: "12:00" },
          { from: "14:00", to: "19:00" },
        ],
        sun: [],
        tue: [{ from: "09:00", to: "21:00" }],
      },
    });
    // Ramadan's hours are kept (shown, not edited by the grid).
    expect(saved.effective["MA"]!.ramadan).not.toBeNull();
    const shown = await b.get("/console/policy?country=MA");
    expect(shown.body).toContain(
      'name="mon_1_from" class="clock" type="text" inputmode="numeric" maxlength="5" placeholder="HH:MM" dir="ltr" value="14:00"',
    );
    expect(shown.body).toMatch(/data-ramadan="on"/);
    const badHours = await b.post("/console/policy/hours/MA", { ...grid, mon_0_from: "25:00" });
    expect(badHours.statusCode).toBe(422);
    expect(badHours.body).toContain("MA.days.mon.0.from");
    const reversed = await b.post("/console/policy/hours/MA", { ...grid, mon_0_from: "13:00", mon_0_to: "12:00" });
    expect(reversed.statusCode).toBe(422);
    expect((await b.post("/console/policy/hours/XX", grid)).statusCode).toBe(404);
    // Dated exceptions: a day closed, a day with short hours; listed in words, removed one by one; a bad date refused.
    const csrf = Browser.csrf(shown);
    expect(
      (await b.post("/console/policy/hours/MA/exceptions", { _csrf: csrf, date: "2026-12-31", closed: "1" }))
        .statusCode,
    ).toBe(303);
    expect(
      (
        await b.post("/console/policy/hours/MA/exceptions", {
          _csrf: csrf,
          date: "2027-01-02",
          x_from: "10:00",
          x_to: "13:00",
        })
      ).statusCode,
    ).toBe(303);
    const withExceptions = (
      await t.app.inject({ method: "GET", url: "/v1/me/calling-hours", headers: a.headers })
    ).json() as { override: { MA: { exceptions: unknown[]; days: unknown } } };
    expect(withExceptions.override.MA.exceptions).toEqual([
      { date: "2026-12-31", windows: [] },
      { date: "2027-01-02", windows: [{ from: "10:00", to: "13:00" }] },
    ]);
    expect(withExceptions.override.MA.days).toBeDefined(); // the grid's week is kept
    const listed = await b.get("/console/policy?country=MA");
    expect(listed.body).toContain('data-exception="2026-12-31"');
    expect(listed.body).toMatch(/data-exception="2027-01-02">[^<]*2027[^<]*: <span dir="ltr">10:00–13:00<\/span>/);
    expect(
      (await b.post("/console/policy/hours/MA/exceptions", { _csrf: csrf, date: "31/12/2026", closed: "1" }))
        .statusCode,
    ).toBe(422);
    expect(
      (await b.post("/console/policy/hours/MA/exceptions/remove", { _csrf: csrf, date: "2026-12-31" })).statusCode,
    ).toBe(303);
    expect(
      (
        (await t.app.inject({ method: "GET", url: "/v1/me/calling-hours", headers: a.headers })).json() as {
          override: { MA: { exceptions: { date: string }[] } };
        }
      ).override.MA.exceptions.map((x) => x.date),
    ).toEqual(["2027-01-02"]);
    // The retry policy as choices: the delays from selects, the empty ones left out.
    const choices = await b.post("/console/policy/retry", {
      _csrf: Browser.csrf(page),
      enabled: "true",
      max_attempts: "3",
      delay: ["30", "1440", "", ""],
      on: ["no_answer", "busy"],
    });
    expect(choices.statusCode).toBe(303);
    expect(
      (await t.app.inject({ method: "GET", url: "/v1/me/retry-policy", headers: a.headers })).json(),
    ).toMatchObject({
      effective: { enabled: true, max_attempts: 3, delays_minutes: [30, 1440], on: ["no_answer", "busy"] },
    });
    const dnc = await b.post("/console/policy/do-not-call", {
      _csrf: Browser.csrf(page),
      phone_number: "+212612345699",
      reason: "asked by phone",
    });
    expect(dnc.statusCode).toBe(303);
    expect((await b.get("/console/policy")).body).toContain("+212612345699");
    expect(
      (await b.post("/console/policy/do-not-call/remove", { _csrf: Browser.csrf(page), phone_number: "+212612345699" }))
        .statusCode,
    ).toBe(303);
    expect((await b.get("/console/policy")).body).not.toContain("+212612345699");
  });

  it("creates a shop and a product through the same schemas as /v1", async () => {
    const b = browser.get("a")!;
    const page = await b.get("/console/shops");
    const bad = await b.post("/console/shops", {
      _csrf: Browser.csrf(page),
      external_id: "s1",
      merchant_external_id: "m1",
      name: "Shop",
      contact_phone: "0612",
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.body).toContain("contact_phone");
    const ok = await b.post("/console/shops", {
      _csrf: Browser.csrf(page),
      external_id: "console-shop",
      merchant_external_id: "m1",
      name: "Boutique",
      default_country: "MA",
    });
    expect(ok.statusCode).toBe(303);
    const shopPage = await b.get("/console/shops/console-shop");
    const p = await b.post("/console/shops/console-shop/products", {
      _csrf: Browser.csrf(shopPage),
      external_id: "caftan",
      name: "Caftan",
      variant_external_id: "m",
      price: "249.00",
    });
    expect(p.statusCode).toBe(303);
    const got = await t.app.inject({
      method: "GET",
      url: "/v1/shops/console-shop/products/caftan",
      headers: a.headers,
    });
    expect(got.json()).toMatchObject({ name: "Caftan", variants: [{ variant_external_id: "m", price: "249.00" }] });
    // Edit the shop, add a variant, then retire the first one: each a PATCH through /v1's schema.
    const shopPage2 = await b.get("/console/shops/console-shop");
    expect(
      (
        await b.post("/console/shops/console-shop/edit", {
          _csrf: Browser.csrf(shopPage2),
          name: "Boutique Atlas",
          merchant_external_id: "m2",
          contact_phone: "+212612345678",
          default_country: "FR",
        })
      ).statusCode,
    ).toBe(303);
    expect(
      (await t.app.inject({ method: "GET", url: "/v1/shops/console-shop", headers: a.headers })).json(),
    ).toMatchObject({
      name: "Boutique Atlas",
      merchant_external_id: "m2",
      contact_phone: "+212612345678",
      default_country: "FR",
    });
    const productPage = await b.get("/console/shops/console-shop/products/caftan");
    expect(productPage.statusCode).toBe(200);
    expect(
      (
        await b.post("/console/shops/console-shop/products/caftan/edit", {
          _csrf: Browser.csrf(productPage),
          variant_external_id: "l",
          variant_name: "L",
          price: "259.00",
        })
      ).statusCode,
    ).toBe(303);
    const badPrice = await b.post("/console/shops/console-shop/products/caftan/edit", {
      _csrf: Browser.csrf(productPage),
      variant_external_id: "xl",
      price: "abc",
    });
    expect(badPrice.statusCode).toBe(422);
    expect(
      (
        await b.post("/console/shops/console-shop/products/caftan/edit", {
          _csrf: Browser.csrf(productPage),
          retire: "m",
        })
      ).statusCode,
    ).toBe(303);
    expect(
      (await t.app.inject({ method: "GET", url: "/v1/shops/console-shop/products/caftan", headers: a.headers })).json(),
    ).toMatchObject({ variants: [{ variant_external_id: "l", name: "L", price: "259.00" }] });
    // Not visible to the other account, nor changeable by it.
    expect((await browser.get("other")!.get("/console/shops/console-shop")).statusCode).toBe(404);
    const otherPage = await browser.get("other")!.get("/console/shops");
    expect(
      (
        await browser.get("other")!.post("/console/shops/console-shop/edit", {
          _csrf: Browser.csrf(otherPage),
          name: "Hijacked",
          merchant_external_id: "x",
        })
      ).statusCode,
    ).toBe(404);
  });
});

describe("console: webhook deliveries (issue 18)", () => {
  it("shows a delivery's payload and every attempt, and redelivers a failed one to the new webhook", async () => {
    const t = await startApp({ env: { WAKHA_WEBHOOK_ALLOW_PRIVATE: "on" } });
    const receiver = await startReceiver();
    try {
      const acct = await newAccount(t.ctx, 100);
      const b = new Browser(t);
      await b.signIn(acct.apiKey);
      receiver.respond = (_r, n) => (n === 1 ? { status: 500, body: "down for maintenance" } : { status: 200 });
      let page = await b.get("/console/webhook");
      expect(
        (await b.post("/console/webhook", { _csrf: Browser.csrf(page), url: `${receiver.url}/a` })).statusCode,
      ).toBe(200);
      page = await b.get("/console/webhook");
      const tested = await b.post("/console/webhook/test", { _csrf: Browser.csrf(page) });
      const deliveryId = new URL(String(tested.headers.location), "http://x").searchParams.get("tested")!;
      const detail = await b.get(`/console/webhook/deliveries/${deliveryId}`);
      expect(detail.statusCode).toBe(200);
      expect(detail.body).toContain("down for maintenance");
      expect(detail.body).toContain("This is a test delivery");
      // Deleting the webhook fails its pending delivery; a new webhook gets it again by redelivery.
      page = await b.get("/console/webhook");
      expect((await b.post("/console/webhook/delete", { _csrf: Browser.csrf(page) })).statusCode).toBe(303);
      const failed = await b.get("/console/webhook?status=failed");
      expect(failed.body).toContain(`data-delivery-id="${deliveryId}"`);
      expect(
        (await b.post("/console/webhook", { _csrf: Browser.csrf(failed), url: `${receiver.url}/b` })).statusCode,
      ).toBe(200);
      const again = await b.post(`/console/webhook/deliveries/${deliveryId}/redeliver`, {
        _csrf: Browser.csrf(failed),
      });
      expect(again.statusCode).toBe(303);
      const redelivered = await b.get(String(again.headers.location));
      expect(redelivered.body).toContain("Livré");
      expect(receiver.requests.map((r) => r.path.split("/").at(-1))).toEqual(["a", "b"]);
      expect(receiver.requests[1]!.headers["x-service-event-id"]).toBe(
        receiver.requests[0]!.headers["x-service-event-id"],
      );
      // Another account sees none of it.
      const other = await newAccount(t.ctx, 100);
      const ob = new Browser(t);
      await ob.signIn(other.apiKey);
      expect((await ob.get(`/console/webhook/deliveries/${deliveryId}`)).statusCode).toBe(404);
      const otherPage = await ob.get("/console/webhook");
      expect(
        (await ob.post(`/console/webhook/deliveries/${deliveryId}/redeliver`, { _csrf: Browser.csrf(otherPage) }))
          .statusCode,
      ).toBe(404);
    } finally {
      await receiver.close();
      await t.close();
    }
  });
});
