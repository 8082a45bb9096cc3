import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import swagger from "@fastify/swagger";
import Fastify, { type FastifyInstance } from "fastify";
import { serializerCompiler } from "fastify-type-provider-zod";
import type { Config } from "./config.ts";
import type { AppContext } from "./context.ts";
import { Database } from "./db/pool.ts";
import { JobQueue } from "./engine/queue.ts";
import { Paginator } from "./pagination.ts";
import { type RateLimiter, MemoryRateLimiter } from "./ratelimit/limiter.ts";
import { RedisRateLimiter } from "./ratelimit/redis.ts";
import { KeyAuthenticator } from "./services/api-keys.ts";
import { SecretBox } from "./webhooks/secret-box.ts";
import { docsRoutes } from "./api/docs.ts";
import { accountRoutes } from "./api/v1/account.ts";
import { apiKeyRoutes } from "./api/v1/api-keys.ts";
import { callRoutes } from "./api/v1/calls.ts";
import { productRoutes } from "./api/v1/products.ts";
import { shopRoutes } from "./api/v1/shops.ts";
import { webhookRoutes } from "./api/v1/webhooks.ts";
import { messagingRoutes } from "./inbound/messaging.ts";
import { mcpRoutes } from "./mcp/server.ts";
import { guardV1, versionHeaders } from "./http/guard.ts";
import { swaggerOptions } from "./http/openapi.ts";
import { frameworkErrorHandler, installProblemHandlers } from "./http/problem.ts";
import { validationErrorFormatter, zodValidatorCompiler } from "./http/validation.ts";

const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string };
export const VERSION = pkg.version;

export interface ContextOptions {
  databaseUrl: string;
  /** Cursor signing secret; defaults to config.WAKHA_CURSOR_SECRET. */
  cursorSecret?: string | undefined;
  /** Webhook secret sealing key; defaults to config.WAKHA_ENCRYPTION_KEY. */
  encryptionKey?: string | undefined;
  now?: () => number;
  onError?: (err: unknown) => void;
}

const SECRET_PARAMS = /([?&](?:api_key|apikey|key|token|access_token|authorization)=)[^&]*/gi;

/** Masks credential-looking query parameters in a URL before it is logged. */
export function redactQuerySecrets(url: string): string {
  return url.replace(SECRET_PARAMS, "$1[REDACTED]");
}

/** The composition root: one place that picks each dependency's implementation. Starts the job queue. */
export async function createContext(config: Config, options: ContextOptions): Promise<AppContext> {
  const now = options.now ?? Date.now;
  const onError = options.onError ?? (() => {});
  const db = new Database(options.databaseUrl);
  const limiter: RateLimiter = config.REDIS_URL ? new RedisRateLimiter(config.REDIS_URL) : new MemoryRateLimiter();
  const queue = new JobQueue(options.databaseUrl, onError);
  const encryptionKey = options.encryptionKey ?? config.WAKHA_ENCRYPTION_KEY;
  try {
    await queue.start();
  } catch (err) {
    await Promise.allSettled([queue.stop(), limiter.close(), db.close()]);
    throw err;
  }
  return {
    config,
    db,
    now,
    limiter,
    paginator: new Paginator(options.cursorSecret ?? config.WAKHA_CURSOR_SECRET, now),
    keys: new KeyAuthenticator(db, now, onError),
    queue,
    secretBox: encryptionKey ? new SecretBox(encryptionKey) : null,
  };
}

export async function closeContext(ctx: AppContext): Promise<void> {
  await ctx.queue.stop();
  await ctx.limiter.close();
  await ctx.db.close();
}

/** Builds the HTTP app: plugins, then the explicit list of routes. */
export async function buildApp(ctx: AppContext): Promise<FastifyInstance> {
  const v1Headers = versionHeaders(ctx);
  const app = Fastify({
    logger: ctx.config.LOG_LEVEL === "silent" ? false : {
      level: ctx.config.LOG_LEVEL,
      redact: ["req.headers.authorization"],
      serializers: {
        // Keys pasted into a query string are refused, but must not reach the logs either.
        req: (req: { method: string; url: string; ip?: string }) => ({ method: req.method, url: redactQuerySecrets(req.url), remoteAddress: req.ip }),
      },
    },
    genReqId: () => randomBytes(4).toString("hex"),
    schemaErrorFormatter: validationErrorFormatter,
    bodyLimit: 1024 * 1024,
    routerOptions: { maxParamLength: 500 },
    frameworkErrors: frameworkErrorHandler(ctx.config.docsUrl, v1Headers),
  });
  app.setValidatorCompiler(zodValidatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  installProblemHandlers(app, ctx.config.docsUrl);

  app.addHook("onRequest", async (request, reply) => {
    reply.header("X-Request-Id", request.id);
    if (request.url === "/v1" || request.url.startsWith("/v1/")) reply.headers(v1Headers);
  });

  await app.register(swagger, swaggerOptions(VERSION, ctx.config.baseUrl));
  await app.register(docsRoutes);

  await app.register(async (v1) => {
    guardV1(v1, ctx);
    accountRoutes(v1, ctx);
    apiKeyRoutes(v1, ctx);
    callRoutes(v1, ctx);
    shopRoutes(v1, ctx);
    productRoutes(v1, ctx);
    webhookRoutes(v1, ctx);
  }, { prefix: "/v1" });

  // Outside /v1: signed by the platform, not by an API key; its own body parser and limit.
  await app.register(async (inbound) => messagingRoutes(inbound, ctx));

  // Outside /v1: the MCP server, opened by the same API key; its tools call the same services.
  mcpRoutes(app, ctx, { openapi: () => app.swagger(), version: VERSION });

  return app;
}
