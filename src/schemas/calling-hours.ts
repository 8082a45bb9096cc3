// The schemas of calling hours (issue 15): when customers of each country may be called, in their local time.
// Defaults per country live in calls/policy/calling-hours.ts; an account and a shop override them field by field.
import { z } from "zod";
import { COUNTRIES } from "../domain/locale.ts";

const CLOCK = /^(?:[01]\d|2[0-3]):[0-5]\d$|^24:00$/;
const clock = z.string().regex(CLOCK, "Input should be a local time HH:MM (00:00 to 24:00)");

export const callingWindowSchema = z
  .strictObject({
    from: clock.describe("Local time the window opens, HH:MM."),
    to: clock.describe("Local time it closes, HH:MM (24:00 for midnight); after `from`."),
  })
  .refine((w) => w.from < w.to, {
    message: "Value error, `to` must be after `from`",
    params: { type: "value_error" },
    path: ["to"],
  })
  .meta({ id: "CallingWindow" });

const windows = z.array(callingWindowSchema).max(6);

export const DAY_KEYS = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"] as const;

export const countryCallingHoursSchema = z
  .strictObject({
    enabled: z
      .boolean()
      .optional()
      .describe("false: calls to this country ring at any hour (not advised; France's legal hours are on by default)."),
    days: z
      .strictObject(
        Object.fromEntries(DAY_KEYS.map((d) => [d, windows.optional()])) as Record<
          (typeof DAY_KEYS)[number],
          z.ZodOptional<typeof windows>
        >,
      )
      .optional()
      .describe("The windows of each day of the week (`[]`: no calls that day); a day left out keeps its default."),
    friday_prayer: callingWindowSchema
      .nullable()
      .optional()
      .describe("A pause on Fridays for the midday prayer; null for none. Default 12:00-14:30 in MA, DZ and TN."),
    ramadan: z
      .strictObject({
        day: windows.describe("The daytime windows during Ramadan, replacing the days' windows."),
        evening_after_iftar_minutes: z
          .int()
          .min(0)
          .max(240)
          .describe("The evening window opens this long after sunset (iftar)."),
        evening_until: clock.describe("And closes at this local time."),
      })
      .nullable()
      .optional()
      .describe("Ramadan hours (Umm al-Qura calendar); null to keep the ordinary days' windows."),
    public_holidays: z
      .boolean()
      .optional()
      .describe("true: no calls on the country's public holidays (fixed-date and Islamic ones)."),
    exceptions: z
      .array(
        z.strictObject({
          date: z.iso.date().describe("The local day, YYYY-MM-DD."),
          windows: windows.describe(
            "That day's windows, replacing the week's, Ramadan's and a public holiday's (`[]`: no calls that day).",
          ),
        }),
      )
      .max(60)
      .optional()
      .refine((list) => !list || new Set(list.map((e) => e.date)).size === list.length, {
        message: "Value error, each date appears once",
        params: { type: "value_error" },
      })
      .describe(
        "Dated exceptions (issue 38.2): a shop closed for a day, or open on a holiday; replaces the whole list.",
      ),
  })
  .meta({ id: "CountryCallingHours" });

export const callingHoursOverrideSchema = z
  .strictObject(
    Object.fromEntries(COUNTRIES.map((c) => [c, countryCallingHoursSchema.optional()])) as Record<
      (typeof COUNTRIES)[number],
      z.ZodOptional<typeof countryCallingHoursSchema>
    >,
  )
  .meta({
    id: "CallingHoursOverride",
    description: "Per country, the fields that replace the defaults; a country or field left out keeps the default.",
  });

export type CallingWindow = z.output<typeof callingWindowSchema>;
export type CountryCallingHours = z.output<typeof countryCallingHoursSchema>;
export type CallingHoursOverride = z.output<typeof callingHoursOverrideSchema>;
/** Every field set: a country's defaults, or the result of applying overrides to them. */
export type EffectiveCallingHours = Required<{
  [K in keyof CountryCallingHours]: Exclude<CountryCallingHours[K], undefined>;
}> & {
  days: Record<(typeof DAY_KEYS)[number], CallingWindow[]>;
};

export const callingHoursSchema = z
  .object({
    override: callingHoursOverrideSchema
      .nullable()
      .describe("What this account (or shop) sets; null: the defaults (or the account's settings, for a shop)."),
    effective: z
      .object(
        Object.fromEntries(COUNTRIES.map((c) => [c, countryCallingHoursSchema])) as Record<
          (typeof COUNTRIES)[number],
          typeof countryCallingHoursSchema
        >,
      )
      .describe("The hours calls follow, per country: defaults, then the account's override, then the shop's."),
  })
  .meta({
    id: "CallingHours",
    description:
      "Calling hours in the customer's local time (Africa/Casablanca, Africa/Algiers, Africa/Tunis, Europe/Paris).",
  });

export const shopCallingHoursParams = z.object({ shop_external_id: z.string().describe("The shop's external id.") });

export type CallingHoursOut = z.output<typeof callingHoursSchema>;
