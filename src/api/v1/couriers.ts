import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import { courierInputSchema, courierParams, courierSchema } from "../../schemas/couriers.ts";
import { deleteCourier, getCourier, setCourier } from "../../services/couriers.ts";

const ONE = "/shops/:shop_external_id/couriers/:courier";
const ABOUT =
  "A shop's courier webhook (issue 35): the courier posts its parcel events to `webhook_url`, signed with the secret set here; " +
  "a parcel created for one of the shop's orders (by its order id) is linked to it, and each status change becomes a delivery event on " +
  "the order (`delivery` on GET .../orders/{order_external_id}, webhook `order.delivery_updated`).";

/** /v1/shops/{shop_external_id}/couriers/{courier}: set, read, remove. */
export function courierRoutes(app: FastifyInstance, ctx: AppContext): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.put(
    ONE,
    {
      schema: {
        operationId: "setCourier",
        tags: ["Connectors"],
        summary: "Set the shop's courier webhook (replaces it)",
        description: `${ABOUT} The secret is sealed at rest and never returned (only its last 4 characters); the address stays the same when replaced.`,
        params: courierParams,
        body: courierInputSchema,
        response: { 200: courierSchema },
      },
      config: { errors: ["shop_not_found", "service_unavailable"] },
    },
    (req) => setCourier(ctx, req.principal, req.params.shop_external_id, req.params.courier, req.body),
  );

  r.get(
    ONE,
    {
      schema: {
        operationId: "getCourier",
        tags: ["Connectors"],
        summary: "Read the shop's courier webhook",
        description: ABOUT,
        params: courierParams,
        response: { 200: courierSchema },
      },
      config: { errors: ["shop_not_found", "not_found"] },
    },
    (req) => getCourier(ctx, req.principal, req.params.shop_external_id, req.params.courier),
  );

  r.delete(
    ONE,
    {
      schema: {
        operationId: "deleteCourier",
        tags: ["Connectors"],
        summary: "Remove the shop's courier webhook",
        description: "Its address answers 404 from then on; the delivery events already recorded stay on the orders.",
        params: courierParams,
        response: { 204: z.null().describe("Removed.") },
      },
      config: { errors: ["shop_not_found", "not_found"] },
    },
    async (req, reply) => {
      await deleteCourier(ctx, req.principal, req.params.shop_external_id, req.params.courier);
      return reply.code(204).send(null);
    },
  );
}
