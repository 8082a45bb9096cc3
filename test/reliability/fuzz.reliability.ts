// Property-based fuzzing (issue 8) of every /v1 operation in /openapi.json: bodies and queries generated
// from the published JSON Schemas, plus junk (wrong types, unknown fields, huge strings, NUL bytes, deep
// nesting, non-JSON). Properties: never a 5xx; every error is application/problem+json; a 4xx writes nothing
// (the row count of every table, pg-boss jobs included, is unchanged).
import { randomUUID } from "node:crypto";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { JOBS } from "../../src/jobs/catalogue.ts";
import { startApp, newAccount } from "../helpers.ts";
import {
  type Hints,
  type JsonSchema,
  anyDate,
  anyPeriod,
  anyUnicode,
  bodies,
  decimal,
  hugeInteger,
  nastyString,
  percentEncode,
  queries,
} from "./json-schema-arbitrary.ts";

const RUNS = Number(process.env["FUZZ_RUNS"] ?? 100);

const t = await startApp({ env: { WAKHA_RATE_LIMIT_SCALE: "100000" } });
const account = await newAccount(t.ctx, 1_000_000);
const headers = account.headers;

async function setup(method: "POST" | "PATCH", url: string, payload: object): Promise<void> {
  const res = await t.app.inject({ method, url, headers, payload });
  if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
}
await setup("POST", "/v1/shops", {
  external_id: "fuzz-shop",
  merchant_external_id: "fuzz-merchant",
  name: "Fuzz shop",
});
await setup("POST", "/v1/shops/fuzz-shop/products", {
  external_id: "fuzz-product",
  name: "Caftan",
  variants: [
    { variant_external_id: "fuzz-v1", price: "249.00" },
    { variant_external_id: "fuzz-v2", price: "259.00" },
  ],
});
const firstCall = await t.app.inject({
  method: "POST",
  url: "/v1/calls",
  headers: { ...headers, "idempotency-key": randomUUID() },
  payload: {
    shop_external_id: "fuzz-shop",
    customer: { name: "A", phone_number: "+212612345601" },
    amount: "1.00",
    country: "MA",
    order: { external_id: "fuzz-o", items: [{ name: "x", unit_price: "1" }] },
  },
});
const callId = (firstCall.json() as { id: string }).id;

interface Operation {
  method: string;
  path: string;
  params: { name: string; in: string; schema: JsonSchema }[];
  body: JsonSchema | null;
}

const doc = (await t.app.inject({ url: "/openapi.json" })).json() as {
  paths: Record<
    string,
    Record<
      string,
      {
        parameters?: { name: string; in: string; schema: JsonSchema }[];
        requestBody?: { content: Record<string, { schema: JsonSchema }> };
      }
    >
  >;
  components: { schemas: Record<string, JsonSchema> };
};
const operations: Operation[] = Object.entries(doc.paths)
  .filter(([p]) => p.startsWith("/v1/"))
  .flatMap(([p, ops]) =>
    Object.entries(ops).map(([m, op]) => ({
      method: m.toUpperCase(),
      path: p,
      params: op.parameters ?? [],
      body: op.requestBody?.content["application/json"]?.schema ?? null,
    })),
  );

// Values that let schema-shaped bodies get past the checks JSON Schema cannot express (existing shop,
// valid phone numbers, decimal strings), so the fuzzer reaches the writes too.
const hints: Hints = {
  shop_external_id: fc.constant("fuzz-shop"),
  product_external_id: fc.constant("fuzz-product"),
  variant_external_id: fc.constantFrom("fuzz-v1", "fuzz-v2"),
  phone_number: fc.constantFrom("+212612345601", "+213551234567", "+21620123456", "+33612345678"),
  amount: decimal,
  unit_price: decimal,
  price: decimal,
  country: fc.constantFrom("MA", "DZ", "TN", "FR"),
  external_id: fc.uuid(),
  cursor: fc.constant("not-a-cursor"),
  // Issue 20: the values that gave 500s, drawn beside valid ones.
  previous_attempts: fc.oneof(fc.nat({ max: 5 }), hugeInteger),
  quantity: fc.oneof(fc.integer({ min: 1, max: 5 }), hugeInteger),
  name: fc.oneof(fc.string({ minLength: 1, maxLength: 20 }), anyUnicode),
  created_after: anyDate,
  created_before: anyDate,
  period: anyPeriod,
};

// Path parameters: the fixtures (not for DELETE, which would archive them for the other runs) or junk.
function pathValue(op: Operation, name: string): fc.Arbitrary<string> {
  const fixtures: Record<string, string[]> = {
    id: op.path.startsWith("/v1/calls") ? [callId, randomUUID()] : [randomUUID()],
    external_id: ["fuzz-shop"],
    shop_external_id: ["fuzz-shop"],
    product_external_id: ["fuzz-product"],
  };
  const junk = fc.oneof(
    nastyString.filter((s) => s.length > 0 && s.length < 600),
    fc.uuid(),
  );
  if (op.method === "DELETE" || !fixtures[name]) return junk;
  return fc.oneof({ weight: 2, arbitrary: fc.constantFrom(...fixtures[name]!) }, { weight: 1, arbitrary: junk });
}

// Header values must be valid for the HTTP layer itself (printable ASCII), or the client refuses to send them.
const idempotencyKey = fc.oneof(
  { weight: 4, arbitrary: fc.uuid() },
  { weight: 1, arbitrary: fc.constantFrom(undefined, "", " ", "x".repeat(256), "x".repeat(255)) },
  {
    weight: 1,
    arbitrary: fc.string({ unit: "binary-ascii", maxLength: 60 }).map((s) => s.replace(/[^\x20-\x7e]/g, "")),
  },
);

const SCHEDULED_QUEUES: string[] = Object.values(JOBS).flatMap((j) => ("schedule" in j ? [j.name] : []));
let tables: string[] = [];
let jobTables = new Set<string>();
async function rowCounts(): Promise<Record<string, number>> {
  if (!tables.length) {
    const { rows } = await t.ctx.db.query<{ t: string; queued: boolean }>(
      `SELECT format('%I.%I', table_schema, table_name) AS t,
              table_schema = 'pgboss' AND EXISTS (SELECT 1 FROM information_schema.columns c
                WHERE c.table_schema = t.table_schema AND c.table_name = t.table_name AND c.column_name = 'name') AS queued
       FROM information_schema.tables t
       WHERE table_type = 'BASE TABLE' AND (table_schema = 'public' OR (table_schema = 'pgboss' AND table_name LIKE 'job%'))`,
    );
    tables = rows.map((r) => r.t);
    jobTables = new Set(rows.filter((r) => r.queued).map((r) => r.t));
  }
  // pg-boss's cron inserts the scheduled jobs (the minute sweep, the hourly purge) on its own clock, whatever
  // the request, through its own queue (`__pgboss__send-it`, whose job then sends the scheduled one): they are not
  // the request's writes, so they are left out of the count.
  const { rows } = await t.ctx.db.query<Record<string, number>>(
    `SELECT ${tables.map((x, i) => `(SELECT count(*) FROM ${x}${jobTables.has(x) ? " WHERE NOT (name = ANY($1::text[]) OR starts_with(name, '__pgboss__'))" : ""})::int AS c${i}`).join(", ")}`,
    [SCHEDULED_QUEUES],
  );
  return Object.fromEntries(tables.map((x, i) => [x, rows[0]![`c${i}`]!]));
}

afterAll(async () => {
  await t.close();
});

describe(`fuzzing every /v1 operation of /openapi.json (${RUNS} runs each)`, () => {
  it("found the operations", () => {
    expect(operations.length).toBeGreaterThanOrEqual(25);
  });

  for (const op of operations) {
    const pathParams = op.params.filter((p) => p.in === "path");
    const queryParams = op.params.filter((p) => p.in === "query");
    it(`${op.method} ${op.path}: no 5xx, problem+json errors, no write on a 4xx`, async () => {
      const arbitrary = fc.record({
        path: fc.tuple(...pathParams.map((p) => pathValue(op, p.name))),
        query: queries(queryParams, doc, hints),
        body: op.body ? fc.option(bodies(op.body, doc, hints), { freq: 12, nil: undefined }) : fc.constant(undefined),
        key: idempotencyKey,
      });
      await fc.assert(
        fc.asyncProperty(arbitrary, async ({ path, query, body, key }) => {
          let url = op.path;
          pathParams.forEach((p, i) => (url = url.replace(`{${p.name}}`, percentEncode(path[i] as string))));
          if (query) url += `?${query}`;
          const h: Record<string, string> = { ...headers };
          if (key !== undefined && op.path === "/v1/calls" && op.method === "POST") h["idempotency-key"] = key;
          if (body) h["content-type"] = body.contentType;
          if (process.env["FUZZ_TRACE"])
            console.error("request", op.method, url.slice(0, 200), body?.payload.slice(0, 100));
          const before = await rowCounts();
          const res = await t.app.inject({
            method: op.method as "GET",
            url,
            headers: h,
            ...(body ? { payload: body.payload } : {}),
          });
          const where = `${op.method} ${url.slice(0, 300)} body ${body?.payload.slice(0, 300)} -> ${res.statusCode} ${res.body.slice(0, 500)}`;
          if (res.statusCode >= 500) throw new Error(`5xx: ${where}`);
          if (res.statusCode >= 400) {
            if (!String(res.headers["content-type"]).startsWith("application/problem+json"))
              throw new Error(`not problem+json (${res.headers["content-type"]}): ${where}`);
            const after = await rowCounts();
            if (JSON.stringify(after) !== JSON.stringify(before)) {
              const changed = Object.keys(after)
                .filter((k) => after[k] !== before[k])
                .map((k) => `${k} ${before[k]} -> ${after[k]}`);
              throw new Error(`a ${res.statusCode} wrote rows (${changed.join(", ")}): ${where}`);
            }
          }
        }),
        { numRuns: RUNS, endOnFailure: true },
      );
    });
  }
});
