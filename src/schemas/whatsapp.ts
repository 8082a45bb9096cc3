// The WhatsApp fallback's settings (issue 16): the account's Cloud API number, its sealed access token, the
// approved template per language, and when an unreached order gets it.
import { z } from "zod";
import { LANGUAGES } from "../domain/locale.ts";
import { safeString, timestamp } from "./common.ts";

export const WHATSAPP_FALLBACK_MODES = ["after_last_attempt", "immediately"] as const;

export const whatsappTemplateSchema = z
  .strictObject({
    name: safeString()
      .regex(/^[a-z0-9_]{1,512}$/, "String should be a template name: lowercase letters, digits and underscores")
      .describe(
        "The approved template's name. Its body takes 4 parameters ({{1}} customer name, {{2}} shop, {{3}} items, {{4}} amount) and it has 3 quick-reply buttons in this order: confirm, cancel, call me.",
      ),
    language: safeString()
      .regex(/^[a-z]{2,3}(_[A-Z]{2})?$/, "String should be a WhatsApp language code such as ar, fr or en_US")
      .optional()
      .describe("The template's language code in WhatsApp (default: the key, `ar` or `fr`)."),
  })
  .meta({ id: "WhatsAppTemplate" });

export const whatsappSettingsInputSchema = z
  .strictObject({
    phone_number_id: safeString()
      .regex(/^\d{1,32}$/, "String should be the Cloud API phone number id (digits)")
      .describe("The WhatsApp Business phone number id messages are sent from."),
    access_token: safeString()
      .min(20)
      .max(2048)
      .regex(/^\S+$/, "String should not contain spaces")
      .describe("A Cloud API access token (a system user's permanent token). Sealed at rest; never shown again."),
    templates: z
      .strictObject(
        Object.fromEntries(LANGUAGES.map((l) => [l, whatsappTemplateSchema.optional()])) as Record<
          (typeof LANGUAGES)[number],
          z.ZodOptional<typeof whatsappTemplateSchema>
        >,
      )
      .refine((t) => Object.values(t).some(Boolean), { message: "At least one template (ar or fr) is required" })
      .describe(
        "The template per language: `ar` for Arabic (MA, DZ, TN by default), `fr` for French. An order in a language without a template gets none.",
      ),
    fallback: z
      .enum(WHATSAPP_FALLBACK_MODES)
      .optional()
      .describe(
        "`after_last_attempt` (default): once the retry policy has no attempt left (at once when retries are off); `immediately`: at the first call that does not reach the customer.",
      ),
  })
  .meta({ id: "WhatsAppSettingsWrite", description: "What PUT /v1/me/whatsapp replaces the settings with." });

export const whatsappSettingsSchema = z
  .object({
    phone_number_id: z.string(),
    access_token_last4: z
      .string()
      .describe("The token's last 4 characters, to tell tokens apart; the token itself is never returned."),
    templates: z.object({
      ar: z.object({ name: z.string(), language: z.string() }).nullable().describe("The Arabic template, or null."),
      fr: z.object({ name: z.string(), language: z.string() }).nullable().describe("The French template, or null."),
    }),
    fallback: z.enum(WHATSAPP_FALLBACK_MODES),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({ id: "WhatsAppSettings", description: "The account's WhatsApp fallback (issue 16)." });

export type WhatsAppSettingsInput = z.output<typeof whatsappSettingsInputSchema>;
export type WhatsAppSettings = z.output<typeof whatsappSettingsSchema>;
export type WhatsAppTemplate = z.output<typeof whatsappTemplateSchema>;
