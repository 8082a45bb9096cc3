// The schemas of a shop's courier webhooks (issue 35): one definition for REST (OpenAPI) and the MCP tools.
import { z } from "zod";
import { COURIERS } from "../domain/delivery.ts";
import { safeString, timestamp } from "./common.ts";

export const courierParams = z.object({
  shop_external_id: z.string().describe("The shop's external id (percent-encoded)."),
  courier: z.enum(COURIERS).describe("The courier: `yalidine`."),
});

export const courierInputSchema = z.strictObject({
  webhook_secret: safeString()
    .min(16)
    .max(512)
    .regex(/^\S+$/, "String should not contain spaces")
    .describe(
      "The secret key of the courier's webhook (Yalidine: the Webhooks dashboard's secret key, which signs X-YALIDINE-SIGNATURE). Sealed; never shown again.",
    ),
});
export type CourierInput = z.output<typeof courierInputSchema>;

export const courierSchema = z
  .object({
    courier: z.enum(COURIERS),
    shop_external_id: z.string(),
    webhook_url: z
      .string()
      .describe(
        "Give this address to the courier as the webhook endpoint (Yalidine validates it with a GET crc_token, which it answers).",
      ),
    webhook_secret_last4: z.string(),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({ id: "Courier" });
export type Courier = z.output<typeof courierSchema>;
