// Makes the console screenshots of the README (docs/console/*.png): a database of its own on DATABASE_URL's server,
// an account with a shop and a few simulated calls run to their end by the real engine, then Debian's chromium
// (playwright-core) signs in and photographs the main pages. `node scripts/console-screenshots.ts`.
import { randomBytes } from "node:crypto";
import { mkdir } from "node:fs/promises";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { chromium } from "playwright-core";
import { buildApp } from "../src/app.ts";
import { loadConfig } from "../src/config/config.ts";
import { migrate } from "../src/db/migrate.ts";
import { createWorkers } from "../src/root/job-handlers.ts";
import { createRoot } from "../src/root/root.ts";
import { createAccount } from "../src/services/accounts.ts";

const SERVER = process.env["DATABASE_URL"] || "postgresql://postgres@127.0.0.1:5432/postgres";
const OUT = path.resolve(import.meta.dirname, "../docs/console");

const name = `wakha_screens_${Date.now()}_${randomBytes(3).toString("hex")}`;
const admin = new pg.Client({ connectionString: SERVER });
await admin.connect();
await admin.query(`CREATE DATABASE ${name}`);
const url = new URL(SERVER);
url.pathname = `/${name}`;
const dataDir = await mkdtemp(path.join(tmpdir(), "wakha-screens-"));
try {
  await migrate(url.toString());
  const config = loadConfig({
    DATABASE_URL: url.toString(),
    LOG_LEVEL: "silent",
    WAKHA_CALLING_HOURS: "off",
    WAKHA_NUMBER_DAILY_LIMIT: "0",
    WAKHA_SIMULATOR_SPEED: "20",
    WAKHA_DATA_DIR: dataDir,
  });
  const root = await createRoot(config, {
    databaseUrl: url.toString(),
    cursorSecret: "screens-cursor-secret-0123456789abcdef",
    encryptionKey: "screens-encryption-key-0123456789abcdef",
  });
  const app = await buildApp(root);
  const base = await app.listen({ host: "127.0.0.1", port: 0 });
  const workers = createWorkers(root, (m) => process.stderr.write(`${m}\n`));
  await workers.start(["placeCall", "sweepCalls"]);
  const account = await createAccount(root.db, { name: "Boutique Atlas", balanceSeconds: 1800 });
  const auth = { authorization: `Bearer ${account.api_key}`, "content-type": "application/json" };
  await fetch(`${base}/v1/shops`, {
    method: "POST",
    headers: auth,
    body: JSON.stringify({
      external_id: "atlas-casablanca",
      merchant_external_id: "merchant-42",
      name: "Boutique Atlas",
      default_country: "MA",
    }),
  });
  await fetch(`${base}/v1/shops/atlas-casablanca/connector`, {
    method: "PUT",
    headers: auth,
    body: JSON.stringify({
      platform: "shopify",
      store_url: "https://boutique-atlas.myshopify.com",
      access_token: `shpat_${"3f9a".repeat(8)}`,
      webhook_secret: "screens-webhook-secret-0123456789",
    }),
  });
  const people: [string, string][] = [
    ["Fatima Zahra", "01"],
    ["Youssef Benali", "02"],
    ["Khadija Amrani", "04"],
    ["Omar Tazi", "06"],
    ["Salma Idrissi", "09"],
    ["Hamza El Fassi", "08"],
    ["Nadia Berrada", "10"],
    ["Mehdi Alaoui", "03"],
  ];
  const ids: string[] = [];
  for (const [i, [customer, ending]] of people.entries()) {
    const res = await fetch(`${base}/v1/calls`, {
      method: "POST",
      headers: { ...auth, "idempotency-key": `screens-${i}` },
      body: JSON.stringify({
        shop_external_id: "atlas-casablanca",
        customer: { name: customer, phone_number: `+2126123456${ending}` },
        amount: "384.00",
        country: "MA",
        order: {
          external_id: `CMD-${1001 + i}`,
          items: [
            { name: "Djellaba brodée", unit_price: "349.00" },
            { name: "Livraison", unit_price: "35.00" },
          ],
        },
      }),
    });
    ids.push(((await res.json()) as { id: string }).id);
  }
  for (const id of ids) {
    for (let i = 0; i < 600; i++) {
      const call = (await (await fetch(`${base}/v1/calls/${id}`, { headers: auth })).json()) as {
        ended_at: string | null;
      };
      if (call.ended_at) break;
      await new Promise((r) => setTimeout(r, 500));
    }
  }
  await mkdir(OUT, { recursive: true });
  const browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  const context = await browser.newContext({ viewport: { width: 1200, height: 800 }, locale: "fr-FR" });
  const page = await context.newPage();
  await page.goto(`${base}/console`);
  await page.screenshot({ path: path.join(OUT, "sign-in.png") });
  await page.getByLabel("Clé d’API").fill(account.api_key);
  await page.getByRole("button", { name: "Se connecter" }).click();
  // Issue 38: the overview is the console's home.
  await page.waitForURL(`${base}/console/overview`);
  await page.screenshot({ path: path.join(OUT, "overview.png"), fullPage: true });
  await page.goto(`${base}/console/calls`);
  await page.screenshot({ path: path.join(OUT, "calls.png"), fullPage: true });
  await page.goto(`${base}/console/policy`);
  await page.screenshot({ path: path.join(OUT, "policy.png"), fullPage: true });
  await page.goto(`${base}/console/shops/atlas-casablanca/connector`);
  await page.screenshot({ path: path.join(OUT, "connector.png"), fullPage: true });
  await page.goto(`${base}/console/calls/${ids[0]}`);
  await page.screenshot({ path: path.join(OUT, "call.png"), fullPage: true });
  await page.goto(`${base}/console/balance`);
  await page.screenshot({ path: path.join(OUT, "balance.png"), fullPage: true });
  await page.getByLabel("Langue").selectOption("ar");
  await page.getByRole("button", { name: "Changer" }).click();
  await page.goto(`${base}/console/calls/${ids[4]}`);
  await page.screenshot({ path: path.join(OUT, "call-ar.png"), fullPage: true });
  await page.goto(`${base}/console/overview`);
  await page.screenshot({ path: path.join(OUT, "overview-ar.png"), fullPage: true });
  await page.goto(`${base}/console/policy`);
  await page.screenshot({ path: path.join(OUT, "policy-ar.png"), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`${base}/console/calls`);
  await page.screenshot({ path: path.join(OUT, "calls-phone-ar.png") });
  await page.goto(`${base}/console/overview`);
  await page.screenshot({ path: path.join(OUT, "overview-phone-ar.png") });
  await page.getByLabel("اللغة").selectOption("fr");
  await page.getByRole("button", { name: "تغيير" }).click();
  await page.goto(`${base}/console/calls`);
  await page.screenshot({ path: path.join(OUT, "calls-phone.png") });
  await browser.close();
  await workers.stop();
  await app.close();
  await root.close();
  process.stderr.write(`screenshots in ${OUT}\n`);
} finally {
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => {});
  await admin.end();
  await rm(dataDir, { recursive: true, force: true });
}
