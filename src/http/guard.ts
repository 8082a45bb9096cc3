import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { AppContext, Principal } from "../context.ts";
import { ApiError } from "../errors.ts";
import { recordKeyEvent } from "../services/api-keys.ts";
import { refuseKeyInQuery } from "./secrets.ts";

/** Per-key limits per minute by route class (spec part 8); `write` covers the mutations the spec leaves open. */
export const RATE_LIMITS = {
  calls_create: 60,
  calls_cancel: 120,
  read: 600,
  webhooks: 10,
  api_keys_create: 5,
  write: 300,
  /** POST /v1/simulations and simulate_call (issue 37.3): each runs a whole conversation. */
  simulations: 20,
} as const;

export type RateClass = keyof typeof RATE_LIMITS;
const WINDOW_MS = 60_000;

declare module "fastify" {
  interface FastifyRequest {
    principal: Principal;
  }
  interface FastifyContextConfig {
    /** Which per-key bucket the route counts against; GET defaults to `read`, other methods to `write`. */
    rateClass?: RateClass;
  }
}

const unauthorized = () =>
  new ApiError("invalid_api_key", "Send `Authorization: Bearer <API_KEY>` with an active API key.", {
    headers: { "WWW-Authenticate": 'Bearer realm="wakha"' },
  });

/** Resolves the Bearer key exactly as received (spec 5.2): anything but `Bearer <key>` is a 401. */
export async function authenticate(ctx: AppContext, header: string | undefined): Promise<Principal> {
  if (header === undefined || !header.startsWith("Bearer ") || header.length === 7) throw unauthorized();
  const principal = await ctx.keys.authenticate(header.slice(7));
  if (!principal) throw unauthorized();
  return principal;
}

/** Counts the request in the key's bucket; a refusal is recorded on the key as `rate_limited`. */
export async function enforceRateLimit(
  ctx: AppContext,
  principal: Principal,
  rateClass: RateClass,
  what: string,
): Promise<Record<string, string>> {
  const limit = Math.max(1, Math.floor(RATE_LIMITS[rateClass] * ctx.config.WAKHA_RATE_LIMIT_SCALE));
  const decision = await ctx.limiter.consume(`${principal.keyId}:${rateClass}`, limit, WINDOW_MS, ctx.now());
  const headers = {
    "X-RateLimit-Limit": String(decision.limit),
    "X-RateLimit-Remaining": String(decision.remaining),
    "X-RateLimit-Reset": String(decision.reset),
  };
  if (decision.allowed) return headers;
  await recordKeyEvent(ctx.db, principal.keyId, "rate_limited", { rate_class: rateClass, limit, request: what });
  throw new ApiError(
    "rate_limit_exceeded",
    `This key is over its limit of ${limit} requests per minute for ${rateClass.replace("_", " ")} requests. Retry after ${decision.retryAfter} s.`,
    {
      extensions: { retry_after: decision.retryAfter },
      headers: { ...headers, "Retry-After": String(decision.retryAfter) },
    },
  );
}

/** onRequest hook of every /v1 route: authentication, then the rate limit, before the body is even read. */
export function guardV1(app: FastifyInstance, ctx: AppContext): void {
  app.decorateRequest("principal", null as unknown as Principal);
  app.addHook("onRequest", async (request: FastifyRequest, reply: FastifyReply) => {
    // As on /mcp: a key in the URL is refused before anything else, whether or not it is valid.
    refuseKeyInQuery(request.url);
    const principal = await authenticate(ctx, request.headers.authorization);
    const rateClass =
      request.routeOptions.config.rateClass ??
      (request.method === "GET" || request.method === "HEAD" ? "read" : "write");
    const headers = await enforceRateLimit(
      ctx,
      principal,
      rateClass,
      `${request.method} ${request.routeOptions.url ?? request.url}`,
    );
    reply.headers(headers);
    request.principal = principal;
  });
}

/** X-API-Version on every /v1 response, plus Sunset (RFC 8594) and Deprecation (RFC 9745) when configured. */
export function versionHeaders(ctx: AppContext): Record<string, string> {
  const headers: Record<string, string> = { "X-API-Version": "1" };
  if (ctx.config.WAKHA_V1_SUNSET) headers["Sunset"] = ctx.config.WAKHA_V1_SUNSET.toUTCString();
  if (ctx.config.WAKHA_V1_DEPRECATION)
    headers["Deprecation"] = `@${Math.floor(ctx.config.WAKHA_V1_DEPRECATION.getTime() / 1000)}`;
  return headers;
}
