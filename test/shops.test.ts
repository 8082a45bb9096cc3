import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findActiveShop } from "../src/services/shops.ts";
import { newAccount, problem, startApp, type TestAccount, type TestApp } from "./helpers.ts";

type Json = Record<string, unknown>;
interface Entry {
  loc: (string | number)[];
  type: string;
  msg: string;
}

const shop = (id: string, extra: Json = {}) => ({
  external_id: id,
  merchant_external_id: `m-${id}`,
  name: `Shop ${id}`,
  ...extra,
});
const sansRequest = ({ request_id: _r, instance: _i, ...rest }: Json) => rest;

describe("shops (spec 2.5; CONTRACT §3, §3b)", () => {
  let t: TestApp;
  let a: TestAccount;
  let b: TestAccount;
  beforeAll(async () => {
    t = await startApp();
    a = await newAccount(t.ctx);
    b = await newAccount(t.ctx);
  });
  afterAll(() => t.close());

  const post = (who: TestAccount, payload: unknown) =>
    t.app.inject({ method: "POST", url: "/v1/shops", headers: who.headers, payload: payload as Json });
  const get = (who: TestAccount, id: string) =>
    t.app.inject({ method: "GET", url: `/v1/shops/${encodeURIComponent(id)}`, headers: who.headers });
  const patch = (who: TestAccount, id: string, payload: unknown) =>
    t.app.inject({
      method: "PATCH",
      url: `/v1/shops/${encodeURIComponent(id)}`,
      headers: who.headers,
      payload: payload as Json,
    });
  const del = (who: TestAccount, id: string) =>
    t.app.inject({ method: "DELETE", url: `/v1/shops/${encodeURIComponent(id)}`, headers: who.headers });
  const list = (who: TestAccount, query: Record<string, string> = {}) =>
    t.app.inject({ method: "GET", url: "/v1/shops", query, headers: who.headers });
  const errors = (res: Awaited<ReturnType<typeof post>>) => problem(res, "validation_error", 422)["errors"] as Entry[];
  const rows = async (who: TestAccount, id: string) =>
    (await t.ctx.db.query("SELECT 1 FROM shops WHERE account_id = $1 AND external_id = $2", [who.accountId, id]))
      .rowCount;

  it("creates a shop with 201 and the record, and reads it back", async () => {
    const res = await post(a, shop("s-create", { contact_phone: "+212612345678", default_country: "MA" }));
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({
      external_id: "s-create",
      merchant_external_id: "m-s-create",
      name: "Shop s-create",
      contact_phone: "+212612345678",
      default_country: "MA",
      status: "active",
      archived_at: null,
    });
    expect(Object.keys(body).sort()).toEqual([
      "archived_at",
      "contact_phone",
      "created_at",
      "default_country",
      "external_id",
      "merchant_external_id",
      "name",
      "status",
      "updated_at",
    ]);
    expect(new Date(body.created_at).toISOString()).toBe(body.created_at);
    const read = await get(a, "s-create");
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual(body);
  });

  it("needs only external_id, merchant_external_id and name", async () => {
    const res = await post(a, shop("s-minimal"));
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ contact_phone: null, default_country: null });
  });

  it("refuses a second creation of an external id with 409 pointing to PATCH, even after archiving", async () => {
    expect((await post(a, shop("s-dup"))).statusCode).toBe(201);
    const body = problem(await post(a, shop("s-dup", { name: "Other" })), "shop_external_id_already_exists", 409);
    expect(body["detail"]).toMatch(/PATCH/);
    expect((await get(a, "s-dup")).json().name).toBe("Shop s-dup");
    expect((await del(a, "s-dup")).statusCode).toBe(200);
    problem(await post(a, shop("s-dup")), "shop_external_id_already_exists", 409);
  });

  it("lets another account use the same external id", async () => {
    expect((await post(a, shop("s-shared"))).statusCode).toBe(201);
    expect((await post(b, shop("s-shared", { name: "B's" }))).statusCode).toBe(201);
    expect((await get(a, "s-shared")).json().name).toBe("Shop s-shared");
    expect((await get(b, "s-shared")).json().name).toBe("B's");
  });

  it("creates exactly one row under a concurrent double-create", async () => {
    const [r1, r2] = await Promise.all([post(a, shop("s-race")), post(a, shop("s-race"))]);
    expect([r1!.statusCode, r2!.statusCode].sort()).toEqual([201, 409]);
    problem([r1!, r2!].find((r) => r.statusCode === 409)!, "shop_external_id_already_exists", 409);
    expect(await rows(a, "s-race")).toBe(1);
  });

  it("addresses external ids with reserved characters when percent-encoded", async () => {
    expect((await post(a, shop("boutique/casa 1?€"))).statusCode).toBe(201);
    expect((await get(a, "boutique/casa 1?€")).json().external_id).toBe("boutique/casa 1?€");
  });

  describe("validation (422, nothing written)", () => {
    const cases: [string, unknown, (string | number)[], string][] = [
      ["missing external_id", { merchant_external_id: "m", name: "n" }, ["body", "external_id"], "missing"],
      ["missing merchant_external_id", { external_id: "v-1", name: "n" }, ["body", "merchant_external_id"], "missing"],
      ["missing name", { external_id: "v-2", merchant_external_id: "m" }, ["body", "name"], "missing"],
      ["numeric name", shop("v-3", { name: 12 }), ["body", "name"], "string_type"],
      ["empty name", shop("v-4", { name: "" }), ["body", "name"], "string_too_short"],
      ["empty external_id", shop("", {}), ["body", "external_id"], "string_too_short"],
      [
        "over-long external_id",
        { ...shop("x"), external_id: "x".repeat(101) },
        ["body", "external_id"],
        "string_too_long",
      ],
      [
        "control character in external_id",
        { ...shop("v-5"), external_id: "v\n5" },
        ["body", "external_id"],
        "string_pattern_mismatch",
      ],
      ["NUL in name", shop("v-6", { name: "a\u0000b" }), ["body", "name"], "string_pattern_mismatch"],
      ["unknown field", shop("v-7", { status: "archived" }), ["body", "status"], "extra_forbidden"],
      [
        "phone not E.164",
        shop("v-8", { contact_phone: "0612345678" }),
        ["body", "contact_phone"],
        "string_pattern_mismatch",
      ],
      ["country outside the enum", shop("v-9", { default_country: "ES" }), ["body", "default_country"], "enum"],
    ];
    it.each(cases)("rejects %s", async (_name, payload, loc, type) => {
      const entries = errors(await post(a, payload));
      expect(entries).toEqual([expect.objectContaining({ loc, type })]);
      const id = (payload as Json)["external_id"];
      if (typeof id === "string" && id) expect(await rows(a, id)).toBe(0);
    });

    it("rejects a body that is not JSON, and an absent body", async () => {
      const res = await t.app.inject({
        method: "POST",
        url: "/v1/shops",
        headers: { ...a.headers, "content-type": "application/json" },
        payload: "{",
      });
      expect(errors(res)[0]).toMatchObject({ loc: ["body"], type: "json_invalid" });
      expect(errors(await t.app.inject({ method: "POST", url: "/v1/shops", headers: a.headers }))[0]).toMatchObject({
        loc: ["body"],
        type: "missing",
      });
    });
  });

  describe("not found", () => {
    it("answers the identical 404 for a missing, archived or foreign shop", async () => {
      await post(a, shop("s-hidden"));
      await del(a, "s-hidden");
      await post(b, shop("s-hidden"));
      const archived = problem(await get(a, "s-hidden"), "shop_not_found", 404);
      const c = await newAccount(t.ctx);
      const foreign = problem(await get(c, "s-hidden"), "shop_not_found", 404);
      expect(sansRequest(archived)).toEqual(sansRequest(foreign));
      expect(archived["instance"]).toBe("/v1/shops/s-hidden");
      const missing = problem(await get(a, "s-never"), "shop_not_found", 404);
      expect(JSON.stringify(sansRequest(missing))).toBe(
        JSON.stringify(sansRequest(archived)).replace("s-hidden", "s-never"),
      );
    });

    it("gives shop_not_found on PATCH and DELETE of a missing, archived or foreign shop", async () => {
      await post(a, shop("s-gone"));
      await del(a, "s-gone");
      await post(b, shop("s-b-only"));
      for (const id of ["s-gone", "s-b-only", "s-nowhere"]) {
        problem(await patch(a, id, { name: "x" }), "shop_not_found", 404);
        problem(await del(a, id), "shop_not_found", 404);
      }
      expect((await get(b, "s-b-only")).json().name).toBe("Shop s-b-only");
    });

    it("treats an id no shop can have (a NUL byte) as not found", async () => {
      problem(await get(a, "a\u0000b"), "shop_not_found", 404);
      problem(await patch(a, "a\u0000b", { name: "x" }), "shop_not_found", 404);
      problem(await del(a, "a\u0000b"), "shop_not_found", 404);
    });

    it("addresses an id of the maximum length, 100 characters", async () => {
      const id = "y".repeat(100);
      expect((await post(a, shop(id, { merchant_external_id: id }))).statusCode).toBe(201);
      expect((await get(a, id)).json().external_id).toBe(id);
    });
  });

  describe("PATCH", () => {
    it("changes only the fields given and bumps updated_at", async () => {
      const created = (await post(a, shop("s-patch", { contact_phone: "+33612345678", default_country: "FR" }))).json();
      const res = await patch(a, "s-patch", { name: "Renamed", merchant_external_id: "m-new" });
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body).toMatchObject({
        name: "Renamed",
        merchant_external_id: "m-new",
        contact_phone: "+33612345678",
        default_country: "FR",
        created_at: created.created_at,
      });
      expect(Date.parse(body.updated_at)).toBeGreaterThanOrEqual(Date.parse(created.updated_at));
      expect((await get(a, "s-patch")).json()).toEqual(body);
    });

    it("clears optional fields with null", async () => {
      await post(a, shop("s-clear", { contact_phone: "+21698765432", default_country: "TN" }));
      const body = (await patch(a, "s-clear", { contact_phone: null, default_country: null })).json();
      expect(body).toMatchObject({ contact_phone: null, default_country: null, name: "Shop s-clear" });
    });

    it("accepts an empty body as a no-op", async () => {
      const created = (await post(a, shop("s-noop"))).json();
      const res = await patch(a, "s-noop", {});
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual(created);
    });

    it("rejects an external_id change, nulls on required fields and bad values", async () => {
      await post(a, shop("s-badpatch"));
      expect(errors(await patch(a, "s-badpatch", { external_id: "other" }))).toEqual([
        expect.objectContaining({ loc: ["body", "external_id"], type: "extra_forbidden" }),
      ]);
      expect(errors(await patch(a, "s-badpatch", { name: null }))[0]).toMatchObject({
        loc: ["body", "name"],
        type: "string_type",
      });
      expect(errors(await patch(a, "s-badpatch", { default_country: "de" }))[0]).toMatchObject({
        loc: ["body", "default_country"],
        type: "enum",
      });
      expect((await get(a, "s-badpatch")).json().name).toBe("Shop s-badpatch");
    });
  });

  describe("archive", () => {
    it("answers 200 with the archived record; the shop then reads as 404 and cannot be archived twice", async () => {
      await post(a, shop("s-arch"));
      const res = await del(a, "s-arch");
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ external_id: "s-arch", status: "archived" });
      expect(res.json().archived_at).toBeTruthy();
      problem(await get(a, "s-arch"), "shop_not_found", 404);
      problem(await del(a, "s-arch"), "shop_not_found", 404);
      await expect(findActiveShop(t.ctx.db, a.accountId, "s-arch")).rejects.toMatchObject({ slug: "shop_not_found" });
    });
  });

  describe("list", () => {
    let c: TestAccount;
    beforeAll(async () => {
      c = await newAccount(t.ctx);
      for (let i = 1; i <= 5; i++) await post(c, shop(`l-${i}`));
      await del(c, "l-2");
      await del(c, "l-4");
      await post(b, shop("l-other"));
    });
    const ids = (res: Awaited<ReturnType<typeof list>>) =>
      (res.json().data as { external_id: string }[]).map((s) => s.external_id);

    it("lists active shops by default, newest first, and only the account's", async () => {
      const res = await list(c);
      expect(res.statusCode).toBe(200);
      expect(ids(res)).toEqual(["l-5", "l-3", "l-1"]);
      expect(res.json()).toMatchObject({ has_more: false, next_cursor: null });
      expect(ids(await list(c, { status: "active" }))).toEqual(["l-5", "l-3", "l-1"]);
    });

    it("lists archived shops under archived and all", async () => {
      expect(ids(await list(c, { status: "archived" }))).toEqual(["l-4", "l-2"]);
      expect(ids(await list(c, { status: "all" }))).toEqual(["l-5", "l-4", "l-3", "l-2", "l-1"]);
    });

    it("rejects an unknown status with 400 invalid_status_filter listing the accepted values", async () => {
      for (const status of ["deleted", "ACTIVE", ""]) {
        const body = problem(await list(c, { status }), "invalid_status_filter", 400);
        expect(body["detail"]).toMatch(/active.*archived.*all/);
      }
    });

    it("pages with limit and cursor, each row once", async () => {
      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const res = await list(c, { status: "all", limit: "2", ...(cursor ? { cursor } : {}) });
        expect(res.statusCode).toBe(200);
        const page = res.json();
        expect(page.data.length).toBeLessThanOrEqual(2);
        expect(page.has_more).toBe(page.next_cursor !== null);
        seen.push(...ids(res));
        cursor = page.next_cursor;
        pages++;
      } while (cursor);
      expect(pages).toBe(3);
      expect(seen).toEqual(["l-5", "l-4", "l-3", "l-2", "l-1"]);
    });

    it("refuses a cursor under another status filter or account", async () => {
      const cursor = (await list(c, { status: "all", limit: "1" })).json().next_cursor as string;
      problem(await list(c, { status: "active", cursor }), "invalid_cursor", 400);
      problem(await list(b, { status: "all", cursor }), "invalid_cursor", 400);
      problem(
        await t.app.inject({ method: "GET", url: "/v1/me/api-keys", query: { cursor }, headers: c.headers }),
        "invalid_cursor",
        400,
      );
    });

    it("rejects a bad limit with 422 on query.limit", async () => {
      expect(errors(await list(c, { limit: "0" }))[0]).toMatchObject({ loc: ["query", "limit"] });
    });
  });

  it("requires an API key on every shop route", async () => {
    for (const [method, url] of [
      ["POST", "/v1/shops"],
      ["GET", "/v1/shops"],
      ["GET", "/v1/shops/x"],
      ["PATCH", "/v1/shops/x"],
      ["DELETE", "/v1/shops/x"],
    ] as const) {
      problem(await t.app.inject({ method, url }), "invalid_api_key", 401);
    }
  });
});
