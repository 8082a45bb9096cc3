// The schemas of /v1/shops/{shop_external_id}/products and the product tools: the product with its variants,
// its creation and its update (an upsert of variants by id, then retirements).
import { z } from "zod";
import { RECORD_STATUSES } from "../domain/catalogue.ts";
import { externalIdSchema, pageQuery, statusFilterQuery, textSchema, timestamp } from "./common.ts";
import { shopParams } from "./shops.ts";

/** A decimal string with up to 12 integer digits and 3 decimals; never a JSON number. */
export const priceSchema = z
  .string()
  .regex(
    /^\d{1,12}(\.\d{1,3})?$/,
    'String should be a decimal amount of 0 or more, like "149.90" (up to 12 digits and 3 decimals)',
  )
  .describe(
    'Decimal string, 0 or more, up to 3 decimals, in the currency of the call\'s country; kept at the scale given ("149.90" reads back as "149.90").',
  );

const variantIdSchema = externalIdSchema.describe("Your identifier for the variant, unique within the product.");
const variantNameSchema = textSchema(200)
  .nullable()
  .optional()
  .describe('The variant\'s name as the agent may say it, for example "Red, size M".');

/** Flags each repeated id at its own position, so `loc` points at the duplicate. */
function flagDuplicates(
  ids: string[],
  at: (i: number) => (string | number)[],
  ctx: z.RefinementCtx,
  what: string,
): void {
  const seen = new Set<string>();
  ids.forEach((id, i) => {
    if (seen.has(id))
      ctx.addIssue({
        code: "custom",
        path: at(i),
        message: `Value error, ${what} ${JSON.stringify(id)} appears more than once`,
        params: { type: "value_error" },
      });
    seen.add(id);
  });
}

export const variantSchema = z
  .object({
    variant_external_id: z.string(),
    name: z.string().nullable(),
    price: z.string().describe("Decimal string, at the scale it was given."),
  })
  .meta({ id: "Variant" });

export const productSchema = z
  .object({
    external_id: z
      .string()
      .describe("Your identifier for the product, unique within its shop (archived products included)."),
    shop_external_id: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    status: z.enum(RECORD_STATUSES),
    variants: z
      .array(variantSchema)
      .describe("The active variants with their prices, in the order they were added; retired variants are not shown."),
    created_at: timestamp,
    updated_at: timestamp,
    archived_at: timestamp.nullable().describe("When the product was archived; null while active."),
  })
  .meta({ id: "Product", description: "A product of a shop, with its variants." });

export const variantCreateSchema = z
  .strictObject({
    variant_external_id: variantIdSchema,
    price: priceSchema,
    name: variantNameSchema,
  })
  .meta({ id: "VariantCreate" });

export const productCreateBody = z
  .strictObject({
    external_id: externalIdSchema.describe(
      "Your identifier for the product, unique within the shop. It cannot be reused, even after archiving.",
    ),
    name: textSchema(200).describe("The product's name as the agent may say it to customers."),
    description: textSchema(2000).nullable().optional(),
    variants: z
      .array(variantCreateSchema)
      .min(1)
      .max(100)
      .superRefine((vs, ctx) =>
        flagDuplicates(
          vs.map((v) => v.variant_external_id),
          (i) => [i, "variant_external_id"],
          ctx,
          "variant_external_id",
        ),
      )
      .describe("One or more variants (a product sold in one form has one variant); ids must be distinct."),
  })
  .meta({
    id: "ProductCreate",
    description: "A new product. Creation never updates: an existing external id in the shop is 409.",
  });

export const variantUpsertSchema = z
  .strictObject({
    variant_external_id: variantIdSchema,
    price: priceSchema
      .optional()
      .describe("Required to add a variant or to bring back a retired one; omit it to keep the current price."),
    name: variantNameSchema.describe("Omit to keep the current name; `null` clears it."),
  })
  .meta({
    id: "VariantUpsert",
    description:
      "Sets a variant by id: an active variant gets the fields given; an unknown id is added; a retired id is made active again.",
  });

export const productUpdateBody = z
  .strictObject({
    name: textSchema(200).optional(),
    description: textSchema(2000).nullable().optional().describe("`null` clears it."),
    variants: z
      .array(variantUpsertSchema)
      .max(100)
      .optional()
      .describe(
        "Variants to reprice, rename, add or bring back, by `variant_external_id`. Variants not listed are left as they are.",
      ),
    retire_variants: z
      .array(variantIdSchema)
      .max(100)
      .optional()
      .describe(
        "Ids of variants to retire: they stop being offered or resolvable in calls. An already retired id is ignored; an unknown id is 422. The product must keep at least one active variant, else 422.",
      ),
  })
  .superRefine((body, ctx) => {
    flagDuplicates(
      (body.variants ?? []).map((v) => v.variant_external_id),
      (i) => ["variants", i, "variant_external_id"],
      ctx,
      "variant_external_id",
    );
    const retire = body.retire_variants ?? [];
    flagDuplicates(retire, (i) => ["retire_variants", i], ctx, "variant id");
    const upserted = new Set((body.variants ?? []).map((v) => v.variant_external_id));
    retire.forEach((id, i) => {
      if (upserted.has(id))
        ctx.addIssue({
          code: "custom",
          path: ["retire_variants", i],
          message: `Value error, variant ${JSON.stringify(id)} is both set in \`variants\` and retired`,
          params: { type: "value_error" },
        });
    });
  })
  .meta({
    id: "ProductUpdate",
    description:
      "Fields to change; an absent field is kept. `variants` upserts by id, then `retire_variants` retires. All of it applies in one transaction, or nothing does.",
  });

export const productListQuery = z.object({ ...pageQuery, status: statusFilterQuery });

// The shop's path parameter is the one /v1/shops/{external_id} takes.
const shopParam = { shop_external_id: shopParams.shape.external_id };
export const productListParams = z.object(shopParam);
export const productParams = z.object({
  ...shopParam,
  product_external_id: z.string().describe("The product's external id (percent-encoded)."),
});

export type VariantOut = z.output<typeof variantSchema>;
export type ProductOut = z.output<typeof productSchema>;
export type ProductCreateInput = z.output<typeof productCreateBody>;
/** A PATCH: absent fields are kept, `null` clears; `variants` upserts by id, `retire_variants` retires. */
export type ProductUpdateInput = z.output<typeof productUpdateBody>;
