import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { AppContext } from "../../context.ts";
import { erasureCreateBody, erasureOutSchema, erasureParams } from "../../schemas/erasures.ts";
import { getErasure, requestErasure } from "../../services/erasures.ts";

/** /v1/erasures: erase a customer's personal data on request (issue 36.4). */
export function erasureRoutes(app: FastifyInstance, ctx: AppContext): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.post(
    "/erasures",
    {
      schema: {
        operationId: "createErasure",
        tags: ["Compliance"],
        summary: "Erase a customer's personal data",
        description:
          "Erases, across the account, everything personal about the number: customer names and numbers on calls, transcripts and the " +
          "customer's words, recordings (local or in the bucket), WhatsApp message bodies, the customer fields of stored webhook events. Amounts, " +
          "durations and billing are kept, anonymised; the number stays on the do-not-call list so an objection is still honoured. Answers 202 at " +
          "once; a job does the work (after calls to the number still under way have ended): read `GET /v1/erasures/{id}` until `completed`. " +
          "Each request is a new erasure, audited on the key; a repeat finds nothing left and completes with zero counts.",
        body: erasureCreateBody,
        response: { 202: erasureOutSchema },
      },
    },
    async (req, reply) => {
      const erasure = await requestErasure(ctx, req.principal, req.body);
      return reply.code(202).header("location", `/v1/erasures/${erasure.id}`).send(erasure);
    },
  );

  r.get(
    "/erasures/:id",
    {
      schema: {
        operationId: "getErasure",
        tags: ["Compliance"],
        summary: "Read an erasure: its status, what it erased, the store write-backs to erase there",
        params: erasureParams,
        response: { 200: erasureOutSchema },
      },
      config: { errors: ["erasure_not_found"] },
    },
    (req) => getErasure(ctx, req.principal, req.params.id),
  );
}
