// The console in a real browser (issue 18): Debian's chromium driven by playwright-core, on a real app with the
// engine's workers and the simulator. One browser for the file; each test opens its own context (cookie jar).
import { existsSync } from "node:fs";
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callBody, insertShop, postCall, uid } from "./calls-fixtures.ts";
import { createEngineDatabase, type EngineApp, startEngineApp } from "./engine-fixtures.ts";
import { ENCRYPTION_KEY, newAccount, type TestAccount } from "./helpers.ts";
import { type Receiver, startReceiver } from "./webhook-receiver.ts";

const CHROMIUM = "/usr/bin/chromium";

/** What the page scripts below touch, typed here: the project compiles without the DOM library. */
interface AudioLike {
  readyState: number;
  duration: number;
  currentTime: number;
  paused: boolean;
  ended: boolean;
}
interface PageGlobals {
  marker?: number;
  document: { documentElement: { lang: string; dir: string }; body: unknown };
  getComputedStyle(e: unknown): { direction: string };
}

const ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--autoplay-policy=no-user-gesture-required",
];

// CI installs chromium (.ci/run); a machine without it reports these tests skipped, as the Redis tests do without Redis.
describe.skipIf(!existsSync(CHROMIUM))(
  `console in chromium (issue 18)${existsSync(CHROMIUM) ? "" : `: skipped, no ${CHROMIUM}`}`,
  () => {
    let db: Awaited<ReturnType<typeof createEngineDatabase>>;
    let t: EngineApp;
    let base: string;
    let browser: Browser;
    let acct: TestAccount;
    let other: TestAccount;
    let shop: string;
    let receiver: Receiver;
    let callId: string;
    /** Content-Security-Policy violations the browser reported: a passing run has none. */
    const violations: string[] = [];

    beforeAll(async () => {
      db = await createEngineDatabase();
      t = await startEngineApp({
        databaseUrl: db.url,
        speed: 100,
        env: { WAKHA_WEBHOOK_ALLOW_PRIVATE: "on", WAKHA_ENCRYPTION_KEY: ENCRYPTION_KEY },
      });
      base = await t.app.listen({ host: "127.0.0.1", port: 0 });
      acct = await newAccount(t.ctx, 3600);
      other = await newAccount(t.ctx, 3600);
      shop = (await insertShop(t.ctx, acct.accountId)).externalId;
      receiver = await startReceiver();
      // launch() gives the browser a fresh, temporary --user-data-dir of its own and removes it on close.
      browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS, headless: true });
    }, 120_000);

    afterAll(async () => {
      await browser?.close();
      await t?.close();
      await receiver?.close();
      await db?.drop();
      expect(violations).toEqual([]);
    });

    async function signedIn(who: TestAccount): Promise<{ context: BrowserContext; page: Page }> {
      const context = await browser.newContext({ locale: "fr-FR" });
      const page = await context.newPage();
      page.on("console", (m) => {
        if (/Content Security Policy|Refused to/i.test(m.text())) violations.push(m.text());
      });
      await page.goto(`${base}/console`);
      expect(new URL(page.url()).pathname).toBe("/console/sign-in");
      await page.getByLabel("Clé d’API").fill(who.apiKey);
      await page.getByRole("button", { name: "Se connecter" }).click();
      // The console's home is the overview (issue 38.4); these tests start from the calls page.
      await page.waitForURL(`${base}/console/overview`);
      await page.goto(`${base}/console/calls`);
      return { context, page };
    }

    it("signs in, watches a simulated call go from queued to completed live, and plays its recording with seeking", async () => {
      const created = await postCall(
        t,
        acct,
        callBody(shop, { customer: { name: "Fatima Zahra", phone_number: "+212612345601" } }),
      );
      callId = (created.json() as { id: string }).id;
      const { context, page } = await signedIn(acct);
      // The key is in no cookie, storage or page the browser keeps.
      const cookies = await context.cookies();
      expect(cookies.map((c) => c.name).sort()).toEqual(["wakha_csrf", "wakha_session"]);
      expect(cookies.every((c) => c.httpOnly && c.sameSite === "Strict" && !c.value.includes(acct.apiKey))).toBe(true);
      expect(await page.evaluate(() => JSON.stringify(localStorage) + JSON.stringify(sessionStorage))).not.toContain(
        "wakha_sk_",
      );

      const badge = page.locator(`tr[data-call-id="${callId}"] .live-status .badge`);
      await expect.poll(() => badge.textContent()).toBe("En file");
      await page.evaluate(() => {
        (globalThis as unknown as { marker: number }).marker = 42;
      });
      await t.startWorkers();
      await page.locator(`tr[data-call-id="${callId}"] .badge[data-status="completed"]`).waitFor({ timeout: 30_000 });
      expect(await badge.textContent()).toBe("Terminé");
      expect(await page.locator(`tr[data-call-id="${callId}"] .live-outcome`).textContent()).toBe("Confirmée");
      // Updated in place by the event stream, not by a reload.
      expect(await page.evaluate(() => (globalThis as unknown as { marker?: number }).marker)).toBe(42);

      const ranges: number[] = [];
      page.on("response", (r) => {
        if (r.url().endsWith(`/console/calls/${callId}/recording`)) ranges.push(r.status());
      });
      await page.locator(`tr[data-call-id="${callId}"] a`).first().click();
      await page.waitForURL(`${base}/console/calls/${callId}`);
      await expect.poll(() => page.locator(".transcript .turn.agent").count()).toBeGreaterThan(0);
      expect(await page.locator(".transcript .turn.customer").count()).toBeGreaterThan(0);
      const player = page.locator("audio#player");
      await expect.poll(() => player.evaluate((a) => (a as unknown as AudioLike).readyState)).toBeGreaterThanOrEqual(1);
      const duration = await player.evaluate((a) => (a as unknown as AudioLike).duration);
      expect(duration).toBeGreaterThan(1);
      // Seeking from a transcript turn: the player jumps there and plays (Range requests answered 206).
      const seek = page.locator(".transcript button.seek").last();
      const target = Number(await seek.getAttribute("data-seek"));
      expect(target).toBeGreaterThan(0);
      await seek.click();
      await expect
        .poll(() => player.evaluate((a) => (a as unknown as AudioLike).currentTime))
        .toBeGreaterThanOrEqual(target);
      await expect
        .poll(() => player.evaluate((a) => !(a as unknown as AudioLike).paused || (a as unknown as AudioLike).ended))
        .toBe(true);
      expect(ranges).toContain(206);
      await context.close();
    });

    it("filters calls by order and by status", async () => {
      const order = uid("order");
      const { id: busy } = (
        await postCall(
          t,
          acct,
          callBody(shop, {
            customer: { name: "Karim", phone_number: "+212612345604" },
            order: { external_id: order, items: [{ name: "Sac", unit_price: "120.00" }] },
          }),
        )
      ).json() as { id: string };
      const { context, page } = await signedIn(acct);
      await page.getByLabel("Commande").fill(order);
      await page.getByRole("button", { name: "Appliquer" }).click();
      await page.waitForURL(/order_external_id=/);
      expect(
        await page.locator("tr[data-call-id]").evaluateAll((rows) => rows.map((r) => r.getAttribute("data-call-id"))),
      ).toEqual([busy]);
      await page
        .locator(
          `tr[data-call-id="${busy}"] .badge:not([data-status="queued"]):not([data-status="ringing"]):not([data-status="in_progress"])`,
        )
        .waitFor({ timeout: 30_000 });
      await page.goto(`${base}/console/calls`);
      await page.getByLabel("Statut").selectOption("completed");
      await page.getByRole("button", { name: "Appliquer" }).click();
      await page.waitForURL(/status=completed/);
      const ids = await page
        .locator("tr[data-call-id]")
        .evaluateAll((rows) => rows.map((r) => r.getAttribute("data-call-id")));
      expect(ids).toContain(callId);
      expect(ids).not.toContain(busy);
      await context.close();
    });

    it("creates a key with its secret shown once, and revokes it", async () => {
      const { context, page } = await signedIn(acct);
      // The unfiltered calls page offers the calls that arrive after it was opened.
      expect(await page.locator("#new-calls").isHidden()).toBe(true);
      await postCall(t, acct, callBody(shop));
      await page.locator("#new-calls").waitFor({ state: "visible", timeout: 15_000 });
      await page.getByRole("link", { name: "Clés d’API" }).click();
      await page.getByLabel("Nom").fill("console-key");
      await page.getByRole("button", { name: "Créer une clé" }).click();
      const secret = (await page.locator("#new-secret").textContent())!;
      expect(secret).toMatch(/^wakha_sk_/);
      const works = await fetch(`${base}/v1/me`, { headers: { authorization: `Bearer ${secret}` } });
      expect(works.status).toBe(200);
      await page.getByRole("button", { name: "Révoquer console-key" }).click();
      await page.waitForURL(`${base}/console/keys`);
      expect(await page.locator("#new-secret").count()).toBe(0);
      expect(await page.locator("tr", { hasText: "console-key" }).textContent()).toContain("Révoquée");
      const refused = await fetch(`${base}/v1/me`, { headers: { authorization: `Bearer ${secret}` } });
      expect(refused.status).toBe(401);
      await context.close();
    });

    it("configures the webhook, sends a test that arrives signed, and lists the delivery", async () => {
      const { context, page } = await signedIn(acct);
      await page.getByRole("link", { name: "Webhook" }).click();
      await page.getByLabel("URL").fill(`${receiver.url}/hook`);
      await page.getByRole("button", { name: "Configurer" }).click();
      expect(await page.locator("#new-secret").textContent()).toMatch(/^whsec_/);
      await page.getByRole("button", { name: "Envoyer un test" }).click();
      await page.waitForURL(/tested=/);
      expect(await page.locator(".notice").textContent()).toBe("Test envoyé.");
      const [received] = await receiver.waitFor(1);
      expect(received!.headers["x-service-signature"]).toBeTruthy();
      // Issue 38.1: the event is named in words ("Essai"), its type kept in data-event.
      const row = page.locator('tr[data-delivery-id]:has(a[data-event="webhook.test"])');
      expect(await row.locator(".badge").textContent()).toBe("Livré");
      await row.getByRole("link", { name: "Essai" }).click();
      expect(await page.locator("pre.payload").textContent()).toContain("This is a test delivery");
      await context.close();
    });

    it("switches to Arabic: the page reads right to left", async () => {
      const { context, page } = await signedIn(acct);
      await page.getByLabel("Langue").selectOption("ar");
      await page.getByRole("button", { name: "Changer" }).click();
      await page.waitForFunction(() => (globalThis as unknown as PageGlobals).document.documentElement.dir === "rtl");
      expect(
        await page.evaluate(() => {
          const g = globalThis as unknown as PageGlobals;
          return [
            g.document.documentElement.lang,
            g.document.documentElement.dir,
            g.getComputedStyle(g.document.body).direction,
          ];
        }),
      ).toEqual(["ar", "rtl", "rtl"]);
      expect(
        await page
          .getByRole("navigation", { name: "القائمة الرئيسية" })
          .getByRole("link", { name: "المكالمات" })
          .count(),
      ).toBe(1);
      // The keyboard reaches the skip link first, and it leads to the content.
      await page.keyboard.press("Tab");
      const focused = () =>
        page.evaluate(() => {
          const el = (
            globalThis as unknown as { document: { activeElement: { className: string; id: string } | null } }
          ).document.activeElement;
          return el ? `${el.className}#${el.id}` : "";
        });
      expect(await focused()).toBe("skip#");
      await page.keyboard.press("Enter");
      await expect.poll(focused).toBe("#main");
      // On a phone's width the page does not scroll sideways (wide tables scroll inside their own box).
      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto(`${base}/console/calls`);
      expect(
        await page.evaluate(
          () =>
            (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document
              .documentElement.scrollWidth,
        ),
      ).toBeLessThanOrEqual(390);
      await context.close();
    });

    it("keeps the first account's call out of a second account's session, by URL", async () => {
      const { context, page } = await signedIn(other);
      const res = await page.goto(`${base}/console/calls/${callId}`);
      expect(res!.status()).toBe(404);
      expect(await page.content()).not.toContain("Fatima Zahra");
      const audio = await page.request.get(`${base}/console/calls/${callId}/recording`);
      expect(audio.status()).toBe(404);
      expect(await page.locator("tr[data-call-id]").count()).toBe(0);
      await page.goto(`${base}/console/calls`);
      expect(await page.locator("tr[data-call-id]").count()).toBe(0);
      await context.close();
    });
  },
);
