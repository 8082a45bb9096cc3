// Per-stage CPU of a call creation's and a call read's Node work (issue 19), on the real code: each stage run in a
// loop in this process, microseconds per operation. `DATABASE_URL=<a migrated database> node bench/create-stages.ts`
// (pg-boss reads its queue once there).
import { performance } from "node:perf_hooks";
import { isValidPhoneNumber } from "libphonenumber-js";
import { serializerCompiler } from "fastify-type-provider-zod";
import { hashApiKey } from "../src/auth/key-authenticator.ts";
import { MemoryRateLimiter } from "../src/ratelimit/limiter.ts";
import { callCreateSchema, callOutSchema, type CallOut } from "../src/schemas/calls.ts";
import { requestHash } from "../src/db/idempotency.ts";

const body = {
  shop_external_id: "bench-shop",
  customer: { name: "Fatima Zahra", phone_number: "+212612345601" },
  amount: "279.00",
  country: "MA",
  order: {
    external_id: "order-abcdef-123",
    items: [
      { product_external_id: "caftan", variant_external_id: "caftan-red-m", quantity: 1 },
      { name: "Shipping", unit_price: "30.00" },
    ],
  },
};
const parsed = callCreateSchema.parse(body);
const out: CallOut = {
  id: "3d99a972-4e40-44f8-9877-4d4cf41f1499",
  status: "queued",
  outcome: null,
  end_reason: null,
  shop_external_id: "bench-shop",
  customer: { name: "Fatima Zahra", phone_number: "+212612345601" },
  amount: "279.00",
  currency: "MAD",
  country: "MA",
  language: "ar",
  dialect: "ma",
  channel: "gsm",
  order: {
    external_id: "order-abcdef-123",
    previous_attempts: 0,
    items: [
      {
        product_external_id: "caftan",
        variant_external_id: "caftan-red-m",
        name: "Caftan",
        variant_name: "Red, M",
        unit_price: "249.00",
        quantity: 1,
      },
      {
        product_external_id: null,
        variant_external_id: null,
        name: "Shipping",
        variant_name: null,
        unit_price: "30.00",
        quantity: 1,
      },
    ],
  },
  outcome_details: null,
  created_at: new Date().toISOString(),
  answered_at: null,
  ended_at: null,
  duration_seconds: null,
  billed_seconds: null,
  recording_url: null,
  scheduled_at: null,
  retry_of: null,
  legal_basis: "order_confirmation",
  recording_declined: false,
  schedule_reason: null,
  billing_adjustment: null,
  transfer: null,
  waiting_reason: null,
};
const serialize = (
  serializerCompiler as unknown as (o: { schema: unknown; method: string; url: string }) => (d: unknown) => string
)({ schema: callOutSchema, method: "GET", url: "/x" });
const limiter = new MemoryRateLimiter();
let n = 0;

const stages: [string, () => unknown][] = [
  ["JSON.parse of the request body", () => JSON.parse(JSON.stringify(body))],
  ["Zod validation of CallCreate (libphonenumber included)", () => callCreateSchema.safeParse(body)],
  ["libphonenumber isValidPhoneNumber alone", () => isValidPhoneNumber("+212612345601")],
  ["request hash (canonical JSON + SHA-256)", () => requestHash("POST /v1/calls", parsed)],
  [
    "API key hash (SHA-256) for the cache",
    () => hashApiKey("wakha_sk_pRq_TG-JGNOlugcJ0jk08az-3YUztgIJ").toString("base64"),
  ],
  ["rate limiter consume", () => limiter.consume(`k${n++ % 4}:read`, 1e9, 60_000, Date.now())],
  ["CallOut response: Zod encode + JSON.stringify", () => serialize(out)],
  ["CallOut: JSON.stringify alone", () => JSON.stringify(out)],
];

function measure(fn: () => unknown): number {
  const until = performance.now() + 300;
  let count = 0;
  while (performance.now() < until) {
    for (let i = 0; i < 100; i++) fn();
    count += 100;
  }
  const start = process.cpuUsage();
  const t = performance.now();
  for (let i = 0; i < count; i++) fn();
  const cpu = process.cpuUsage(start);
  void t;
  return (cpu.user + cpu.system) / count;
}

for (const [name, fn] of stages) process.stdout.write(`${name}: ${measure(fn).toFixed(2)} us\n`);

// createCall's own work with PostgreSQL answered at once (a stand-in client returning the rows the real statements
// return), to separate the service's JS from pg's protocol work and the socket.
const { createCall } = await import("../src/calls/create.ts");
const { JobQueue } = await import("../src/jobs/queue.ts");
const { loadConfig } = await import("../src/config/config.ts");
const { Throttle } = await import("../src/throttle.ts");
const snapshotRow = {
  now: new Date(),
  balance_seconds: 1_000_000,
  accountHours: null,
  shopHours: null,
  shop_id: "0b3f8c9e-1d2a-4c5b-9e8f-7a6b5c4d3e2f",
  order_last_attempt: null,
  listed: false,
  stored: null,
  catalogue: [
    { product: "caftan", product_name: "Caftan", variant: "caftan-red-m", variant_name: "Red, M", price: "249.00" },
  ],
};
const client = {
  query: async (config: { name?: string }) => ({
    rows: [config.name?.includes("snapshot") ? snapshotRow : { checked: true }],
  }),
  release() {},
};
// pg-boss needs its schema once, to cache the queue: DATABASE_URL (a migrated database with pg-boss's schema).
const queue = new JobQueue(process.env["DATABASE_URL"] ?? "postgresql://postgres@127.0.0.1:5432/postgres", () => {});
await queue.start();
const ctx = {
  config: loadConfig({
    LOG_LEVEL: "silent",
    DATABASE_URL: "postgresql://unused@127.0.0.1:1/none",
    WAKHA_CALLING_HOURS: "off",
    WAKHA_NUMBER_DAILY_LIMIT: "0",
  }),
  db: { pool: { connect: async () => client } },
  queue,
  now: Date.now,
  idempotencyPurge: new Throttle(async () => 0, 60_000),
} as unknown as Parameters<typeof createCall>[0];
const who = { accountId: "3d99a972-4e40-44f8-9877-4d4cf41f1499", keyId: "k" };
const asyncStages: [string, () => Promise<unknown>][] = [
  ["createCall, PostgreSQL answered at once", () => createCall(ctx, who, parsed, `key-${n++}`)],
];
async function measureAsync(fn: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < 2000; i++) await fn();
  const count = 20_000;
  const start = process.cpuUsage();
  for (let i = 0; i < count; i++) await fn();
  const cpu = process.cpuUsage(start);
  return (cpu.user + cpu.system) / count;
}
for (const [name, fn] of asyncStages) process.stdout.write(`${name}: ${(await measureAsync(fn)).toFixed(2)} us\n`);
await queue.stop();
