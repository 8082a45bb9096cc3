// The schemas of /v1/me/webhooks: the account's webhook as read, as created (with its secret once), and its creation.
import { z } from "zod";
import { safeString, timestamp } from "./common.ts";

export const webhookSchema = z
  .object({
    id: z.string().describe("UUID."),
    url: z.string().describe("Where events are POSTed (normalised)."),
    description: z.string().nullable(),
    status: z.enum(["active"]),
    created_at: timestamp,
  })
  .meta({ id: "Webhook", description: "The account's webhook. Its secret is never readable again after creation." });

export const createdWebhookSchema = webhookSchema
  .extend({
    secret: z
      .string()
      .describe(
        "`whsec_...`: the HMAC-SHA256 key of `X-Service-Signature`. Shown only in this response: store it now.",
      ),
  })
  .meta({ id: "CreatedWebhook" });

export const webhookCreateBody = z
  .strictObject({
    url: safeString().describe(
      "A public https URL. Checked against internal addresses now and again at every delivery.",
    ),
    description: safeString().max(500).optional().describe("A label for your own use."),
  })
  .meta({ id: "WebhookCreate" });

export type WebhookOut = z.output<typeof webhookSchema>;
export type CreatedWebhook = z.output<typeof createdWebhookSchema>;
