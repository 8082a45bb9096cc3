// A shop's handoff (issue 34): the person calls are transferred to, set, read and removed per shop; and the engine's
// read of it at a trigger (engine/transfer.ts loadHandoff).
import type { AppContext, Principal } from "../context.ts";
import type { HandoffHours, HandoffTrigger } from "../domain/handoff.ts";
import { COUNTRIES, type Country } from "../domain/locale.ts";
import { numberRefusal } from "../domain/phone.ts";
import { TIME_ZONES } from "../domain/local-time.ts";
import { ApiError } from "../errors.ts";
import type { Handoff, HandoffInput } from "../schemas/handoff.ts";
import { findActiveShop } from "./shops.ts";

interface HandoffRow {
  phone_number: string;
  triggers: HandoffTrigger[];
  ring_timeout_seconds: number;
  hours: HandoffHours | null;
  created_at: Date;
  updated_at: Date;
}
const COLUMNS = "phone_number, triggers, ring_timeout_seconds, hours, created_at, updated_at";

function shape(shopExternalId: string, r: HandoffRow): Handoff {
  return {
    shop_external_id: shopExternalId,
    phone_number: r.phone_number,
    triggers: r.triggers,
    ring_timeout_seconds: r.ring_timeout_seconds,
    hours: r.hours,
    created_at: r.created_at.toISOString(),
    updated_at: r.updated_at.toISOString(),
  };
}

const notConfigured = (shop: string) =>
  new ApiError(
    "handoff_not_configured",
    `Shop ${JSON.stringify(shop.slice(0, 64))} has no handoff: its calls are never transferred to a person.`,
  );

/**
 * Why the handoff may not dial `phone` (the rules of a call's number, issue 31.5), or null: a mobile or fixed-line
 * number of the shop's default_country, or of a served country when the shop has none; any valid number for an
 * account allowed to dial any.
 */
function handoffNumberRefusal(phone: string, shopCountry: Country | null, allowAny: boolean): string | null {
  if (allowAny) return numberRefusal(phone, "") === "it is not a valid number" ? "it is not a valid number" : null;
  if (shopCountry) return numberRefusal(phone, shopCountry);
  const refusals = COUNTRIES.map((c) => numberRefusal(phone, c));
  if (refusals.some((r) => r === null)) return null;
  return (
    refusals.find((r) => !r!.startsWith("it is a number of")) ??
    `its country is not one calls are made in (${COUNTRIES.join(", ")})`
  );
}

/** Sets (or replaces) the shop's handoff. */
export async function setHandoff(
  ctx: AppContext,
  who: Principal,
  shopExternalId: string,
  input: HandoffInput,
): Promise<Handoff> {
  const shop = await findActiveShop(ctx.db, who.accountId, shopExternalId);
  const { rows: acct } = await ctx.db.query<{ allow_any_number: boolean | null }>(
    "SELECT allow_any_number FROM accounts WHERE id = $1",
    [who.accountId],
  );
  const refusal = handoffNumberRefusal(input.phone_number, shop.default_country, acct[0]?.allow_any_number === true);
  if (refusal)
    throw new ApiError(
      "phone_number_not_allowed",
      `${input.phone_number} is not dialled for a handoff: ${refusal}. The handoff was not changed.`,
    );
  let hours: HandoffHours | null = null;
  if (input.hours) {
    const zone = input.hours.time_zone ?? (shop.default_country ? TIME_ZONES[shop.default_country] : null);
    if (!zone) {
      throw new ApiError(
        "validation_error",
        "hours.time_zone is required: the shop has no default_country to take its time zone from.",
        {
          extensions: { errors: [{ loc: ["body", "hours", "time_zone"], msg: "Field required", type: "missing" }] },
        },
      );
    }
    hours = { time_zone: zone, days: input.hours.days };
  }
  const now = new Date(ctx.now());
  const { rows } = await ctx.db.query<HandoffRow>(
    `INSERT INTO shop_handoffs (shop_id, account_id, phone_number, triggers, ring_timeout_seconds, hours, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $7)
     ON CONFLICT (shop_id) DO UPDATE SET phone_number = EXCLUDED.phone_number, triggers = EXCLUDED.triggers,
       ring_timeout_seconds = EXCLUDED.ring_timeout_seconds, hours = EXCLUDED.hours, updated_at = EXCLUDED.updated_at
     RETURNING ${COLUMNS}`,
    [
      shop.id,
      who.accountId,
      input.phone_number,
      input.triggers,
      input.ring_timeout_seconds,
      hours === null ? null : JSON.stringify(hours),
      now,
    ],
  );
  return shape(shop.external_id, rows[0]!);
}

/** The shop's handoff, or 404 handoff_not_configured. */
export async function getHandoff(ctx: AppContext, who: Principal, shopExternalId: string): Promise<Handoff> {
  const shop = await findActiveShop(ctx.db, who.accountId, shopExternalId);
  const { rows } = await ctx.db.query<HandoffRow>(`SELECT ${COLUMNS} FROM shop_handoffs WHERE shop_id = $1`, [shop.id]);
  if (!rows[0]) throw notConfigured(shopExternalId);
  return shape(shop.external_id, rows[0]);
}

/** Removes the shop's handoff: its calls end as before (a callback) from then on. */
export async function deleteHandoff(ctx: AppContext, who: Principal, shopExternalId: string): Promise<void> {
  const shop = await findActiveShop(ctx.db, who.accountId, shopExternalId);
  const { rowCount } = await ctx.db.query("DELETE FROM shop_handoffs WHERE shop_id = $1", [shop.id]);
  if (!rowCount) throw notConfigured(shopExternalId);
}
