// The schemas of the calls API (spec 2.1 to 2.3, CONTRACT §4): one definition validates the REST body,
// documents it in OpenAPI, types the services and will shape the MCP tools.
import { isValidPhoneNumber } from "libphonenumber-js";
import { z } from "zod";

export const COUNTRIES = ["MA", "DZ", "TN", "FR"] as const;
export const LANGUAGES = ["ar", "fr"] as const;
export const DIALECTS = ["ma", "dz", "tn", "fr"] as const;
export const CURRENCIES = ["MAD", "DZD", "TND", "EUR"] as const;
export const CALL_STATUSES = ["queued", "ringing", "in_progress", "completed", "no_answer", "busy", "voicemail", "failed", "canceled"] as const;
/** Statuses a call can still be cancelled from (CONTRACT §4). */
export const ACTIVE_STATUSES = ["queued", "ringing", "in_progress"] as const;
export const CALL_OUTCOMES = [
  "confirmed", "declined", "rescheduled", "callback_requested", "change_requested", "wrong_number", "no_decision",
] as const;

export type Country = (typeof COUNTRIES)[number];
export type Language = (typeof LANGUAGES)[number];
export type CallStatus = (typeof CALL_STATUSES)[number];
export type CallOutcome = (typeof CALL_OUTCOMES)[number];

// Money: a decimal string, at most 3 decimals (TND counts millimes), below 10^12 like catalogue prices.
const DECIMAL = /^-?\d+(\.\d+)?$/;
const MAX_DECIMALS = 3;
const MAX_INTEGER_DIGITS = 12;

function money(minimum: "positive" | "non_negative") {
  return z.string().superRefine((value, ctx) => {
    if (!DECIMAL.test(value)) {
      ctx.addIssue({ code: "custom", message: 'Input should be a decimal number written as a string, for example "149.90"', params: { type: "decimal_parsing" } });
      return;
    }
    const [whole = "", fraction = ""] = value.replace(/^-/, "").split(".");
    if (fraction.length > MAX_DECIMALS) {
      ctx.addIssue({ code: "custom", message: `Decimal input should have no more than ${MAX_DECIMALS} decimal places`, params: { type: "decimal_max_places" } });
      return;
    }
    const negative = value.startsWith("-");
    const zero = /^0*$/.test(whole) && /^0*$/.test(fraction);
    if (minimum === "positive" && (negative || zero)) {
      ctx.addIssue({ code: "custom", message: "Input should be greater than 0", params: { type: "greater_than" } });
    } else if (minimum === "non_negative" && negative && !zero) {
      ctx.addIssue({ code: "custom", message: "Input should be greater than or equal to 0", params: { type: "greater_than_equal" } });
    } else if (whole.replace(/^0+/, "").length > MAX_INTEGER_DIGITS) {
      ctx.addIssue({ code: "custom", message: "Input should be less than 1000000000000", params: { type: "less_than" } });
    }
  });
}

/** "007.50" -> "7.50": the text PostgreSQL's numeric gives back, so stored and shown amounts agree. */
export function normalizeDecimal(value: string): string {
  const [whole = "0", fraction] = value.replace(/^-/, "").split(".");
  const digits = whole.replace(/^0+(?=\d)/, "");
  return fraction === undefined ? digits : `${digits}.${fraction}`;
}

/** The E.164 shape: a plus, then 7 to 15 digits not starting with 0. */
export const E164 = /^\+[1-9]\d{6,14}$/;

const phoneNumber = z.string().superRefine((value, ctx) => {
  if (!E164.test(value)) {
    ctx.addIssue({ code: "custom", message: "value is not a phone number in E.164 format: +, the country code and the number, no spaces (for example +212612345678)", params: { type: "value_error" } });
  } else if (!isValidPhoneNumber(value)) {
    ctx.addIssue({ code: "custom", message: "value is not a valid phone number for its country code", params: { type: "value_error" } });
  }
});

const notBlank = (max: number) =>
  z.string().min(1).max(max).refine((s) => s.length === 0 || s.trim().length > 0, { message: "String should not be blank", params: { type: "string_too_short" } });

export const customerInputSchema = z.strictObject({
  name: notBlank(200).describe("The customer's name, as the agent will say it."),
  phone_number: phoneNumber.describe("E.164, for example +212612345678. With the simulator, the last two digits choose the customer's behaviour."),
}).meta({ id: "Customer" });

export const orderItemInputSchema = z.strictObject({
  product_external_id: z.string().min(1).max(255).optional().describe("A product of the call's shop."),
  variant_external_id: z.string().min(1).max(255).optional()
    .describe("Required when the product has several active variants; a single variant is resolved automatically."),
  name: z.string().min(1).max(200).optional()
    .describe("Required with `unit_price` on an ad-hoc line (no `product_external_id`); on a catalogue line it replaces the product's name."),
  unit_price: money("non_negative").optional()
    .describe("Decimal string. Required with `name` on an ad-hoc line (custom items, shipping fees, gifts at \"0\"); on a catalogue line it replaces the variant's price."),
  quantity: z.int().min(1).default(1),
}).superRefine((line, ctx) => {
  if (line.product_external_id !== undefined) return;
  if (line.variant_external_id !== undefined) {
    ctx.addIssue({ code: "custom", path: ["variant_external_id"], message: "variant_external_id needs product_external_id", params: { type: "value_error" } });
  }
  for (const field of ["name", "unit_price"] as const) {
    if (line[field] === undefined) {
      ctx.addIssue({ code: "custom", path: [field], message: "Field required: a line without product_external_id needs name and unit_price", params: { type: "missing" } });
    }
  }
}).meta({ id: "OrderItem" });

export const orderInputSchema = z.strictObject({
  external_id: z.string().min(1).max(255).describe("Your order id, unique within the shop."),
  previous_attempts: z.int().min(0).default(0)
    .describe("How many calls were already made for this order. To call again about an existing order, send a new Idempotency-Key and a higher value than the last call's."),
  items: z.array(orderItemInputSchema).min(1).max(100),
}).meta({ id: "Order" });

export const callParamsSchema = z.strictObject({
  channel: z.string().min(1).max(64).optional().describe("Omit for the default channel `gsm`. A channel that is not open is refused (`channel_not_available`)."),
}).meta({ id: "CallParams" });

export const callCreateSchema = z.strictObject({
  shop_external_id: z.string().min(1).max(255).describe("The shop the call belongs to: an active shop of the account."),
  customer: customerInputSchema,
  amount: money("positive").describe('Amount to collect on delivery, a decimal string greater than 0 such as "249.00"; not a JSON number.'),
  country: z.enum(COUNTRIES).describe("Sets the currency (MAD, DZD, TND, EUR) and the conversational profile."),
  language: z.enum(LANGUAGES).optional().describe("Default by country: MA, DZ and TN speak `ar`, FR speaks `fr`. FR with `ar` is refused."),
  order: orderInputSchema,
  call_params: callParamsSchema.optional(),
}).meta({ id: "CallCreate" });

export type CallCreate = z.output<typeof callCreateSchema>;
export type OrderItemInput = z.output<typeof orderItemInputSchema>;

const timestamp = z.string().describe("RFC 3339 UTC timestamp.");

export const callItemSchema = z.object({
  product_external_id: z.string().nullable().describe("Null on an ad-hoc line."),
  variant_external_id: z.string().nullable(),
  name: z.string(),
  variant_name: z.string().nullable(),
  unit_price: z.string().describe("Decimal string."),
  quantity: z.int(),
}).meta({ id: "CallItem" });

export const outcomeDetailsSchema = z.looseObject({
  reason: z.string().nullable().optional().describe("declined: why."),
  preferred_date: z.string().nullable().optional().describe("rescheduled: the day asked for, null when none was named."),
  callback_at: z.string().nullable().optional().describe("callback_requested: when to call back."),
  changes: z.unknown().optional().describe("change_requested: what the customer wants changed."),
  transcript_excerpt: z.string().optional().describe("Always: the customer's deciding words."),
}).meta({ id: "OutcomeDetails" });

export const callOutSchema = z.object({
  id: z.string().describe("The call id (UUID), used in /v1/calls/{id}."),
  status: z.enum(CALL_STATUSES).describe("queued, ringing, in_progress, then one terminal status."),
  outcome: z.enum(CALL_OUTCOMES).nullable().describe("Set when the status is `completed`, else null."),
  end_reason: z.string().nullable().describe("Why the call ended (for example `customer_hangup`, `canceled`); null while it runs."),
  shop_external_id: z.string(),
  customer: z.object({ name: z.string(), phone_number: z.string() }),
  amount: z.string().describe("Decimal string."),
  currency: z.enum(CURRENCIES),
  country: z.enum(COUNTRIES),
  language: z.enum(LANGUAGES),
  dialect: z.enum(DIALECTS).describe("The conversational profile, chosen from the country."),
  channel: z.string(),
  order: z.object({
    external_id: z.string(),
    previous_attempts: z.int(),
    items: z.array(callItemSchema).describe("The lines as resolved against the catalogue."),
  }),
  outcome_details: outcomeDetailsSchema.nullable(),
  created_at: timestamp,
  answered_at: timestamp.nullable(),
  ended_at: timestamp.nullable(),
  duration_seconds: z.int().nullable().describe("Connected seconds; null until the call ends."),
  billed_seconds: z.int().nullable().describe("Answered seconds rounded up; 0 for unanswered calls; null until the call ends."),
  recording_url: z.string().nullable().describe("Absolute URL of the audio; null until a recording exists and after its 30-day purge."),
}).meta({ id: "CallOut" });

export type CallOut = z.output<typeof callOutSchema>;
export type CallItem = z.output<typeof callItemSchema>;
