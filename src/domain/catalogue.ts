// The reseller's own records (shops, products, variants): how they are named and whether they are live.

/**
 * What an external id (shop, merchant, product, variant) may be: 1 to 100 characters, none a control character.
 * 100 is Fastify's default maxParamLength: a longer id could be created but never addressed in a path.
 */
export const EXTERNAL_ID_PATTERN = /^[^\u0000-\u001f\u007f]*$/;
export const EXTERNAL_ID_MAX = 100;

/** True when a shop, product or variant could have this external id; anything else cannot exist. */
export function isExternalId(value: string): boolean {
  return value.length >= 1 && value.length <= EXTERNAL_ID_MAX && EXTERNAL_ID_PATTERN.test(value);
}

/** A shop's or product's state: archiving is one-way. */
export const RECORD_STATUSES = ["active", "archived"] as const;
export type RecordStatus = (typeof RECORD_STATUSES)[number];

/** The values of the `status` filter of shop and product lists (CONTRACT §3). */
export const STATUS_FILTERS = ["active", "archived", "all"] as const;
export type StatusFilter = (typeof STATUS_FILTERS)[number];
