// Issue 31.8: bidi spoofing. Unpaired bidirectional controls (U+202A-202E, U+2066-2069) in customer, shop and product
// names are stripped at input (paired ones are kept), and the console isolates user text (<bdi>) so a name can never
// reorder the text around it.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stripUnpairedBidi } from "../src/domain/locale.ts";
import { SESSION_COOKIE } from "../src/console/helpers.ts";
import { newAccount, startApp, type TestAccount, type TestApp } from "./helpers.ts";
import { callBody, insertShop, postCall } from "./calls-fixtures.ts";

let t: TestApp;
let acct: TestAccount;

beforeAll(async () => {
  t = await startApp({ env: { WAKHA_BASE_URL: "https://wakha.example.test" } });
  acct = await newAccount(t.ctx, 1_000);
});
afterAll(async () => t?.close());

describe("bidirectional controls (issue 31.8)", () => {
  it("strips unpaired controls and keeps paired ones", () => {
    expect(stripUnpairedBidi("Invoice \u202Efdp.exe")).toBe("Invoice fdp.exe");
    expect(stripUnpairedBidi("a\u2066b\u2069c")).toBe("a\u2066b\u2069c");
    expect(stripUnpairedBidi("a\u202Bb\u202Cc")).toBe("a\u202Bb\u202Cc");
    expect(stripUnpairedBidi("a\u202Cb\u2069c\u2067")).toBe("abc");
    expect(stripUnpairedBidi("\u2067x\u202C\u2069")).toBe("\u2067x\u2069"); // a PDF cannot close an isolate
    expect(stripUnpairedBidi("محمد Ali")).toBe("محمد Ali");
  });

  it("customer, shop and product names lose their unpaired controls at input", async () => {
    const shop = await t.app.inject({
      method: "POST",
      url: "/v1/shops",
      headers: acct.headers,
      payload: { external_id: `s-${randomUUID()}`, merchant_external_id: "m1", name: "Boutique \u202Eevil" },
    });
    expect(shop.statusCode, shop.body).toBe(201);
    expect(shop.json().name).toBe("Boutique evil");
    const shopId = shop.json().external_id as string;
    const product = await t.app.inject({
      method: "POST",
      url: `/v1/shops/${shopId}/products`,
      headers: acct.headers,
      payload: {
        external_id: "p1",
        name: "Caftan \u2067\u0642\u0641\u0637\u0627\u0646\u2069 \u202D",
        variants: [{ variant_external_id: "v1", price: "10.00", name: "\u202Ered" }],
      },
    });
    expect(product.statusCode, product.body).toBe(201);
    expect(product.json()).toMatchObject({
      name: "Caftan \u2067\u0642\u0641\u0637\u0627\u0646\u2069 ",
      variants: [{ name: "red" }],
    });
    const call = await postCall(
      t,
      acct,
      callBody(shopId, { customer: { name: "\u202EFatima\u2066", phone_number: "+212612345601" } }),
    );
    expect(call.statusCode, call.body).toBe(201);
    expect(call.json().customer.name).toBe("Fatima");
    const stored = await t.ctx.db.query<{ customer_name: string }>("SELECT customer_name FROM calls WHERE id = $1", [
      call.json().id,
    ]);
    expect(stored.rows[0]!.customer_name).toBe("Fatima");
  });

  it("the console isolates names (<bdi>) even when they hold paired controls", async () => {
    const shop = (await insertShop(t.ctx, acct.accountId)).externalId;
    const res = await postCall(
      t,
      acct,
      callBody(shop, {
        customer: { name: "\u2067\u0641\u0627\u0637\u0645\u0629\u2069 Zahra", phone_number: "+212612345601" },
      }),
    );
    expect(res.statusCode).toBe(201);
    const page = await t.app.inject({ method: "GET", url: "/console/sign-in" });
    const csrf = [...page.body.matchAll(/name="_csrf" value="([^"]+)"/g)].at(-1)![1]!;
    const cookies = (page.cookies as { name: string; value: string }[]).map((c) => `${c.name}=${c.value}`).join("; ");
    const signIn = await t.app.inject({
      method: "POST",
      url: "/console/sign-in",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie: cookies },
      payload: new URLSearchParams({ _csrf: csrf, api_key: acct.apiKey, next: "/console/calls" }).toString(),
    });
    const session = (signIn.cookies as { name: string; value: string }[]).find((c) => c.name === SESSION_COOKIE)!;
    const calls = await t.app.inject({
      method: "GET",
      url: "/console/calls",
      headers: { cookie: `${cookies}; ${SESSION_COOKIE}=${session.value}` },
    });
    expect(calls.statusCode).toBe(200);
    expect(calls.body).toContain("<bdi>\u2067\u0641\u0627\u0637\u0645\u0629\u2069 Zahra</bdi>");
    const detail = await t.app.inject({
      method: "GET",
      url: `/console/calls/${res.json().id}`,
      headers: { cookie: `${cookies}; ${SESSION_COOKIE}=${session.value}` },
    });
    expect(detail.body).toContain("<bdi>Caftan</bdi>");
  });
});
