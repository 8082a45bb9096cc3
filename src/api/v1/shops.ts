import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { AppContext } from "../../context.ts";
import { pageSchema } from "../../schemas/common.ts";
import { shopCreateBody, shopListQuery, shopParams, shopSchema, shopUpdateBody } from "../../schemas/shops.ts";
import { archiveShop, createShop, getShop, listShops, updateShop } from "../../services/shops.ts";

const NOT_FOUND = { errors: ["shop_not_found" as const] };

/** /v1/shops: create, list, read, update, archive. */
export function shopRoutes(app: FastifyInstance, ctx: AppContext): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.post(
    "/shops",
    {
      schema: {
        operationId: "createShop",
        tags: ["Shops"],
        summary: "Create a shop (strict insert)",
        description:
          "Creates a shop. An external id already used on the account, even by an archived shop, is 409 `shop_external_id_already_exists`: use PATCH to modify a shop.",
        body: shopCreateBody,
        response: { 201: shopSchema },
      },
      config: { errors: ["shop_external_id_already_exists"] },
    },
    async (req, reply) => reply.code(201).send(await createShop(ctx, req.principal, req.body)),
  );

  r.get(
    "/shops",
    {
      schema: {
        operationId: "listShops",
        tags: ["Shops"],
        summary: "List the account's shops, newest first",
        querystring: shopListQuery,
        response: { 200: pageSchema(shopSchema) },
      },
      config: { paginated: true, errors: ["invalid_status_filter"] },
    },
    (req) => listShops(ctx, req.principal, { status: req.query.status }, req.query),
  );

  r.get(
    "/shops/:external_id",
    {
      schema: {
        operationId: "getShop",
        tags: ["Shops"],
        summary: "Read an active shop",
        description:
          "A missing, archived or another account's shop is 404 `shop_not_found`; list archived shops with `GET /v1/shops?status=archived`.",
        params: shopParams,
        response: { 200: shopSchema },
      },
      config: NOT_FOUND,
    },
    (req) => getShop(ctx, req.principal, req.params.external_id),
  );

  r.patch(
    "/shops/:external_id",
    {
      schema: {
        operationId: "updateShop",
        tags: ["Shops"],
        summary: "Update an active shop",
        params: shopParams,
        body: shopUpdateBody,
        response: { 200: shopSchema },
      },
      config: NOT_FOUND,
    },
    (req) => updateShop(ctx, req.principal, req.params.external_id, req.body),
  );

  r.delete(
    "/shops/:external_id",
    {
      schema: {
        operationId: "archiveShop",
        tags: ["Shops"],
        summary: "Archive a shop",
        description:
          "Archives the shop and answers with the archived record. It then reads as 404 and stays listed under `status=archived` and `all`; its external id stays taken. Past calls stay readable.",
        params: shopParams,
        response: { 200: shopSchema },
      },
      config: NOT_FOUND,
    },
    (req) => archiveShop(ctx, req.principal, req.params.external_id),
  );
}
