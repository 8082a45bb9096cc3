// Rehearsals (issue 37.3): POST /v1/simulations runs the dialogue a call would run (engine/rehearsal.ts: the same
// createDialogue, the configured classifier, the shop's knowledge and the call's profile) against typed lines or a
// simulator persona. No call row, no phone, no billing. An Idempotency-Key replays the first answer for 24 hours, as
// on POST /v1/calls (db/idempotency.ts), from its own table.
import type { AppContext, Principal } from "../context.ts";
import {
  COUNTRY_CURRENCY,
  COUNTRY_DIALECT,
  DEFAULT_LANGUAGE,
  type Language,
  SERVED_LANGUAGES,
} from "../domain/locale.ts";
import { playRehearsal, type RehearsalOrder } from "../calls/rehearsal.ts";
import { ApiError } from "../errors.ts";
import type { ShopKnowledge } from "../schemas/knowledge.ts";
import type { SimulationCreate, SimulationOut } from "../schemas/simulations.ts";
import { checkIdempotencyKey, IDEMPOTENCY_WINDOW_HOURS, replayOrConflict, requestHash } from "../db/idempotency.ts";
import { type CatalogueVariant, catalogueSubquery, productIds, resolveItems } from "../calls/order-items.ts";
import { shopNotFound } from "./shops.ts";
import { isExternalId } from "../domain/catalogue.ts";

function chooseLanguage(input: SimulationCreate): Language {
  const language = input.language ?? DEFAULT_LANGUAGE[input.country];
  if (!SERVED_LANGUAGES[input.country].includes(language)) {
    throw new ApiError(
      "language_not_supported_for_country",
      `Language "${language}" is not served for country ${input.country}: ${input.country} calls are in ${SERVED_LANGUAGES[input.country].join(" or ")}.`,
    );
  }
  return language;
}

/** The seed of a rehearsal's choices: its request, so the same request says the same words. */
function seedOf(hash: Buffer): number {
  return hash.readUInt32LE(0);
}

/** Runs the rehearsal and shapes its answer. */
async function run(ctx: AppContext, who: Principal, input: SimulationCreate, hash: Buffer): Promise<SimulationOut> {
  const language = chooseLanguage(input);
  // The shop, its knowledge and the catalogue lines the order names, in one round trip.
  if (!isExternalId(input.shop_external_id)) throw shopNotFound(input.shop_external_id);
  const { rows } = await ctx.db.query<{ name: string; knowledge: ShopKnowledge | null; catalogue: CatalogueVariant[] }>(
    `SELECT s.name, s.knowledge, ${catalogueSubquery("s.id", "$3")} AS catalogue FROM shops s
     WHERE s.account_id = $1 AND s.external_id = $2 AND s.status = 'active'`,
    [who.accountId, input.shop_external_id, productIds(input.order.items)],
  );
  const shop = rows[0];
  if (!shop) throw shopNotFound(input.shop_external_id);
  const items = resolveItems(input.order.items, shop.catalogue, input.shop_external_id);
  const dialect = COUNTRY_DIALECT[input.country];
  const order: RehearsalOrder = {
    shopName: shop.name,
    customerName: input.customer.name,
    country: input.country,
    language,
    dialect,
    amount: input.amount,
    currency: COUNTRY_CURRENCY[input.country],
    items: items.map((i) => ({
      name: i.name,
      variant: i.variant_name,
      quantity: i.quantity,
      unit_price: i.unit_price,
    })),
    address: input.customer.address ? { city: input.customer.address.city, line1: input.customer.address.line1 } : null,
    knowledge: shop.knowledge,
  };
  const now = new Date(ctx.now());
  const played = await playRehearsal(ctx, {
    order,
    dialect,
    seed: seedOf(hash),
    now,
    customer: input.customer_turns
      ? { lines: input.customer_turns }
      : { phoneNumber: input.customer.phone_number, persona: input.persona },
  });
  return {
    shop_external_id: input.shop_external_id,
    country: input.country,
    language,
    dialect,
    outcome: played.result.outcome,
    end_reason: played.result.end_reason,
    outcome_details: played.result.outcome_details,
    turns: played.turns,
    transcript: played.transcript.map((e) => ({
      speaker: e.speaker,
      text: e.text,
      at_seconds: Math.round(e.at * 10) / 10,
      intent: e.intent ?? null,
      confidence: e.confidence ?? null,
      decision: e.decision ?? null,
      answered_from: e.answered_from ?? null,
    })),
    billed_seconds: 0,
    created_at: now.toISOString(),
  };
}

/** What POST /v1/simulations answers: the JSON to send as it is, and whether it is a replay. */
export interface SimulationAnswer {
  body: string;
  replayed: boolean;
}

async function stored(
  ctx: AppContext,
  who: Principal,
  key: string,
): Promise<{ request_hash: string; response_body: string } | null> {
  const { rows } = await ctx.db.query<{ request_hash: string; response_body: string }>(
    `SELECT encode(request_hash, 'hex') AS request_hash, response_body FROM simulation_replays
     WHERE account_id = $1 AND key = $2 AND created_at > now() - interval '${IDEMPOTENCY_WINDOW_HOURS} hours'`,
    [who.accountId, key],
  );
  return rows[0] ?? null;
}

/**
 * Runs a rehearsal (no phone, no billing); with an idempotency key, the first answer is kept 24 hours and replayed
 * byte for byte for the same request, and a different request under the key is idempotency_key_conflict.
 */
export async function simulateCall(
  ctx: AppContext,
  who: Principal,
  input: SimulationCreate,
  key?: string,
): Promise<SimulationAnswer> {
  const hash = requestHash("simulation", input);
  if (key === undefined) return { body: JSON.stringify(await run(ctx, who, input, hash)), replayed: false };
  checkIdempotencyKey(key);
  const before = await stored(ctx, who, key);
  if (before) return { body: replayOrConflict({ ...before, call_id: "" }, hash), replayed: true };
  const body = JSON.stringify(await run(ctx, who, input, hash));
  await ctx.db.query(
    `DELETE FROM simulation_replays WHERE account_id = $1 AND key = $2 AND created_at <= now() - interval '${IDEMPOTENCY_WINDOW_HOURS} hours'`,
    [who.accountId, key],
  );
  const { rowCount } = await ctx.db.query(
    `INSERT INTO simulation_replays (account_id, key, request_hash, response_body) VALUES ($1, $2, $3, $4) ON CONFLICT (account_id, key) DO NOTHING`,
    [who.accountId, key, hash, body],
  );
  if (rowCount) return { body, replayed: false };
  // A concurrent request with the key stored first: its answer is the one.
  const first = await stored(ctx, who, key);
  return first
    ? { body: replayOrConflict({ ...first, call_id: "" }, hash), replayed: true }
    : { body, replayed: false };
}
