import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import { pageQuery, pageSchema } from "../../pagination.ts";
import { archiveProduct, createProduct, getProduct, listProducts, updateProduct } from "../../services/products.ts";
import { externalIdSchema, statusFilterQuery, textSchema, timestamp } from "./shops.ts";

/** A decimal string with up to 12 integer digits and 3 decimals; never a JSON number. */
export const priceSchema = z.string()
  .regex(/^\d{1,12}(\.\d{1,3})?$/, "String should be a decimal amount of 0 or more, like \"149.90\" (up to 12 digits and 3 decimals)")
  .describe("Decimal string, 0 or more, up to 3 decimals, in the currency of the call's country; kept at the scale given (\"149.90\" reads back as \"149.90\").");

const variantIdSchema = externalIdSchema.describe("Your identifier for the variant, unique within the product.");
const variantNameSchema = textSchema(200).nullable().optional().describe("The variant's name as the agent may say it, for example \"Red, size M\".");

/** Flags each repeated id at its own position, so `loc` points at the duplicate. */
function flagDuplicates(ids: string[], at: (i: number) => (string | number)[], ctx: z.RefinementCtx, what: string): void {
  const seen = new Set<string>();
  ids.forEach((id, i) => {
    if (seen.has(id)) ctx.addIssue({ code: "custom", path: at(i), message: `Value error, ${what} ${JSON.stringify(id)} appears more than once`, params: { type: "value_error" } });
    seen.add(id);
  });
}

export const variantSchema = z.object({
  variant_external_id: z.string(),
  name: z.string().nullable(),
  price: z.string().describe("Decimal string, at the scale it was given."),
}).meta({ id: "Variant" });

export const productSchema = z.object({
  external_id: z.string().describe("Your identifier for the product, unique within its shop (archived products included)."),
  shop_external_id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  status: z.enum(["active", "archived"]),
  variants: z.array(variantSchema).describe("The active variants with their prices, in the order they were added; retired variants are not shown."),
  created_at: timestamp,
  updated_at: timestamp,
  archived_at: timestamp.nullable().describe("When the product was archived; null while active."),
}).meta({ id: "Product", description: "A product of a shop, with its variants." });

export const variantCreateSchema = z.strictObject({
  variant_external_id: variantIdSchema,
  price: priceSchema,
  name: variantNameSchema,
}).meta({ id: "VariantCreate" });

export const productCreateBody = z.strictObject({
  external_id: externalIdSchema.describe("Your identifier for the product, unique within the shop. It cannot be reused, even after archiving."),
  name: textSchema(200).describe("The product's name as the agent may say it to customers."),
  description: textSchema(2000).nullable().optional(),
  variants: z.array(variantCreateSchema).min(1).max(100)
    .superRefine((vs, ctx) => flagDuplicates(vs.map((v) => v.variant_external_id), (i) => [i, "variant_external_id"], ctx, "variant_external_id"))
    .describe("One or more variants (a product sold in one form has one variant); ids must be distinct."),
}).meta({ id: "ProductCreate", description: "A new product. Creation never updates: an existing external id in the shop is 409." });

export const variantUpsertSchema = z.strictObject({
  variant_external_id: variantIdSchema,
  price: priceSchema.optional().describe("Required to add a variant or to bring back a retired one; omit it to keep the current price."),
  name: variantNameSchema.describe("Omit to keep the current name; `null` clears it."),
}).meta({ id: "VariantUpsert", description: "Sets a variant by id: an active variant gets the fields given; an unknown id is added; a retired id is made active again." });

export const productUpdateBody = z.strictObject({
  name: textSchema(200).optional(),
  description: textSchema(2000).nullable().optional().describe("`null` clears it."),
  variants: z.array(variantUpsertSchema).max(100).optional()
    .describe("Variants to reprice, rename, add or bring back, by `variant_external_id`. Variants not listed are left as they are."),
  retire_variants: z.array(variantIdSchema).max(100).optional()
    .describe("Ids of variants to retire: they stop being offered or resolvable in calls. An already retired id is ignored; an unknown id is 422. The product must keep at least one active variant, else 422."),
}).superRefine((body, ctx) => {
  flagDuplicates((body.variants ?? []).map((v) => v.variant_external_id), (i) => ["variants", i, "variant_external_id"], ctx, "variant_external_id");
  const retire = body.retire_variants ?? [];
  flagDuplicates(retire, (i) => ["retire_variants", i], ctx, "variant id");
  const upserted = new Set((body.variants ?? []).map((v) => v.variant_external_id));
  retire.forEach((id, i) => {
    if (upserted.has(id)) ctx.addIssue({ code: "custom", path: ["retire_variants", i], message: `Value error, variant ${JSON.stringify(id)} is both set in \`variants\` and retired`, params: { type: "value_error" } });
  });
}).meta({
  id: "ProductUpdate",
  description: "Fields to change; an absent field is kept. `variants` upserts by id, then `retire_variants` retires. All of it applies in one transaction, or nothing does.",
});

export const productListQuery = z.object({ ...pageQuery, status: statusFilterQuery });

const shopParam = { shop_external_id: z.string().describe("The shop's external id (percent-encoded).") };
export const productListParams = z.object(shopParam);
export const productParams = z.object({ ...shopParam, product_external_id: z.string().describe("The product's external id (percent-encoded).") });

const ONE = "/shops/:shop_external_id/products/:product_external_id";

/** /v1/shops/{shop_external_id}/products: create, list, read, update, archive. */
export function productRoutes(app: FastifyInstance, ctx: AppContext): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.post("/shops/:shop_external_id/products", {
    schema: {
      operationId: "createProduct", tags: ["Products"], summary: "Create a product with its variants (strict insert)",
      description: "An external id already used in the shop, even by an archived product, is 409 `product_external_id_already_exists`: use PATCH to modify a product.",
      params: productListParams, body: productCreateBody, response: { 201: productSchema },
    },
    config: { errors: ["shop_not_found", "product_external_id_already_exists"] },
  }, async (req, reply) => reply.code(201).send(await createProduct(ctx, req.principal, req.params.shop_external_id, req.body)));

  r.get("/shops/:shop_external_id/products", {
    schema: {
      operationId: "listProducts", tags: ["Products"], summary: "List a shop's products, newest first",
      params: productListParams, querystring: productListQuery, response: { 200: pageSchema(productSchema) },
    },
    config: { paginated: true, errors: ["shop_not_found", "invalid_status_filter"] },
  }, (req) => listProducts(ctx, req.principal, req.params.shop_external_id, { status: req.query.status }, req.query));

  r.get(ONE, {
    schema: {
      operationId: "getProduct", tags: ["Products"], summary: "Read an active product with its variants and prices",
      description: "A missing, archived or another shop's product is 404 `product_not_found`; an inactive or foreign shop is 404 `shop_not_found`.",
      params: productParams, response: { 200: productSchema },
    },
    config: { errors: ["shop_not_found", "product_not_found"] },
  }, (req) => getProduct(ctx, req.principal, req.params.shop_external_id, req.params.product_external_id));

  r.patch(ONE, {
    schema: {
      operationId: "updateProduct", tags: ["Products"], summary: "Rename, reprice, add or retire variants",
      description: "Example: `{\"variants\": [{\"variant_external_id\": \"red-m\", \"price\": \"129.00\"}, {\"variant_external_id\": \"blue-m\", \"price\": \"129.00\", \"name\": \"Blue, M\"}], \"retire_variants\": [\"green-m\"]}`.",
      params: productParams, body: productUpdateBody, response: { 200: productSchema },
    },
    config: { errors: ["shop_not_found", "product_not_found"] },
  }, (req) => updateProduct(ctx, req.principal, req.params.shop_external_id, req.params.product_external_id, req.body));

  r.delete(ONE, {
    schema: {
      operationId: "archiveProduct", tags: ["Products"], summary: "Archive a product",
      description: "Archives the product and answers with the archived record. It then reads as 404 and stays listed under `status=archived` and `all`; its external id stays taken in the shop.",
      params: productParams, response: { 200: productSchema },
    },
    config: { errors: ["shop_not_found", "product_not_found"] },
  }, (req) => archiveProduct(ctx, req.principal, req.params.shop_external_id, req.params.product_external_id));
}
