import type { FastifyDynamicSwaggerOptions } from "@fastify/swagger";
import { jsonSchemaTransform, jsonSchemaTransformObject } from "fastify-type-provider-zod";
import { z } from "zod";
import { ERRORS, type ErrorSlug } from "../errors.ts";
import { problemSchema } from "./problem.ts";

declare module "fastify" {
  interface FastifyContextConfig {
    /** Error slugs the route can answer besides the common ones; they document its responses. */
    errors?: ErrorSlug[];
    /** A cursor-paginated list: documents invalid_cursor, cursor_expired and service_unavailable. */
    paginated?: boolean;
  }
}

const COMMON_V1: ErrorSlug[] = ["invalid_api_key", "rate_limit_exceeded", "internal_error"];
const PAGINATED: ErrorSlug[] = ["invalid_cursor", "cursor_expired", "service_unavailable"];

const problemJsonSchema = z.toJSONSchema(problemSchema, {
  target: "draft-2020-12",
  io: "output",
  unrepresentable: "any",
});

/** Adds each route's documented error responses, grouped by status, to the generated operation. */
function errorResponses(slugs: ErrorSlug[]): Record<string, unknown> {
  const byStatus = new Map<number, ErrorSlug[]>();
  for (const slug of new Set(slugs)) {
    const status = ERRORS[slug].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), slug]);
  }
  const out: Record<string, unknown> = {};
  for (const [status, group] of [...byStatus].sort((a, b) => a[0] - b[0])) {
    out[String(status)] = {
      description: group.map((s) => `\`${s}\`: ${ERRORS[s].title}.`).join(" "),
      content: { "application/problem+json": { schema: { $ref: "#/components/schemas/Problem" } } },
    };
  }
  return out;
}

export function swaggerOptions(version: string, baseUrl: string): FastifyDynamicSwaggerOptions {
  return {
    openapi: {
      openapi: "3.1.0",
      info: {
        title: "Wakha API",
        version,
        summary: "Order-confirmation voice calls for cash-on-delivery shops.",
        description:
          "Wakha phones cash-on-delivery customers in Moroccan, Algerian or Tunisian Arabic or in French, reads the order back " +
          "and tells you whether they confirm, decline, reschedule or want a change. Errors are RFC 7807 problem+json; route on the slug " +
          "at the end of `type`. Every error slug is described at /docs/errors.",
        license: { name: "Proprietary", identifier: "LicenseRef-Wakha" },
        contact: { name: "Wakha support", url: `${baseUrl}/docs` },
      },
      servers: [{ url: baseUrl, description: "This installation" }],
      tags: [
        { name: "Account", description: "The reseller account: balance, usage and the ledger." },
        { name: "API keys", description: "Keys that authenticate the REST API and the MCP server." },
        { name: "Shops", description: "The shops (boutiques) a reseller manages." },
        { name: "Products", description: "Products and their variants, under a shop." },
        { name: "Calls", description: "Order-confirmation calls." },
        {
          name: "Orders",
          description: "Orders, their calls (attempts) and their one resolution, by voice or WhatsApp.",
        },
        { name: "Calling policy", description: "When customers are called: calling hours in their local time." },
        { name: "Do not call", description: "Numbers the account never calls." },
        { name: "Webhooks", description: "Outbound event deliveries to the reseller." },
        {
          name: "WhatsApp",
          description: "The WhatsApp fallback: templates to customers no call reached, and their replies.",
        },
        { name: "Inbound", description: "Webhooks received from messaging platforms." },
      ],
      components: {
        securitySchemes: {
          bearerAuth: { type: "http", scheme: "bearer", description: "`Authorization: Bearer <API_KEY>`" },
        },
        schemas: { Problem: problemJsonSchema as Record<string, unknown> },
      },
    },
    transform: (input) => {
      const result = jsonSchemaTransform(input);
      const config = input.route.config ?? {};
      const v1 = input.url.startsWith("/v1/");
      const slugs: ErrorSlug[] = [...(config.errors ?? [])];
      if (v1) slugs.push(...COMMON_V1);
      const schema = input.route.schema ?? {};
      if (v1 && (schema.body || schema.querystring)) slugs.push("validation_error");
      if (config.paginated) slugs.push(...PAGINATED);
      const out = result.schema as Record<string, unknown>;
      out["response"] = { ...(out["response"] as object | undefined), ...errorResponses(slugs) };
      if (v1) out["security"] = [{ bearerAuth: [] }];
      return result;
    },
    transformObject: (input) => pruneUnusedSchemas(jsonSchemaTransformObject(input)),
  };
}

/** Drops component schemas nothing refers to (the provider registers an input twin of every output schema). */
function pruneUnusedSchemas<T extends object>(doc: T): T {
  const components = (doc as { components?: { schemas?: Record<string, unknown> } }).components;
  const schemas = components?.schemas;
  if (!schemas) return doc;
  const refs = (value: unknown): string[] => {
    const json = JSON.stringify(value);
    return [...json.matchAll(/"#\/components\/schemas\/([^"]+)"/g)].map((m) => decodeURIComponent(m[1]!));
  };
  const used = new Set<string>();
  const queue = refs({ ...doc, components: { ...components, schemas: {} } });
  while (queue.length) {
    const name = queue.pop()!;
    if (used.has(name) || !(name in schemas)) continue;
    used.add(name);
    queue.push(...refs(schemas[name]));
  }
  for (const name of Object.keys(schemas)) if (!used.has(name)) delete schemas[name];
  return doc;
}
