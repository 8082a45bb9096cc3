// get_whatsapp, set_whatsapp, delete_whatsapp: the WhatsApp fallback's settings (/v1/me/whatsapp, issue 16).
import { z } from "zod";
import { whatsappSettingsInputSchema, whatsappSettingsSchema } from "../../schemas/whatsapp.ts";
import { deleteWhatsAppSettings, getWhatsAppSettings, setWhatsAppSettings } from "../../services/whatsapp.ts";
import { defineTool, rootObject } from "./tool.ts";

export const getWhatsAppTool = defineTool({
  name: "get_whatsapp",
  title: "Read the WhatsApp fallback settings",
  description:
    "Reads the account's WhatsApp fallback: the Cloud API phone number id, the access token's last 4 characters (the token is never shown), the approved template per language (`ar`, `fr`) and when it is sent (`after_last_attempt` of the retry policy, or `immediately`). When an order's calls do not reach the customer, the template goes out with the order summary and buttons confirm / cancel / call me; the reply settles the order via `whatsapp`. Error whatsapp_not_configured when none is set.",
  input: z.strictObject({}),
  output: rootObject(whatsappSettingsSchema),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  rateClass: "read",
  mirrors: { method: "GET", path: "/v1/me/whatsapp" },
  run: (_input, { ctx, who }) => getWhatsAppSettings(ctx, who),
});

export const setWhatsAppTool = defineTool({
  name: "set_whatsapp",
  title: "Set the WhatsApp fallback settings",
  description:
    "Replaces the account's WhatsApp fallback settings: `phone_number_id` (digits), `access_token` (sealed, never shown again), `templates` ({ar: {name, language?}, fr: {...}}, at least one; each template's body takes {{1}} customer name, {{2}} shop, {{3}} items, {{4}} amount, and has 3 quick-reply buttons: confirm, cancel, call me), `fallback` (`after_last_attempt`, the default, or `immediately`). Messages cost money on Meta's side: confirm with the user before enabling.",
  input: z.strictObject(whatsappSettingsInputSchema.shape),
  output: rootObject(whatsappSettingsSchema),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  rateClass: "write",
  mirrors: { method: "PUT", path: "/v1/me/whatsapp" },
  run: (input, { ctx, who }) => setWhatsAppSettings(ctx, who, input),
});

export const deleteWhatsAppTool = defineTool({
  name: "delete_whatsapp",
  title: "Turn the WhatsApp fallback off",
  description:
    "Removes the account's WhatsApp settings and sealed token: no template is sent after this. Messages already sent keep their statuses, and replies to them still settle their orders only while settings exist again. Error whatsapp_not_configured when none is set.",
  input: z.strictObject({}),
  output: z.object({ deleted: z.literal(true).describe("The settings and the sealed token are gone.") }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  rateClass: "write",
  mirrors: { method: "DELETE", path: "/v1/me/whatsapp" },
  run: async (_input, { ctx, who }) => {
    await deleteWhatsAppSettings(ctx, who);
    return { deleted: true as const };
  },
});

export const WHATSAPP_TOOLS = [getWhatsAppTool, setWhatsAppTool, deleteWhatsAppTool];
