// Runs a real node (API, workers, carrier endpoints) listening on a loopback port behind a switchable TCP
// forwarder: the forwarder's address is WAKHA_PUBLIC_URL, what the carrier fakes call back, so a second node can
// take over the public address when the first one "dies" (the restart tests).
import { randomUUID } from "node:crypto";
import net from "node:net";
import { newAccount, type TestAccount } from "../helpers.ts";
import { callBody, insertShop, postCall } from "../calls-fixtures.ts";
import { expect } from "vitest";
import type { CallOut } from "../../src/schemas/calls.ts";
import { debitsOf, type EngineApp, eventsOf, startEngineApp } from "../engine-fixtures.ts";

export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A TCP forwarder to whichever node is current; kill() cuts every connection through it. */
export class PublicAddress {
  target = 0;
  readonly #sockets = new Set<net.Socket>();
  readonly #server = net.createServer((client) => {
    const upstream = net.connect(this.target, "127.0.0.1");
    this.#sockets.add(client).add(upstream);
    client.pipe(upstream).pipe(client);
    const done = () => {
      client.destroy();
      upstream.destroy();
      this.#sockets.delete(client);
      this.#sockets.delete(upstream);
    };
    client.on("error", done).on("close", done);
    upstream.on("error", done).on("close", done);
  });
  port = 0;

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.#server.listen(0, "127.0.0.1", resolve));
    this.port = (this.#server.address() as net.AddressInfo).port;
    return `http://127.0.0.1:${this.port}`;
  }

  /** Drops every open connection (a node dying takes its sockets with it). */
  cutAll(): void {
    for (const s of this.#sockets) s.destroy();
  }

  async close(): Promise<void> {
    this.cutAll();
    await new Promise((resolve) => this.#server.close(resolve));
  }
}

export interface CarrierNode extends EngineApp {
  port: number;
}

/** A node with its workers, listening on its own port; `public` forwards to it. */
export async function startCarrierNode(
  databaseUrl: string,
  env: Record<string, string>,
  publicAddress: PublicAddress,
): Promise<CarrierNode> {
  const port = await freePort();
  const t = await startEngineApp({
    databaseUrl,
    env: { ...env, WAKHA_PUBLIC_URL: `http://127.0.0.1:${publicAddress.port}` },
  });
  await t.app.listen({ port, host: "127.0.0.1" });
  publicAddress.target = port;
  await t.startWorkers();
  return { ...t, port };
}

export async function carrierAccount(t: EngineApp, balance: number): Promise<{ acct: TestAccount; shop: string }> {
  const acct = await newAccount(t.ctx, balance);
  const shop = (await insertShop(t.ctx, acct.accountId)).externalId;
  // An active webhook, so the engine's events are written (nobody delivers them in this suite).
  await t.ctx.db.query(
    "INSERT INTO webhooks (id, account_id, url, secret_sealed) VALUES ($1, $2, 'https://hooks.example.test/wakha', 'sealed')",
    [randomUUID(), acct.accountId],
  );
  return { acct, shop };
}

export const PHONES = { MA: "+2126123456", DZ: "+2135512345", TN: "+216201234", FR: "+336123456" } as const;

export async function createCarrierCall(
  t: EngineApp,
  acct: TestAccount,
  shop: string,
  country: keyof typeof PHONES,
  phone: string,
  channel?: string,
): Promise<string> {
  const res = await postCall(
    t,
    acct,
    callBody(shop, {
      country,
      customer: { name: "Fatima Zahra", phone_number: phone },
      order: { external_id: randomUUID(), items: [{ name: "Caftan", unit_price: "249.00", quantity: 2 }] },
      ...(channel ? { call_params: { channel } } : {}),
    }),
  );
  if (res.statusCode !== 201) throw new Error(`create: ${res.statusCode} ${res.body}`);
  return (res.json() as { id: string }).id;
}

/**
 * Issue 34, on every carrier: a bridged transfer is billed on the carrier's duration (the bridge included, and more
 * than the bridge), debited once, announced by `call.transferred` before `call.ended`, and the person's decision
 * settles the order through channel `agent`.
 */
export async function expectBridgedThenResolved(
  t: EngineApp,
  acct: TestAccount,
  shop: string,
  orderId: string,
  call: CallOut,
  carrier: { duration: number; dialDuration: number | null },
): Promise<void> {
  expect(call.transfer!.answered_at).not.toBeNull();
  expect(call.transfer!.seconds).toBeGreaterThanOrEqual(6);
  expect(call.transfer!.seconds).toBeLessThanOrEqual(carrier.dialDuration!);
  expect(call.billed_seconds).toBe(carrier.duration);
  expect(call.billed_seconds).toBeGreaterThan(call.transfer!.seconds);
  expect((await debitsOf(t.ctx, acct.accountId)).get(call.id)?.seconds).toBe(carrier.duration);
  const types = (await eventsOf(t.ctx, acct.accountId)).filter((e) => e.payload.id === call.id).map((e) => e.type);
  expect(types.indexOf("call.transferred")).toBeGreaterThan(-1);
  expect(types.indexOf("call.transferred")).toBeLessThan(types.indexOf("call.ended"));
  const put = await t.app.inject({
    method: "PUT",
    url: `/v1/shops/${shop}/orders/${orderId}/resolution`,
    headers: acct.headers,
    payload: { value: "confirmed", note: "Confirmed on the phone with the shop's person." },
  });
  expect(put.statusCode, put.body).toBe(200);
  const order = (
    await t.app.inject({ method: "GET", url: `/v1/shops/${shop}/orders/${orderId}`, headers: acct.headers })
  ).json();
  expect(order.resolution).toMatchObject({ value: "confirmed", channel: "agent" });
}

/** Gives `shop` a handoff to `phone` (issue 34), through the API. */
export async function putHandoff(
  t: EngineApp,
  acct: TestAccount,
  shop: string,
  phone: string,
  ring: number,
  triggers: string[],
  hours?: unknown,
): Promise<void> {
  const res = await t.app.inject({
    method: "PUT",
    url: `/v1/shops/${shop}/handoff`,
    headers: acct.headers,
    payload: { phone_number: phone, triggers, ring_timeout_seconds: ring, ...(hours === undefined ? {} : { hours }) },
  });
  expect(res.statusCode, res.body).toBe(200);
}

/**
 * The transfers nobody takes, by the handoff number's last digits on every carrier's fake: 03 no answer, 04 busy, 05
 * hangs up during the brief, 06 unreachable (the carrier reports the person's call `failed`).
 */
export const UNTAKEN_TRANSFERS = [
  { phone: "+212612345603", status: "no_answer", dial: "no-answer", answered: false },
  { phone: "+212612345604", status: "busy", dial: "busy", answered: false },
  { phone: "+212612345605", status: "no_answer", dial: "completed", answered: true },
  { phone: "+212612345606", status: "failed", dial: "failed", answered: false },
] as const;

/** A transfer nobody took ends the call callback_requested, with the carrier's dial status and the refusal as the fake saw them. */
export function expectUntaken(
  call: CallOut,
  handoff: { dialStatus: string | null; refused: boolean },
  c: (typeof UNTAKEN_TRANSFERS)[number],
): void {
  expect(call, c.phone).toMatchObject({
    status: "completed",
    outcome: "callback_requested",
    transfer: { status: c.status, to: c.phone, seconds: 0 },
  });
  expect(call.transfer!.answered_at !== null, c.phone).toBe(c.answered);
  expect(handoff.dialStatus, c.phone).toBe(c.dial);
  expect(handoff.refused, c.phone).toBe(c.phone.endsWith("05"));
}
