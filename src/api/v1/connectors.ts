import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import { pageSchema } from "../../schemas/common.ts";
import {
  connectorEventSchema,
  connectorEventsQuery,
  connectorInputSchema,
  connectorParams,
  connectorSchema,
  connectorSyncSchema,
} from "../../schemas/connectors.ts";
import {
  deleteConnector,
  getConnector,
  listConnectorEvents,
  retryConnectorEvent,
  setConnector,
  syncConnectorCatalogue,
} from "../../services/connectors.ts";

const ONE = "/shops/:shop_external_id/connector";
const ABOUT =
  "A shop's store connector (issue 17, docs/connectors.md): the store's cash-on-delivery orders become calls as they " +
  "are placed (the platform posts its order webhook to the connector's `webhook_url`), and each order's resolution is written " +
  "back to the store (Shopify: tags `wakha:confirmed`, `wakha:declined`, ... and a note; WooCommerce: status and note; YouCan: status).";

/** /v1/shops/{shop_external_id}/connector: set, read, remove, import the catalogue, read the log. */
export function connectorRoutes(app: FastifyInstance, ctx: AppContext): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.put(
    ONE,
    {
      schema: {
        operationId: "setConnector",
        tags: ["Connectors"],
        summary: "Connect the shop's store (replaces its connector)",
        description:
          `${ABOUT} The credentials and the webhook secret are sealed at rest and never returned (only their last 4 characters). ` +
          "The `webhook_url` stays the same when the connector is replaced.",
        params: connectorParams,
        body: connectorInputSchema,
        response: { 200: connectorSchema },
      },
      config: { errors: ["shop_not_found", "service_unavailable"] },
    },
    (req) => setConnector(ctx, req.principal, req.params.shop_external_id, req.body),
  );

  r.get(
    ONE,
    {
      schema: {
        operationId: "getConnector",
        tags: ["Connectors"],
        summary: "Read the shop's connector",
        description: ABOUT,
        params: connectorParams,
        response: { 200: connectorSchema },
      },
      config: { errors: ["shop_not_found", "connector_not_found"] },
    },
    (req) => getConnector(ctx, req.principal, req.params.shop_external_id),
  );

  r.delete(
    ONE,
    {
      schema: {
        operationId: "deleteConnector",
        tags: ["Connectors"],
        summary: "Disconnect the shop's store",
        description:
          "Removes the connector, its sealed credentials and its log: webhooks to its address answer 404 and no write-back is made any more. Calls already created are kept.",
        params: connectorParams,
        response: { 204: z.null().describe("Removed.") },
      },
      config: { errors: ["shop_not_found", "connector_not_found"] },
    },
    async (req, reply) => {
      await deleteConnector(ctx, req.principal, req.params.shop_external_id);
      return reply.code(204).send(null);
    },
  );

  r.post(
    `${ONE}/sync`,
    {
      schema: {
        operationId: "syncConnector",
        tags: ["Connectors"],
        summary: "Import the store's catalogue into the shop",
        description:
          "Each store product becomes the shop's product whose external_id is the platform's product id, each variant the variant " +
          "whose variant_external_id is the platform's variant id (prices updated, variants the store no longer has retired, products it reports " +
          "as not active archived). Order lines are then matched by these ids, or by SKU against variant_external_id. A refusal by the store is 502 `store_api_error`.",
        params: connectorParams,
        response: { 200: connectorSyncSchema },
      },
      config: { errors: ["shop_not_found", "connector_not_found", "store_api_error"] },
    },
    (req) => syncConnectorCatalogue(ctx, req.principal, req.params.shop_external_id),
  );

  r.get(
    `${ONE}/events`,
    {
      schema: {
        operationId: "listConnectorEvents",
        tags: ["Connectors"],
        summary: "The connector's log, newest first",
        description:
          "Orders taken in (`call_created`, `skipped`, `rejected` with a reason), write-backs (`pending`, `succeeded`, `failed` with attempts and the last error), refused webhooks and catalogue imports.",
        params: connectorParams,
        querystring: connectorEventsQuery,
        response: { 200: pageSchema(connectorEventSchema) },
      },
      config: { paginated: true, errors: ["shop_not_found", "connector_not_found"] },
    },
    (req) => listConnectorEvents(ctx, req.principal, req.params.shop_external_id, req.query),
  );

  r.post(
    `${ONE}/events/:event_id/retry`,
    {
      schema: {
        operationId: "retryConnectorEvent",
        tags: ["Connectors"],
        summary: "Send a failed write-back again",
        description:
          "Puts a `failed` write-back (`store_refused`, `credentials_refused`, `retries_exhausted`...) back to `pending`, its attempts counted " +
          "afresh, and writes the order's current resolution to the store again (retrying rate limits and outages as the first time). " +
          "Fix what made the store refuse first (PUT .../connector for credentials). 404 `not_found` for an id that is not this connector's " +
          "write-back; 409 `conflict` for one that has not failed.",
        params: connectorParams.extend({
          event_id: z.string().describe("The write-back's `id` in GET .../connector/events."),
        }),
        response: { 200: connectorEventSchema },
      },
      config: { errors: ["shop_not_found", "connector_not_found", "not_found", "conflict"] },
    },
    (req) => retryConnectorEvent(ctx, req.principal, req.params.shop_external_id, req.params.event_id),
  );
}
