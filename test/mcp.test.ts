import { randomUUID } from "node:crypto";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ERRORS } from "../src/errors.ts";
import { newAccount, type TestAccount } from "./helpers.ts";
import { call, connect, fails, type ListeningApp, ok, startListening } from "./mcp-client.ts";
import { startReceiver } from "./webhook-receiver.ts";

const TOOL_NAMES = [
  "create_call",
  "get_call",
  "list_calls",
  "cancel_call",
  "get_account",
  "get_balance",
  "get_usage",
  "list_transactions",
  // Additions to CONTRACT §9's 23 (issue 20).
  "get_transcript",
  "redeliver_webhook_delivery",
  // The do-not-call list (issue 15).
  "add_do_not_call",
  "list_do_not_call",
  "remove_do_not_call",
  "get_calling_hours",
  "set_calling_hours",
  "get_retry_policy",
  "set_retry_policy",
  // The WhatsApp fallback (issue 16).
  "get_whatsapp",
  "set_whatsapp",
  "delete_whatsapp",
  // Orders (issue 16).
  "get_order",
  "list_orders",
  "resolve_order",
  // Delivery (issue 35).
  "record_delivery_event",
  "get_order_analytics",
  "set_courier",
  "get_courier",
  "delete_courier",
  // Warm transfer (issue 34).
  "set_handoff",
  "get_handoff",
  "delete_handoff",
  // Store connectors (issue 17).
  "get_connector",
  "set_connector",
  "delete_connector",
  "sync_connector",
  "list_connector_events",
  "retry_connector_event",
  "list_webhook_deliveries",
  "list_endpoints",
  "get_endpoint_spec",
  "get_changelog",
  "explain_error",
  "create_shop",
  "get_shop",
  "list_shops",
  "update_shop",
  "archive_shop",
  "create_product",
  "get_product",
  "list_products",
  "update_product",
  "archive_product",
  // Compliance (issue 36).
  "erase_customer_data",
  "get_erasure",
  "get_retention",
  "set_retention",
  // The shop's answers and rehearsals (issue 37).
  "get_knowledge",
  "set_knowledge",
  "delete_knowledge",
  "simulate_call",
];

const uid = (prefix: string) => `${prefix}-${randomUUID().slice(0, 8)}`;

describe("MCP server over Streamable HTTP (CONTRACT §9)", () => {
  let t: ListeningApp;
  let a: TestAccount;
  let client: Client;
  beforeAll(async () => {
    // Webhooks to the test receiver on 127.0.0.1 need the private-address switch.
    t = await startListening({ env: { WAKHA_WEBHOOK_ALLOW_PRIVATE: "on" } });
    a = await newAccount(t.ctx, 600);
    client = await connect(t.url, a.apiKey);
  });
  afterAll(async () => {
    await client?.close();
    await t.close();
  });

  it("initializes as wakha with instructions and lists exactly the 60 tools, each described, typed and annotated", async () => {
    expect(client.getServerVersion()?.name).toBe("wakha");
    expect(client.getServerCapabilities()?.tools).toBeDefined();
    expect(client.getInstructions()).toMatch(/idempotency_key/);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([...TOOL_NAMES].sort());
    for (const tool of tools) {
      expect(tool.description!.length, tool.name).toBeGreaterThan(150);
      expect(tool.inputSchema.type, tool.name).toBe("object");
      expect(tool.inputSchema["additionalProperties"], tool.name).toBe(false);
      expect(tool.outputSchema?.type, tool.name).toBe("object");
      expect(typeof tool.annotations?.readOnlyHint, tool.name).toBe("boolean");
      expect(typeof tool.annotations?.destructiveHint, tool.name).toBe("boolean");
      expect(typeof tool.annotations?.idempotentHint, tool.name).toBe("boolean");
      const read = tool.name.startsWith("get_") || tool.name.startsWith("list_") || tool.name === "explain_error";
      expect(tool.annotations?.readOnlyHint, tool.name).toBe(read);
    }
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    expect(byName.get("create_call")!.inputSchema.properties).toHaveProperty("idempotency_key");
    expect(byName.get("create_call")!.annotations?.openWorldHint).toBe(true);
    expect(byName.get("archive_shop")!.annotations?.destructiveHint).toBe(true);
    expect(byName.get("list_calls")!.inputSchema.properties).toHaveProperty("merchant_id");
  });

  it("reads the account, balance, usage and ledger", async () => {
    expect(await ok(client, "get_account")).toMatchObject({ id: a.accountId, balance_seconds: 600 });
    expect(await ok(client, "get_balance")).toEqual({
      balance_seconds: 600,
      required_seconds: 10,
      can_start_call: true,
    });
    const usage = await ok(client, "get_usage", { period: "2026-11" });
    expect(usage).toMatchObject({ period: "2026-11", credited_seconds: expect.any(Number) });
    const bad = await fails(client, "get_usage", { period: "2026-13" }, "invalid_period_format");
    expect(bad["remedy"]).toBe(ERRORS.invalid_period_format.remedy);
    const ledger = await ok<{
      data: { type: string; seconds: number }[];
      next_cursor: string | null;
      has_more: boolean;
    }>(client, "list_transactions", { limit: 5 });
    expect(ledger.data).toEqual([expect.objectContaining({ type: "credit", seconds: 600 })]);
    expect(ledger).toMatchObject({ has_more: false, next_cursor: null });
  });

  it("manages shops: create, read, list with next_cursor, update, archive, and their errors", async () => {
    const merchant = uid("merchant");
    const ids = [uid("shop"), uid("shop")];
    for (const id of ids) {
      expect(
        await ok(client, "create_shop", { external_id: id, merchant_external_id: merchant, name: "Dar Caftan" }),
      ).toMatchObject({ external_id: id, status: "active" });
    }
    const dup = await fails(
      client,
      "create_shop",
      { external_id: ids[0], merchant_external_id: merchant, name: "Again" },
      "shop_external_id_already_exists",
    );
    expect(dup["status"]).toBe(409);
    expect(await ok(client, "get_shop", { external_id: ids[0] })).toMatchObject({
      external_id: ids[0],
      merchant_external_id: merchant,
    });

    const first = await ok<{ data: { external_id: string }[]; next_cursor: string | null }>(client, "list_shops", {
      limit: 1,
    });
    expect(first.data.map((s) => s.external_id)).toEqual([ids[1]]);
    expect(first.next_cursor).toEqual(expect.any(String));
    const second = await ok<{ data: { external_id: string }[] }>(client, "list_shops", {
      limit: 1,
      cursor: first.next_cursor,
    });
    expect(second.data.map((s) => s.external_id)).toEqual([ids[0]]);
    await fails(client, "list_shops", { status: "closed" }, "invalid_status_filter");
    await fails(client, "list_shops", { cursor: "not-a-cursor" }, "invalid_cursor");

    expect(
      await ok(client, "update_shop", { external_id: ids[0], name: "Dar Caftan Rabat", default_country: "MA" }),
    ).toMatchObject({ name: "Dar Caftan Rabat", default_country: "MA" });
    const invalid = await fails(
      client,
      "update_shop",
      { external_id: ids[0], default_country: "ES", colour: "red" },
      "validation_error",
    );
    expect(invalid["errors"]).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ loc: ["arguments", "default_country"], type: "enum" }),
        expect.objectContaining({ loc: ["arguments", "colour"], type: "extra_forbidden" }),
      ]),
    );
    expect(await ok(client, "archive_shop", { external_id: ids[1] })).toMatchObject({ status: "archived" });
    await fails(client, "get_shop", { external_id: ids[1] }, "shop_not_found");
  });

  it("answers an unknown shop with shop_not_found and the catalogue's remedy, and never shows another account's shop", async () => {
    const missing = await fails(client, "get_shop", { external_id: "no-such-shop" }, "shop_not_found");
    expect(missing).toMatchObject({
      status: 404,
      title: ERRORS.shop_not_found.title,
      remedy: ERRORS.shop_not_found.remedy,
    });
    expect(String(missing["type"])).toMatch(/\/errors\/shop_not_found$/);
    expect(String(missing["request_id"])).toMatch(/^[0-9a-f]{8}$/);

    const other = await newAccount(t.ctx);
    const otherClient = await connect(t.url, other.apiKey);
    try {
      const theirs = uid("shop");
      await ok(otherClient, "create_shop", { external_id: theirs, merchant_external_id: "m", name: "Theirs" });
      const foreign = await fails(client, "get_shop", { external_id: theirs }, "shop_not_found");
      expect(foreign["detail"]).toBe(
        (await fails(client, "get_shop", { external_id: theirs }, "shop_not_found"))["detail"],
      );
      await fails(client, "archive_shop", { external_id: theirs }, "shop_not_found");
    } finally {
      await otherClient.close();
    }
  });

  it("manages products with their variants", async () => {
    const shop = uid("shop");
    await ok(client, "create_shop", { external_id: shop, merchant_external_id: "m", name: "Souk" });
    const created = await ok(client, "create_product", {
      shop_external_id: shop,
      external_id: "caftan",
      name: "Caftan",
      variants: [
        { variant_external_id: "red-m", price: "249.00", name: "Red, M" },
        { variant_external_id: "green-m", price: "249.00" },
      ],
    });
    expect(created).toMatchObject({
      external_id: "caftan",
      shop_external_id: shop,
      variants: [{ variant_external_id: "red-m" }, { variant_external_id: "green-m" }],
    });
    await fails(
      client,
      "create_product",
      {
        shop_external_id: shop,
        external_id: "caftan",
        name: "Again",
        variants: [{ variant_external_id: "x", price: "1" }],
      },
      "product_external_id_already_exists",
    );
    await fails(
      client,
      "create_product",
      {
        shop_external_id: "no-such-shop",
        external_id: "p",
        name: "P",
        variants: [{ variant_external_id: "x", price: "1" }],
      },
      "shop_not_found",
    );
    expect(await ok(client, "get_product", { shop_external_id: shop, product_external_id: "caftan" })).toMatchObject({
      name: "Caftan",
    });
    const list = await ok<{ data: unknown[]; next_cursor: string | null }>(client, "list_products", {
      shop_external_id: shop,
    });
    expect(list).toMatchObject({ data: [expect.objectContaining({ external_id: "caftan" })], next_cursor: null });

    const updated = await ok(client, "update_product", {
      shop_external_id: shop,
      product_external_id: "caftan",
      variants: [{ variant_external_id: "red-m", price: "199.50" }],
      retire_variants: ["green-m"],
    });
    expect(updated).toMatchObject({ variants: [{ variant_external_id: "red-m", price: "199.50" }] });
    // The REST body's cross-field rule holds here too.
    const both = await fails(
      client,
      "update_product",
      {
        shop_external_id: shop,
        product_external_id: "caftan",
        variants: [{ variant_external_id: "red-m", price: "1" }],
        retire_variants: ["red-m"],
      },
      "validation_error",
    );
    expect(both["errors"]).toEqual([
      expect.objectContaining({ loc: ["arguments", "retire_variants", 0], type: "value_error" }),
    ]);
    // A rule the service checks against stored variants: its location is the tool's arguments too, never "body".
    const unknown = await fails(
      client,
      "update_product",
      {
        shop_external_id: shop,
        product_external_id: "caftan",
        retire_variants: ["no-such-variant"],
      },
      "validation_error",
    );
    expect(unknown["errors"]).toEqual([
      expect.objectContaining({ loc: ["arguments", "retire_variants", 0], type: "value_error" }),
    ]);

    expect(
      await ok(client, "archive_product", { shop_external_id: shop, product_external_id: "caftan" }),
    ).toMatchObject({ status: "archived" });
    await fails(client, "get_product", { shop_external_id: shop, product_external_id: "caftan" }, "product_not_found");
  });

  it("creates a call, generating and returning an idempotency key, replays it with that key, and refuses another body under it", async () => {
    const merchant = uid("merchant");
    const shop = uid("shop");
    await ok(client, "create_shop", { external_id: shop, merchant_external_id: merchant, name: "Dar Caftan" });
    const args = {
      shop_external_id: shop,
      customer: { name: "Fatima Zahra", phone_number: "+212612345601" },
      amount: "249.00",
      country: "MA",
      order: { external_id: uid("order"), items: [{ name: "Caftan", unit_price: "249.00" }] },
    };
    const first = await ok<{
      call: { id: string; status: string; dialect: string; currency: string };
      idempotency_key: string;
      replayed: boolean;
    }>(client, "create_call", args);
    expect(first.idempotency_key).toMatch(/^[0-9a-f-]{36}$/);
    expect(first).toMatchObject({ replayed: false, call: { status: "queued", dialect: "ma", currency: "MAD" } });

    const again = await ok<typeof first>(client, "create_call", { ...args, idempotency_key: first.idempotency_key });
    expect(again).toEqual({ ...first, replayed: true });
    const conflict = await fails(
      client,
      "create_call",
      { ...args, amount: "250.00", idempotency_key: first.idempotency_key },
      "idempotency_key_conflict",
    );
    expect(conflict["status"]).toBe(409);
    const exists = await fails(client, "create_call", args, "order_external_id_already_exists");
    expect(String(exists["hint"])).toMatch(/previous_attempts/);
    await fails(client, "create_call", { ...args, idempotency_key: "" }, "idempotency_key_empty");

    const mine = randomUUID();
    const retry = await ok<typeof first>(client, "create_call", {
      ...args,
      order: { ...args.order, previous_attempts: 1 },
      idempotency_key: mine,
    });
    expect(retry).toMatchObject({ idempotency_key: mine, replayed: false });

    expect(await ok(client, "get_call", { call_id: first.call.id })).toMatchObject({
      id: first.call.id,
      shop_external_id: shop,
    });
    const batch = await ok<{ data: { id: string }[]; next_cursor: string | null }>(client, "list_calls", {
      merchant_id: merchant,
    });
    expect(batch.data.map((c) => c.id).sort()).toEqual([first.call.id, retry.call.id].sort());
    expect(batch.next_cursor).toBeNull();
    await fails(client, "list_calls", { status: "ringing-ish" }, "invalid_status_filter");

    expect(await ok(client, "cancel_call", { call_id: retry.call.id })).toMatchObject({
      id: retry.call.id,
      status: "canceled",
    });
    await fails(client, "cancel_call", { call_id: retry.call.id }, "conflict");
    await fails(client, "get_call", { call_id: randomUUID() }, "call_not_found");

    // The order those two calls made (issue 16): one order, two attempts, not yet resolved.
    const order = await ok<{
      external_id: string;
      status: string;
      attempts: { id: string }[];
      resolution: { value: string };
    }>(client, "get_order", { shop_external_id: shop, order_external_id: args.order.external_id });
    expect(order).toMatchObject({
      external_id: args.order.external_id,
      status: "open",
      resolution: { value: "unresolved" },
    });
    expect(order.attempts.map((x) => x.id)).toEqual([first.call.id, retry.call.id]);
    const orders = await ok<{ data: { external_id: string }[]; next_cursor: string | null }>(client, "list_orders", {
      merchant_id: merchant,
      status: "open",
    });
    expect(orders).toMatchObject({ data: [{ external_id: args.order.external_id }], next_cursor: null });
    await fails(client, "list_orders", { status: "done" }, "invalid_status_filter");
    await fails(client, "get_order", { shop_external_id: shop, order_external_id: "no-such-order" }, "not_found");
  });

  it("checks create_call's arguments with the REST schema and the REST rules", async () => {
    const shop = uid("shop");
    await ok(client, "create_shop", { external_id: shop, merchant_external_id: "m", name: "Souk" });
    const base = {
      shop_external_id: shop,
      customer: { name: "Karim", phone_number: "+212612345601" },
      amount: "99.00",
      country: "MA",
      order: { external_id: uid("order"), items: [{ name: "Tea set", unit_price: "99.00" }] },
    };
    const invalid = await fails(client, "create_call", { ...base, amount: 99, surprise: true }, "validation_error");
    expect(invalid["errors"]).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ loc: ["arguments", "amount"], type: "string_type" }),
        expect.objectContaining({ loc: ["arguments", "surprise"], type: "extra_forbidden" }),
      ]),
    );
    await fails(
      client,
      "create_call",
      { ...base, country: "FR", language: "ar" },
      "language_not_supported_for_country",
    );
    await fails(client, "create_call", { ...base, shop_external_id: "no-such-shop" }, "shop_not_found");
    await fails(
      client,
      "create_call",
      { ...base, order: { ...base.order, items: [{ product_external_id: "nope" }] } },
      "order_item_unknown_product",
    );
    const poor = await newAccount(t.ctx, 5);
    const poorClient = await connect(t.url, poor.apiKey);
    try {
      await ok(poorClient, "create_shop", { external_id: shop, merchant_external_id: "m", name: "Souk" });
      const broke = await fails(poorClient, "create_call", base, "insufficient_balance");
      expect(broke).toMatchObject({ status: 402, balance_seconds: 5, required_seconds: 10 });
    } finally {
      await poorClient.close();
    }
  });

  it("lists webhook deliveries with their status filter and next_cursor, and refuses an unknown filter", async () => {
    expect(await ok(client, "list_webhook_deliveries")).toEqual({ data: [], has_more: false, next_cursor: null });
    const receiver = await startReceiver();
    try {
      const created = await t.app.inject({
        method: "POST",
        url: "/v1/me/webhooks",
        headers: a.headers,
        payload: { url: receiver.url },
      });
      expect(created.statusCode).toBe(201);
      for (let i = 0; i < 2; i++)
        expect(
          (await t.app.inject({ method: "POST", url: "/v1/me/webhooks/test", headers: a.headers })).statusCode,
        ).toBe(200);
    } finally {
      await receiver.close();
    }
    const page = await ok<{
      data: { event_type: string; status: string }[];
      has_more: boolean;
      next_cursor: string | null;
    }>(client, "list_webhook_deliveries", { status: "delivered", limit: 1 });
    expect(page.data).toEqual([expect.objectContaining({ event_type: "webhook.test", status: "delivered" })]);
    expect(page).toMatchObject({ has_more: true, next_cursor: expect.any(String) });
    const rest = await ok<{ data: unknown[]; next_cursor: string | null }>(client, "list_webhook_deliveries", {
      status: "delivered",
      limit: 1,
      cursor: page.next_cursor,
    });
    expect(rest).toMatchObject({ data: [expect.anything()], next_cursor: null });
    expect(await ok(client, "list_webhook_deliveries", { status: "failed" })).toMatchObject({ data: [] });
    const bad = await fails(client, "list_webhook_deliveries", { status: "lost" }, "invalid_status_filter");
    expect(String(bad["detail"])).toMatch(/delivered, failed, pending/);
  });

  it("describes the REST API from the live OpenAPI document", async () => {
    const { endpoints } = await ok<{ endpoints: { method: string; path: string; mcp_tool: string | null }[] }>(
      client,
      "list_endpoints",
    );
    expect(endpoints).toContainEqual(
      expect.objectContaining({ method: "POST", path: "/v1/calls", mcp_tool: "create_call" }),
    );
    expect(endpoints).toContainEqual(
      expect.objectContaining({ method: "DELETE", path: "/v1/me/api-keys/{id}", mcp_tool: null }),
    );
    const mirrored = endpoints.flatMap((e) => (e.mcp_tool ? [e.mcp_tool] : []));
    expect(new Set(mirrored).size).toBe(56); // every tool but the four reference tools mirrors one operation
    const calls = await ok<{ endpoints: { tags?: string[]; path: string }[] }>(client, "list_endpoints", {
      tag: "calls",
    });
    expect(calls.endpoints.every((e) => e.path.startsWith("/v1/calls"))).toBe(true);

    const spec = await ok<{
      path: string;
      operation: { operationId: string };
      schemas: Record<string, unknown>;
      mcp_tool: string;
    }>(client, "get_endpoint_spec", { method: "post", path: "/v1/shops" });
    expect(spec).toMatchObject({
      path: "/v1/shops",
      operation: { operationId: "createShop" },
      mcp_tool: "create_shop",
    });
    expect(Object.keys(spec.schemas)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^ShopCreate/), "Shop", "Problem"]),
    );
    expect(
      await ok(client, "get_endpoint_spec", { method: "GET", path: "shops/my-shop/products/:product_external_id" }),
    ).toMatchObject({ path: "/v1/shops/{shop_external_id}/products/{product_external_id}", mcp_tool: "get_product" });
    expect(
      String((await fails(client, "get_endpoint_spec", { method: "PUT", path: "/v1/shops" }, "not_found"))["detail"]),
    ).toMatch(/GET, POST/);
    await fails(client, "get_endpoint_spec", { method: "GET", path: "/v2/nothing" }, "not_found");
  });

  it("reports versions and releases from CHANGELOG.md", async () => {
    const log = await ok<{
      api_versions: { version: string; sunset: string | null }[];
      notes: string;
      releases: { version: string; date: string | null; changes: Record<string, string[]> }[];
    }>(client, "get_changelog");
    expect(log.api_versions).toEqual([expect.objectContaining({ version: "v1", status: "current", sunset: null })]);
    expect(log.notes).toMatch(/Sunset/);
    const first = log.releases.find((r) => r.version === "0.1.0");
    expect(first?.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(first?.changes["Added"]?.length).toBeGreaterThan(0);
  });

  it("explains error slugs from the catalogue and answers an unknown one with the closest slugs", async () => {
    expect(await ok(client, "explain_error", { slug: "shop_not_found" })).toEqual({
      slug: "shop_not_found",
      status: 404,
      title: ERRORS.shop_not_found.title,
      cause: ERRORS.shop_not_found.cause,
      remedy: ERRORS.shop_not_found.remedy,
      docs_url: `${t.ctx.config.docsUrl}/errors/shop_not_found`,
      kind: "error",
    });
    expect(await ok(client, "explain_error", { slug: "https://api.example/docs/errors/cursor_expired" })).toMatchObject(
      { slug: "cursor_expired" },
    );
    expect(await ok(client, "explain_error", { slug: "http_error" })).toMatchObject({ status: null });
    const unknown = await fails(client, "explain_error", { slug: "shop_not_fund" }, "not_found");
    expect((unknown["did_you_mean"] as string[])[0]).toBe("shop_not_found");
    expect(unknown["remedy"]).toMatch(/explain_error/);
    expect(unknown["slugs"]).toEqual(Object.keys(ERRORS));
  });

  it("answers an unknown tool with a JSON-RPC error", async () => {
    const result = call(client, "delete_everything");
    await expect(result).rejects.toThrow(/Unknown tool/);
  });
});

describe("MCP authentication, before any MCP exchange", () => {
  let t: ListeningApp;
  let a: TestAccount;
  const initialize = {
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
  };
  const post = (url: string, headers: Record<string, string> = {}) =>
    fetch(url, {
      method: "POST",
      body: JSON.stringify(initialize),
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
    });
  beforeAll(async () => {
    t = await startListening();
    a = await newAccount(t.ctx);
  });
  afterAll(() => t.close());

  it("answers 401 invalid_api_key problem+json with WWW-Authenticate for no key, a bad key or no Bearer prefix", async () => {
    for (const headers of [
      {} as Record<string, string>,
      { authorization: "Bearer wakha_sk_nope" },
      { authorization: a.apiKey },
      { authorization: `Bearer ${a.apiKey}x` },
    ]) {
      const res = await post(t.url, headers);
      expect(res.status).toBe(401);
      expect(res.headers.get("www-authenticate")).toMatch(/^Bearer/);
      expect(res.headers.get("content-type")).toMatch(/^application\/problem\+json/);
      const body = (await res.json()) as Record<string, unknown>;
      expect(body).toMatchObject({ status: 401, instance: "/mcp", request_id: res.headers.get("x-request-id") });
      expect(String(body["type"])).toMatch(/\/errors\/invalid_api_key$/);
    }
    const client = connect(t.url, "wakha_sk_nope");
    await expect(client).rejects.toThrow();
  });

  it("refuses a key in the query string, even alongside a valid header", async () => {
    for (const param of ["api_key", "key", "token", "access_token", "API_KEY"]) {
      const res = await post(`${t.url}?${param}=${encodeURIComponent(a.apiKey)}`, {
        authorization: `Bearer ${a.apiKey}`,
      });
      expect(res.status, param).toBe(400);
      const body = (await res.json()) as Record<string, unknown>;
      expect(String(body["type"])).toMatch(/\/errors\/bad_request$/);
      expect(String(body["detail"])).toMatch(/never accepted in the query string/);
    }
  });

  it("answers initialize with a valid key, and 405 to GET and DELETE (stateless: no stream, no session)", async () => {
    const res = await post(t.url, { authorization: `Bearer ${a.apiKey}` });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-request-id")).toMatch(/^[0-9a-f]{8}$/);
    expect(res.headers.get("mcp-session-id")).toBeNull();
    expect(await res.json()).toMatchObject({ jsonrpc: "2.0", id: 1, result: { serverInfo: { name: "wakha" } } });
    for (const method of ["GET", "DELETE"]) {
      const refused = await fetch(t.url, { method, headers: { authorization: `Bearer ${a.apiKey}` } });
      expect(refused.status, method).toBe(405);
      expect(refused.headers.get("allow")).toBe("POST");
      expect(refused.headers.get("content-type")).toMatch(/^application\/problem\+json/);
    }
  });
});

describe("MCP rate limits: each tool call counts in the bucket of the REST route it mirrors", () => {
  let t: ListeningApp;
  beforeAll(async () => {
    // Scale 0.005: reads allow 3 a minute, writes 1, call creation 1, cancels 1.
    t = await startListening({ env: { WAKHA_RATE_LIMIT_SCALE: "0.005" } });
  });
  afterAll(() => t.close());

  it("limits reads and writes in their own buckets, answers rate_limit_exceeded with retry_after, and records it on the key", async () => {
    const a = await newAccount(t.ctx);
    const client = await connect(t.url, a.apiKey);
    try {
      for (let i = 0; i < 3; i++)
        await ok(client, i % 2 ? "get_balance" : "explain_error", i % 2 ? {} : { slug: "conflict" });
      const limited = await fails(client, "get_account", {}, "rate_limit_exceeded");
      expect(limited).toMatchObject({ status: 429, retry_after: expect.any(Number) });
      expect(limited["retry_after"] as number).toBeGreaterThan(0);
      // The write bucket is separate: one shop fits, the second call is over.
      await ok(client, "create_shop", { external_id: uid("shop"), merchant_external_id: "m", name: "One" });
      await fails(client, "update_shop", { external_id: "x", name: "Two" }, "rate_limit_exceeded");
      // create_call has its own bucket (calls_create), so a bad call still counts there and only there.
      await fails(client, "create_call", { shop_external_id: "no-such-shop" }, "validation_error");
      await fails(client, "create_call", { shop_external_id: "no-such-shop" }, "rate_limit_exceeded");
      await fails(client, "cancel_call", { call_id: randomUUID() }, "call_not_found");
      const { rows } = await t.ctx.db.query<{ detail: { request: string } }>(
        "SELECT detail FROM api_key_events WHERE key_id = $1 AND type = 'rate_limited' ORDER BY created_at",
        [a.keyId],
      );
      expect(rows.map((r) => r.detail.request)).toEqual(["MCP get_account", "MCP update_shop", "MCP create_call"]);
    } finally {
      await client.close();
    }
  });
});
