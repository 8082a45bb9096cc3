import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import { pageQuery, pageSchema } from "../../pagination.ts";
import { COUNTRIES, E164 } from "../../services/call-schemas.ts";
import { archiveShop, createShop, EXTERNAL_ID_MAX, EXTERNAL_ID_PATTERN, getShop, listShops, STATUS_FILTERS, updateShop } from "../../services/shops.ts";

export const timestamp = z.string().describe("RFC 3339 UTC timestamp.");

/** A reseller-chosen identifier: 1 to 100 characters, no control characters. Percent-encode it in paths. */
export const externalIdSchema = z.string().min(1).max(EXTERNAL_ID_MAX).regex(EXTERNAL_ID_PATTERN, "String should not contain control characters");

/** Free text stored as given; PostgreSQL cannot store a NUL character. */
export function textSchema(max: number) {
  return z.string().min(1).max(max).regex(/^[^\u0000]*$/, "String should not contain NUL characters");
}

const phoneSchema = z.string().regex(E164, "String should be an E.164 phone number, like +212612345678");
const countrySchema = z.enum(COUNTRIES);

/** The `status` filter of shop and product lists; checked by the service so a bad value is 400, not 422. */
export const statusFilterQuery = z.string().meta({ enum: [...STATUS_FILTERS], default: "active" }).optional()
  .describe("`active` (default), `archived` or `all`. Any other value is 400 `invalid_status_filter`.");

export const shopSchema = z.object({
  external_id: z.string().describe("Your identifier for the shop, unique within the account (archived shops included)."),
  merchant_external_id: z.string().describe("Your identifier for the shop's owner (the merchant); several shops may share it."),
  name: z.string(),
  contact_phone: z.string().nullable().describe("The shop's phone number, E.164."),
  default_country: countrySchema.nullable().describe("The country the shop mostly sells to."),
  status: z.enum(["active", "archived"]),
  created_at: timestamp,
  updated_at: timestamp,
  archived_at: timestamp.nullable().describe("When the shop was archived; null while active."),
}).meta({ id: "Shop", description: "A shop (boutique) of the reseller." });

export const shopCreateBody = z.strictObject({
  external_id: externalIdSchema.describe("Your identifier for the shop, unique within the account. It cannot be reused, even after archiving."),
  merchant_external_id: externalIdSchema.describe("Your identifier for the shop's owner; calls can be filtered by it (`merchant_id`)."),
  name: textSchema(200).describe("The shop's name, as the agent may say it to customers."),
  contact_phone: phoneSchema.nullable().optional().describe("The shop's phone number, E.164 (for example +212612345678)."),
  default_country: countrySchema.nullable().optional().describe("The country the shop mostly sells to: MA, DZ, TN or FR."),
}).meta({ id: "ShopCreate", description: "A new shop. Creation never updates: an existing external id is 409." });

export const shopUpdateBody = z.strictObject({
  merchant_external_id: shopCreateBody.shape.merchant_external_id.optional(),
  name: shopCreateBody.shape.name.optional(),
  contact_phone: shopCreateBody.shape.contact_phone.describe("E.164; `null` clears it."),
  default_country: shopCreateBody.shape.default_country.describe("MA, DZ, TN or FR; `null` clears it."),
}).meta({ id: "ShopUpdate", description: "Fields to change: an absent field is kept, `null` clears an optional one. The external id cannot change." });

export const shopListQuery = z.object({ ...pageQuery, status: statusFilterQuery });

export const shopParams = z.object({ external_id: z.string().describe("The shop's external id (percent-encoded).") });

const NOT_FOUND = { errors: ["shop_not_found" as const] };

/** /v1/shops: create, list, read, update, archive. */
export function shopRoutes(app: FastifyInstance, ctx: AppContext): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.post("/shops", {
    schema: {
      operationId: "createShop", tags: ["Shops"], summary: "Create a shop (strict insert)",
      description: "Creates a shop. An external id already used on the account, even by an archived shop, is 409 `shop_external_id_already_exists`: use PATCH to modify a shop.",
      body: shopCreateBody, response: { 201: shopSchema },
    },
    config: { errors: ["shop_external_id_already_exists"] },
  }, async (req, reply) => reply.code(201).send(await createShop(ctx, req.principal, req.body)));

  r.get("/shops", {
    schema: {
      operationId: "listShops", tags: ["Shops"], summary: "List the account's shops, newest first",
      querystring: shopListQuery, response: { 200: pageSchema(shopSchema) },
    },
    config: { paginated: true, errors: ["invalid_status_filter"] },
  }, (req) => listShops(ctx, req.principal, { status: req.query.status }, req.query));

  r.get("/shops/:external_id", {
    schema: {
      operationId: "getShop", tags: ["Shops"], summary: "Read an active shop",
      description: "A missing, archived or another account's shop is 404 `shop_not_found`; list archived shops with `GET /v1/shops?status=archived`.",
      params: shopParams, response: { 200: shopSchema },
    },
    config: NOT_FOUND,
  }, (req) => getShop(ctx, req.principal, req.params.external_id));

  r.patch("/shops/:external_id", {
    schema: {
      operationId: "updateShop", tags: ["Shops"], summary: "Update an active shop",
      params: shopParams, body: shopUpdateBody, response: { 200: shopSchema },
    },
    config: NOT_FOUND,
  }, (req) => updateShop(ctx, req.principal, req.params.external_id, req.body));

  r.delete("/shops/:external_id", {
    schema: {
      operationId: "archiveShop", tags: ["Shops"], summary: "Archive a shop",
      description: "Archives the shop and answers with the archived record. It then reads as 404 and stays listed under `status=archived` and `all`; its external id stays taken. Past calls stay readable.",
      params: shopParams, response: { 200: shopSchema },
    },
    config: NOT_FOUND,
  }, (req) => archiveShop(ctx, req.principal, req.params.external_id));
}
