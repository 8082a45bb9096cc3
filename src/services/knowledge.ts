// The shop's knowledge (issue 37): PUT replaces it as a whole, GET shows it, DELETE removes it. The engine reads it
// with the shop when a call is placed (call-states.ts claimCalls) and a rehearsal when it runs (simulations.ts).
import type { AppContext, Principal } from "../context.ts";
import { ApiError } from "../errors.ts";
import type { KnowledgeOut, ShopKnowledge } from "../schemas/knowledge.ts";
import { findActiveShop } from "./shops.ts";

export function knowledgeNotConfigured(externalId: string): ApiError {
  return new ApiError(
    "knowledge_not_configured",
    `The shop ${JSON.stringify(externalId.slice(0, 100))} has no knowledge set. Set it with PUT /v1/shops/{shop_external_id}/knowledge.`,
  );
}

function shape(externalId: string, knowledge: ShopKnowledge, updatedAt: Date): KnowledgeOut {
  return { ...knowledge, shop_external_id: externalId, updated_at: updatedAt.toISOString() };
}

/** The shop's knowledge, or null when none is set; 404 shop_not_found for a missing, archived or foreign shop. */
export async function readShopKnowledge(
  ctx: AppContext,
  who: Principal,
  externalId: string,
): Promise<ShopKnowledge | null> {
  const shop = await findActiveShop(ctx.db, who.accountId, externalId);
  const { rows } = await ctx.db.query<{ knowledge: ShopKnowledge | null }>(
    "SELECT knowledge FROM shops WHERE id = $1",
    [shop.id],
  );
  return rows[0]?.knowledge ?? null;
}

/** Reads the shop's knowledge; 404 knowledge_not_configured when none is set. */
export async function getKnowledge(ctx: AppContext, who: Principal, externalId: string): Promise<KnowledgeOut> {
  const shop = await findActiveShop(ctx.db, who.accountId, externalId);
  const { rows } = await ctx.db.query<{ knowledge: ShopKnowledge | null; knowledge_updated_at: Date | null }>(
    "SELECT knowledge, knowledge_updated_at FROM shops WHERE id = $1",
    [shop.id],
  );
  const row = rows[0];
  if (!row?.knowledge || !row.knowledge_updated_at) throw knowledgeNotConfigured(externalId);
  return shape(externalId, row.knowledge, row.knowledge_updated_at);
}

/** Replaces the shop's knowledge as a whole; the calls placed from now on answer from it. */
export async function setKnowledge(
  ctx: AppContext,
  who: Principal,
  externalId: string,
  input: ShopKnowledge,
): Promise<KnowledgeOut> {
  const shop = await findActiveShop(ctx.db, who.accountId, externalId);
  const now = new Date(ctx.now());
  await ctx.db.query("UPDATE shops SET knowledge = $2, knowledge_updated_at = $3 WHERE id = $1", [
    shop.id,
    JSON.stringify(input),
    now,
  ]);
  return shape(externalId, input, now);
}

/** Removes the shop's knowledge; 404 knowledge_not_configured when none is set. */
export async function deleteKnowledge(ctx: AppContext, who: Principal, externalId: string): Promise<void> {
  const shop = await findActiveShop(ctx.db, who.accountId, externalId);
  const { rowCount } = await ctx.db.query(
    "UPDATE shops SET knowledge = NULL, knowledge_updated_at = NULL WHERE id = $1 AND knowledge IS NOT NULL",
    [shop.id],
  );
  if (!rowCount) throw knowledgeNotConfigured(externalId);
}
