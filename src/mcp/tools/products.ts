// create_product, get_product, list_products, update_product, archive_product: /v1/shops/{shop_external_id}/products.
import { z } from "zod";
import { pageSchema } from "../../schemas/common.ts";
import {
  productCreateBody,
  productListQuery,
  productParams,
  productSchema,
  productUpdateBody,
} from "../../schemas/products.ts";
import { archiveProduct, createProduct, getProduct, listProducts, updateProduct } from "../../services/products.ts";
import { defineTool, parseArguments, rootObject } from "./tool.ts";

const product = rootObject(productSchema, "A product of a shop, with its active variants and their prices.");
// The REST path parameters, without their percent-encoding notes: tool arguments are plain strings.
const shopKey = {
  shop_external_id: productParams.shape.shop_external_id.describe(
    "The `external_id` of the shop the product belongs to.",
  ),
};
const productKey = {
  ...shopKey,
  product_external_id: productParams.shape.product_external_id.describe(
    "The product's `external_id`, as given at create_product.",
  ),
};

export const createProductTool = defineTool({
  name: "create_product",
  title: "Create a product",
  description:
    'Adds a product to an active shop, with one or more variants, each with its own `variant_external_id` and `price` (a decimal string such as "149.90", in the currency of the calls\' country). A product sold in one form has one variant. Calls name products in their item lines by `product_external_id` (plus `variant_external_id` when there are several variants), so the agent can read the order back. `external_id` is unique within the shop and never reusable, even after archiving; an existing one fails with product_external_id_already_exists (an earlier creation succeeded; use update_product to change it). Example variants: [{"variant_external_id": "red-m", "price": "129.00", "name": "Red, M"}].',
  input: z.strictObject({ ...shopKey, ...productCreateBody.shape }),
  output: product,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  rateClass: "write",
  mirrors: { method: "POST", path: "/v1/shops/{shop_external_id}/products" },
  run: ({ shop_external_id, ...body }, { ctx, who }) => createProduct(ctx, who, shop_external_id, body),
});

export const getProductTool = defineTool({
  name: "get_product",
  title: "Read a product",
  description:
    "Reads one active product of a shop with all its active variants and prices. A missing, archived or other shop's product fails with product_not_found; an unknown or archived shop with shop_not_found.",
  input: z.strictObject(productKey),
  output: product,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  rateClass: "read",
  mirrors: { method: "GET", path: "/v1/shops/{shop_external_id}/products/{product_external_id}" },
  run: ({ shop_external_id, product_external_id }, { ctx, who }) =>
    getProduct(ctx, who, shop_external_id, product_external_id),
});

export const listProductsTool = defineTool({
  name: "list_products",
  title: "List a shop's products",
  description:
    "Lists the products of an active shop with their active variants, newest first. `status`: `active` (default), `archived` or `all`. Pages hold `limit` products (1 to 100, default 20); when `has_more` is true, call again with `cursor` set to `next_cursor` and the same arguments.",
  input: z.strictObject({ ...shopKey, ...productListQuery.shape }),
  output: pageSchema(productSchema),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  rateClass: "read",
  mirrors: { method: "GET", path: "/v1/shops/{shop_external_id}/products" },
  run: ({ shop_external_id, status, ...page }, { ctx, who }) =>
    listProducts(ctx, who, shop_external_id, { status }, page),
});

export const updateProductTool = defineTool({
  name: "update_product",
  title: "Update a product",
  description:
    'Changes an active product in one step, all or nothing: `name`, `description` (`null` clears it), `variants` to reprice, rename, add or bring back variants by `variant_external_id` (a new variant needs a `price`), and `retire_variants` to stop offering variants. Fields and variants you do not pass are kept. The product must keep at least one active variant. Example: {"variants": [{"variant_external_id": "red-m", "price": "119.00"}], "retire_variants": ["green-m"]}.',
  input: z.strictObject({ ...productKey, ...productUpdateBody.shape }),
  output: product,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  rateClass: "write",
  mirrors: { method: "PATCH", path: "/v1/shops/{shop_external_id}/products/{product_external_id}" },
  run: ({ shop_external_id, product_external_id, ...changes }, { ctx, who }) =>
    // The REST body schema again, for its cross-field rules (no duplicate ids, no variant both set and retired).
    updateProduct(ctx, who, shop_external_id, product_external_id, parseArguments(productUpdateBody, changes)),
});

export const archiveProductTool = defineTool({
  name: "archive_product",
  title: "Archive a product",
  description:
    'Archives an active product and returns it with `status: "archived"`. There is no un-archive: new calls can no longer name it, it reads as product_not_found, and its `external_id` stays taken in the shop; list_products with `status: "archived"` still shows it. Ask the user before archiving.',
  input: z.strictObject(productKey),
  output: product,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  rateClass: "write",
  mirrors: { method: "DELETE", path: "/v1/shops/{shop_external_id}/products/{product_external_id}" },
  run: ({ shop_external_id, product_external_id }, { ctx, who }) =>
    archiveProduct(ctx, who, shop_external_id, product_external_id),
});

export const PRODUCT_TOOLS = [
  createProductTool,
  getProductTool,
  listProductsTool,
  updateProductTool,
  archiveProductTool,
];
