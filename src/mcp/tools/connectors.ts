// get_connector, set_connector, delete_connector, sync_connector, list_connector_events: a shop's store connector
// (/v1/shops/{shop_external_id}/connector, issue 17).
import { z } from "zod";
import { pageQuery, pageSchema } from "../../schemas/common.ts";
import {
  connectorEventSchema,
  connectorInputSchema,
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
import { defineTool, parseArguments, rootObject } from "./tool.ts";

const shopKey = {
  shop_external_id: z.string().min(1).describe("The `external_id` of the shop whose store is connected."),
};
const connector = rootObject(connectorSchema, "A shop's store connector, without its credentials.");

export const getConnectorTool = defineTool({
  name: "get_connector",
  title: "Read a shop's store connector",
  description:
    "Reads the store connector of a shop: the platform (`shopify`, `youcan`, `woocommerce`), the store's address, the last 4 characters of the credential and of the webhook secret (never the secrets), the `webhook_url` the platform must post its order-created webhooks to, and when the catalogue was last imported. Cash-on-delivery orders placed in the store then become calls, and each resolution is written back to the store. Errors: shop_not_found, connector_not_found.",
  input: z.strictObject(shopKey),
  output: connector,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  rateClass: "read",
  mirrors: { method: "GET", path: "/v1/shops/{shop_external_id}/connector" },
  run: ({ shop_external_id }, { ctx, who }) => getConnector(ctx, who, shop_external_id),
});

export const setConnectorTool = defineTool({
  name: "set_connector",
  title: "Connect a shop's store",
  description:
    "Connects (or replaces the connection of) a shop to its online store so its cash-on-delivery orders are called automatically. Shopify: `store_url` (https://my-store.myshopify.com), `access_token` (shpat_..., scopes read_orders, write_orders, read_products), `webhook_secret` (the app's client secret). YouCan: `access_token`, `webhook_secret`, optional `store_url`. WooCommerce: `store_url`, `consumer_key` (ck_...), `consumer_secret` (cs_...), `webhook_secret`. Secrets are sealed and never shown again. Then register the returned `webhook_url` as the store's order-created webhook (docs/connectors.md). Orders start costing call seconds: confirm with the user first.",
  input: z.strictObject({
    ...shopKey,
    platform: z.enum(["shopify", "youcan", "woocommerce"]),
    store_url: z
      .string()
      .optional()
      .describe("The store's address (Shopify: its myshopify.com address; WooCommerce: the site root)."),
    access_token: z.string().optional().describe("Shopify and YouCan: the API access token."),
    consumer_key: z.string().optional().describe("WooCommerce: the REST API consumer key."),
    consumer_secret: z.string().optional().describe("WooCommerce: the REST API consumer secret."),
    webhook_secret: z.string().describe("The secret the platform signs its webhooks with."),
  }),
  output: connector,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  rateClass: "write",
  mirrors: { method: "PUT", path: "/v1/shops/{shop_external_id}/connector" },
  run: ({ shop_external_id, ...body }, { ctx, who }) =>
    setConnector(ctx, who, shop_external_id, parseArguments(connectorInputSchema, body)),
});

export const deleteConnectorTool = defineTool({
  name: "delete_connector",
  title: "Disconnect a shop's store",
  description:
    "Removes a shop's store connector, its sealed credentials and its log: the store's webhooks are refused from then on and no resolution is written back. Calls already created are kept. Errors: shop_not_found, connector_not_found.",
  input: z.strictObject(shopKey),
  output: z.object({ deleted: z.literal(true).describe("The connector and its credentials are gone.") }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  rateClass: "write",
  mirrors: { method: "DELETE", path: "/v1/shops/{shop_external_id}/connector" },
  run: async ({ shop_external_id }, { ctx, who }) => {
    await deleteConnector(ctx, who, shop_external_id);
    return { deleted: true as const };
  },
});

export const syncConnectorTool = defineTool({
  name: "sync_connector",
  title: "Import a store's catalogue",
  description:
    "Imports the connected store's products and variants into the shop's catalogue: the product's external_id is the platform's product id, the variant's the platform's variant id; prices are updated, variants the store dropped are retired, products it reports inactive are archived. Calls then read catalogue names. Errors: connector_not_found, store_api_error (the store refused the credentials or is rate-limiting: see detail).",
  input: z.strictObject(shopKey),
  output: rootObject(connectorSyncSchema),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  rateClass: "write",
  mirrors: { method: "POST", path: "/v1/shops/{shop_external_id}/connector/sync" },
  run: ({ shop_external_id }, { ctx, who }) => syncConnectorCatalogue(ctx, who, shop_external_id),
});

export const listConnectorEventsTool = defineTool({
  name: "list_connector_events",
  title: "Read a store connector's log",
  description:
    "Lists a connector's log, newest first: orders received (`call_created` with the call id, `skipped` with reason `paid` or `not_cod`, `rejected` with reasons such as `phone_not_normalisable`, `currency_mismatch`, `insufficient_balance`), write-backs of resolutions (`pending`, `succeeded`, `failed` with `attempts` and `last_error`, or `skipped` with reason `nothing_to_write` when the platform has no way to show that resolution; the note is in `detail`), refused webhooks and catalogue imports. Pages hold `limit` entries (1 to 100); when `has_more`, call again with `cursor` = `next_cursor`.",
  input: z.strictObject({ ...shopKey, ...pageQuery }),
  output: pageSchema(connectorEventSchema),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  rateClass: "read",
  mirrors: { method: "GET", path: "/v1/shops/{shop_external_id}/connector/events" },
  run: ({ shop_external_id, ...page }, { ctx, who }) => listConnectorEvents(ctx, who, shop_external_id, page),
});

export const retryConnectorEventTool = defineTool({
  name: "retry_connector_event",
  title: "Send a failed store write-back again",
  description:
    "Sends a `failed` write-back of a store connector again (from list_connector_events: type `write_back`, status `failed`, with `reason` such as `store_refused` or `credentials_refused`): it becomes `pending` with its attempts counted afresh, and the order's current resolution is written to the store again. Fix the cause first (set_connector for refused credentials). Errors: connector_not_found, not_found (not this connector's write-back), conflict (it has not failed).",
  input: z.strictObject({
    ...shopKey,
    event_id: z.string().min(1).describe("The write-back's `id` from list_connector_events."),
  }),
  output: rootObject(connectorEventSchema, "The write-back, now pending."),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  rateClass: "write",
  mirrors: { method: "POST", path: "/v1/shops/{shop_external_id}/connector/events/{event_id}/retry" },
  run: ({ shop_external_id, event_id }, { ctx, who }) => retryConnectorEvent(ctx, who, shop_external_id, event_id),
});

export const CONNECTOR_TOOLS = [
  getConnectorTool,
  setConnectorTool,
  deleteConnectorTool,
  syncConnectorTool,
  listConnectorEventsTool,
  retryConnectorEventTool,
];
