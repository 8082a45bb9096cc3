// POST/GET /webhooks/messaging: the WhatsApp Cloud API webhook (CONTRACT §7, spec 5.7), outside /v1.
import { createHmac, timingSafeEqual } from "node:crypto";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AppContext } from "../context.ts";
import { ApiError } from "../errors.ts";
import { receiveMessages } from "../services/messaging.ts";
import { detailSchema, INBOUND_BODY_LIMIT, passThrough, rawBodyScope } from "./raw-body-scope.ts";

const noNul = (s: string) => s.replaceAll("\u0000", "");

const messageSchema = z.looseObject({
  id: z
    .string()
    .min(1)
    .max(512)
    .transform(noNul)
    .describe("The platform's message id (`wamid...`); repeats are ignored."),
  from: z
    .string()
    .regex(/^\+?\d{4,20}$/)
    .describe("The sender's number, digits without '+'."),
  timestamp: z.string().optional().describe("Unix seconds."),
  type: z.string().min(1).max(64).transform(noNul).describe("`text`, `image`, ...; only `text` carries a body."),
  text: z.looseObject({ body: z.string().transform(noNul) }).optional(),
  button: z
    .looseObject({
      payload: z.string().max(1024).transform(noNul).optional(),
      text: z.string().max(1024).transform(noNul).optional(),
    })
    .optional()
    .describe("A template's quick-reply button: `payload` is what the template was sent with."),
  interactive: z
    .looseObject({
      type: z.string().max(64).optional(),
      button_reply: z
        .looseObject({
          id: z.string().max(1024).transform(noNul),
          title: z.string().max(1024).transform(noNul).optional(),
        })
        .optional(),
    })
    .optional()
    .describe("An interactive message's reply button (`button_reply.id`)."),
  context: z
    .looseObject({ id: z.string().max(512).transform(noNul).optional() })
    .optional()
    .describe("The message replied to (`id`: its wamid)."),
});

const statusSchema = z.looseObject({
  id: z.string().min(1).max(512).transform(noNul).describe("The wamid of a message Wakha sent."),
  status: z.string().max(64).describe("`sent`, `delivered`, `read` or `failed` (others are acknowledged and ignored)."),
  timestamp: z.string().optional().describe("Unix seconds."),
  recipient_id: z.string().optional(),
  errors: z
    .array(z.unknown())
    .max(100)
    .optional()
    .describe("With `failed`: [{code, title, message, error_data: {details}}]."),
});

/** The WhatsApp Cloud API webhook payload: `messages` (customers' messages and replies) and `statuses` (of messages Wakha sent). */
export const messagingPayloadSchema = z
  .looseObject({
    object: z.string().optional().describe("`whatsapp_business_account`."),
    entry: z.array(
      z.looseObject({
        id: z.string().optional(),
        changes: z.array(
          z.looseObject({
            field: z.string().optional().describe("`messages`."),
            value: z.looseObject({
              messages: z.array(messageSchema).optional(),
              statuses: z.array(statusSchema).optional(),
            }),
          }),
        ),
      }),
    ),
  })
  .meta({ id: "MessagingWebhook", description: "A WhatsApp Cloud API webhook notification." });

const verifyQuery = z.object({
  "hub.mode": z.string().optional().describe("`subscribe`."),
  "hub.verify_token": z.string().optional().describe("Must equal WAKHA_MESSAGING_VERIFY_TOKEN."),
  "hub.challenge": z.string().optional().describe("Echoed back as text/plain when the token matches."),
});

const signatureHeader = z.object({
  "x-hub-signature-256": z.string().optional().describe("`sha256=<hex HMAC-SHA256(app secret, raw body)>`."),
});

function sameText(a: string, b: string): boolean {
  const x = createHmac("sha256", "cmp").update(a).digest();
  const y = createHmac("sha256", "cmp").update(b).digest();
  return timingSafeEqual(x, y);
}

/** Checks `X-Hub-Signature-256` over the raw bytes in constant time. */
export function validHubSignature(secret: string, header: string | undefined, raw: Buffer): boolean {
  if (!header || !/^sha256=[0-9a-fA-F]{64}$/.test(header)) return false;
  const expected = createHmac("sha256", secret).update(raw).digest();
  return timingSafeEqual(Buffer.from(header.slice(7), "hex"), expected);
}

/** Registers /webhooks/messaging in its own scope: raw body parser with the 256 KiB limit, legacy errors. */
export async function messagingRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  rawBodyScope(app, ctx.config.docsUrl);

  const r = app.withTypeProvider<ZodTypeProvider>();
  r.post(
    "/webhooks/messaging",
    {
      bodyLimit: INBOUND_BODY_LIMIT,
      validatorCompiler: passThrough,
      schema: {
        operationId: "receiveMessagingWebhook",
        tags: ["Inbound"],
        summary: "Receive WhatsApp messages (signed)",
        description:
          "The WhatsApp Cloud API webhook. Checked in this order: body size (over 256 KiB is 413), app secret configured " +
          "(503 otherwise), `X-Hub-Signature-256` over the raw body (401). A message from a number a call reached in the last 30 days " +
          "is attached to the latest such call and sent to its owner as `message.received`; a repeated message id is ignored. " +
          "A reply to an order's WhatsApp template (a quick-reply button, or free text read by the intent classifier) settles the order " +
          "(`order.resolved`, channel `whatsapp`); `statuses` (`sent`, `delivered`, `read`, `failed`) are recorded on the message Wakha sent, never backwards. " +
          'Errors are `{"detail": "..."}`.',
        security: [],
        headers: signatureHeader,
        body: messagingPayloadSchema,
        response: {
          200: z.object({ status: z.literal("ok") }).describe("Accepted (duplicates and unmatched senders included)."),
          400: detailSchema.describe("The body is not a WhatsApp webhook payload."),
          401: detailSchema.describe("Missing or wrong `X-Hub-Signature-256`."),
          413: detailSchema.describe("The body is over 256 KiB (checked before the signature)."),
          503: detailSchema.describe("WAKHA_MESSAGING_APP_SECRET is not configured: the endpoint fails closed."),
        },
      },
    },
    async (req) => {
      const secret = ctx.config.WAKHA_MESSAGING_APP_SECRET;
      if (!secret) throw new ApiError("service_unavailable", "The messaging webhook is not configured on this server.");
      const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      if (!validHubSignature(secret, req.headers["x-hub-signature-256"] as string | undefined, raw)) {
        throw new ApiError("invalid_api_key", "Invalid or missing X-Hub-Signature-256.", { status: 401 });
      }
      let json: unknown;
      try {
        json = JSON.parse(raw.toString("utf8"));
      } catch {
        throw new ApiError("bad_request", "The body is not valid JSON.");
      }
      const parsed = messagingPayloadSchema.safeParse(json);
      if (!parsed.success)
        throw new ApiError(
          "bad_request",
          "The body is not a WhatsApp Cloud API webhook payload (entry[].changes[].value).",
        );
      const values = parsed.data.entry.flatMap((e) => e.changes.map((c) => c.value));
      const messages = values.flatMap((v) => v.messages ?? []);
      await receiveMessages(
        ctx,
        messages.map((m) => ({
          id: m.id,
          from: m.from,
          timestamp: m.timestamp,
          type: m.type,
          text: m.text?.body,
          payload: m.button?.payload ?? m.interactive?.button_reply?.id,
          buttonText: m.button?.text ?? m.interactive?.button_reply?.title,
          contextId: m.context?.id,
        })),
        values.flatMap((v) => v.statuses ?? []),
      );
      return { status: "ok" as const };
    },
  );

  r.get(
    "/webhooks/messaging",
    {
      validatorCompiler: passThrough,
      schema: {
        operationId: "verifyMessagingWebhook",
        tags: ["Inbound"],
        summary: "WhatsApp webhook verification handshake",
        description:
          "Answers `hub.challenge` as text/plain when `hub.mode` is `subscribe` and `hub.verify_token` matches WAKHA_MESSAGING_VERIFY_TOKEN; 403 otherwise.",
        security: [],
        querystring: verifyQuery,
        response: {
          200: { description: "The challenge, echoed.", content: { "text/plain": { schema: z.string() } } },
          403: detailSchema.describe("Wrong mode or token, or no verify token configured."),
        },
      },
    },
    async (req, reply) => {
      const query = req.query as Record<string, unknown>;
      const token = ctx.config.WAKHA_MESSAGING_VERIFY_TOKEN;
      const given = typeof query["hub.verify_token"] === "string" ? query["hub.verify_token"] : "";
      const challenge = typeof query["hub.challenge"] === "string" ? query["hub.challenge"] : "";
      if (query["hub.mode"] !== "subscribe" || !token || !sameText(given, token)) {
        throw new ApiError(
          "forbidden",
          token
            ? "Verification refused: wrong hub.mode or hub.verify_token."
            : "Verification refused: no verify token is configured on this server.",
        );
      }
      return reply
        .code(200)
        .type("text/plain; charset=utf-8")
        .header("X-Content-Type-Options", "nosniff")
        .send(challenge);
    },
  );
}
