import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { AppContext } from "../../context.ts";
import { retentionSchema } from "../../schemas/retention.ts";
import { getRetention, setRetention } from "../../services/retention.ts";

/** /v1/me/retention: how long recordings and transcripts are kept (issue 36.5). */
export function retentionRoutes(app: FastifyInstance, ctx: AppContext): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    "/me/retention",
    {
      schema: {
        operationId: "getRetention",
        tags: ["Compliance"],
        summary: "Read the account's retention of recordings and transcripts",
        response: { 200: retentionSchema },
      },
    },
    (req) => getRetention(ctx, req.principal),
  );

  r.put(
    "/me/retention",
    {
      schema: {
        operationId: "setRetention",
        tags: ["Compliance"],
        summary: "Set the account's retention of recordings and transcripts",
        description:
          "Both fields are required. The hourly sweep purges what is older than the new retention, including what was kept under the old one.",
        body: retentionSchema,
        response: { 200: retentionSchema },
      },
    },
    (req) => setRetention(ctx, req.principal, req.body),
  );
}
