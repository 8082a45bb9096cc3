// fast-check arbitraries from the JSON Schemas of /openapi.json (OpenAPI 3.1), for the fuzzing suite:
// values that follow the schema, and junk that does not (wrong types, unknown fields, huge strings, NUL
// bytes, deep nesting).
import fc from "fast-check";

export type JsonSchema = {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  pattern?: string;
  format?: string;
  default?: unknown;
};

/** Values by property name that make a schema-shaped body likely to pass the checks beyond the schema. */
export type Hints = Record<string, fc.Arbitrary<unknown>>;

const decimal = fc
  .tuple(fc.integer({ min: 0, max: 99_999 }), fc.integer({ min: 0, max: 99 }))
  .map(([a, b]) => `${a}.${String(b).padStart(2, "0")}`);

/** Any Unicode text, lone surrogates included: the code points D800-DFFF become unpaired UTF-16 units (issue 20). */
export const anyUnicode: fc.Arbitrary<string> = fc
  .array(fc.integer({ min: 0, max: 0x10ffff }), { maxLength: 24 })
  .map((cps) => String.fromCodePoint(...cps));

/** Integers up to 2^63 either way, as JSON numbers: far past PostgreSQL's integer (2^31-1) and bigint's safe range. */
export const hugeInteger: fc.Arbitrary<number> = fc.oneof(
  fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n }).map(Number),
  fc.constantFrom(2 ** 31 - 1, 2 ** 31, 2 ** 32, 2 ** 53 - 1, 2 ** 53, 2 ** 63, -(2 ** 31) - 1),
);

const pad = (n: number, width: number) => String(n).padStart(width, "0");
/** Dates from year 0000 to 9999, real or not (month 00-13, day 00-32), as a day or with a time and an offset. */
export const anyDate: fc.Arbitrary<string> = fc
  .tuple(
    fc.integer({ min: 0, max: 9999 }),
    fc.integer({ min: 0, max: 13 }),
    fc.integer({ min: 0, max: 32 }),
    fc.option(
      fc.tuple(
        fc.integer({ min: 0, max: 24 }),
        fc.integer({ min: 0, max: 60 }),
        fc.constantFrom("Z", "+14:00", "-12:00", "+01:00", ""),
      ),
      { nil: null },
    ),
  )
  .map(
    ([y, m, d, time]) =>
      `${pad(y, 4)}-${pad(m, 2)}-${pad(d, 2)}${time ? `T${pad(time[0], 2)}:${pad(time[1], 2)}:00${time[2]}` : ""}`,
  );
/** Months from 0000-00 to 9999-13. */
export const anyPeriod: fc.Arbitrary<string> = fc
  .tuple(fc.integer({ min: 0, max: 9999 }), fc.integer({ min: 0, max: 13 }))
  .map(([y, m]) => `${pad(y, 4)}-${pad(m, 2)}`);

/** Strings that tend to break things: NUL and control characters, lone surrogates, huge, unicode, SQL and path text. */
export const nastyString: fc.Arbitrary<string> = fc.oneof(
  anyUnicode,
  anyDate,
  fc.constantFrom(
    "",
    " ",
    "\u0000",
    "a\u0000b",
    "\u0000".repeat(10),
    "\r\n",
    "\t",
    "\uD800",
    "\uDFFF",
    "\uFEFF",
    "😀".repeat(50),
    "'; DROP TABLE calls; --",
    "../../etc/passwd",
    "%00",
    "${jndi:x}",
    "<script>",
    "null",
    "true",
    "0",
    "-1",
    "1e309",
    "NaN",
    "\\u0000",
    "https://169.254.169.254/",
    "+212612345601\u0000",
  ),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.integer({ min: 256, max: 70_000 }).map((n) => "x".repeat(n)),
  fc.string({ unit: "grapheme", maxLength: 40 }),
);

function resolve(schema: JsonSchema, root: { components?: { schemas?: Record<string, JsonSchema> } }): JsonSchema {
  let s = schema;
  for (let i = 0; s.$ref && i < 10; i++) {
    const name = s.$ref.replace("#/components/schemas/", "");
    const next = root.components?.schemas?.[name];
    if (!next) throw new Error(`unresolved $ref ${s.$ref}`);
    s = { ...next, ...Object.fromEntries(Object.entries(s).filter(([k]) => k !== "$ref")) };
  }
  return s;
}

function stringFor(s: JsonSchema): fc.Arbitrary<string> {
  if (s.format === "date-time")
    return fc
      .date({ min: new Date("2020-01-01"), max: new Date("2035-01-01"), noInvalidDate: true })
      .map((d) => d.toISOString());
  if (s.format === "date")
    return fc
      .date({ min: new Date("2020-01-01"), max: new Date("2035-01-01"), noInvalidDate: true })
      .map((d) => d.toISOString().slice(0, 10));
  const min = s.minLength ?? 0;
  const max = Math.min(s.maxLength ?? 40, Math.max(min, 40));
  const plain = fc.string({ minLength: min, maxLength: max });
  if (!s.pattern) return plain;
  try {
    const re = new RegExp(s.pattern);
    // Generated from the pattern, then kept to the length bounds (a filter on random strings could spin forever).
    return fc.stringMatching(re).filter((v) => v.length >= min && v.length <= (s.maxLength ?? Infinity));
  } catch {
    return plain; // a pattern fast-check cannot generate from: plain strings, mostly invalid, are fuzz too
  }
}

/** An arbitrary of values valid against `schema` (as far as JSON Schema says; checks beyond it are for hints). */
export function fromSchema(schema: JsonSchema, root: object, hints: Hints = {}, depth = 0): fc.Arbitrary<unknown> {
  const s = resolve(schema, root);
  if (s.const !== undefined) return fc.constant(s.const);
  if (s.enum) return fc.constantFrom(...s.enum);
  const alternatives = s.anyOf ?? s.oneOf;
  if (alternatives) return fc.oneof(...alternatives.map((a) => fromSchema(a, root, hints, depth)));
  if (s.allOf?.length) return fromSchema(Object.assign({}, ...s.allOf) as JsonSchema, root, hints, depth);
  const type = Array.isArray(s.type) ? s.type : s.type ? [s.type] : ["object"];
  const arbs = type.map((t): fc.Arbitrary<unknown> => {
    switch (t) {
      case "null":
        return fc.constant(null);
      case "boolean":
        return fc.boolean();
      case "integer":
        return fc.integer({
          min: Math.max(s.minimum ?? -1_000, -(2 ** 31)),
          max: Math.min(s.maximum ?? 1_000, 2 ** 31),
        });
      case "number":
        return fc.double({ min: s.minimum ?? -1e6, max: s.maximum ?? 1e6, noNaN: true });
      case "string":
        return stringFor(s);
      case "array": {
        if (depth > 6) return fc.constant([]);
        const items = s.items ? fromSchema(s.items, root, hints, depth + 1) : fc.jsonValue();
        return fc.array(items, {
          minLength: s.minItems ?? 0,
          maxLength: Math.min(s.maxItems ?? 3, Math.max(s.minItems ?? 0, 3)),
        });
      }
      default: {
        if (depth > 6) return fc.constant({});
        const props = s.properties ?? {};
        const required = new Set(s.required ?? []);
        const record: Record<string, fc.Arbitrary<unknown>> = {};
        for (const [key, sub] of Object.entries(props)) {
          const own = fromSchema(sub, root, hints, depth + 1);
          record[key] = hints[key]
            ? fc.oneof({ arbitrary: hints[key]!, weight: 3 }, { arbitrary: own, weight: 1 })
            : own;
        }
        return fc.record(record, { requiredKeys: Object.keys(props).filter((k) => required.has(k) || !!hints[k]) });
      }
    }
  });
  return arbs.length === 1 ? arbs[0]! : fc.oneof(...arbs);
}

/** Replaces the n-th node (depth first) of a JSON value with `junk`; n past the end replaces the root. */
function replaceNode(value: unknown, n: number, junk: unknown): unknown {
  let i = 0;
  let done = false;
  const walk = (v: unknown): unknown => {
    if (done) return v;
    if (i++ === n) {
      done = true;
      return junk;
    }
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  const out = walk(value);
  return done ? out : junk;
}

/** Adds an unknown key to the n-th object of a JSON value. */
function addUnknownKey(value: unknown, n: number, key: string, junk: unknown): unknown {
  let i = 0;
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === "object") {
      const copy = Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
      if (i++ === n) copy[key] = junk;
      return copy;
    }
    return v;
  };
  return walk(value);
}

/** A raw request body: JSON text, or something that is not JSON at all. */
export interface RawBody {
  payload: string;
  contentType: string;
}

const json = (v: unknown): RawBody => ({ payload: JSON.stringify(v) ?? "null", contentType: "application/json" });

/** Bodies for an operation: mostly schema-shaped, then the same with junk, and pure junk. */
export function bodies(schema: JsonSchema, root: object, hints: Hints): fc.Arbitrary<RawBody> {
  const valid = fromSchema(schema, root, hints);
  const wrongType = fc.oneof(
    fc.jsonValue({ maxDepth: 2 }),
    nastyString,
    hugeInteger,
    fc.constantFrom(null, true, 0, -1, 1.5, 2 ** 53, [], {}),
  );
  return fc.oneof(
    { weight: 4, arbitrary: valid.map(json) },
    {
      weight: 3,
      arbitrary: fc.tuple(valid, fc.nat({ max: 30 }), wrongType).map(([v, n, j]) => json(replaceNode(v, n, j))),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(
          valid,
          fc.nat({ max: 5 }),
          fc.oneof(fc.string({ maxLength: 20 }), fc.constant("__proto__"), fc.constant("constructor")),
          fc.jsonValue({ maxDepth: 1 }),
        )
        .map(([v, n, k, j]) => json(addUnknownKey(v, n, k, j))),
    },
    {
      weight: 2,
      arbitrary: fc.tuple(valid, fc.nat({ max: 30 }), nastyString).map(([v, n, j]) => json(replaceNode(v, n, j))),
    },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 4 }).map(json) },
    // Deep nesting, as an array and as an object, inside a field or as the whole body.
    {
      weight: 1,
      arbitrary: fc
        .tuple(valid, fc.nat({ max: 30 }), fc.integer({ min: 50, max: 20_000 }), fc.boolean())
        .map(([v, n, depth, arr]) => {
          const marker = "__DEEP__";
          const text = JSON.stringify(replaceNode(v, n, marker));
          const deep = arr
            ? `${"[".repeat(depth)}1${"]".repeat(depth)}`
            : `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;
          return { payload: text.replace(`"${marker}"`, deep), contentType: "application/json" };
        }),
    },
    // Not JSON: truncated, raw NUL, other content types, a body over the 1 MiB limit.
    {
      weight: 1,
      arbitrary: fc.tuple(valid, fc.nat()).map(([v, n]) => {
        const text = JSON.stringify(v);
        return { payload: text.slice(0, n % Math.max(1, text.length)), contentType: "application/json" };
      }),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom<RawBody>(
        { payload: '{"a":"\u0000"}', contentType: "application/json" },
        { payload: "\u0000", contentType: "application/json" },
        { payload: "", contentType: "application/json" },
        { payload: "{}", contentType: "text/plain" },
        { payload: "a=1&b=2", contentType: "application/x-www-form-urlencoded" },
        { payload: "<xml/>", contentType: "application/xml" },
        { payload: `{"x":"${"y".repeat(1_100_000)}"}`, contentType: "application/json" },
        { payload: '{"shop_external_id":1,"shop_external_id":"dup"}', contentType: "application/json" },
        { payload: '{"__proto__":{"admin":true}}', contentType: "application/json" },
      ),
    },
  );
}

/** Percent-encodes every UTF-8 byte (lone surrogates become U+FFFD instead of throwing like encodeURIComponent). */
export function percentEncode(s: string): string {
  return [...Buffer.from(s, "utf8")]
    .map((b) =>
      /[A-Za-z0-9_.~-]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).padStart(2, "0")}`,
    )
    .join("");
}

/** A query string for the parameters: schema values as text, junk values, unknown and repeated keys. */
export function queries(
  params: { name: string; schema: JsonSchema }[],
  root: object,
  hints: Hints,
): fc.Arbitrary<string> {
  const entry = (p: { name: string; schema: JsonSchema }) =>
    fc.oneof(
      {
        weight: 3,
        arbitrary: fromSchema(p.schema, root, hints).map((v) => [
          [p.name, typeof v === "string" ? v : JSON.stringify(v)],
        ]),
      },
      { weight: 2, arbitrary: nastyString.map((v) => [[p.name, v]]) },
      {
        weight: 1,
        arbitrary: fc.tuple(nastyString, nastyString).map(([a, b]) => [
          [p.name, a],
          [p.name, b],
        ]),
      },
      { weight: 1, arbitrary: fc.constant([[p.name, ""]]) },
      { weight: 1, arbitrary: fc.oneof(anyDate, anyPeriod, hugeInteger.map(String)).map((v) => [[p.name, v]]) },
    );
  const known = fc.tuple(...params.map((p) => fc.option(entry(p), { nil: undefined })));
  const unknown = fc.array(fc.tuple(fc.string({ maxLength: 10 }), nastyString), { maxLength: 2 });
  return fc.tuple(params.length ? known : fc.constant([]), unknown).map(([k, u]) => {
    const pairs = [...(k as (string[][] | undefined)[]).flatMap((e) => e ?? []), ...u];
    return pairs.map(([a, b]) => `${percentEncode(a!)}=${percentEncode(b!)}`).join("&");
  });
}

export { decimal };
