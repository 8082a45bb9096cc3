// Issue 31.5: toll fraud and harassment. Calls go only to mobile and fixed-line numbers of the call's country
// (libphonenumber's types) unless the account allows any number; premium-rate (FR 0899, MA 0890), satellite (+881,
// +882) and foreign numbers are refused with 422 phone_number_not_allowed, nothing created. And at most 3 orders a day
// on one number per account (WAKHA_NUMBER_DAILY_LIMIT); retries of one order are not limited.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setAllowAnyNumber } from "../src/services/accounts.ts";
import { newAccount, problem, startApp, type TestApp } from "./helpers.ts";
import { callBody, countCalls, insertShop, postCall } from "./calls-fixtures.ts";

let t: TestApp;

beforeAll(async () => {
  t = await startApp({ env: { WAKHA_NUMBER_DAILY_LIMIT: "3" } });
});
afterAll(async () => {
  await t?.close();
});

async function account() {
  const acct = await newAccount(t.ctx, 10_000);
  return { acct, shop: (await insertShop(t.ctx, acct.accountId)).externalId };
}

const order = (previous = 0, id: string = randomUUID()) => ({
  external_id: id,
  previous_attempts: previous,
  items: [{ name: "Caftan", unit_price: "249.00" }],
});

describe("numbers a call may dial (issue 31.5)", () => {
  it("refuses premium-rate, satellite and foreign numbers with 422 phone_number_not_allowed, creating nothing", async () => {
    const { acct, shop } = await account();
    const refused: [string, "MA" | "FR"][] = [
      ["+33899123456", "FR"], // FR 0899: premium rate
      ["+212890123456", "MA"], // MA 0890: premium rate
      ["+8816123456789", "MA"], // Iridium satellite
      ["+33612345601", "MA"], // a French mobile for a Moroccan call
    ];
    for (const [phone, country] of refused) {
      const res = await postCall(
        t,
        acct,
        callBody(shop, { country, customer: { name: "Client", phone_number: phone }, order: order() }),
      );
      const body = problem(res, "phone_number_not_allowed", 422);
      expect(String(body["detail"])).toContain(phone);
    }
    expect(await countCalls(t.ctx, acct.accountId)).toBe(0);
    // Mobile and fixed-line numbers of the call's country are called.
    for (const [phone, country] of [
      ["+212612345601", "MA"],
      ["+212522123456", "MA"],
      ["+33612345601", "FR"],
      ["+213551234501", "DZ"],
      ["+21620123401", "TN"],
    ] as const) {
      const res = await postCall(
        t,
        acct,
        callBody(shop, { country, customer: { name: "Client", phone_number: phone }, order: order() }),
      );
      expect(res.statusCode, `${phone} ${res.body}`).toBe(201);
    }
  });

  it("an account allowed any number may call them", async () => {
    const { acct, shop } = await account();
    await setAllowAnyNumber(t.ctx.db, acct.accountId, true);
    const res = await postCall(
      t,
      acct,
      callBody(shop, { country: "FR", customer: { name: "Client", phone_number: "+33899123456" }, order: order() }),
    );
    expect(res.statusCode, res.body).toBe(201);
    await setAllowAnyNumber(t.ctx.db, acct.accountId, false);
    problem(
      await postCall(
        t,
        acct,
        callBody(shop, { country: "FR", customer: { name: "Client", phone_number: "+33899123456" }, order: order() }),
      ),
      "phone_number_not_allowed",
      422,
    );
  });

  it("at most 3 orders a day on one number; retries of one order are not limited, and other accounts are apart", async () => {
    const { acct, shop } = await account();
    const phone = "+212612345699";
    const first = order();
    for (const o of [first, order(), order()]) {
      const res = await postCall(
        t,
        acct,
        callBody(shop, { customer: { name: "Client", phone_number: phone }, order: o }),
      );
      expect(res.statusCode, res.body).toBe(201);
    }
    const fourth = problem(
      await postCall(t, acct, callBody(shop, { customer: { name: "Client", phone_number: phone }, order: order() })),
      "phone_number_not_allowed",
      422,
    );
    expect(String(fourth["detail"])).toMatch(/3 other orders/);
    // A retry of the first order still goes through.
    const retry = await postCall(
      t,
      acct,
      callBody(shop, { customer: { name: "Client", phone_number: phone }, order: order(1, first.external_id) }),
    );
    expect(retry.statusCode, retry.body).toBe(201);
    // Another account's calls to that number are its own business.
    const other = await account();
    expect(
      (
        await postCall(
          t,
          other.acct,
          callBody(other.shop, { customer: { name: "Client", phone_number: phone }, order: order() }),
        )
      ).statusCode,
    ).toBe(201);
    expect(await countCalls(t.ctx, acct.accountId)).toBe(4);
  });

  it("is in the error catalogue with its cause and remedy", async () => {
    const page = await t.app.inject({ method: "GET", url: "/docs/errors" });
    expect(page.body).toContain('id="phone_number_not_allowed"');
  });
});
