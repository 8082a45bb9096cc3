// The schemas of the calls API (spec 2.1 to 2.3, CONTRACT §4): one definition validates the REST body and
// query, documents them in OpenAPI, shapes the MCP tools and types the services.
import { isValidPhoneNumber } from "libphonenumber-js";
import { z } from "zod";
import { HANDOFF_TRIGGERS, TRANSFER_ENDED_BY, TRANSFER_STATUSES } from "../domain/handoff.ts";
import { addressSchema } from "./address.ts";
import { CALL_OUTCOMES, CALL_STATUSES, SCHEDULE_REASONS } from "../domain/calls.ts";
import { LEGAL_BASES } from "../domain/compliance.ts";
import { END_REASON_VALUES } from "../domain/end-reasons.ts";
import { COUNTRIES, CURRENCIES, DIALECTS, LANGUAGES } from "../domain/locale.ts";
import { checkDecimal } from "../domain/money.ts";
import { E164 } from "../domain/phone.ts";
import { int32Schema, pageQuery, safeString, timestamp } from "./common.ts";
import { retryPolicyInputSchema } from "./retry-policy.ts";

// Money: a decimal string checked by the domain's rules, each refusal with its Pydantic type.
function money(minimum: "positive" | "non_negative") {
  return safeString().superRefine((value, ctx) => {
    const problem = checkDecimal(value, minimum);
    if (problem) ctx.addIssue({ code: "custom", message: problem.message, params: { type: problem.type } });
  });
}

/** A customer's phone number: E.164 and valid for its country code (calls, the do-not-call list). */
export const phoneNumber = safeString().superRefine((value, ctx) => {
  if (!E164.test(value)) {
    ctx.addIssue({
      code: "custom",
      message:
        "value is not a phone number in E.164 format: +, the country code and the number, no spaces (for example +212612345678)",
      params: { type: "value_error" },
    });
  } else if (!isValidPhoneNumber(value)) {
    ctx.addIssue({
      code: "custom",
      message: "value is not a valid phone number for its country code",
      params: { type: "value_error" },
    });
  }
});

const notBlank = (max: number) =>
  safeString()
    .min(1)
    .max(max)
    .refine((s) => s.length === 0 || s.trim().length > 0, {
      message: "String should not be blank",
      params: { type: "string_too_short" },
    });

export const customerInputSchema = z
  .strictObject({
    name: notBlank(200).describe("The customer's name, as the agent will say it."),
    phone_number: phoneNumber.describe(
      "E.164, for example +212612345678. With the simulator, the last two digits choose the customer's behaviour.",
    ),
    address: addressSchema
      .optional()
      .describe(
        "The delivery address (issue 35): stored with the call and shown on it; `city` is required when an address is given.",
      ),
  })
  .meta({ id: "Customer" });

export const orderItemInputSchema = z
  .strictObject({
    product_external_id: safeString().min(1).max(255).optional().describe("A product of the call's shop."),
    variant_external_id: safeString()
      .min(1)
      .max(255)
      .optional()
      .describe("Required when the product has several active variants; a single variant is resolved automatically."),
    name: safeString()
      .min(1)
      .max(200)
      .optional()
      .describe(
        "Required with `unit_price` on an ad-hoc line (no `product_external_id`); on a catalogue line it replaces the product's name.",
      ),
    unit_price: money("non_negative")
      .optional()
      .describe(
        'Decimal string. Required with `name` on an ad-hoc line (custom items, shipping fees, gifts at "0"); on a catalogue line it replaces the variant\'s price.',
      ),
    quantity: int32Schema().min(1).default(1),
  })
  .superRefine((line, ctx) => {
    if (line.product_external_id !== undefined) return;
    if (line.variant_external_id !== undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["variant_external_id"],
        message: "variant_external_id needs product_external_id",
        params: { type: "value_error" },
      });
    }
    for (const field of ["name", "unit_price"] as const) {
      if (line[field] === undefined) {
        ctx.addIssue({
          code: "custom",
          path: [field],
          message: "Field required: a line without product_external_id needs name and unit_price",
          params: { type: "missing" },
        });
      }
    }
  })
  .meta({ id: "OrderItem" });

export const orderInputSchema = z
  .strictObject({
    external_id: safeString().min(1).max(255).describe("Your order id, unique within the shop."),
    previous_attempts: int32Schema()
      .min(0)
      .default(0)
      .describe(
        "How many calls were already made for this order. To call again about an existing order, send a new Idempotency-Key and a higher value than the last call's.",
      ),
    items: z.array(orderItemInputSchema).min(1).max(100),
  })
  .meta({ id: "Order" });

export const callParamsSchema = z
  .strictObject({
    channel: safeString()
      .min(1)
      .max(64)
      .optional()
      .describe("Omit for the default channel `gsm`. A channel that is not open is refused (`channel_not_available`)."),
  })
  .meta({ id: "CallParams" });

/** An instant with its offset (RFC 3339), as `scheduled_at` takes it. */
const RFC3339_INSTANT =
  /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d{1,9})?(Z|[+-](?:[01]\d|2[0-3]):[0-5]\d)$/i;
export const instant = safeString().refine((s) => RFC3339_INSTANT.test(s) && !Number.isNaN(Date.parse(s)), {
  message:
    "Input should be an RFC 3339 date-time with its offset, for example 2026-11-23T08:00:00Z or 2026-11-23T09:00:00+01:00",
  params: { type: "datetime_parsing" },
});

export const callCreateSchema = z
  .strictObject({
    shop_external_id: safeString()
      .min(1)
      .max(255)
      .describe("The shop the call belongs to: an active shop of the account."),
    customer: customerInputSchema,
    amount: money("positive").describe(
      'Amount to collect on delivery, a decimal string greater than 0 such as "249.00"; not a JSON number.',
    ),
    country: z.enum(COUNTRIES).describe("Sets the currency (MAD, DZD, TND, EUR) and the conversational profile."),
    language: z
      .enum(LANGUAGES)
      .optional()
      .describe("Default by country: MA, DZ and TN speak `ar`, FR speaks `fr`. FR with `ar` is refused."),
    order: orderInputSchema,
    call_params: callParamsSchema.optional(),
    retry_policy: retryPolicyInputSchema
      .optional()
      .describe(
        "This call's own retry policy, over the shop's and the account's (field by field); its retries keep it.",
      ),
    scheduled_at: instant
      .optional()
      .describe(
        "When to call, RFC 3339 with its offset; omit to call as soon as possible. At most 60 s in the past and 30 days ahead. " +
          "The calling hours of the customer's country still apply: a time outside them moves to the next opening, shown in the CallOut's `scheduled_at`.",
      ),
  })
  .meta({ id: "CallCreate" });

export type CallCreate = z.output<typeof callCreateSchema>;
export type OrderItemInput = z.output<typeof orderItemInputSchema>;

export const callItemSchema = z
  .object({
    product_external_id: z.string().nullable().describe("Null on an ad-hoc line."),
    variant_external_id: z.string().nullable(),
    name: z.string(),
    variant_name: z.string().nullable(),
    unit_price: z.string().describe("Decimal string."),
    quantity: z.int(),
  })
  .meta({ id: "CallItem" });

export const outcomeDetailsSchema = z
  .looseObject({
    reason: z.string().nullable().optional().describe("declined: why."),
    preferred_date: z
      .string()
      .nullable()
      .optional()
      .describe(
        'rescheduled: the day asked for (YYYY-MM-DD in the country\'s calendar), null when none was named. One rule in every dialect: "Saturday" is the first Saturday after the call\'s day, "next Saturday" the Saturday of the following week (weeks start on Monday).',
      ),
    callback_at: z.string().nullable().optional().describe("callback_requested: when to call back."),
    changes: z.unknown().optional().describe("change_requested: what the customer wants changed."),
    transcript_excerpt: z.string().optional().describe("Always: the customer's deciding words."),
    unanswered_questions: z
      .array(z.string())
      .optional()
      .describe(
        "The customer's questions the shop's knowledge (PUT /v1/shops/{shop_external_id}/knowledge) and the order could not answer, in their words (at most 10), whatever the outcome (issue 37).",
      ),
    opted_out: z
      .literal(true)
      .optional()
      .describe(
        "declined with `end_reason` `do_not_call_requested`: the customer asked never to be called again; the number is on the account's do-not-call list (source `customer_request`) and `customer.opted_out` was sent.",
      ),
    error: z
      .object({
        code: z
          .string()
          .describe(
            "A stable code: the end reason, or what the carrier said (`dns_failure`, `no_caller_number`, `http_401`, `sip_486`...).",
          ),
        message: z.string().describe("One sentence for a person; never a secret."),
      })
      .optional()
      .describe("failed calls: the cause (issue 32.4)."),
  })
  .meta({ id: "OutcomeDetails" });

export const callOutSchema = z
  .object({
    id: z.string().describe("The call id (UUID), used in /v1/calls/{id}."),
    status: z.enum(CALL_STATUSES).describe("queued, ringing, in_progress, then one terminal status."),
    outcome: z
      .enum(CALL_OUTCOMES)
      .nullable()
      .describe("Set when the status is `completed`, else null. Each value's meaning: /docs/call-endings."),
    end_reason: z
      .enum(END_REASON_VALUES)
      .nullable()
      .describe(
        "Why the call ended; null while it runs. Each value's cause and remedy: /docs/call-endings (explain_error answers them too).",
      ),
    shop_external_id: z.string(),
    customer: z.object({
      name: z.string(),
      phone_number: z.string(),
      address: addressSchema.optional().describe("Present when the call was created with one."),
    }),
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
    billed_seconds: z
      .int()
      .nullable()
      .describe("Answered seconds rounded up; 0 for unanswered calls; null until the call ends."),
    recording_url: z
      .string()
      .nullable()
      .describe("Absolute URL of the audio; null until a recording exists and after its 30-day purge."),
    scheduled_at: timestamp
      .nullable()
      .default(null)
      .describe(
        "When a queued call will ring, if not as soon as possible: the time asked for at creation, or the next opening of the calling hours. Null when none.",
      ),
    retry_of: z
      .string()
      .nullable()
      .default(null)
      .describe(
        "The call this one retries automatically (the retry policy), on the same order with `previous_attempts` one higher; null otherwise.",
      ),
    legal_basis: z
      .enum(LEGAL_BASES)
      .default("order_confirmation")
      .describe(
        "Why the customer may be called (issue 36): `order_confirmation`, the order they placed; never a marketing purpose, and a call offers nothing.",
      ),
    recording_declined: z
      .boolean()
      .default(false)
      .describe(
        "The customer objected to the recording during the call: the agent stopped it and no recording is kept (`recording_url` stays null, no `recording.ready`).",
      ),
    schedule_reason: z
      .enum(SCHEDULE_REASONS)
      .nullable()
      .default(null)
      .describe(
        "Why the calling hours moved `scheduled_at` later than asked (or than now): `outside_hours`, `friday_prayer`, `weekend`, `holiday`. Null when they did not.",
      ),
    billing_adjustment: z
      .object({
        reported_seconds: z.int().describe("The connected seconds the carrier reported."),
        billed_seconds: z.int().describe("The seconds billed."),
        reason: z
          .enum(["carrier_seconds_exceed_wall_clock"])
          .describe(
            "`carrier_seconds_exceed_wall_clock`: the carrier reported more than the time from the answer to the end on our clock, plus 2 s.",
          ),
      })
      .nullable()
      .default(null)
      .describe(
        "Set when the call was billed less than its carrier reported, and why; null otherwise. A call is never billed more than the time from its answer to its end plus 2 s.",
      ),
    transfer: z
      .object({
        status: z
          .enum(TRANSFER_STATUSES)
          .describe(
            "`bridged`: the person took the call; `no_answer` (not within the handoff's ring timeout), `busy`, `failed`, `outside_hours` (outside the handoff's hours: not dialled): the agent came back, said a person will call back and the call ended `callback_requested`.",
          ),
        to: z.string().describe("The number dialled: the shop's handoff number, E.164."),
        reason: z
          .enum(HANDOFF_TRIGGERS)
          .describe("What handed the call over: customer_asks, unanswered_question, unclear or angry."),
        requested_at: timestamp.describe("When the agent started the transfer."),
        answered_at: timestamp.nullable().describe("When the person picked up; null when nobody did."),
        seconds: z
          .int()
          .describe(
            "Seconds the customer and the person were bridged (billed with the call's connected seconds); 0 when not bridged.",
          ),
        ended_by: z
          .enum(TRANSFER_ENDED_BY)
          .nullable()
          .default(null)
          .describe(
            "`balance`: Wakha cut the bridged call (both legs) because the account's balance ran out during it; `status` stays `bridged` and `seconds` counts the bridge up to the cut. null: the call ended otherwise (the customer or the person hung up) or was not bridged.",
          ),
      })
      .nullable()
      .default(null)
      .describe(
        "Issue 34: the warm transfer to the shop's person (PUT /v1/shops/{shop_external_id}/handoff), when the call had one; null otherwise. Sent as `call.transferred`.",
      ),
    waiting_reason: z
      .enum(["concurrency_cap", "caller_line_busy", "balance_held"])
      .nullable()
      .default(null)
      .describe(
        "Why a `queued` call waits to be dialled: `concurrency_cap` (the account's calls in progress are at its cap), `caller_line_busy` (every line of the caller numbers is busy), `balance_held` (the account's live calls hold all of its balance; the call is dialled when one ends, and ends `insufficient_balance` only if nothing is held and the free balance is under the 10-second minimum). Null otherwise.",
      ),
  })
  .meta({ id: "CallOut" });

export type CallOut = z.output<typeof callOutSchema>;
export type CallItem = z.output<typeof callItemSchema>;

export const callIdParams = z.object({ id: z.string().describe("The call id returned at creation.") });

export const idempotencyHeaders = z.looseObject({
  // Bounds documented, not validated here: the route checks them in characters (Node gives header bytes as Latin-1).
  "idempotency-key": z
    .string()
    .meta({ minLength: 1, maxLength: 255 })
    .describe(
      "Required, 1 to 255 characters (a UUID is ideal). Resending the same body with the same key within 24 hours replays the first response.",
    ),
});

const DATE_FORMAT_MESSAGE =
  "Input should be an RFC 3339 date-time with its offset (2026-11-23T08:00:00Z or 2026-11-23T09:00:00+01:00) or a date YYYY-MM-DD (midnight UTC), with a year from 0001 to 9999";
const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})T([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d{1,9})?(Z|[+-](?:[01]\d|2[0-3]):[0-5]\d)$/i;

/** A date filter PostgreSQL accepts: a real calendar day of the years 0001 to 9999 (year 0000 does not exist there). */
function isDateFilter(value: string): boolean {
  const m = DATE_ONLY.exec(value) ?? DATE_TIME.exec(value);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (year < 1 || month < 1 || month > 12 || day < 1) return false;
  const days =
    new Date(Date.UTC(2000, month, 0)).getUTCDate() -
    (month === 2 && !(year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)) ? 1 : 0);
  return day <= days;
}

export const dateFilter = z
  .string()
  .refine(isDateFilter, { message: DATE_FORMAT_MESSAGE, params: { type: "datetime_parsing" } });

export const listCallsQuery = z.object({
  ...pageQuery,
  status: z
    .string()
    .optional()
    .meta({ enum: [...CALL_STATUSES] })
    .describe(`One of ${CALL_STATUSES.join(", ")}; another value is 400 invalid_status_filter.`),
  outcome: z.enum(CALL_OUTCOMES).optional(),
  shop_external_id: safeString().min(1).max(255).optional(),
  merchant_id: safeString()
    .min(1)
    .max(255)
    .optional()
    .describe("The shops' merchant_external_id: follows up a batch of calls for one merchant."),
  order_external_id: safeString()
    .min(1)
    .max(255)
    .optional()
    .describe("One order's calls: the first and its retries, manual or automatic."),
  created_after: dateFilter
    .optional()
    .describe(
      "Calls created at or after this time: RFC 3339 with an offset (2026-11-23T08:00:00Z), or YYYY-MM-DD for midnight UTC; years 0001 to 9999.",
    ),
  created_before: dateFilter
    .optional()
    .describe("Calls created strictly before this time; same format as created_after."),
});
