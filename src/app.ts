import { randomUUID } from "node:crypto";
import swagger from "@fastify/swagger";
import Fastify, { type FastifyInstance, LogController } from "fastify";
import { serializerCompiler } from "fastify-type-provider-zod";
import type { AppContext } from "./context.ts";
import { VERSION } from "./version.ts";
import { docsRoutes } from "./api/docs.ts";
import { accountRoutes } from "./api/v1/account.ts";
import { apiKeyRoutes } from "./api/v1/api-keys.ts";
import { callRoutes } from "./api/v1/calls.ts";
import { connectorRoutes } from "./api/v1/connectors.ts";
import { doNotCallRoutes } from "./api/v1/do-not-call.ts";
import { erasureRoutes } from "./api/v1/erasures.ts";
import { retentionRoutes } from "./api/v1/retention.ts";
import { knowledgeRoutes } from "./api/v1/knowledge.ts";
import { simulationRoutes } from "./api/v1/simulations.ts";
import { callingHoursRoutes } from "./api/v1/calling-hours.ts";
import { retryPolicyRoutes } from "./api/v1/retry-policy.ts";
import { whatsappRoutes } from "./api/v1/whatsapp.ts";
import { productRoutes } from "./api/v1/products.ts";
import { orderRoutes } from "./api/v1/orders.ts";
import { analyticsRoutes } from "./api/v1/analytics.ts";
import { shopRoutes } from "./api/v1/shops.ts";
import { webhookRoutes } from "./api/v1/webhooks.ts";
import { carrierRoutes } from "./inbound/carriers.ts";
import { connectorRoutes as storeWebhookRoutes } from "./inbound/connectors.ts";
import { courierWebhookRoutes } from "./inbound/couriers.ts";
import { courierRoutes } from "./api/v1/couriers.ts";
import { handoffRoutes } from "./api/v1/handoff.ts";
import { messagingRoutes } from "./inbound/messaging.ts";
import { mcpRoutes } from "./mcp/server.ts";
import { consoleRoutes } from "./console/plugin.ts";
import { guardV1, versionHeaders } from "./http/guard.ts";
import { swaggerOptions } from "./http/openapi.ts";
import { clientErrorHandler } from "./http/client-errors.ts";
import { capConnectionsPerClient, closeAfterEarlyAnswers, serverTimeoutOptions } from "./http/connection-limits.ts";
import { frameworkErrorHandler, installProblemHandlers } from "./http/problem.ts";
import { redactDeep, redactSecrets } from "./http/secrets.ts";
import { validationErrorFormatter, zodValidatorCompiler } from "./http/validation.ts";
import { bufferedStdout, installRequestLog } from "./http/request-log.ts";

export { VERSION };

/** Masks credentials in a URL before it is logged: by shape anywhere, and credential-named query parameters. */
export function redactQuerySecrets(url: string): string {
  return redactSecrets(url);
}

export interface BuildAppOptions {
  /** Where log lines go (default stdout); tests read them to check that no secret is logged. */
  logStream?: { write(line: string): void };
  /**
   * Only the carriers' routes (/carriers/...): what a `wakha worker` node serves when it places real calls, since a
   * call's live session is in the memory of the node that dialled it and the carrier must reach that node.
   */
  carriersOnly?: boolean;
}

/** Builds the HTTP app on a context built by the composition root (root.ts): plugins, then the explicit list of routes. */
export async function buildApp(ctx: AppContext, options: BuildAppOptions = {}): Promise<FastifyInstance> {
  const v1Headers = versionHeaders(ctx);
  const app = Fastify({
    logger:
      ctx.config.LOG_LEVEL === "silent"
        ? false
        : {
            level: ctx.config.LOG_LEVEL,
            stream: options.logStream ?? bufferedStdout(),
            redact: ["req.headers.authorization"],
            serializers: {
              // Keys pasted into a query string or a path are refused or unknown, but must not reach the logs either.
              req: (req: { method: string; url: string; ip?: string }) => ({
                method: req.method,
                url: redactSecrets(req.url),
                remoteAddress: req.ip,
              }),
            },
            // Every record and message is redacted by the secrets' shapes, whoever logs it (errors quoting a URL included).
            formatters: { log: (record: Record<string, unknown>) => redactDeep(record) as Record<string, unknown> },
            hooks: {
              logMethod(args: unknown[], method: (...a: unknown[]) => void) {
                method.apply(
                  this,
                  args.map((a) => (typeof a === "string" ? redactSecrets(a) : a)),
                );
              },
            },
          },
    // 8 hex digits from randomUUID, which draws from a cached pool of entropy: 0.24 us against 1.9 us for randomBytes(4).
    genReqId: () => randomUUID().slice(0, 8),
    // One line per request instead of Fastify's two (src/http/request-log.ts).
    logController: new LogController({ disableRequestLogging: true }),
    schemaErrorFormatter: validationErrorFormatter,
    bodyLimit: 1024 * 1024,
    routerOptions: { maxParamLength: 500 },
    frameworkErrors: frameworkErrorHandler(ctx.config.docsUrl, v1Headers),
    // Node's own 400/408/431 (before any route runs) in problem+json with a request id, like every other error.
    clientErrorHandler: clientErrorHandler(ctx.config.docsUrl),
    // Header, request (body included) and keep-alive timeouts (README, Configuration: WAKHA_HTTP_*).
    ...serverTimeoutOptions(ctx.config),
  });
  app.setValidatorCompiler(zodValidatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  installProblemHandlers(app, ctx.config.docsUrl);
  installRequestLog(app);
  capConnectionsPerClient(app.server, ctx.config.WAKHA_HTTP_MAX_CONNECTIONS_PER_CLIENT);
  closeAfterEarlyAnswers(app);

  app.addHook("onRequest", async (request, reply) => {
    reply.header("X-Request-Id", request.id);
    if (request.url === "/v1" || request.url.startsWith("/v1/")) reply.headers(v1Headers);
  });

  if (options.carriersOnly) {
    await app.register(async (carriers) => carrierRoutes(carriers, ctx));
    return app;
  }

  await app.register(swagger, swaggerOptions(VERSION, ctx.config.baseUrl));
  await app.register(docsRoutes);

  await app.register(
    async (v1) => {
      guardV1(v1, ctx);
      accountRoutes(v1, ctx);
      apiKeyRoutes(v1, ctx);
      callRoutes(v1, ctx);
      orderRoutes(v1, ctx);
      analyticsRoutes(v1, ctx);
      courierRoutes(v1, ctx);
      handoffRoutes(v1, ctx);
      shopRoutes(v1, ctx);
      productRoutes(v1, ctx);
      webhookRoutes(v1, ctx);
      doNotCallRoutes(v1, ctx);
      callingHoursRoutes(v1, ctx);
      retryPolicyRoutes(v1, ctx);
      whatsappRoutes(v1, ctx);
      connectorRoutes(v1, ctx);
      erasureRoutes(v1, ctx);
      retentionRoutes(v1, ctx);
      knowledgeRoutes(v1, ctx);
      simulationRoutes(v1, ctx);
    },
    { prefix: "/v1" },
  );

  // Outside /v1: signed by the platform, not by an API key; its own body parser and limit.
  await app.register(async (inbound) => messagingRoutes(inbound, ctx));
  await app.register(async (inbound) => storeWebhookRoutes(inbound, ctx));
  await app.register(async (inbound) => courierWebhookRoutes(inbound, ctx));

  // Outside /v1 and out of the OpenAPI document: the carriers' signed callbacks and WebSockets (/carriers/...).
  await app.register(async (carriers) => carrierRoutes(carriers, ctx));

  // Outside /v1: the MCP server, opened by the same API key; its tools call the same services.
  mcpRoutes(app, ctx, { openapi: () => app.swagger(), version: VERSION });

  // Outside /v1 and out of the OpenAPI document: the reseller console (server-rendered pages, a session cookie).
  await app.register(async (console) => consoleRoutes(console, ctx), { prefix: "/console" });

  return app;
}
