// The shop's knowledge (issue 37): what the agent may answer when a customer asks during the call. Every answer
// comes from here, spoken as written (free text) or built from typed fields (days, amounts) in the call's profile.
import { z } from "zod";
import { textSchema } from "./common.ts";

const text = (max: number) =>
  textSchema(max).refine((v) => v.trim().length > 0, {
    message: "String should not be blank",
    params: { type: "string_too_short" },
  });
const place = text(80);
const days = z.int().min(0).max(60);

/** An answer per language: `fr`, `ar` (any dialect), and `ar_ma`, `ar_dz`, `ar_tn` for one dialect (they win over `ar`). */
export const localizedTextSchema = z
  .strictObject({
    fr: text(500).optional().describe("Said to calls in French (FR, and MA, DZ, TN calls with `language: fr`)."),
    ar: text(500).optional().describe("Said to Arabic calls of any dialect unless the dialect has its own."),
    ar_ma: text(500).optional().describe("Said to Moroccan Arabic calls (over `ar`)."),
    ar_dz: text(500).optional().describe("Said to Algerian Arabic calls (over `ar`)."),
    ar_tn: text(500).optional().describe("Said to Tunisian Arabic calls (over `ar`)."),
  })
  .refine((t) => Object.values(t).some((v) => v !== undefined), {
    message: "Value error, give the text in at least one language",
    params: { type: "value_error" },
  })
  .meta({
    id: "LocalizedText",
    description:
      "Free text, spoken exactly as written in the call's language; a call whose language has no text here gets no answer (the question is recorded as unanswered).",
  });

const range = z
  .strictObject({
    min_days: days.describe("Fewest days from confirmation to delivery."),
    max_days: days.describe("Most days; at least `min_days`."),
  })
  .refine((r) => r.max_days >= r.min_days, {
    message: "Value error, `max_days` must be at least `min_days`",
    params: { type: "value_error" },
    path: ["max_days"],
  });

export const PAYMENT_METHODS = ["cash", "card_on_delivery", "transfer"] as const;
export const CONTACT_CHANNELS = ["phone", "whatsapp", "email", "website", "instagram", "facebook"] as const;

const knowledgeShape = {
  delivery: z
    .strictObject({
      default: range.describe("The delay anywhere not listed in `areas`."),
      areas: z
        .array(
          z
            .strictObject({
              names: z
                .array(place)
                .min(1)
                .max(10)
                .describe(
                  'The city or region and its other spellings ("Casablanca", "Casa", "الدار البيضاء"): matched in the customer\'s words, then against the call\'s `customer.address.city`.',
                ),
              min_days: days,
              max_days: days,
            })
            .refine((r) => r.max_days >= r.min_days, {
              message: "Value error, `max_days` must be at least `min_days`",
              params: { type: "value_error" },
              path: ["max_days"],
            }),
        )
        .max(50)
        .optional()
        .describe("Per city or region, up to 50."),
    })
    .optional()
    .describe('Delivery delays: the agent says them in the call\'s dialect ("between two and three days").'),
  open_before_paying: z
    .boolean()
    .optional()
    .describe("Whether the customer may open the parcel before paying the courier."),
  returns: z
    .strictObject({
      accepted: z.boolean().describe("Whether a return is accepted."),
      days: z.int().min(1).max(90).optional().describe("Days after delivery a return (or exchange) may be asked for."),
      exchange: z.boolean().optional().describe("Whether an item may be exchanged (another size or colour)."),
      fee: z
        .string()
        .regex(/^\d{1,7}(?:\.\d{1,3})?$/, 'Input should be a decimal string such as "25.00"')
        .optional()
        .describe(
          "What the customer pays for a return or exchange, in the call's currency; said as the profile says amounts. Omitted: not mentioned.",
        ),
      note: localizedTextSchema.optional().describe("Said after the policy, as written."),
    })
    .optional()
    .describe("The return and exchange policy."),
  payment_methods: z
    .array(z.enum(PAYMENT_METHODS))
    .min(1)
    .max(3)
    .refine((l) => new Set(l).size === l.length, {
      message: "Value error, each method appears once",
      params: { type: "value_error" },
    })
    .optional()
    .describe(
      "How the customer may pay: `cash` on delivery, `card_on_delivery` (a card terminal at the door), `transfer` (bank or mobile transfer).",
    ),
  opening_hours: localizedTextSchema
    .optional()
    .describe('The shop\'s opening hours, as the agent says them ("du lundi au samedi, de 9 h à 18 h").'),
  contact: z
    .strictObject({
      channel: z.enum(CONTACT_CHANNELS).describe("How the customer reaches the shop."),
      value: text(120).describe("The number, address or handle, spoken as written."),
    })
    .optional()
    .describe("The channel a customer uses to reach the shop."),
  qa: z
    .array(
      z.strictObject({
        question: text(200).describe("The question, for people reading the knowledge (never spoken)."),
        keywords: z
          .array(text(40))
          .min(1)
          .max(10)
          .describe(
            'Words that identify the question in any script ("garantie", "damana", "ضمانة"): a customer\'s question holding one of them gets this answer. Matched without case, accents or tashkeel.',
          ),
        answer: localizedTextSchema,
      }),
    )
    .max(50)
    .optional()
    .describe("Up to 50 questions and answers of the shop's own; checked before the fields above."),
};

export const knowledgeInputSchema = z.strictObject(knowledgeShape).meta({
  id: "KnowledgeWrite",
  description:
    "The shop's answers (issue 37). PUT replaces them as a whole; any field left out is not answered (the question is recorded in `outcome_details.unanswered_questions`).",
});

export const knowledgeSchema = z
  .object({
    ...knowledgeShape,
    shop_external_id: z.string(),
    updated_at: z.string().describe("When the knowledge was last set (RFC 3339 UTC)."),
  })
  .meta({ id: "Knowledge", description: "The shop's answers, as last set." });

export const shopKnowledgeParams = z.object({ shop_external_id: z.string().describe("The shop's external id.") });

export type ShopKnowledge = z.output<typeof knowledgeInputSchema>;
export type LocalizedText = z.output<typeof localizedTextSchema>;
export type KnowledgeOut = z.output<typeof knowledgeSchema>;
