// The schemas of /v1/me/api-keys: a key as listed (never its secret), a key as created, and its audit events.
import { z } from "zod";
import { safeString, timestamp } from "./common.ts";

export const keyIdParams = z.object({ id: z.string().describe("The key id, a UUID v4.") });

export const apiKeySchema = z
  .object({
    id: z.string().describe("UUID v4."),
    name: z.string().nullable(),
    prefix: z.string().describe("The first characters of the secret, to recognise it."),
    status: z.enum(["active", "revoked"]),
    created_at: timestamp,
    last_used_at: timestamp.nullable().describe("Updated at most once a minute."),
    revoked_at: timestamp.nullable(),
  })
  .meta({ id: "ApiKey" });

export const createdApiKeySchema = apiKeySchema
  .pick({ id: true, name: true, prefix: true, status: true, created_at: true })
  .extend({
    api_key: z.string().describe("The secret. Shown only in this response: store it now."),
  })
  .meta({ id: "CreatedApiKey" });

export const keyEventSchema = z
  .object({
    id: z.string(),
    type: z.string().describe("`created`, `revoked` or `rate_limited`."),
    detail: z.record(z.string(), z.unknown()),
    created_at: timestamp,
  })
  .meta({ id: "ApiKeyEvent" });

export const createKeyBody = z.strictObject({
  name: safeString().min(1).max(100).optional().describe("A label for the key, for example the worker that uses it."),
});

export type ApiKeyOut = z.output<typeof apiKeySchema>;
export type CreatedApiKey = z.output<typeof createdApiKeySchema>;
export type KeyEventOut = z.output<typeof keyEventSchema>;
