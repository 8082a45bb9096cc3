import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import { pageQuery, pageSchema } from "../../schemas/common.ts";
import { apiKeySchema, createdApiKeySchema, createKeyBody, keyEventSchema, keyIdParams } from "../../schemas/keys.ts";
import { createApiKey, listApiKeys, listKeyEvents, revokeApiKey } from "../../services/api-keys.ts";

/** /v1/me/api-keys: create, list, revoke, audit events. */
export function apiKeyRoutes(app: FastifyInstance, ctx: AppContext): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.post(
    "/me/api-keys",
    {
      schema: {
        operationId: "createApiKey",
        tags: ["API keys"],
        summary: "Create an API key (5 per minute)",
        body: createKeyBody.nullish(),
        response: { 201: createdApiKeySchema },
      },
      config: { rateClass: "api_keys_create" },
    },
    async (req, reply) => reply.code(201).send(await createApiKey(ctx, req.principal, req.body ?? {})),
  );

  r.get(
    "/me/api-keys",
    {
      schema: {
        operationId: "listApiKeys",
        tags: ["API keys"],
        summary: "List the account's keys (never their secrets)",
        querystring: z.object(pageQuery),
        response: { 200: pageSchema(apiKeySchema) },
      },
      config: { paginated: true },
    },
    (req) => listApiKeys(ctx, req.principal, req.query),
  );

  r.delete(
    "/me/api-keys/:id",
    {
      schema: {
        operationId: "revokeApiKey",
        tags: ["API keys"],
        summary: "Revoke a key",
        params: keyIdParams,
        response: { 204: z.null().describe("Revoked.") },
      },
      config: { errors: ["invalid_key_id", "api_key_not_found"] },
    },
    async (req, reply) => {
      await revokeApiKey(ctx, req.principal, req.params.id);
      return reply.code(204).send(null);
    },
  );

  r.get(
    "/me/api-keys/:id/events",
    {
      schema: {
        operationId: "listApiKeyEvents",
        tags: ["API keys"],
        summary: "List a key's audit events, newest first",
        params: keyIdParams,
        querystring: z.object(pageQuery),
        response: { 200: pageSchema(keyEventSchema) },
      },
      config: { paginated: true, errors: ["invalid_key_id", "api_key_not_found"] },
    },
    (req) => listKeyEvents(ctx, req.principal, req.params.id, req.query),
  );
}
