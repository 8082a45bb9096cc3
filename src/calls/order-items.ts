// Resolves a call's item lines against its shop's catalogue (spec 2.2; CONTRACT §4).
import { normalizeDecimal } from "../domain/money.ts";
import { ApiError } from "../errors.ts";
import type { CallItem, OrderItemInput } from "../schemas/calls.ts";

/** One active variant of an active product of the shop, as the catalogue query returns it. */
export interface CatalogueVariant {
  product: string;
  product_name: string;
  variant: string;
  variant_name: string | null;
  /** numeric::text: keeps the scale the price was given with. */
  price: string;
}

/**
 * The SQL (a scalar subquery) that loads the active variants of the named active products of one shop as a
 * JSON array of CatalogueVariant, in variant order. `$shop` and `$ids` are placeholders for a shop id
 * expression and a text[] parameter. Retired variants and archived products do not resolve.
 */
export function catalogueSubquery(shop: string, ids: string): string {
  return `(SELECT coalesce(json_agg(json_build_object(
      'product', p.external_id, 'product_name', p.name, 'variant', v.variant_external_id,
      'variant_name', v.name, 'price', v.price::text) ORDER BY p.external_id, v.position, v.variant_external_id), '[]'::json)
    FROM products p JOIN product_variants v ON v.product_id = p.id AND v.status = 'active'
    WHERE p.shop_id = ${shop} AND p.status = 'active' AND p.external_id = ANY(${ids}::text[]))`;
}

/** The distinct product ids the lines name, for the catalogue query. */
export function productIds(lines: OrderItemInput[]): string[] {
  return [...new Set(lines.flatMap((l) => (l.product_external_id === undefined ? [] : [l.product_external_id])))];
}

function describeVariant(v: CatalogueVariant): string {
  return `${v.variant} (${v.variant_name ? `${v.variant_name}, ` : ""}${v.price})`;
}

/**
 * Turns each line into a CallItem: catalogue lines take the product's name and the variant's price unless
 * the line gives its own; ad-hoc lines (name + unit_price) are always valid. The first bad line decides.
 */
export function resolveItems(
  lines: OrderItemInput[],
  catalogue: CatalogueVariant[],
  shopExternalId: string,
): CallItem[] {
  const byProduct = new Map<string, CatalogueVariant[]>();
  for (const v of catalogue) byProduct.set(v.product, [...(byProduct.get(v.product) ?? []), v]);

  return lines.map((line, index) => {
    const where = `order.items[${index}]`;
    if (line.product_external_id === undefined) {
      // The schema guarantees name and unit_price on ad-hoc lines.
      return {
        product_external_id: null,
        variant_external_id: null,
        name: line.name ?? "",
        variant_name: null,
        unit_price: normalizeDecimal(line.unit_price ?? "0"),
        quantity: line.quantity,
      };
    }
    const variants = byProduct.get(line.product_external_id);
    if (!variants) {
      throw new ApiError(
        "order_item_unknown_product",
        `${where}: shop "${shopExternalId}" has no active product "${line.product_external_id}". No call was created.`,
      );
    }
    let chosen: CatalogueVariant | undefined;
    if (line.variant_external_id !== undefined) {
      chosen = variants.find((v) => v.variant === line.variant_external_id);
      if (!chosen) {
        throw new ApiError(
          "order_item_unknown_product",
          `${where}: product "${line.product_external_id}" has no active variant "${line.variant_external_id}"; its variants are ${variants.map(describeVariant).join(", ")}. No call was created.`,
        );
      }
    } else if (variants.length === 1) {
      chosen = variants[0];
    } else {
      throw new ApiError(
        "order_item_variant_required",
        `${where}: product "${line.product_external_id}" has ${variants.length} variants; name one in variant_external_id: ${variants.map(describeVariant).join(", ")}.`,
      );
    }
    const variant = chosen!;
    return {
      product_external_id: variant.product,
      variant_external_id: variant.variant,
      name: line.name ?? variant.product_name,
      variant_name: variant.variant_name,
      unit_price: line.unit_price === undefined ? variant.price : normalizeDecimal(line.unit_price),
      quantity: line.quantity,
    };
  });
}
