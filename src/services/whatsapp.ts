// The account's WhatsApp fallback settings (issue 16): PUT replaces them (the access token sealed like webhook
// secrets, never shown again), GET shows them without the token, DELETE turns the fallback off.
import type { AppContext, Principal } from "../context.ts";
import type { SecretBox } from "../crypto/secret-box.ts";
import { ApiError } from "../errors.ts";
import type { WhatsAppSettings, WhatsAppSettingsInput } from "../schemas/whatsapp.ts";

interface SettingsRow {
  phone_number_id: string;
  token_last4: string;
  templates: { ar?: { name: string; language: string } | null; fr?: { name: string; language: string } | null };
  fallback: WhatsAppSettings["fallback"];
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = "phone_number_id, token_last4, templates, fallback, created_at, updated_at";

function shape(row: SettingsRow): WhatsAppSettings {
  return {
    phone_number_id: row.phone_number_id,
    access_token_last4: row.token_last4,
    templates: { ar: row.templates.ar ?? null, fr: row.templates.fr ?? null },
    fallback: row.fallback,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

export function whatsappNotConfigured(): ApiError {
  return new ApiError(
    "whatsapp_not_configured",
    "This account has no WhatsApp settings. Set them with PUT /v1/me/whatsapp.",
  );
}

function requireSecretBox(ctx: AppContext): SecretBox {
  if (!ctx.secretBox) {
    throw new ApiError(
      "service_unavailable",
      "WhatsApp is unavailable: no encryption key for access tokens is configured (WAKHA_ENCRYPTION_KEY).",
    );
  }
  return ctx.secretBox;
}

export async function getWhatsAppSettings(ctx: AppContext, who: Principal): Promise<WhatsAppSettings> {
  const { rows } = await ctx.db.query<SettingsRow>(`SELECT ${COLUMNS} FROM whatsapp_settings WHERE account_id = $1`, [
    who.accountId,
  ]);
  if (!rows[0]) throw whatsappNotConfigured();
  return shape(rows[0]);
}

/** Creates or replaces the settings in one statement (two identical PUTs leave one row). */
export async function setWhatsAppSettings(
  ctx: AppContext,
  who: Principal,
  input: WhatsAppSettingsInput,
): Promise<WhatsAppSettings> {
  const sealed = requireSecretBox(ctx).seal(input.access_token);
  const templates = Object.fromEntries(
    Object.entries(input.templates)
      .filter(([, t]) => t)
      .map(([lang, t]) => [lang, { name: t!.name, language: t!.language ?? lang }]),
  );
  const now = new Date(ctx.now());
  const { rows } = await ctx.db.query<SettingsRow>(
    `INSERT INTO whatsapp_settings (account_id, phone_number_id, access_token_sealed, token_last4, templates, fallback, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $7)
     ON CONFLICT (account_id) DO UPDATE SET phone_number_id = EXCLUDED.phone_number_id, access_token_sealed = EXCLUDED.access_token_sealed,
       token_last4 = EXCLUDED.token_last4, templates = EXCLUDED.templates, fallback = EXCLUDED.fallback, updated_at = EXCLUDED.updated_at
     RETURNING ${COLUMNS}`,
    [
      who.accountId,
      input.phone_number_id,
      sealed,
      input.access_token.slice(-4),
      JSON.stringify(templates),
      input.fallback ?? "after_last_attempt",
      now,
    ],
  );
  return shape(rows[0]!);
}

/** Removes the settings: no template is sent after that (messages already sent keep their statuses). */
export async function deleteWhatsAppSettings(ctx: AppContext, who: Principal): Promise<void> {
  const { rowCount } = await ctx.db.query("DELETE FROM whatsapp_settings WHERE account_id = $1", [who.accountId]);
  if (!rowCount) throw whatsappNotConfigured();
}

/** One WhatsApp message the account sent, as the console lists it (issue 38.3). */
export interface WhatsAppMessageSummary {
  id: string;
  kind: string;
  status: string;
  toPhone: string;
  language: string;
  shopExternalId: string;
  orderExternalId: string;
  callId: string | null;
  /** The Cloud API's error title or the reason it was skipped; null when none. */
  problem: string | null;
  createdAt: string;
}

/** The account's latest WhatsApp messages, newest first (at most `limit`, 1 to 100). */
export async function listRecentWhatsAppMessages(
  ctx: AppContext,
  who: Principal,
  limit = 20,
): Promise<WhatsAppMessageSummary[]> {
  const { rows } = await ctx.db.query<{
    id: string;
    kind: string;
    status: string;
    to_phone: string;
    language: string;
    shop: string;
    order_external_id: string;
    call_id: string | null;
    problem: string | null;
    created_at: Date;
  }>(
    `SELECT m.id, m.kind, m.status, m.to_phone, m.language, s.external_id AS shop, o.external_id AS order_external_id, m.call_id,
            COALESCE(m.error->>'reason', m.error->>'title', m.error->>'message') AS problem, m.created_at
     FROM whatsapp_messages m JOIN orders o ON o.id = m.order_id JOIN shops s ON s.id = o.shop_id
     WHERE m.account_id = $1 ORDER BY m.created_at DESC, m.id LIMIT $2`,
    [who.accountId, Math.min(100, Math.max(1, limit))],
  );
  return rows.map((r) => ({
    id: r.id,
    kind: r.kind,
    status: r.status,
    toPhone: r.to_phone,
    language: r.language,
    shopExternalId: r.shop,
    orderExternalId: r.order_external_id,
    callId: r.call_id,
    problem: r.problem,
    createdAt: r.created_at.toISOString(),
  }));
}
