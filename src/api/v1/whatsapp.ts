import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import { whatsappSettingsInputSchema, whatsappSettingsSchema } from "../../schemas/whatsapp.ts";
import { deleteWhatsAppSettings, getWhatsAppSettings, setWhatsAppSettings } from "../../services/whatsapp.ts";

const ABOUT =
  "The WhatsApp fallback (issue 16): when an order's calls end without reaching the customer (no answer, busy, " +
  "voicemail, a carrier failure), after the retry policy's last attempt (or at once with `fallback: immediately`), Wakha sends " +
  "the account's approved template in the customer's language (the call's `language`: `ar` for MA, DZ, TN by default, `fr` for FR) " +
  "through the WhatsApp Cloud API, with the order summary and three quick-reply buttons: confirm, cancel, call me. Never to a " +
  "do-not-call number. The reply settles the order (channel `whatsapp`); see docs/webhooks.md.";

/** /v1/me/whatsapp (issue 16). */
export function whatsappRoutes(app: FastifyInstance, ctx: AppContext): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    "/me/whatsapp",
    {
      schema: {
        operationId: "getWhatsApp",
        tags: ["WhatsApp"],
        summary: "Read the WhatsApp fallback settings",
        description: ABOUT,
        response: { 200: whatsappSettingsSchema },
      },
      config: { errors: ["whatsapp_not_configured"] },
    },
    (req) => getWhatsAppSettings(ctx, req.principal),
  );

  r.put(
    "/me/whatsapp",
    {
      schema: {
        operationId: "setWhatsApp",
        tags: ["WhatsApp"],
        summary: "Set the WhatsApp fallback settings (replaces them)",
        description: `${ABOUT} The access token is sealed at rest and never returned (only its last 4 characters).`,
        body: whatsappSettingsInputSchema,
        response: { 200: whatsappSettingsSchema },
      },
      config: { errors: ["service_unavailable"] },
    },
    (req) => setWhatsAppSettings(ctx, req.principal, req.body),
  );

  r.delete(
    "/me/whatsapp",
    {
      schema: {
        operationId: "deleteWhatsApp",
        tags: ["WhatsApp"],
        summary: "Turn the WhatsApp fallback off",
        response: { 204: z.null().describe("Removed.") },
      },
      config: { errors: ["whatsapp_not_configured"] },
    },
    async (req, reply) => {
      await deleteWhatsAppSettings(ctx, req.principal);
      return reply.code(204).send(null);
    },
  );
}
