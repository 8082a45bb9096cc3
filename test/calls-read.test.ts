import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newAccount, problem, startApp, type TestAccount, type TestApp } from "./helpers.ts";
import { callBody, entries, insertShop, postCall, type ShopFixture } from "./calls-fixtures.ts";

describe("GET /v1/calls/{id} and GET /v1/calls (CONTRACT §3, §4)", () => {
  let t: TestApp;
  let acct: TestAccount;
  let stranger: TestAccount;
  let shopA: ShopFixture;
  let shopB: ShopFixture;
  let shopC: ShopFixture;
  /** Ids of the account's calls in creation order. */
  const ids: string[] = [];

  const get = (url: string, who: TestAccount = acct) => t.app.inject({ method: "GET", url, headers: who.headers });

  beforeAll(async () => {
    t = await startApp();
    acct = await newAccount(t.ctx, 1000);
    stranger = await newAccount(t.ctx, 1000);
    shopA = await insertShop(t.ctx, acct.accountId, { merchant: "merchant-1" });
    shopB = await insertShop(t.ctx, acct.accountId, { merchant: "merchant-1" });
    shopC = await insertShop(t.ctx, acct.accountId, { merchant: "merchant-2" });
    const strangerShop = await insertShop(t.ctx, stranger.accountId, {
      merchant: "merchant-1",
      externalId: shopA.externalId,
    });
    for (const shop of [shopA, shopA, shopB, shopC, shopA]) {
      const res = await postCall(t, acct, callBody(shop.externalId));
      expect(res.statusCode).toBe(201);
      ids.push(res.json().id);
    }
    await postCall(t, stranger, callBody(strangerShop.externalId));
    // Move the calls along by hand: the engine is not there yet.
    await t.ctx.db.query(
      "UPDATE calls SET status = 'completed', outcome = 'confirmed', outcome_details = '{\"transcript_excerpt\": \"wakha\"}' WHERE id = $1",
      [ids[1]],
    );
    await t.ctx.db.query("UPDATE calls SET status = 'completed', outcome = 'declined' WHERE id = $1", [ids[2]]);
    await t.ctx.db.query("UPDATE calls SET status = 'no_answer' WHERE id = $1", [ids[3]]);
    for (const [i, day] of ["2026-01-01", "2026-01-02", "2026-01-03", "2026-01-04", "2026-01-05"].entries()) {
      await t.ctx.db.query("UPDATE calls SET created_at = $2 WHERE id = $1", [ids[i], `${day}T12:00:00Z`]);
    }
  });
  afterAll(() => t.close());

  it("reads one of the account's calls", async () => {
    const res = await get(`/v1/calls/${ids[1]}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      id: ids[1],
      status: "completed",
      outcome: "confirmed",
      outcome_details: { transcript_excerpt: "wakha" },
      shop_external_id: shopA.externalId,
      created_at: "2026-01-02T12:00:00.000Z",
    });
  });

  it("gives the same 404 call_not_found for a missing, a foreign and a malformed id", async () => {
    const { rows } = await t.ctx.db.query("SELECT id FROM calls WHERE account_id = $1", [stranger.accountId]);
    const foreign = rows[0]!.id as string;
    const shapes = new Set<string>();
    for (const id of [randomUUID(), foreign, "not-a-uuid", "1"]) {
      const body = problem(await get(`/v1/calls/${id}`), "call_not_found", 404);
      const { request_id: _r, instance, detail, ...rest } = body;
      expect(instance).toBe(`/v1/calls/${id}`);
      shapes.add(JSON.stringify({ ...rest, detail: String(detail).replace(id, "<id>") }));
    }
    expect(shapes.size).toBe(1);
  });

  it("lists the account's calls newest first, never another account's", async () => {
    const res = await get("/v1/calls");
    expect(res.statusCode).toBe(200);
    const page = res.json();
    expect(page.data.map((c: { id: string }) => c.id)).toEqual([...ids].reverse());
    expect(page).toMatchObject({ has_more: false, next_cursor: null });
  });

  it("pages with limit and cursor", async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await get(`/v1/calls?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
      expect(res.statusCode).toBe(200);
      const page = res.json() as { data: { id: string }[]; has_more: boolean; next_cursor: string | null };
      expect(page.data.length).toBeLessThanOrEqual(2);
      seen.push(...page.data.map((c) => c.id));
      expect(page.has_more).toBe(page.next_cursor !== null);
      cursor = page.next_cursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual([...ids].reverse());
  });

  const listed = async (query: string) => {
    const res = await get(`/v1/calls?${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return (res.json().data as { id: string }[]).map((c) => c.id);
  };

  it("filters by status and outcome", async () => {
    expect(await listed("status=queued")).toEqual([ids[4], ids[0]]);
    expect(await listed("status=completed")).toEqual([ids[2], ids[1]]);
    expect(await listed("status=completed&outcome=declined")).toEqual([ids[2]]);
    expect(await listed("outcome=confirmed")).toEqual([ids[1]]);
    expect(await listed("status=canceled")).toEqual([]);
  });

  it("filters by shop_external_id and by merchant_id (the shops' merchant_external_id)", async () => {
    expect(await listed(`shop_external_id=${shopA.externalId}`)).toEqual([ids[4], ids[1], ids[0]]);
    expect(await listed(`shop_external_id=${shopC.externalId}`)).toEqual([ids[3]]);
    expect(await listed("merchant_id=merchant-1")).toEqual([ids[4], ids[2], ids[1], ids[0]]);
    expect(await listed("merchant_id=merchant-2")).toEqual([ids[3]]);
    expect(await listed("merchant_id=nobody")).toEqual([]);
    expect(await listed(`merchant_id=merchant-1&shop_external_id=${shopB.externalId}`)).toEqual([ids[2]]);
  });

  it("filters by creation time: created_after inclusive, created_before exclusive", async () => {
    expect(await listed("created_after=2026-01-02T12:00:00Z&created_before=2026-01-04T12:00:00Z")).toEqual([
      ids[2],
      ids[1],
    ]);
    expect(await listed("created_after=2026-01-04")).toEqual([ids[4], ids[3]]);
    expect(await listed("created_before=2026-01-02T13:00:00%2B01:00")).toEqual([ids[0]]);
  });

  it("keeps the filters in the cursor's scope", async () => {
    const first = (await get("/v1/calls?status=queued&limit=1")).json();
    expect(first.has_more).toBe(true);
    const next = await get(`/v1/calls?status=queued&limit=1&cursor=${encodeURIComponent(first.next_cursor)}`);
    expect(next.json().data.map((c: { id: string }) => c.id)).toEqual([ids[0]]);
    problem(
      await get(`/v1/calls?status=completed&limit=1&cursor=${encodeURIComponent(first.next_cursor)}`),
      "invalid_cursor",
      400,
    );
    problem(await get(`/v1/calls?limit=1&cursor=${encodeURIComponent(first.next_cursor)}`), "invalid_cursor", 400);
    problem(
      await get(`/v1/calls?status=queued&limit=1&cursor=${encodeURIComponent(first.next_cursor)}`, stranger),
      "invalid_cursor",
      400,
    );
  });

  it("refuses a status outside the call statuses with 400 invalid_status_filter listing them", async () => {
    const body = problem(await get("/v1/calls?status=done"), "invalid_status_filter", 400);
    for (const s of [
      "queued",
      "ringing",
      "in_progress",
      "completed",
      "no_answer",
      "busy",
      "voicemail",
      "failed",
      "canceled",
    ]) {
      expect(body["detail"]).toContain(s);
    }
  });

  it("refuses bad outcome, dates and limit with 422 validation_error", async () => {
    expect(entries(await get("/v1/calls?outcome=maybe"))).toEqual([["query.outcome", "enum"]]);
    expect(entries(await get("/v1/calls?created_after=yesterday"))[0]?.[0]).toBe("query.created_after");
    expect(entries(await get("/v1/calls?limit=0"))).toEqual([["query.limit", "greater_than_equal"]]);
    expect(entries(await get("/v1/calls?limit=101"))).toEqual([["query.limit", "less_than_equal"]]);
  });
});
