// create_shop, get_shop, list_shops, update_shop, archive_shop: /v1/shops.
import { z } from "zod";
import { pageSchema } from "../../schemas/common.ts";
import { shopCreateBody, shopListQuery, shopParams, shopSchema, shopUpdateBody } from "../../schemas/shops.ts";
import { archiveShop, createShop, getShop, listShops, updateShop } from "../../services/shops.ts";
import { defineTool, rootObject } from "./tool.ts";

const shop = rootObject(shopSchema, "A shop (boutique) of the reseller.");
// The REST path parameter, without its percent-encoding note: tool arguments are plain strings.
const shopKey = {
  external_id: shopParams.shape.external_id.describe("The shop's `external_id`, as given at create_shop."),
};

export const createShopTool = defineTool({
  name: "create_shop",
  title: "Create a shop",
  description:
    "Creates a shop (boutique) that calls and products belong to. `external_id` is your own identifier for the shop, unique within the account and never reusable, even after archiving; `merchant_external_id` identifies the shop's owner (several shops may share it; list_calls filters on it as `merchant_id`); `name` is said to customers by the voice agent. Creation never updates: an existing `external_id` fails with shop_external_id_already_exists, which also confirms an earlier creation succeeded; use update_shop to change a shop.",
  input: z.strictObject(shopCreateBody.shape),
  output: shop,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  rateClass: "write",
  mirrors: { method: "POST", path: "/v1/shops" },
  run: (input, { ctx, who }) => createShop(ctx, who, input),
});

export const getShopTool = defineTool({
  name: "get_shop",
  title: "Read a shop",
  description:
    'Reads one active shop by its `external_id`. A missing, archived or other account\'s shop fails with shop_not_found (the three look alike); archived shops are listed by list_shops with `status: "archived"`.',
  input: z.strictObject(shopKey),
  output: shop,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  rateClass: "read",
  mirrors: { method: "GET", path: "/v1/shops/{external_id}" },
  run: ({ external_id }, { ctx, who }) => getShop(ctx, who, external_id),
});

export const listShopsTool = defineTool({
  name: "list_shops",
  title: "List shops",
  description:
    "Lists the account's shops, newest first. `status`: `active` (default), `archived` or `all`. Pages hold `limit` shops (1 to 100, default 20); when `has_more` is true, call again with `cursor` set to `next_cursor` and the same `status`.",
  input: z.strictObject(shopListQuery.shape),
  output: pageSchema(shopSchema),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  rateClass: "read",
  mirrors: { method: "GET", path: "/v1/shops" },
  run: ({ status, ...page }, { ctx, who }) => listShops(ctx, who, { status }, page),
});

export const updateShopTool = defineTool({
  name: "update_shop",
  title: "Update a shop",
  description:
    "Changes an active shop's `merchant_external_id`, `name`, `contact_phone` or `default_country`. Only the fields you pass change; `null` clears `contact_phone` or `default_country`. The `external_id` itself cannot change. An archived or unknown shop fails with shop_not_found.",
  input: z.strictObject({ ...shopKey, ...shopUpdateBody.shape }),
  output: shop,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  rateClass: "write",
  mirrors: { method: "PATCH", path: "/v1/shops/{external_id}" },
  run: ({ external_id, ...changes }, { ctx, who }) => updateShop(ctx, who, external_id, changes),
});

export const archiveShopTool = defineTool({
  name: "archive_shop",
  title: "Archive a shop",
  description:
    'Archives an active shop and returns it with `status: "archived"`. There is no un-archive: the shop then reads as shop_not_found, takes no new calls or products, and its `external_id` stays taken; it stays visible in list_shops with `status: "archived"`, and its past calls stay readable. Ask the user before archiving.',
  input: z.strictObject(shopKey),
  output: shop,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  rateClass: "write",
  mirrors: { method: "DELETE", path: "/v1/shops/{external_id}" },
  run: ({ external_id }, { ctx, who }) => archiveShop(ctx, who, external_id),
});

export const SHOP_TOOLS = [createShopTool, getShopTool, listShopsTool, updateShopTool, archiveShopTool];
