// Orders (issue 16): one order, and the account's orders filtered and paginated as calls are. The Order and its
// query are the read model's (calls/orders/read-model.ts), shared with the order.resolved event.
import type { AppContext, Principal } from "../context.ts";
import { ORDER_STATUSES, type OrderResolution, type OrderStatus, resolutionsOfStatus } from "../domain/orders.ts";
import { isExternalId } from "../domain/catalogue.ts";
import { ApiError } from "../errors.ts";
import type { Page, PageInput } from "../pagination.ts";
import { ORDER_SELECT, type OrderRow, readOrder, toOrderOut } from "../calls/orders/read-model.ts";
import type { AgentResolutionInput, AgentResolutionResult, OrderOut } from "../schemas/orders.ts";
import { settleOrder } from "../calls/orders/settle.ts";

/** The same 404 for a missing shop, a missing order and another account's: the body names only what was asked. */
export function orderNotFound(shopExternalId: string, orderExternalId: string): ApiError {
  return new ApiError(
    "not_found",
    `No order ${orderExternalId.slice(0, 64)} in shop ${shopExternalId.slice(0, 64)} on this account.`,
  );
}

/** What CallCreate accepts as `order.external_id`: 1 to 255 characters of valid Unicode, no NUL. */
export function isOrderExternalId(value: string): boolean {
  return value.length >= 1 && value.length <= 255 && value.isWellFormed() && !value.includes("\u0000");
}

/** One of the account's orders by its shop's and its own external id (an archived shop's orders included). */
export async function getOrder(
  ctx: AppContext,
  who: Principal,
  shopExternalId: string,
  orderExternalId: string,
): Promise<OrderOut> {
  // Ids no shop or order can have (a NUL byte would even make PostgreSQL fail) are simply not found.
  if (!isExternalId(shopExternalId) || !isOrderExternalId(orderExternalId))
    throw orderNotFound(shopExternalId, orderExternalId);
  const order = await readOrder(ctx.db, who.accountId, shopExternalId, orderExternalId);
  if (!order) throw orderNotFound(shopExternalId, orderExternalId);
  return order;
}

export interface OrderFilters {
  /** `open` or `resolved` (domain/orders.ts); checked here so another value is 400 invalid_status_filter. */
  status?: string | undefined;
  resolution?: OrderResolution | undefined;
  shop_external_id?: string | undefined;
  /** The shop's merchant_external_id. */
  merchant_id?: string | undefined;
  /** Inclusive lower bound on created_at (RFC 3339 or YYYY-MM-DD, UTC). */
  created_after?: string | undefined;
  /** Exclusive upper bound on created_at. */
  created_before?: string | undefined;
}

/** The account's orders, newest first; the filters are part of the cursor's scope. */
export async function listOrders(
  ctx: AppContext,
  who: Principal,
  filters: OrderFilters,
  page: PageInput,
): Promise<Page<OrderOut>> {
  if (filters.status !== undefined && !(ORDER_STATUSES as readonly string[]).includes(filters.status)) {
    throw new ApiError(
      "invalid_status_filter",
      `status "${filters.status.slice(0, 32)}" is not accepted; use one of ${ORDER_STATUSES.join(", ")}.`,
    );
  }
  const f = [
    filters.status,
    filters.resolution,
    filters.shop_external_id,
    filters.merchant_id,
    filters.created_after,
    filters.created_before,
  ].map((v) => v ?? null);
  const scope = `orders|${who.accountId}|${JSON.stringify(f)}`;
  const after = ctx.paginator.start(scope, page.cursor);
  const statusResolutions = filters.status === undefined ? null : resolutionsOfStatus(filters.status as OrderStatus);
  const { rows } = await ctx.db.query<OrderRow>(
    `${ORDER_SELECT}
     WHERE o.account_id = $1 AND ($2::bigint IS NULL OR o.seq < $2)
       AND ($3::text[] IS NULL OR o.resolution = ANY($3)) AND ($4::text IS NULL OR o.resolution = $4)
       AND ($5::text IS NULL OR s.external_id = $5) AND ($6::text IS NULL OR s.merchant_external_id = $6)
       AND ($7::timestamptz IS NULL OR o.created_at >= $7) AND ($8::timestamptz IS NULL OR o.created_at < $8)
     ORDER BY o.seq DESC LIMIT $9`,
    [who.accountId, after, statusResolutions, ...f.slice(1), page.limit + 1],
  );
  return ctx.paginator.page(scope, rows, page.limit, toOrderOut);
}

/**
 * A person of the shop settles the order (issue 34, after a transfer for example): its resolution through channel
 * `agent`, now, by the same supersede rule as voice and WhatsApp answers (`order.resolved` once, when it changes).
 */
export async function resolveOrderByAgent(
  ctx: AppContext,
  who: Principal,
  shopExternalId: string,
  orderExternalId: string,
  input: AgentResolutionInput,
): Promise<AgentResolutionResult> {
  if (!isExternalId(shopExternalId) || !isOrderExternalId(orderExternalId))
    throw orderNotFound(shopExternalId, orderExternalId);
  const { rows } = await ctx.db.query<{ id: string }>(
    `SELECT o.id FROM orders o JOIN shops s ON s.id = o.shop_id WHERE s.account_id = $1 AND s.external_id = $2 AND o.external_id = $3`,
    [who.accountId, shopExternalId, orderExternalId],
  );
  const orderId = rows[0]?.id;
  if (!orderId) throw orderNotFound(shopExternalId, orderExternalId);
  const details: Record<string, unknown> = {};
  if (input.note !== undefined) details["note"] = input.note;
  if (input.preferred_date !== undefined) details["preferred_date"] = input.preferred_date;
  const { changed } = await settleOrder(ctx, ctx.db, {
    accountId: who.accountId,
    orderId,
    resolution: input.value,
    channel: "agent",
    at: new Date(ctx.now()),
    details: Object.keys(details).length ? details : null,
  });
  const order = await readOrder(ctx.db, who.accountId, shopExternalId, orderExternalId);
  if (!order) throw orderNotFound(shopExternalId, orderExternalId);
  return { changed, order };
}
