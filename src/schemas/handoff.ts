// The schemas of a shop's handoff (issue 34): where and when a call is handed over to a person. One definition for
// REST (OpenAPI) and the MCP tools.
import { z } from "zod";
import { HANDOFF_TRIGGERS, isTimeZone, WEEK_DAYS } from "../domain/handoff.ts";
import { E164 } from "../domain/phone.ts";
import { callingWindowSchema } from "./calling-hours.ts";
import { safeString, timestamp } from "./common.ts";

export const handoffParams = z.object({
  shop_external_id: z.string().describe("The shop's external id (percent-encoded)."),
});

const windows = z.array(callingWindowSchema).max(6);

export const handoffHoursSchema = z
  .strictObject({
    time_zone: safeString()
      .min(1)
      .max(64)
      .refine(isTimeZone, {
        message: "Value error, not an IANA time zone (like Africa/Casablanca)",
        params: { type: "value_error" },
      })
      .optional()
      .describe(
        "IANA time zone of the hours (Africa/Casablanca, Europe/Paris...). Default: the zone of the shop's default_country; required when the shop has none.",
      ),
    days: z
      .strictObject(
        Object.fromEntries(WEEK_DAYS.map((d) => [d, windows.optional()])) as Record<
          (typeof WEEK_DAYS)[number],
          z.ZodOptional<typeof windows>
        >,
      )
      .describe("The windows of each day of the week, local time; a day left out (or `[]`) takes no transfers."),
  })
  .meta({ id: "HandoffHours" });

export const handoffInputSchema = z.strictObject({
  phone_number: z
    .string()
    .regex(E164, "String should be an E.164 phone number, like +212612345678")
    .describe(
      "The person's number, E.164. The same rules as a call's number: a mobile or fixed-line number, of the shop's default_country when it has one (else of a served country: MA, DZ, TN, FR).",
    ),
  triggers: z
    .array(z.enum(HANDOFF_TRIGGERS))
    .min(1)
    .max(HANDOFF_TRIGGERS.length)
    .refine((list) => new Set(list).size === list.length, {
      message: "Value error, each trigger appears once",
      params: { type: "value_error" },
    })
    .describe(
      "What hands a call over: `customer_asks` (the customer asks for a person), `unanswered_question` (a question the agent has no answer for), `unclear` (after the dialogue's last unclear turn, instead of giving up), `angry` (insults, shouting).",
    ),
  ring_timeout_seconds: z
    .int()
    .min(5)
    .max(60)
    .default(20)
    .describe("How long the person's phone rings before the agent comes back to the customer (5 to 60, default 20)."),
  hours: handoffHoursSchema
    .nullable()
    .optional()
    .describe(
      "When the person takes transfers; null or absent: any time. Outside them the agent says a person will call back.",
    ),
});
export type HandoffInput = z.output<typeof handoffInputSchema>;

export const handoffSchema = z
  .object({
    shop_external_id: z.string(),
    phone_number: z.string(),
    triggers: z.array(z.enum(HANDOFF_TRIGGERS)),
    ring_timeout_seconds: z.int(),
    hours: z
      .object({ time_zone: z.string(), days: handoffHoursSchema.shape.days })
      .nullable()
      .describe("The person's weekly hours with their time zone; null: any time."),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({ id: "Handoff", description: "Where a shop's calls are handed over to a person (warm transfer, issue 34)." });
export type Handoff = z.output<typeof handoffSchema>;
