import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { AppContext } from "../../context.ts";
import { pageSchema } from "../../schemas/common.ts";
import {
  productCreateBody,
  productListParams,
  productListQuery,
  productParams,
  productSchema,
  productUpdateBody,
} from "../../schemas/products.ts";
import { archiveProduct, createProduct, getProduct, listProducts, updateProduct } from "../../services/products.ts";

const ONE = "/shops/:shop_external_id/products/:product_external_id";

/** /v1/shops/{shop_external_id}/products: create, list, read, update, archive. */
export function productRoutes(app: FastifyInstance, ctx: AppContext): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.post(
    "/shops/:shop_external_id/products",
    {
      schema: {
        operationId: "createProduct",
        tags: ["Products"],
        summary: "Create a product with its variants (strict insert)",
        description:
          "An external id already used in the shop, even by an archived product, is 409 `product_external_id_already_exists`: use PATCH to modify a product.",
        params: productListParams,
        body: productCreateBody,
        response: { 201: productSchema },
      },
      config: { errors: ["shop_not_found", "product_external_id_already_exists"] },
    },
    async (req, reply) =>
      reply.code(201).send(await createProduct(ctx, req.principal, req.params.shop_external_id, req.body)),
  );

  r.get(
    "/shops/:shop_external_id/products",
    {
      schema: {
        operationId: "listProducts",
        tags: ["Products"],
        summary: "List a shop's products, newest first",
        params: productListParams,
        querystring: productListQuery,
        response: { 200: pageSchema(productSchema) },
      },
      config: { paginated: true, errors: ["shop_not_found", "invalid_status_filter"] },
    },
    (req) => listProducts(ctx, req.principal, req.params.shop_external_id, { status: req.query.status }, req.query),
  );

  r.get(
    ONE,
    {
      schema: {
        operationId: "getProduct",
        tags: ["Products"],
        summary: "Read an active product with its variants and prices",
        description:
          "A missing, archived or another shop's product is 404 `product_not_found`; an inactive or foreign shop is 404 `shop_not_found`.",
        params: productParams,
        response: { 200: productSchema },
      },
      config: { errors: ["shop_not_found", "product_not_found"] },
    },
    (req) => getProduct(ctx, req.principal, req.params.shop_external_id, req.params.product_external_id),
  );

  r.patch(
    ONE,
    {
      schema: {
        operationId: "updateProduct",
        tags: ["Products"],
        summary: "Rename, reprice, add or retire variants",
        description:
          'Example: `{"variants": [{"variant_external_id": "red-m", "price": "129.00"}, {"variant_external_id": "blue-m", "price": "129.00", "name": "Blue, M"}], "retire_variants": ["green-m"]}`.',
        params: productParams,
        body: productUpdateBody,
        response: { 200: productSchema },
      },
      config: { errors: ["shop_not_found", "product_not_found"] },
    },
    (req) => updateProduct(ctx, req.principal, req.params.shop_external_id, req.params.product_external_id, req.body),
  );

  r.delete(
    ONE,
    {
      schema: {
        operationId: "archiveProduct",
        tags: ["Products"],
        summary: "Archive a product",
        description:
          "Archives the product and answers with the archived record. It then reads as 404 and stays listed under `status=archived` and `all`; its external id stays taken in the shop.",
        params: productParams,
        response: { 200: productSchema },
      },
      config: { errors: ["shop_not_found", "product_not_found"] },
    },
    (req) => archiveProduct(ctx, req.principal, req.params.shop_external_id, req.params.product_external_id),
  );
}
