// The setup the store-connector tests with a running engine share (issue 17): the engine and its workers, the
// write-back workers, the app listening on loopback (platforms deliver over a real socket), an account and a shop in
// Morocco; plus the reads those tests make of the connector's log and of the calls an order became.
import { randomUUID } from "node:crypto";
import { expect } from "vitest";
import { createWorkers } from "../src/root/job-handlers.ts";
import { createEngineDatabase, type EngineApp, startEngineApp, waitForEnd } from "./engine-fixtures.ts";
import { ENCRYPTION_KEY, newAccount, type TestAccount } from "./helpers.ts";

export interface OrderCall {
  id: string;
  customer_phone: string;
  customer_address: Record<string, string> | null;
  amount: string;
  currency: string;
  country: string;
  items: unknown[];
}

export interface ConnectorEngine {
  t: EngineApp;
  a: TestAccount;
  /** The shop's external id. */
  shop: string;
  /** The app's own address on loopback. */
  listening: string;
  /** The connector's log, newest first (GET .../connector/events). */
  events(): Promise<Record<string, unknown>[]>;
  /** The calls an order became, by the platform's order id. */
  callsOf(orderId: string | number): Promise<OrderCall[]>;
  /** The order's write-back once it is no longer pending (polls the log; throws after `timeoutMs`). */
  writeBackOf(orderId: string | number, timeoutMs?: number): Promise<Record<string, unknown>>;
  /** The outcome of the order's call, once the call has ended. */
  outcomeOf(orderId: string | number): Promise<string>;
  close(): Promise<void>;
}

/** Starts the engine with `env` (the store's settings) on a database of its own, and creates the account and shop. */
export async function startConnectorEngine(env: Record<string, string>): Promise<ConnectorEngine> {
  const db = await createEngineDatabase();
  const t = await startEngineApp({
    databaseUrl: db.url,
    speed: 200,
    env: { WAKHA_ENCRYPTION_KEY: ENCRYPTION_KEY, ...env },
  });
  await t.startWorkers();
  const writers = createWorkers(t.ctx, (m) => t.errors.push(m));
  await writers.start(["writeBackStore"]);
  const listening = await t.app.listen({ host: "127.0.0.1", port: 0 });
  const a = await newAccount(t.ctx, 100_000);
  const shop = `shop-${randomUUID().slice(0, 8)}`;
  await t.app.inject({
    method: "POST",
    url: "/v1/shops",
    headers: a.headers,
    payload: { external_id: shop, merchant_external_id: "m1", name: "Boutique Atlas", default_country: "MA" },
  });
  const events = async () => {
    const res = await t.app.inject({
      method: "GET",
      url: `/v1/shops/${shop}/connector/events?limit=100`,
      headers: a.headers,
    });
    expect(res.statusCode).toBe(200);
    return res.json().data as Record<string, unknown>[];
  };
  const callsOf = async (orderId: string | number) => {
    const { rows } = await t.ctx.db.query<OrderCall>(
      "SELECT id, customer_phone, customer_address, amount::text, currency, country, items FROM calls WHERE order_external_id = $1",
      [String(orderId)],
    );
    return rows;
  };
  return {
    t,
    a,
    shop,
    listening,
    events,
    callsOf,
    async writeBackOf(orderId, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const entry = (await events()).find(
          (e) => e["type"] === "write_back" && e["platform_order_id"] === String(orderId),
        );
        if (entry && entry["status"] !== "pending") return entry;
        if (Date.now() > deadline) throw new Error(`no finished write-back for ${orderId}: ${JSON.stringify(entry)}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    async outcomeOf(orderId) {
      const [call] = await callsOf(orderId);
      return (await waitForEnd(t, a, call!.id)).outcome as string;
    },
    async close() {
      await writers.stop();
      await t.close();
      await db.drop();
    },
  };
}
