import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findActiveProducts } from "../src/services/products.ts";
import { findActiveShop } from "../src/services/shops.ts";
import { newAccount, problem, startApp, type TestAccount, type TestApp } from "./helpers.ts";

type Json = Record<string, unknown>;
interface Entry {
  loc: (string | number)[];
  type: string;
  msg: string;
}
interface Variant {
  variant_external_id: string;
  name: string | null;
  price: string;
}

const product = (id: string, extra: Json = {}) => ({
  external_id: id,
  name: `Product ${id}`,
  variants: [{ variant_external_id: "std", price: "100.00" }],
  ...extra,
});
const sansRequest = ({ request_id: _r, instance: _i, ...rest }: Json) => rest;

describe("products (spec 2.6; CONTRACT §3, §3b)", () => {
  let t: TestApp;
  let a: TestAccount;
  let b: TestAccount;
  beforeAll(async () => {
    t = await startApp();
    a = await newAccount(t.ctx);
    b = await newAccount(t.ctx);
    for (const [who, id] of [
      [a, "shop-1"],
      [a, "shop-2"],
      [a, "shop-archived"],
      [b, "shop-1"],
      [b, "shop-b"],
    ] as const) {
      const res = await t.app.inject({
        method: "POST",
        url: "/v1/shops",
        headers: who.headers,
        payload: { external_id: id, merchant_external_id: "m", name: id },
      });
      expect(res.statusCode).toBe(201);
    }
    expect(
      (await t.app.inject({ method: "DELETE", url: "/v1/shops/shop-archived", headers: a.headers })).statusCode,
    ).toBe(200);
  });
  afterAll(() => t.close());

  const url = (shop: string, id?: string) =>
    `/v1/shops/${encodeURIComponent(shop)}/products${id === undefined ? "" : `/${encodeURIComponent(id)}`}`;
  const post = (who: TestAccount, shop: string, payload: unknown) =>
    t.app.inject({ method: "POST", url: url(shop), headers: who.headers, payload: payload as Json });
  const get = (who: TestAccount, shop: string, id: string) =>
    t.app.inject({ method: "GET", url: url(shop, id), headers: who.headers });
  const patch = (who: TestAccount, shop: string, id: string, payload: unknown) =>
    t.app.inject({ method: "PATCH", url: url(shop, id), headers: who.headers, payload: payload as Json });
  const del = (who: TestAccount, shop: string, id: string) =>
    t.app.inject({ method: "DELETE", url: url(shop, id), headers: who.headers });
  const list = (who: TestAccount, shop: string, query: Record<string, string> = {}) =>
    t.app.inject({ method: "GET", url: url(shop), query, headers: who.headers });
  const errors = (res: Awaited<ReturnType<typeof post>>) => problem(res, "validation_error", 422)["errors"] as Entry[];
  const productRows = async (id: string) =>
    (await t.ctx.db.query("SELECT 1 FROM products WHERE external_id = $1", [id])).rowCount;
  const variants = (res: Awaited<ReturnType<typeof post>>) =>
    (res.json().variants as Variant[]).map((v) => [v.variant_external_id, v.price, v.name]);

  it("creates a product with 201 and its variants, prices kept as decimal strings at their scale", async () => {
    const res = await post(a, "shop-1", {
      external_id: "p-create",
      name: "Caftan",
      description: "Hand-made",
      variants: [
        { variant_external_id: "red-m", price: "149.90", name: "Red, M" },
        { variant_external_id: "blue-m", price: "12.500" },
        { variant_external_id: "gift", price: "0" },
        { variant_external_id: "big", price: "999999999999.999" },
      ],
    });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual([
      "archived_at",
      "created_at",
      "description",
      "external_id",
      "name",
      "shop_external_id",
      "status",
      "updated_at",
      "variants",
    ]);
    expect(body).toMatchObject({
      external_id: "p-create",
      shop_external_id: "shop-1",
      name: "Caftan",
      description: "Hand-made",
      status: "active",
      archived_at: null,
    });
    expect(variants(res)).toEqual([
      ["red-m", "149.90", "Red, M"],
      ["blue-m", "12.500", null],
      ["gift", "0", null],
      ["big", "999999999999.999", null],
    ]);
    const read = await get(a, "shop-1", "p-create");
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual(body);
  });

  it("needs only external_id, name and one variant", async () => {
    const res = await post(a, "shop-1", product("p-minimal"));
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      description: null,
      variants: [{ variant_external_id: "std", price: "100.00", name: null }],
    });
  });

  it("keeps external ids unique per shop only, and refuses reuse with 409 even after archiving", async () => {
    expect((await post(a, "shop-1", product("p-dup"))).statusCode).toBe(201);
    const body = problem(await post(a, "shop-1", product("p-dup")), "product_external_id_already_exists", 409);
    expect(body["detail"]).toMatch(/PATCH/);
    expect((await post(a, "shop-2", product("p-dup"))).statusCode).toBe(201);
    expect((await post(b, "shop-1", product("p-dup"))).statusCode).toBe(201);
    expect((await del(a, "shop-1", "p-dup")).statusCode).toBe(200);
    problem(await post(a, "shop-1", product("p-dup")), "product_external_id_already_exists", 409);
  });

  it("creates exactly one product under a concurrent double-create", async () => {
    const [r1, r2] = await Promise.all([post(a, "shop-1", product("p-race")), post(a, "shop-1", product("p-race"))]);
    expect([r1!.statusCode, r2!.statusCode].sort()).toEqual([201, 409]);
    problem([r1!, r2!].find((r) => r.statusCode === 409)!, "product_external_id_already_exists", 409);
    expect(await productRows("p-race")).toBe(1);
    const { rows } = await t.ctx.db.query(
      "SELECT count(*)::int AS n FROM product_variants v JOIN products p ON p.id = v.product_id WHERE p.external_id = 'p-race'",
    );
    expect(rows[0]?.n).toBe(1);
  });

  describe("validation (422, nothing written)", () => {
    const std = { variant_external_id: "std", price: "1" };
    const cases: [string, Json, (string | number)[], string][] = [
      [
        "a numeric price",
        { variants: [{ variant_external_id: "v", price: 149.9 }] },
        ["body", "variants", 0, "price"],
        "string_type",
      ],
      [
        "a negative price",
        { variants: [{ variant_external_id: "v", price: "-1.00" }] },
        ["body", "variants", 0, "price"],
        "string_pattern_mismatch",
      ],
      [
        "a comma decimal",
        { variants: [{ variant_external_id: "v", price: "1,50" }] },
        ["body", "variants", 0, "price"],
        "string_pattern_mismatch",
      ],
      [
        "an exponent",
        { variants: [{ variant_external_id: "v", price: "1e3" }] },
        ["body", "variants", 0, "price"],
        "string_pattern_mismatch",
      ],
      [
        "four decimals",
        { variants: [{ variant_external_id: "v", price: "1.2345" }] },
        ["body", "variants", 0, "price"],
        "string_pattern_mismatch",
      ],
      [
        "thirteen integer digits",
        { variants: [{ variant_external_id: "v", price: "1000000000000" }] },
        ["body", "variants", 0, "price"],
        "string_pattern_mismatch",
      ],
      [
        "an empty price",
        { variants: [{ variant_external_id: "v", price: "" }] },
        ["body", "variants", 0, "price"],
        "string_pattern_mismatch",
      ],
      ["a missing price", { variants: [{ variant_external_id: "v" }] }, ["body", "variants", 0, "price"], "missing"],
      ["no variants", { variants: [] }, ["body", "variants"], "too_short"],
      ["variants missing", { variants: undefined }, ["body", "variants"], "missing"],
      [
        "duplicate variant ids",
        { variants: [std, { variant_external_id: "x", price: "2" }, { ...std, price: "3" }] },
        ["body", "variants", 2, "variant_external_id"],
        "value_error",
      ],
      [
        "an unknown variant field",
        { variants: [{ ...std, color: "red" }] },
        ["body", "variants", 0, "color"],
        "extra_forbidden",
      ],
      ["an unknown field", { sku: "X" }, ["body", "sku"], "extra_forbidden"],
      ["a numeric name", { name: 5 }, ["body", "name"], "string_type"],
      ["an empty name", { name: "" }, ["body", "name"], "string_too_short"],
    ];
    it.each(cases.map((c, i) => [...c, i] as const))("rejects %s", async (_name, extra, loc, type, i) => {
      const id = `p-bad-${i}`;
      expect(errors(await post(a, "shop-1", product(id, extra)))).toEqual([expect.objectContaining({ loc, type })]);
      expect(await productRows(id)).toBe(0);
    });
  });

  describe("not found", () => {
    it("answers shop_not_found on every operation under a missing, archived or foreign shop", async () => {
      await post(b, "shop-b", product("p-b"));
      for (const shop of ["shop-nowhere", "shop-archived", "shop-b"]) {
        problem(await post(a, shop, product("p-x")), "shop_not_found", 404);
        problem(await list(a, shop), "shop_not_found", 404);
        problem(await get(a, shop, "p-b"), "shop_not_found", 404);
        problem(await patch(a, shop, "p-b", { name: "x" }), "shop_not_found", 404);
        problem(await del(a, shop, "p-b"), "shop_not_found", 404);
      }
      expect((await get(b, "shop-b", "p-b")).json().name).toBe("Product p-b");
      expect(await productRows("p-x")).toBe(0);
    });

    it("answers the identical product_not_found for a missing, archived or another shop's product", async () => {
      await post(a, "shop-1", product("p-hidden"));
      await del(a, "shop-1", "p-hidden");
      await post(a, "shop-2", product("p-hidden"));
      await post(b, "shop-1", product("p-hidden"));
      const archived = problem(await get(a, "shop-1", "p-hidden"), "product_not_found", 404);
      expect(archived["instance"]).toBe("/v1/shops/shop-1/products/p-hidden");
      const missing = problem(await get(a, "shop-1", "p-never"), "product_not_found", 404);
      expect(JSON.stringify(sansRequest(missing))).toBe(
        JSON.stringify(sansRequest(archived)).replace("p-hidden", "p-never"),
      );
      await post(a, "shop-2", product("p-only-2"));
      const otherShop = problem(await get(a, "shop-1", "p-only-2"), "product_not_found", 404);
      expect(JSON.stringify(sansRequest(otherShop))).toBe(
        JSON.stringify(sansRequest(archived)).replace("p-hidden", "p-only-2"),
      );
      for (const id of ["p-hidden", "p-only-2", "p-never", "a\u0000b"]) {
        problem(await patch(a, "shop-1", id, { name: "x" }), "product_not_found", 404);
        problem(await del(a, "shop-1", id), "product_not_found", 404);
      }
      expect((await get(a, "shop-2", "p-only-2")).json().name).toBe("Product p-only-2");
    });
  });

  describe("PATCH", () => {
    const base = {
      variants: [
        { variant_external_id: "s", price: "10.00", name: "Small" },
        { variant_external_id: "m", price: "20.00" },
        { variant_external_id: "l", price: "30.00" },
      ],
    };

    it("renames, describes and clears the description, keeping the variants", async () => {
      const created = (await post(a, "shop-1", product("p-rename", { ...base, description: "Old" }))).json();
      const res = await patch(a, "shop-1", "p-rename", { name: "New name", description: "New" });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({
        name: "New name",
        description: "New",
        variants: created.variants,
        created_at: created.created_at,
      });
      expect(Date.parse(res.json().updated_at)).toBeGreaterThanOrEqual(Date.parse(created.updated_at));
      expect((await patch(a, "shop-1", "p-rename", { description: null })).json()).toMatchObject({
        name: "New name",
        description: null,
      });
      expect((await get(a, "shop-1", "p-rename")).json()).toMatchObject({ name: "New name", description: null });
    });

    it("reprices, renames, adds and retires variants in one request", async () => {
      await post(a, "shop-1", product("p-variants", base));
      const res = await patch(a, "shop-1", "p-variants", {
        variants: [
          { variant_external_id: "m", price: "25.5" },
          { variant_external_id: "s", name: null },
          { variant_external_id: "xl", price: "40.000", name: "Extra large" },
        ],
        retire_variants: ["l"],
      });
      expect(res.statusCode).toBe(200);
      expect(variants(res)).toEqual([
        ["s", "10.00", null],
        ["m", "25.5", null],
        ["xl", "40.000", "Extra large"],
      ]);
      expect(variants(await get(a, "shop-1", "p-variants"))).toEqual(variants(res));
      const { rows } = await t.ctx.db.query(
        "SELECT v.variant_external_id, v.status FROM product_variants v JOIN products p ON p.id = v.product_id WHERE p.external_id = 'p-variants' AND v.variant_external_id = 'l'",
      );
      expect(rows).toEqual([{ variant_external_id: "l", status: "retired" }]);
    });

    it("ignores retiring a variant that is already retired, and brings a retired one back with a price", async () => {
      await post(a, "shop-1", product("p-revive", base));
      await patch(a, "shop-1", "p-revive", { retire_variants: ["m"] });
      expect((await patch(a, "shop-1", "p-revive", { retire_variants: ["m"] })).statusCode).toBe(200);
      expect(errors(await patch(a, "shop-1", "p-revive", { variants: [{ variant_external_id: "m" }] }))).toEqual([
        expect.objectContaining({ loc: ["body", "variants", 0, "price"], type: "missing" }),
      ]);
      const res = await patch(a, "shop-1", "p-revive", { variants: [{ variant_external_id: "m", price: "21.00" }] });
      expect(variants(res)).toEqual([
        ["s", "10.00", "Small"],
        ["m", "21.00", null],
        ["l", "30.00", null],
      ]);
    });

    it("answers an empty body with the product unchanged", async () => {
      const created = (await post(a, "shop-1", product("p-noop", base))).json();
      const res = await patch(a, "shop-1", "p-noop", {});
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual(created);
    });

    it("refuses to retire the last active variant", async () => {
      await post(a, "shop-1", product("p-last", base));
      const entries = errors(await patch(a, "shop-1", "p-last", { name: "Renamed", retire_variants: ["s", "m", "l"] }));
      expect(entries).toEqual([expect.objectContaining({ loc: ["body", "retire_variants"], type: "value_error" })]);
      expect(entries[0]!.msg).toMatch(/at least one active variant/);
      const read = (await get(a, "shop-1", "p-last")).json();
      expect(read.name).toBe("Product p-last");
      expect(read.variants).toHaveLength(3);
      const swapped = await patch(a, "shop-1", "p-last", {
        variants: [{ variant_external_id: "one", price: "5" }],
        retire_variants: ["s", "m", "l"],
      });
      expect(variants(swapped)).toEqual([["one", "5", null]]);
    });

    const bad: [string, Json, (string | number)[], string][] = [
      [
        "a new variant without a price",
        { variants: [{ variant_external_id: "new" }] },
        ["body", "variants", 0, "price"],
        "missing",
      ],
      [
        "retiring an unknown variant",
        { retire_variants: ["s", "nope"] },
        ["body", "retire_variants", 1],
        "value_error",
      ],
      [
        "a variant both set and retired",
        { variants: [{ variant_external_id: "m", price: "1" }], retire_variants: ["m"] },
        ["body", "retire_variants", 0],
        "value_error",
      ],
      [
        "duplicate ids in variants",
        {
          variants: [
            { variant_external_id: "m", price: "1" },
            { variant_external_id: "m", price: "2" },
          ],
        },
        ["body", "variants", 1, "variant_external_id"],
        "value_error",
      ],
      [
        "duplicate ids in retire_variants",
        { retire_variants: ["m", "m"] },
        ["body", "retire_variants", 1],
        "value_error",
      ],
      [
        "a numeric price",
        { variants: [{ variant_external_id: "m", price: 12 }] },
        ["body", "variants", 0, "price"],
        "string_type",
      ],
      [
        "a negative price",
        { variants: [{ variant_external_id: "m", price: "-12" }] },
        ["body", "variants", 0, "price"],
        "string_pattern_mismatch",
      ],
      ["an unknown field", { status: "archived" }, ["body", "status"], "extra_forbidden"],
      ["an external_id change", { external_id: "other" }, ["body", "external_id"], "extra_forbidden"],
      ["a null name", { name: null }, ["body", "name"], "string_type"],
      ["retire_variants not a list", { retire_variants: "m" }, ["body", "retire_variants"], "list_type"],
    ];
    it.each(bad.map((c, i) => [...c, i] as const))(
      "rejects %s with 422 and writes nothing",
      async (_name, payload, loc, type, i) => {
        const id = `p-patch-${i}`;
        const created = (await post(a, "shop-1", product(id, base))).json();
        expect(errors(await patch(a, "shop-1", id, { name: "Changed", ...payload }))).toEqual([
          expect.objectContaining({ loc, type }),
        ]);
        expect((await get(a, "shop-1", id)).json()).toEqual(created);
      },
    );
  });

  describe("archive", () => {
    it("answers 200 with the archived record and its variants; then 404, and a second archive is 404", async () => {
      await post(a, "shop-1", product("p-arch"));
      const res = await del(a, "shop-1", "p-arch");
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({
        external_id: "p-arch",
        status: "archived",
        variants: [{ variant_external_id: "std", price: "100.00" }],
      });
      expect(res.json().archived_at).toBeTruthy();
      problem(await get(a, "shop-1", "p-arch"), "product_not_found", 404);
      problem(await del(a, "shop-1", "p-arch"), "product_not_found", 404);
    });

    it("hides a shop's products once the shop is archived", async () => {
      await t.app.inject({
        method: "POST",
        url: "/v1/shops",
        headers: a.headers,
        payload: { external_id: "shop-closing", merchant_external_id: "m", name: "c" },
      });
      await post(a, "shop-closing", product("p-in-closing"));
      await t.app.inject({ method: "DELETE", url: "/v1/shops/shop-closing", headers: a.headers });
      problem(await get(a, "shop-closing", "p-in-closing"), "shop_not_found", 404);
      problem(await list(a, "shop-closing", { status: "all" }), "shop_not_found", 404);
    });
  });

  describe("list", () => {
    beforeAll(async () => {
      await t.app.inject({
        method: "POST",
        url: "/v1/shops",
        headers: a.headers,
        payload: { external_id: "shop-list", merchant_external_id: "m", name: "l" },
      });
      for (let i = 1; i <= 5; i++) {
        await post(
          a,
          "shop-list",
          product(`l-${i}`, {
            variants: [
              { variant_external_id: "a", price: `${i}.00` },
              { variant_external_id: "b", price: `${i}.50` },
            ],
          }),
        );
      }
      await del(a, "shop-list", "l-2");
      await del(a, "shop-list", "l-4");
    });
    const ids = (res: Awaited<ReturnType<typeof list>>) =>
      (res.json().data as { external_id: string }[]).map((p) => p.external_id);

    it("lists the shop's active products by default, newest first, each with its variants", async () => {
      const res = await list(a, "shop-list");
      expect(res.statusCode).toBe(200);
      expect(ids(res)).toEqual(["l-5", "l-3", "l-1"]);
      expect(res.json().data[0].variants).toEqual([
        { variant_external_id: "a", price: "5.00", name: null },
        { variant_external_id: "b", price: "5.50", name: null },
      ]);
      expect(res.json()).toMatchObject({ has_more: false, next_cursor: null });
    });

    it("lists archived products under archived and all", async () => {
      expect(ids(await list(a, "shop-list", { status: "archived" }))).toEqual(["l-4", "l-2"]);
      expect(ids(await list(a, "shop-list", { status: "all" }))).toEqual(["l-5", "l-4", "l-3", "l-2", "l-1"]);
    });

    it("rejects an unknown status with 400 invalid_status_filter listing the accepted values", async () => {
      const body = problem(await list(a, "shop-list", { status: "retired" }), "invalid_status_filter", 400);
      expect(body["detail"]).toMatch(/active.*archived.*all/);
    });

    it("pages with limit and cursor, each row once", async () => {
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const res = await list(a, "shop-list", { status: "all", limit: "2", ...(cursor ? { cursor } : {}) });
        expect(res.statusCode).toBe(200);
        seen.push(...ids(res));
        cursor = res.json().next_cursor;
        expect(res.json().has_more).toBe(cursor !== null);
      } while (cursor);
      expect(seen).toEqual(["l-5", "l-4", "l-3", "l-2", "l-1"]);
    });

    it("refuses a cursor from another shop, status filter or account", async () => {
      const cursor = (await list(a, "shop-list", { status: "all", limit: "1" })).json().next_cursor as string;
      problem(await list(a, "shop-1", { status: "all", cursor }), "invalid_cursor", 400);
      problem(await list(a, "shop-list", { status: "archived", cursor }), "invalid_cursor", 400);
      problem(await list(b, "shop-1", { status: "all", cursor }), "invalid_cursor", 400);
    });

    it("only lists the shop's own products", async () => {
      expect(ids(await list(b, "shop-1", { status: "all" }))).toEqual(["p-hidden", "p-dup"]);
    });
  });

  it("resolves active products and variants for calls, skipping archived and unknown ids", async () => {
    const shop = await findActiveShop(t.ctx.db, a.accountId, "shop-1");
    const found = await findActiveProducts(t.ctx.db, shop.id, ["p-create", "p-arch", "p-unknown", "a\u0000b"]);
    expect([...found.keys()]).toEqual(["p-create"]);
    expect(found.get("p-create")!.variants.map((v) => v.price)).toEqual(["149.90", "12.500", "0", "999999999999.999"]);
  });

  it("requires an API key on every product route", async () => {
    for (const [method, u] of [
      ["POST", url("s")],
      ["GET", url("s")],
      ["GET", url("s", "p")],
      ["PATCH", url("s", "p")],
      ["DELETE", url("s", "p")],
    ] as const) {
      problem(await t.app.inject({ method, url: u }), "invalid_api_key", 401);
    }
  });
});
