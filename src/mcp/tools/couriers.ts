// set_courier, get_courier, delete_courier: a shop's courier webhook (issue 35), /v1/shops/{shop_external_id}/couriers/{courier}.
import { z } from "zod";
import { courierInputSchema, courierParams, courierSchema } from "../../schemas/couriers.ts";
import { deleteCourier, getCourier, setCourier } from "../../services/couriers.ts";
import { defineTool, rootObject } from "./tool.ts";

const PATH = "/v1/shops/{shop_external_id}/couriers/{courier}";
const params = { shop_external_id: courierParams.shape.shop_external_id, courier: courierParams.shape.courier };

export const setCourierTool = defineTool({
  name: "set_courier",
  title: "Receive a courier's parcel events",
  description:
    "Sets the shop's webhook from a courier (`courier`: `yalidine`) with the secret key that signs its deliveries (shown never again). Give the returned `webhook_url` to the courier (Yalidine: its Webhooks dashboard; it checks the address first). Parcels the courier creates for the shop's orders (by order id) are linked to them, and each status change becomes a delivery event on the order (see record_delivery_event and get_order's `delivery`).",
  input: z.strictObject({ ...params, ...courierInputSchema.shape }),
  output: rootObject(courierSchema, "The courier webhook, without its secret."),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  rateClass: "write",
  mirrors: { method: "PUT", path: PATH },
  run: ({ shop_external_id, courier, ...input }, { ctx, who }) =>
    setCourier(ctx, who, shop_external_id, courier, input),
});

export const getCourierTool = defineTool({
  name: "get_courier",
  title: "Read a shop's courier webhook",
  description:
    "Reads the shop's webhook from a courier (`courier`: `yalidine`): the `webhook_url` to give the courier and the last 4 characters of its secret key. A shop without one is not_found; another account's shop is shop_not_found.",
  input: z.strictObject(params),
  output: rootObject(courierSchema, "The courier webhook, without its secret."),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  rateClass: "read",
  mirrors: { method: "GET", path: PATH },
  run: ({ shop_external_id, courier }, { ctx, who }) => getCourier(ctx, who, shop_external_id, courier),
});

export const deleteCourierTool = defineTool({
  name: "delete_courier",
  title: "Remove a shop's courier webhook",
  description:
    "Removes the shop's webhook from a courier (`courier`: `yalidine`): its address answers 404 from then on, so remove it on the courier's side too. The delivery events already recorded stay on the orders. A shop without one is not_found.",
  input: z.strictObject(params),
  output: z.object({ deleted: z.literal(true) }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  rateClass: "write",
  mirrors: { method: "DELETE", path: PATH },
  run: async ({ shop_external_id, courier }, { ctx, who }) => {
    await deleteCourier(ctx, who, shop_external_id, courier);
    return { deleted: true as const };
  },
});

export const COURIER_TOOLS = [setCourierTool, getCourierTool, deleteCourierTool];
