// POST /mcp: the MCP server (Streamable HTTP, stateless). Each request is authenticated with the API key before
// any MCP exchange, then gets its own server and transport: no session state lives between requests, so any
// API node can answer any request.
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  type ListToolsResult,
  McpError,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import type { AppContext } from "../context.ts";
import { ApiError } from "../errors.ts";
import { authenticate } from "../http/guard.ts";
import { refuseKeyInQuery } from "../http/secrets.ts";
import { callTool, type OpenApiGetter, type ToolEnv, type WakhaTool } from "./tools/tool.ts";
import { ACCOUNT_TOOLS } from "./tools/account.ts";
import { CALL_TOOLS } from "./tools/calls.ts";
import { CONNECTOR_TOOLS } from "./tools/connectors.ts";
import { DO_NOT_CALL_TOOLS } from "./tools/do-not-call.ts";
import { ERASURE_TOOLS } from "./tools/erasures.ts";
import { KNOWLEDGE_TOOLS } from "./tools/knowledge.ts";
import { SIMULATION_TOOLS } from "./tools/simulations.ts";
import { RETENTION_TOOLS } from "./tools/retention.ts";
import { CALLING_POLICY_TOOLS, RETRY_POLICY_TOOLS } from "./tools/calling-policy.ts";
import { ORDER_TOOLS } from "./tools/orders.ts";
import { ANALYTICS_TOOLS } from "./tools/analytics.ts";
import { COURIER_TOOLS } from "./tools/couriers.ts";
import { HANDOFF_TOOLS } from "./tools/handoff.ts";
import { PRODUCT_TOOLS } from "./tools/products.ts";
import { mirrorIndex, referenceTools } from "./tools/reference.ts";
import { SHOP_TOOLS } from "./tools/shops.ts";
import { WHATSAPP_TOOLS } from "./tools/whatsapp.ts";

const DOMAIN_TOOLS = [
  ...CALL_TOOLS,
  ...ORDER_TOOLS,
  ...ANALYTICS_TOOLS,
  ...COURIER_TOOLS,
  ...HANDOFF_TOOLS,
  ...ACCOUNT_TOOLS,
  ...SHOP_TOOLS,
  ...PRODUCT_TOOLS,
  ...DO_NOT_CALL_TOOLS,
  ...CALLING_POLICY_TOOLS,
  ...RETRY_POLICY_TOOLS,
  ...WHATSAPP_TOOLS,
  ...CONNECTOR_TOOLS,
  ...ERASURE_TOOLS,
  ...RETENTION_TOOLS,
  ...KNOWLEDGE_TOOLS,
  ...SIMULATION_TOOLS,
];

/** The 23 tools of CONTRACT §9, plus get_transcript and redeliver_webhook_delivery (issue 20), and the calling-policy tools (issue 15), get_order and list_orders, get_whatsapp, set_whatsapp and delete_whatsapp (issue 16). */
export const TOOLS: readonly WakhaTool[] = [...DOMAIN_TOOLS, ...referenceTools(mirrorIndex(DOMAIN_TOOLS))];
const BY_NAME = new Map(TOOLS.map((t) => [t.name, t]));

const INSTRUCTIONS = [
  "Wakha phones cash-on-delivery customers in Morocco, Algeria, Tunisia and France, in their dialect, to confirm their orders, and reports each customer's decision.",
  "Typical flow: get_balance, create_shop (once per shop), create_product (optional: ad-hoc item lines need no catalogue), create_call, then get_call or list_calls to read the outcome.",
  "Failures are tool results with isError whose text is a JSON object: route on its `error` slug (explain_error explains any slug), follow its `remedy`, and for rate_limit_exceeded wait `retry_after` seconds.",
  "Retry create_call only with the same idempotency_key and identical arguments; it then returns the same call instead of phoning twice.",
].join("\n");

export interface McpOptions {
  /** The live OpenAPI document (`app.swagger()`), read by list_endpoints and get_endpoint_spec. */
  openapi: OpenApiGetter;
  version: string;
}

/**
 * The tools/list answer, built once per app (mcpRoutes): the JSON Schema conversion McpServer would redo on every
 * tools/list (same converter and options: Zod's, draft-07, input and output sides) costs about 40 ms of CPU, blocking the event loop.
 */
export function toolListing(): ListToolsResult {
  return {
    tools: TOOLS.map((tool) => ({
      name: tool.name,
      title: tool.title,
      description: tool.description,
      inputSchema: z.toJSONSchema(tool.input, { target: "draft-7", io: "input" }) as Tool["inputSchema"],
      outputSchema: z.toJSONSchema(tool.output, { target: "draft-7", io: "output" }) as Tool["outputSchema"],
      annotations: { title: tool.title, ...tool.annotations },
    })),
  };
}

/**
 * One server for one request, acting for the authenticated key. It is the SDK's low-level Server rather than
 * McpServer because both tool methods are ours: tools/list is the cached listing above, and tools/call counts the
 * rate limit before validating the arguments (as REST does) and answers a violation as `validation_error` with the
 * catalogue's entries, where McpServer would validate first and answer plain text.
 */
export function buildMcpServer(env: ToolEnv, version: string, listing: () => ListToolsResult = toolListing): Server {
  const server = new Server(
    { name: "wakha", title: "Wakha", version },
    { capabilities: { tools: {} }, instructions: INSTRUCTIONS },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => listing());
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = BY_NAME.get(request.params.name);
    if (!tool)
      throw new McpError(
        ErrorCode.InvalidParams,
        `Unknown tool "${request.params.name.slice(0, 100)}"; call tools/list for the ${TOOLS.length} tools.`,
      );
    return callTool(tool, request.params.arguments, env);
  });
  return server;
}

async function handleMcp(
  ctx: AppContext,
  options: McpOptions,
  listing: () => ListToolsResult,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<void> {
  refuseKeyInQuery(request.url);
  const who = await authenticate(ctx, request.headers.authorization);
  const server = buildMcpServer({ ctx, who, openapi: options.openapi, request }, options.version, listing);
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  // From here the SDK writes the response; headers set on the reply so far (X-Request-Id) go on the raw one.
  reply.hijack();
  for (const [name, value] of Object.entries(reply.getHeaders()))
    if (value !== undefined) reply.raw.setHeader(name, value);
  reply.raw.on("close", () => {
    void transport.close();
    void server.close();
  });
  try {
    await server.connect(transport);
    await transport.handleRequest(request.raw, reply.raw, request.body);
  } catch (err) {
    request.log.error({ err, request_id: request.id }, "MCP request failed");
    if (!reply.raw.headersSent) {
      reply.raw.writeHead(500, { "Content-Type": "application/json" });
      reply.raw.end(
        JSON.stringify({
          jsonrpc: "2.0",
          error: {
            code: ErrorCode.InternalError,
            message: `Internal error; quote request id ${request.id} to support.`,
          },
          id: null,
        }),
      );
    }
  }
}

// For the OpenAPI document only: the SDK reads and answers the JSON-RPC messages itself.
const jsonRpcMessage = z.looseObject({
  jsonrpc: z.literal("2.0"),
  id: z
    .union([z.string(), z.int()])
    .optional()
    .describe("Absent on notifications, which are answered 202 with no body."),
  method: z.string().describe("For example initialize, notifications/initialized, tools/list, tools/call, ping."),
  params: z.record(z.string(), z.unknown()).optional(),
});
const jsonRpcResponse = z.looseObject({
  jsonrpc: z.literal("2.0"),
  id: z.union([z.string(), z.int(), z.null()]),
  result: z
    .record(z.string(), z.unknown())
    .optional()
    .describe("tools/call results carry `content`, `structuredContent`, and `isError` on failure."),
  error: z
    .object({ code: z.int(), message: z.string() })
    .optional()
    .describe("Protocol errors only (unknown method or tool, malformed message)."),
});

/** POST /mcp; GET and DELETE (SSE streams and sessions) do not exist in stateless mode. */
export function mcpRoutes(app: FastifyInstance, ctx: AppContext, options: McpOptions): void {
  let built: ListToolsResult | undefined;
  const listing = () => (built ??= toolListing());
  app.post(
    "/mcp",
    {
      schema: {
        operationId: "mcp",
        tags: ["MCP"],
        summary: "MCP server (Streamable HTTP, stateless)",
        description:
          "The Model Context Protocol endpoint: 34 tools over the same services, API key and per-key rate limits as /v1 " +
          "(each tool call counts in the bucket of the REST operation it mirrors). Send `Accept: application/json, text/event-stream`; " +
          "answers are JSON. The key is checked before any MCP exchange; a key in the query string is refused. Tool failures are results with " +
          '`isError` whose text is `{"error": slug, "title", "detail", "remedy", ...}`.',
        body: jsonRpcMessage,
        response: {
          200: jsonRpcResponse.describe("The JSON-RPC response."),
          202: z.null().describe("A notification was accepted."),
        },
        security: [{ bearerAuth: [] }],
      },
      // The SDK validates the message and answers JSON-RPC errors; the schema above documents it.
      validatorCompiler: () => (data) => ({ value: data }),
      // The key is checked before the body is read, so an unauthenticated client cannot hold the connection by
      // trickling a body; handleMcp checks again (a cache hit) and takes the principal.
      onRequest: async (request) => {
        refuseKeyInQuery(request.url);
        await authenticate(ctx, request.headers.authorization);
      },
      config: { errors: ["bad_request", "invalid_api_key"] },
    },
    (request, reply) => handleMcp(ctx, options, listing, request, reply),
  );
  const notAllowed = async () => {
    throw new ApiError(
      "http_error",
      "This MCP server is stateless: send every JSON-RPC message with POST /mcp. There is no SSE stream (GET) and no session to delete (DELETE).",
      {
        status: 405,
        headers: { Allow: "POST" },
      },
    );
  };
  app.get("/mcp", { schema: { hide: true } }, notAllowed);
  app.delete("/mcp", { schema: { hide: true } }, notAllowed);
}
