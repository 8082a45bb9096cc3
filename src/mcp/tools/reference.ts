// list_endpoints, get_endpoint_spec, get_changelog, explain_error: the API describing itself, from the live
// OpenAPI document, CHANGELOG.md and the error catalogue (the same text as /docs/errors).
import { z } from "zod";
import { explainSlug, findOperation, listOperations, readChangelog, referencedSchemas } from "./reference-lookup.ts";
import { defineTool, type WakhaTool } from "./tool.ts";

const READ = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;
const toolName = z
  .string()
  .nullable()
  .describe("The MCP tool that does the same thing; null when none does (use the REST API).");

/** The tool that mirrors each REST operation, keyed "METHOD path". */
export function mirrorIndex(tools: readonly WakhaTool[]): Map<string, string> {
  return new Map(tools.flatMap((t) => (t.mirrors ? [[`${t.mirrors.method} ${t.mirrors.path}`, t.name] as const] : [])));
}

export function referenceTools(mirrors: ReadonlyMap<string, string>): WakhaTool[] {
  const listEndpoints = defineTool({
    name: "list_endpoints",
    title: "List the REST endpoints",
    description:
      "Lists every operation of the Wakha REST API from its live OpenAPI document: method, path, summary, tags, and the MCP tool that does the same thing (`mcp_tool`). Use it to discover what the API offers beyond these tools (API keys, webhooks, recordings), then get_endpoint_spec for one operation's parameters, body, responses and errors. `tag` filters, for example Calls, Shops, Products, Account, Webhooks, API keys.",
    input: z.strictObject({ tag: z.string().optional().describe("Only operations with this tag (case-insensitive).") }),
    output: z.object({
      endpoints: z.array(
        z.object({
          method: z.string(),
          path: z.string().describe("The OpenAPI path template, for example /v1/shops/{external_id}."),
          operation_id: z.string().nullable(),
          summary: z.string().nullable(),
          tags: z.array(z.string()),
          mcp_tool: toolName,
        }),
      ),
      openapi_url: z.string().describe("The whole document, for code generators."),
      docs_url: z.string().describe("The human-readable reference."),
    }),
    annotations: READ,
    rateClass: "read",
    async run({ tag }, { ctx, openapi }) {
      const wanted = tag?.toLowerCase();
      const endpoints = listOperations(openapi())
        .filter((e) => wanted === undefined || e.tags.some((t) => t.toLowerCase() === wanted))
        .map((e) => ({ ...e, mcp_tool: mirrors.get(`${e.method} ${e.path}`) ?? null }));
      return { endpoints, openapi_url: `${ctx.config.baseUrl}/openapi.json`, docs_url: ctx.config.docsUrl };
    },
  });

  const getEndpointSpec = defineTool({
    name: "get_endpoint_spec",
    title: "Read one endpoint's specification",
    description:
      "Returns the OpenAPI operation for one method and path of the REST API, from the live document: parameters, request body schema, responses, and the error slugs it can answer (in the response descriptions), plus every component schema it refers to (`schemas`, keyed by the name after #/components/schemas/). `path` may be the template (/v1/shops/{external_id}), a concrete path (/v1/shops/my-shop) or the path without /v1. Use it before writing code that calls the REST API.",
    input: z.strictObject({
      method: z.string().min(1).max(10).describe("GET, POST, PATCH or DELETE (any case)."),
      path: z.string().min(1).max(500).describe("For example /v1/calls or /v1/calls/{id}/cancel."),
    }),
    output: z.object({
      method: z.string(),
      path: z.string().describe("The documented path template that matched."),
      operation: z.record(z.string(), z.unknown()).describe("The OpenAPI 3.1 operation object, as in /openapi.json."),
      schemas: z
        .record(z.string(), z.unknown())
        .describe("The component schemas the operation refers to, transitively."),
      mcp_tool: toolName,
    }),
    annotations: READ,
    rateClass: "read",
    async run({ method, path }, { openapi }) {
      const doc = openapi();
      const found = findOperation(doc, method, path);
      const upper = method.toUpperCase();
      return {
        method: upper,
        path: found.path,
        operation: found.operation,
        schemas: referencedSchemas(doc, found.operation),
        mcp_tool: mirrors.get(`${upper} ${found.path}`) ?? null,
      };
    },
  });

  const getChangelog = defineTool({
    name: "get_changelog",
    title: "Read the changelog and API versions",
    description:
      "Reports the API versions with their status and any announced end of life (`sunset`, also sent as the Sunset header of every /v1 response), the notes at the top of the changelog, and every release (newest first) with its date and changes grouped as Added, Changed, Deprecated, Removed, Fixed, Security. Use it to check whether the API version you code against is being retired, or what changed since a release.",
    input: z.strictObject({}),
    output: z.object({
      api_versions: z.array(
        z.object({
          version: z.string().describe("The path prefix, for example v1."),
          x_api_version: z.string().describe("The X-API-Version header value."),
          status: z.enum(["current", "deprecated"]),
          deprecation: z.string().nullable().describe("When it was deprecated (RFC 3339); null if not."),
          sunset: z
            .string()
            .nullable()
            .describe("When it stops working (RFC 3339); null when no end of life is announced."),
        }),
      ),
      notes: z.string().describe("The changelog's preamble: format, versioning and sunset policy."),
      releases: z.array(
        z.object({
          version: z.string().describe("A semantic version, or Unreleased."),
          date: z.string().nullable().describe("YYYY-MM-DD; null for Unreleased."),
          changes: z
            .record(z.string(), z.array(z.string()))
            .describe("Items by kind: Added, Changed, Deprecated, Removed, Fixed, Security."),
        }),
      ),
    }),
    annotations: READ,
    rateClass: "read",
    async run(_args, { ctx }) {
      const changelog = readChangelog();
      const deprecation = ctx.config.WAKHA_V1_DEPRECATION?.toISOString() ?? null;
      return {
        api_versions: [
          {
            version: "v1",
            x_api_version: "1",
            status: deprecation ? ("deprecated" as const) : ("current" as const),
            deprecation,
            sunset: ctx.config.WAKHA_V1_SUNSET?.toISOString() ?? null,
          },
        ],
        notes: changelog.notes,
        releases: changelog.releases,
      };
    },
  });

  const explainError = defineTool({
    name: "explain_error",
    title: "Explain an error slug",
    description:
      "Explains an error of the Wakha API or of these tools, or a call's `end_reason` or `outcome` value: when it happens (`cause`) and what to do (`remedy`). Pass the slug, that is the `error` field of a failed tool result, or the end of a REST problem's `type` URI (the whole URI works too). Route your handling on slugs, not HTTP status codes: several slugs share a status. An unknown slug fails with the closest matches in `did_you_mean` and every slug in `slugs`.",
    input: z.strictObject({
      slug: z.string().min(1).max(300).describe("For example shop_not_found, or https://…/docs/errors/shop_not_found."),
    }),
    output: z.object({
      slug: z.string(),
      status: z
        .int()
        .nullable()
        .describe("The HTTP status; null for http_error, which carries the real code in each occurrence."),
      title: z.string(),
      cause: z.string(),
      remedy: z.string(),
      docs_url: z.string(),
      kind: z
        .enum(["error", "end_reason", "outcome"])
        .describe("What the value is: an error slug, a call's `end_reason`, or a call's `outcome`."),
      end_reason: z
        .object({ cause: z.string(), remedy: z.string(), docs_url: z.string() })
        .optional()
        .describe(
          "When an error slug is also a call end reason (insufficient_balance): that end reason's explanation.",
        ),
    }),
    annotations: READ,
    rateClass: "read",
    run: async ({ slug }, { ctx }) => explainSlug(slug, ctx.config.docsUrl),
  });

  return [listEndpoints, getEndpointSpec, getChangelog, explainError];
}
