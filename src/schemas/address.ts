// The delivery address on a call (issue 35): what the agent reads back after a confirmation, and what the customer
// corrected. One definition for CallCreate (REST, MCP), the CallOut, the store connectors and `outcome_details.delivery`.
import { z } from "zod";
import { safeString } from "./common.ts";

const part = (max: number) => safeString().min(1).max(max);

export const addressSchema = z
  .strictObject({
    line1: part(200).optional().describe("Street and number, or whatever the customer gave."),
    line2: part(200).optional().describe("Building, floor, apartment."),
    city: part(100).describe("Required with an address: the agent reads it back first."),
    region: part(100).optional().describe("Province, wilaya, governorate or département."),
    postal_code: part(20).optional(),
    landmark: part(200).optional().describe('A landmark the courier can ask for ("near the mosque").'),
  })
  .meta({ id: "Address" });
export type Address = z.output<typeof addressSchema>;

export const deliveryDetailsSchema = z
  .object({
    address_confirmed: z
      .boolean()
      .describe(
        "The customer said the address read back is right (a yes, or a landmark added to it); false when they corrected it or did not answer.",
      ),
    corrected: z
      .object({ city: z.string().optional() })
      .optional()
      .describe("What the customer corrected, as heard (today: the city)."),
    landmark: z.string().optional().describe('A landmark in the customer\'s words ("près de la mosquée").'),
    preferred_time: z
      .string()
      .optional()
      .describe("A time of day the customer named for the delivery, in their words."),
  })
  .describe(
    "confirmed, when the call had `customer.address`: what the customer said when it was read back. Never changes the outcome.",
  );
