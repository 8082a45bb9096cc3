// Issue 32.4: how calls end is a closed, documented catalogue (end_reason and outcome enums in the OpenAPI,
// /docs/call-endings, docs/call-endings.md, explain_error), a failed call carries its cause without secrets in
// outcome_details.error (shown in the console), and a call the node knows it cannot dial is refused at creation.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callEndingsMarkdown } from "../src/api/docs.ts";
import { CALL_OUTCOMES } from "../src/domain/calls.ts";
import { END_REASON_VALUES, END_REASONS, isEndReason } from "../src/domain/end-reasons.ts";
import { createEngineDatabase, waitForEnd } from "./engine-fixtures.ts";
import {
  carrierAccount,
  type CarrierNode,
  createCarrierCall,
  PHONES,
  PublicAddress,
  startCarrierNode,
} from "./fakes/carrier-harness.ts";
import { callBody, postCall } from "./calls-fixtures.ts";
import { connect, ok } from "./mcp-client.ts";

const ACCOUNT_SID = `AC${"0123456789abcdef".repeat(2)}`;
const AUTH_TOKEN = "twilio-test-auth-token-0123456789";

/** Every string literal the source writes as an end reason: each must be in the catalogue. */
function endReasonsInSource(): Set<string> {
  const found = new Set<string>();
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (path.endsWith(".ts") && !path.endsWith("end-reasons.ts")) {
        const text = readFileSync(path, "utf8");
        for (const re of [
          /end_reason = '([a-z_]+)'/g,
          /endReason(?:: | = )"([a-z_]+)"/g,
          /unanswered\("failed", "([a-z_]+)"\)/g,
          /_END_REASON = "([a-z_]+)"/g,
          /_SKIPPED = "([a-z_]+)"/g,
          /finish\("[a-z_]+", [^)]*\)|settle\([^,]+, [^,]+, "([a-z_]+)"\)/g,
        ]) {
          for (const m of text.matchAll(re)) if (m[1]) found.add(m[1]);
        }
        for (const m of text.matchAll(/Interruption = ((?:"[a-z_]+"(?: \| )?)+)/g))
          for (const v of m[1]!.matchAll(/"([a-z_]+)"/g)) found.add(v[1]!);
      }
    }
  };
  walk(new URL("../src", import.meta.url).pathname);
  return found;
}

describe("the call endings catalogue (issue 32.4)", () => {
  it("names every end reason the source writes, and docs/call-endings.md is generated from it", () => {
    const written = endReasonsInSource();
    expect(written.size).toBeGreaterThan(10);
    expect([...written].filter((r) => !isEndReason(r))).toEqual([]);
    // no_decision, named nowhere in the docs before, is documented
    const md = readFileSync(new URL("../docs/call-endings.md", import.meta.url), "utf8");
    expect(md).toBe(callEndingsMarkdown());
    for (const value of [...END_REASON_VALUES, ...CALL_OUTCOMES]) expect(md).toContain(`| \`${value}\` |`);
  });
});

describe("call endings over HTTP and MCP, and failed calls' causes (issue 32.4)", () => {
  let db: Awaited<ReturnType<typeof createEngineDatabase>>;
  let address: PublicAddress;
  let t: CarrierNode;

  beforeAll(async () => {
    db = await createEngineDatabase();
    address = new PublicAddress();
    await address.start();
    // Twilio's API at a name that does not resolve (.invalid, RFC 6761), and caller numbers for MA and FR only.
    t = await startCarrierNode(
      db.url,
      {
        WAKHA_CHANNELS: "gsm=twilio",
        WAKHA_TWILIO_ACCOUNT_SID: ACCOUNT_SID,
        WAKHA_TWILIO_AUTH_TOKEN: AUTH_TOKEN,
        WAKHA_TWILIO_CALLER_IDS: "MA=+212522000000,FR=+33100000000",
        WAKHA_TWILIO_API_URL: "https://twilio-api.invalid",
        WAKHA_BASE_URL: "https://api.example.test",
      },
      address,
    );
  });
  afterAll(async () => {
    await t?.close();
    await address?.close();
    await db?.drop();
  });

  it("gives end_reason and outcome as enums in the OpenAPI and lists each at /docs/call-endings", async () => {
    const doc = (await t.app.inject({ method: "GET", url: "/openapi.json" })).json() as {
      components: {
        schemas: Record<string, { properties: Record<string, { enum?: unknown[]; anyOf?: { enum?: unknown[] }[] }> }>;
      };
    };
    const props = doc.components.schemas["CallOut"]!.properties;
    const enumOf = (p: { enum?: unknown[]; anyOf?: { enum?: unknown[] }[] }) =>
      p.enum ?? p.anyOf?.find((a) => a.enum)?.enum;
    expect(enumOf(props["end_reason"]!)).toEqual(expect.arrayContaining([...END_REASON_VALUES]));
    expect(enumOf(props["outcome"]!)).toEqual(expect.arrayContaining([...CALL_OUTCOMES]));
    const page = await t.app.inject({ method: "GET", url: "/docs/call-endings" });
    expect(page.statusCode).toBe(200);
    for (const r of END_REASON_VALUES) expect(page.body).toContain(`id="${r}"`);
    for (const o of CALL_OUTCOMES) expect(page.body).toContain(`id="outcome-${o}"`);
  });

  it("explain_error answers end reasons and outcomes", async () => {
    const { acct } = await carrierAccount(t, 100);
    const client = await connect(`http://127.0.0.1:${t.port}/mcp`, acct.apiKey);
    try {
      const reason = await ok(client, "explain_error", { slug: "carrier_unavailable" });
      expect(reason).toMatchObject({
        slug: "carrier_unavailable",
        kind: "end_reason",
        status: null,
        cause: END_REASONS.carrier_unavailable.cause,
      });
      expect(String(reason["docs_url"])).toMatch(/\/docs\/call-endings#carrier_unavailable$/);
      expect(await ok(client, "explain_error", { slug: "no_decision" })).toMatchObject({
        slug: "no_decision",
        kind: "outcome",
      });
      expect(await ok(client, "explain_error", { slug: "insufficient_balance" })).toMatchObject({
        kind: "error",
        status: 402,
        end_reason: { cause: END_REASONS.insufficient_balance.cause },
      });
    } finally {
      await client.close();
    }
  });

  it("refuses at creation, 422 call_not_dialable, a call to a country the carrier has no caller number for", async () => {
    const { acct, shop } = await carrierAccount(t, 10_000);
    const res = await postCall(
      t,
      acct,
      callBody(shop, { country: "DZ", customer: { name: "Amina", phone_number: `${PHONES.DZ}01` } }),
    );
    expect(res.statusCode).toBe(422);
    const body = res.json() as { type: string; detail: string };
    expect(body.type).toMatch(/\/errors\/call_not_dialable$/);
    expect(body.detail).toContain("DZ");
    expect(body.detail).toContain("WAKHA_TWILIO_CALLER_IDS");
    const { rows } = await t.ctx.db.query("SELECT 1 FROM calls WHERE account_id = $1", [acct.accountId]);
    expect(rows).toHaveLength(0);
  });

  it("a carrier whose API does not resolve fails the call with its cause in outcome_details.error, no secret, shown in the console", async () => {
    const { acct, shop } = await carrierAccount(t, 10_000);
    const id = await createCarrierCall(t, acct, shop, "MA", `${PHONES.MA}01`);
    const call = await waitForEnd(t, acct, id, 60_000);
    expect([call.status, call.end_reason]).toEqual(["failed", "carrier_unavailable"]);
    const error = (call.outcome_details as { error?: { code: string; message: string } } | null)?.error;
    expect(error?.code).toBe("dns_failure");
    expect(error?.message).toContain("twilio-api.invalid");
    expect(JSON.stringify(call)).not.toContain(AUTH_TOKEN);
    expect(JSON.stringify(call)).not.toContain(ACCOUNT_SID);
    t.errors.splice(0); // the engine logged the failure
    // the console's call page shows the cause
    const signInPage = await t.app.inject({ method: "GET", url: "/console/sign-in" });
    const csrf = /name="_csrf" value="([^"]+)"/.exec(signInPage.body)![1]!;
    const jar = (r: LightMyRequestResponse) =>
      (r.cookies as { name: string; value: string }[]).map((c) => `${c.name}=${c.value}`).join("; ");
    const signedIn = await t.app.inject({
      method: "POST",
      url: "/console/sign-in",
      payload: new URLSearchParams({ _csrf: csrf, api_key: acct.apiKey, next: "/console/calls" }).toString(),
      headers: { "content-type": "application/x-www-form-urlencoded", cookie: jar(signInPage) },
    });
    const page = await t.app.inject({
      method: "GET",
      url: `/console/calls/${id}`,
      headers: { cookie: `${jar(signInPage)}; ${jar(signedIn)}` },
    });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('class="call-error"');
    expect(page.body).toContain("dns_failure");
    expect(page.body).toContain('href="/docs/call-endings#carrier_unavailable"');
  }, 90_000);
});
