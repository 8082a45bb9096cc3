// Pieces every resource's schemas share: timestamps, free text, external ids, lists and their pages.
// Schemas with a `.meta({ id })` become OpenAPI components in the order their modules are first evaluated.
import { stripUnpairedBidi } from "../domain/locale.ts";
import { z } from "zod";
import { EXTERNAL_ID_MAX, EXTERNAL_ID_PATTERN, STATUS_FILTERS } from "../domain/catalogue.ts";

export const timestamp = z.string().describe("RFC 3339 UTC timestamp.");

/** The largest value of a PostgreSQL `integer` column: every integer input stored in one is bounded by it. */
export const INT32_MAX = 2_147_483_647;

/** An integer input stored in a PostgreSQL `integer` column: at most 2^31-1 (larger values are 422, not a 500). */
export function int32Schema() {
  return z.int().max(INT32_MAX);
}

/**
 * Every string input: text PostgreSQL can store and every reader decodes the same way. JSON can carry a lone
 * UTF-16 surrogate ("\ud800"), which is not Unicode: PostgreSQL refuses it in jsonb and text would read back
 * differently, so it is refused here (`string_unicode`, as Pydantic names it), as is NUL, which text cannot hold.
 */
export function safeString() {
  return (
    z
      .string()
      .refine((s) => s.isWellFormed(), {
        message:
          "String should be valid Unicode: it contains a lone UTF-16 surrogate (\\ud800-\\udfff without its pair)",
        params: { type: "string_unicode" },
        abort: true,
      })
      .regex(/^[^\u0000]*$/, "String should not contain NUL (\\u0000) characters")
      // Issue 31.8: an unpaired bidirectional control would reorder what follows it wherever the text is shown.
      .overwrite(stripUnpairedBidi)
  );
}

/** A reseller-chosen identifier: 1 to 100 characters, no control characters. Percent-encode it in paths. */
export const externalIdSchema = safeString()
  .min(1)
  .max(EXTERNAL_ID_MAX)
  .regex(EXTERNAL_ID_PATTERN, "String should not contain control characters");

/** Free text stored as given; PostgreSQL cannot store a NUL character. */
export function textSchema(max: number) {
  return safeString().min(1).max(max);
}

/** The `status` filter of shop and product lists; checked by the service so a bad value is 400, not 422. */
export const statusFilterQuery = z
  .string()
  .meta({ enum: [...STATUS_FILTERS], default: "active" })
  .optional()
  .describe("`active` (default), `archived` or `all`. Any other value is 400 `invalid_status_filter`.");

/** `limit` and `cursor` of every list (CONTRACT §3). */
export const pageQuery = {
  limit: z.coerce.number().int().min(1).max(100).default(20).describe("Page size, 1 to 100 (default 20)."),
  cursor: z
    .string()
    .min(1)
    .optional()
    .describe(
      "`next_cursor` of the previous page, passed back unchanged with the same filters. Opaque; valid 24 hours.",
    ),
};

/** The response body schema of a list of `item`. */
export function pageSchema<T extends z.ZodType>(item: T) {
  return z.object({
    data: z.array(item),
    has_more: z.boolean(),
    next_cursor: z.string().nullable().describe("Pass as `cursor` to read the next page; null on the last page."),
  });
}
