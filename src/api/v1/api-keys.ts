import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import { pageQuery, pageSchema } from "../../pagination.ts";
import { createApiKey, listApiKeys, listKeyEvents, revokeApiKey } from "../../services/api-keys.ts";

const timestamp = z.string().describe("RFC 3339 UTC timestamp.");
const keyId = z.object({ id: z.string().describe("The key id, a UUID v4.") });

export const apiKeySchema = z.object({
  id: z.string().describe("UUID v4."),
  name: z.string().nullable(),
  prefix: z.string().describe("The first characters of the secret, to recognise it."),
  status: z.enum(["active", "revoked"]),
  created_at: timestamp,
  last_used_at: timestamp.nullable().describe("Updated at most once a minute."),
  revoked_at: timestamp.nullable(),
}).meta({ id: "ApiKey" });

export const createdApiKeySchema = apiKeySchema.pick({ id: true, name: true, prefix: true, status: true, created_at: true }).extend({
  api_key: z.string().describe("The secret. Shown only in this response: store it now."),
}).meta({ id: "CreatedApiKey" });

export const keyEventSchema = z.object({
  id: z.string(),
  type: z.string().describe("`created`, `revoked` or `rate_limited`."),
  detail: z.record(z.string(), z.unknown()),
  created_at: timestamp,
}).meta({ id: "ApiKeyEvent" });

export const createKeyBody = z.strictObject({
  name: z.string().min(1).max(100).optional().describe("A label for the key, for example the worker that uses it."),
});

/** /v1/me/api-keys: create, list, revoke, audit events. */
export function apiKeyRoutes(app: FastifyInstance, ctx: AppContext): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.post("/me/api-keys", {
    schema: {
      operationId: "createApiKey", tags: ["API keys"], summary: "Create an API key (5 per minute)",
      body: createKeyBody.nullish(), response: { 201: createdApiKeySchema },
    },
    config: { rateClass: "api_keys_create" },
  }, async (req, reply) => reply.code(201).send(await createApiKey(ctx, req.principal, req.body ?? {})));

  r.get("/me/api-keys", {
    schema: {
      operationId: "listApiKeys", tags: ["API keys"], summary: "List the account's keys (never their secrets)",
      querystring: z.object(pageQuery), response: { 200: pageSchema(apiKeySchema) },
    },
    config: { paginated: true },
  }, (req) => listApiKeys(ctx, req.principal, req.query));

  r.delete("/me/api-keys/:id", {
    schema: { operationId: "revokeApiKey", tags: ["API keys"], summary: "Revoke a key", params: keyId, response: { 204: z.null().describe("Revoked.") } },
    config: { errors: ["invalid_key_id", "api_key_not_found"] },
  }, async (req, reply) => {
    await revokeApiKey(ctx, req.principal, req.params.id);
    return reply.code(204).send(null);
  });

  r.get("/me/api-keys/:id/events", {
    schema: {
      operationId: "listApiKeyEvents", tags: ["API keys"], summary: "List a key's audit events, newest first",
      params: keyId, querystring: z.object(pageQuery), response: { 200: pageSchema(keyEventSchema) },
    },
    config: { paginated: true, errors: ["invalid_key_id", "api_key_not_found"] },
  }, (req) => listKeyEvents(ctx, req.principal, req.params.id, req.query));
}
