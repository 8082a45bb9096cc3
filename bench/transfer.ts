// Bench section `transfer` (issue 34): the time from the customer's request for a person to the handoff number being
// dialled, as far as Wakha's side goes: the dialogue hears the request (local classifier, every profile), decides the
// transfer, checks the handoff hours and writes the person's brief, then the simulator's session is asked to dial.
// Measured in wall time in this process, one core. The end-to-end line (the Twilio fake) counts everything up to the
// person's phone ringing: the person is dialled through the REST API at once, alongside the put-through line.
import { insideHandoffHours } from "../src/domain/handoff.ts";
import { createDialogue } from "../src/engine/dialogue/flow.ts";
import { whisperText } from "../src/engine/dialogue/handoff.ts";
import { classifyIntent } from "../src/engine/dialogue/classifier.ts";
import type { DialogueOrder } from "../src/engine/dialogue/types.ts";
import { HANDOFF_PHRASES } from "../src/engine/telephony/simulator/transfer.ts";
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { benchDatabase, createAccountCli, freePort, ROOT, startWakha, wakhaEnv } from "./processes.ts";
import type { SectionResult } from "./sections.ts";

const ORDERS: DialogueOrder[] = [
  {
    shopName: "Dar Lbahja",
    customerName: "Fatima Zahra",
    country: "MA",
    language: "ar",
    dialect: "ma",
    amount: "690.00",
    currency: "MAD",
    items: [{ name: "Caftan", variant: "Vert, M", quantity: 1, unit_price: "690.00" }],
  },
  {
    shopName: "Bled Store",
    customerName: "Yacine",
    country: "DZ",
    language: "ar",
    dialect: "dz",
    amount: "4500.00",
    currency: "DZD",
    items: [{ name: "Montre", variant: null, quantity: 1, unit_price: "4500.00" }],
  },
  {
    shopName: "Souk Ennour",
    customerName: "Amira",
    country: "TN",
    language: "ar",
    dialect: "tn",
    amount: "89.500",
    currency: "TND",
    items: [{ name: "Sac", variant: null, quantity: 1, unit_price: "89.500" }],
  },
  {
    shopName: "Maison Lila",
    customerName: "Julie Martin",
    country: "FR",
    language: "fr",
    dialect: "fr",
    amount: "49.90",
    currency: "EUR",
    items: [{ name: "Coque", variant: "Bleu", quantity: 2, unit_price: "24.95" }],
  },
];
const HOURS = {
  time_zone: "Africa/Casablanca",
  days: Object.fromEntries(
    ["sun", "mon", "tue", "wed", "thu", "fri", "sat"].map((d) => [d, [{ from: "00:00", to: "24:00" }]]),
  ),
};
const YES = { ma: "ah ana hiya", dz: "ih ana", tn: "ey ena", fr: "oui c'est moi" } as const;

const ACCOUNT_SID = `AC${"0c".repeat(16)}`;
const AUTH_TOKEN = "bench-twilio-transfer-token-0000";
const JAMBONZ_ACCOUNT_SID = "0c0c0c0c-0c0c-4c0c-8c0c-0c0c0c0c0c0c";
const JAMBONZ_API_KEY = "bench-jambonz-transfer-key-0000";
const JAMBONZ_SECRET = "bench-jambonz-transfer-secret-0000";

type BenchCarrier = "twilio" | "jambonz";

/** The carrier's fake process and the node's settings for it. */
function carrierSetup(carrier: BenchCarrier): { args: string[]; env: (fakeUrl: string) => Record<string, string> } {
  if (carrier === "twilio")
    return {
      args: [path.join(ROOT, "bench", "carrier-fake.ts"), ACCOUNT_SID, AUTH_TOKEN, "1"],
      env: (fakeUrl) => ({
        WAKHA_CHANNELS: "gsm=twilio",
        WAKHA_TWILIO_ACCOUNT_SID: ACCOUNT_SID,
        WAKHA_TWILIO_AUTH_TOKEN: AUTH_TOKEN,
        WAKHA_TWILIO_CALLER_IDS: "+212522000000",
        WAKHA_TWILIO_API_URL: fakeUrl,
      }),
    };
  return {
    args: [path.join(ROOT, "bench", "jambonz-fake.ts"), JAMBONZ_ACCOUNT_SID, JAMBONZ_API_KEY, JAMBONZ_SECRET, "1"],
    env: (fakeUrl) => ({
      WAKHA_CHANNELS: "gsm=jambonz",
      WAKHA_JAMBONZ_API_URL: fakeUrl,
      WAKHA_JAMBONZ_ACCOUNT_SID: JAMBONZ_ACCOUNT_SID,
      WAKHA_JAMBONZ_API_KEY: JAMBONZ_API_KEY,
      WAKHA_JAMBONZ_CALLER_IDS: "+212522000000",
      WAKHA_JAMBONZ_WEBHOOK_SECRET: JAMBONZ_SECRET,
    }),
  };
}

/**
 * The time from the customer's request for a person to the handoff number ringing, end to end on a carrier's fake
 * (issue 34): a `wakha serve` node with WAKHA_CHANNELS=gsm=twilio (or jambonz), the fake in a process of its own
 * (bench/carrier-fake.ts, bench/jambonz-fake.ts) playing the carrier, the simulator's customer 13 (asks for a person)
 * and the shop's person; BENCH_TRANSFER_CALLS (20) calls at once, on the carrier's real clock (speed 1). From the
 * fake's delivery of the customer's words to the person's call `ringing`: recognition, the dialogue, the REST call
 * that dials the person (the agent's put-through line is said meanwhile).
 */
async function carrierLine(serverUrl: string, log: (m: string) => void, carrier: BenchCarrier): Promise<string> {
  const calls = Number(process.env["BENCH_TRANSFER_CALLS"] ?? 20);
  const db = await benchDatabase(serverUrl, "transfer");
  const setup = carrierSetup(carrier);
  const fakeProc = spawn(process.execPath, setup.args, { stdio: ["ignore", "pipe", "inherit"] });
  const check = new pg.Client({ connectionString: db.url });
  let node: Awaited<ReturnType<typeof startWakha>> | null = null;
  try {
    const fakeUrl = await new Promise<string>((resolve, reject) => {
      let out = "";
      fakeProc.stdout.on("data", (c: Buffer) => {
        out += c.toString("utf8");
        if (out.includes("\n")) resolve(out.trim());
      });
      fakeProc.on("exit", () => reject(new Error(`the ${carrier} fake exited`)));
    });
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const account = await createAccountCli(db.url, 1_000_000_000);
    node = await startWakha(
      "serve",
      wakhaEnv(db.url, {
        PORT: String(port),
        WAKHA_PUBLIC_URL: url,
        WAKHA_RATE_LIMIT_SCALE: "1000",
        ...setup.env(fakeUrl),
        WAKHA_CARRIER_TIME_SCALE: "1",
      }),
      [],
    );
    const send = async (method: string, p: string, body: unknown, ok: number) => {
      const res = await fetch(`${url}${p}`, {
        method,
        headers: {
          authorization: `Bearer ${account.api_key}`,
          "content-type": "application/json",
          "idempotency-key": randomUUID(),
        },
        body: JSON.stringify(body),
      });
      if (res.status !== ok) throw new Error(`${method} ${p}: ${res.status} ${await res.text()}`);
    };
    await send("POST", "/v1/shops", { external_id: "bench-shop", merchant_external_id: "m", name: "Bench shop" }, 201);
    await send(
      "PUT",
      "/v1/shops/bench-shop/handoff",
      { phone_number: "+212612345699", triggers: ["customer_asks"], ring_timeout_seconds: 20 },
      200,
    );
    log(`transfer: ${calls} calls asking for a person through the ${carrier} fake`);
    const load = os.loadavg()[0]!;
    await Promise.all(
      Array.from({ length: calls }, (_, n) =>
        send(
          "POST",
          "/v1/calls",
          {
            shop_external_id: "bench-shop",
            customer: { name: "Amina", phone_number: "+212612345613" },
            amount: "450.00",
            country: "MA",
            order: { external_id: `t-${n}`, items: [{ name: "Caftan", unit_price: "450.00" }] },
          },
          201,
        ),
      ),
    );
    await check.connect();
    const deadline = Date.now() + 300_000;
    while (Date.now() < deadline) {
      const { rows } = await check.query<{ ended: number }>(
        "SELECT count(*) FILTER (WHERE ended_at IS NOT NULL)::int AS ended FROM calls",
      );
      if (rows[0]!.ended >= calls) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    const samples = ((await (await fetch(`${fakeUrl}/__fake/transfers`)).json()) as { ms: number; speed: number }[])
      .map((s) => s.ms * s.speed)
      .sort((a, b) => a - b);
    const at = (q: number) => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))] ?? 0;
    const p99 = at(0.99);
    return (
      `customer's request to the handoff number RINGING on the ${carrier === "twilio" ? "Twilio" : "jambonz"} fake (${samples.length} of ${calls} transfers at once, carrier clock 1x, load ${load.toFixed(2)} then ${os.loadavg()[0]!.toFixed(2)}): ` +
      `p50 ${at(0.5).toFixed(0)} ms, p99 ${p99.toFixed(0)} ms, max ${at(1).toFixed(0)} ms; goal p99 under 1500 ms: ${p99 < 1500 && samples.length > 0 ? "met" : "NOT met"} ` +
      (carrier === "twilio"
        ? "(the person is dialled through the REST API at once, while the agent says its put-through line)."
        : "(the person is dialled through jambonz's REST API at once, while the agent says its put-through line).")
    );
  } finally {
    await check.end().catch(() => {});
    await node?.stop();
    fakeProc.kill("SIGTERM");
    await db.drop();
  }
}

export async function transferSection(serverUrl?: string, log: (m: string) => void = () => {}): Promise<SectionResult> {
  const name = "transfer";
  const classifier = { classify: (text: string, country: DialogueOrder["country"]) => classifyIntent(text, country) };
  const samples: number[] = [];
  let missed = 0;
  const rounds = 400;
  for (let i = 0; i < rounds; i++) {
    for (const order of ORDERS) {
      const phrases = HANDOFF_PHRASES[order.dialect].person;
      const d = createDialogue(order, { classifier, now: new Date(), handoff: ["customer_asks"] });
      d.opening();
      await d.hear(YES[order.dialect], 2);
      const started = performance.now();
      const turn = await d.hear(phrases[i % phrases.length]!, 6);
      if (!turn.transfer) {
        missed += 1;
        continue;
      }
      if (!insideHandoffHours(HOURS, new Date())) missed += 1;
      whisperText(order.language, {
        customerName: order.customerName,
        orderExternalId: "A-1",
        total: `${order.amount} ${order.currency}`,
        reason: turn.transfer.reason,
      });
      if (i >= 20) samples.push(performance.now() - started); // the first rounds warm the classifier
    }
  }
  samples.sort((a, b) => a - b);
  const at = (q: number) => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))] ?? 0;
  const p99 = at(0.99);
  return {
    name,
    text:
      `customer's request to the handoff dial, Wakha's side (hear, decide, hours, brief; ${samples.length} requests in 4 profiles, one core): ` +
      `p50 ${at(0.5).toFixed(2)} ms, p99 ${p99.toFixed(2)} ms, max ${at(1).toFixed(2)} ms; ${missed} requests not heard as one; goal p99 under 1500 ms: ${p99 < 1500 ? "met" : "NOT met"}. ` +
      "On the carriers the dial goes out alongside the agent's put-through line (the conference pattern)." +
      (serverUrl
        ? `\n${await carrierLine(serverUrl, log, "twilio").catch((err: unknown) => `carrier line failed: ${err instanceof Error ? err.message : String(err)}`)}` +
          `\n${await carrierLine(serverUrl, log, "jambonz").catch((err: unknown) => `jambonz line failed: ${err instanceof Error ? err.message : String(err)}`)}`
        : ""),
  };
}
