// The schemas of /v1/shops and the shop tools: the shop as read, its creation and its update.
import { z } from "zod";
import { RECORD_STATUSES } from "../domain/catalogue.ts";
import { COUNTRIES } from "../domain/locale.ts";
import { E164 } from "../domain/phone.ts";
import { externalIdSchema, pageQuery, statusFilterQuery, textSchema, timestamp } from "./common.ts";

const phoneSchema = z.string().regex(E164, "String should be an E.164 phone number, like +212612345678");
const countrySchema = z.enum(COUNTRIES);

export const shopSchema = z
  .object({
    external_id: z
      .string()
      .describe("Your identifier for the shop, unique within the account (archived shops included)."),
    merchant_external_id: z
      .string()
      .describe("Your identifier for the shop's owner (the merchant); several shops may share it."),
    name: z.string(),
    contact_phone: z.string().nullable().describe("The shop's phone number, E.164."),
    default_country: countrySchema.nullable().describe("The country the shop mostly sells to."),
    status: z.enum(RECORD_STATUSES),
    created_at: timestamp,
    updated_at: timestamp,
    archived_at: timestamp.nullable().describe("When the shop was archived; null while active."),
  })
  .meta({ id: "Shop", description: "A shop (boutique) of the reseller." });

export const shopCreateBody = z
  .strictObject({
    external_id: externalIdSchema.describe(
      "Your identifier for the shop, unique within the account. It cannot be reused, even after archiving.",
    ),
    merchant_external_id: externalIdSchema.describe(
      "Your identifier for the shop's owner; calls can be filtered by it (`merchant_id`).",
    ),
    name: textSchema(200).describe("The shop's name, as the agent may say it to customers."),
    contact_phone: phoneSchema
      .nullable()
      .optional()
      .describe("The shop's phone number, E.164 (for example +212612345678)."),
    default_country: countrySchema
      .nullable()
      .optional()
      .describe("The country the shop mostly sells to: MA, DZ, TN or FR."),
  })
  .meta({ id: "ShopCreate", description: "A new shop. Creation never updates: an existing external id is 409." });

export const shopUpdateBody = z
  .strictObject({
    merchant_external_id: shopCreateBody.shape.merchant_external_id.optional(),
    name: shopCreateBody.shape.name.optional(),
    contact_phone: shopCreateBody.shape.contact_phone.describe("E.164; `null` clears it."),
    default_country: shopCreateBody.shape.default_country.describe("MA, DZ, TN or FR; `null` clears it."),
  })
  .meta({
    id: "ShopUpdate",
    description:
      "Fields to change: an absent field is kept, `null` clears an optional one. The external id cannot change.",
  });

export const shopListQuery = z.object({ ...pageQuery, status: statusFilterQuery });

export const shopParams = z.object({ external_id: z.string().describe("The shop's external id (percent-encoded).") });

export type ShopOut = z.output<typeof shopSchema>;
export type ShopCreateInput = z.output<typeof shopCreateBody>;
/** A PATCH: absent fields are kept, `null` clears an optional field. */
export type ShopUpdateInput = z.output<typeof shopUpdateBody>;
