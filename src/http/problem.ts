import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import { ApiError, ERRORS, type ErrorSlug } from "../errors.ts";
import type { ValidationEntry } from "./validation.ts";

/** The RFC 7807 body every /v1 error has (spec 7.1), extension fields allowed. */
export const problemSchema = z.looseObject({
  type: z.string().describe("`{docs_url}/errors/<slug>`; route on the slug, it is stable across versions."),
  title: z.string(),
  status: z.int(),
  detail: z.string(),
  instance: z.string().describe("Path of the failed request."),
  request_id: z.string().length(8).describe("Quote it to support; also in the X-Request-Id header."),
  errors: z
    .array(z.object({ loc: z.array(z.union([z.string(), z.int()])), msg: z.string(), type: z.string() }))
    .optional()
    .describe("validation_error only: one entry per problem."),
  retry_after: z.int().optional().describe("rate_limit_exceeded only: seconds to wait."),
  balance_seconds: z.int().optional().describe("insufficient_balance only."),
  required_seconds: z.int().optional().describe("insufficient_balance only."),
  hint: z.string().optional().describe("order_external_id_already_exists only."),
  reason: z.string().optional().describe("webhook_url_rejected only."),
});

/**
 * Paths whose errors are problem+json: /v1 and /mcp. The MCP endpoint is opened by the same API key for the
 * same clients (its 401 and 400 come before any MCP exchange), and spec 7.1 keeps the legacy
 * `{"detail": "..."}` shape only for the inbound messaging webhook; every other path keeps it too.
 */
function usesProblemJson(url: string): boolean {
  return (
    url === "/v1" ||
    url.startsWith("/v1/") ||
    url.startsWith("/v1?") ||
    url === "/mcp" ||
    url.startsWith("/mcp?") ||
    url.startsWith("/mcp/")
  );
}

function statusSlug(status: number): ErrorSlug {
  switch (status) {
    case 400:
      return "bad_request";
    case 401:
      return "invalid_api_key";
    case 403:
      return "forbidden";
    case 404:
      return "not_found";
    case 409:
      return "conflict";
    case 429:
      return "rate_limited";
    case 500:
      return "internal_error";
    case 503:
      return "service_unavailable";
    default:
      return "http_error";
  }
}

export function sendProblem(
  request: FastifyRequest,
  reply: FastifyReply,
  error: ApiError,
  docsUrl: string,
): FastifyReply {
  reply.header("X-Request-Id", request.id);
  for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
  if (error.retryAfterSeconds !== null) reply.header("Retry-After", String(error.retryAfterSeconds));
  if (!usesProblemJson(request.url)) {
    return reply
      .code(error.status)
      .type("application/json")
      .send(JSON.stringify({ detail: error.message }));
  }
  const entry = ERRORS[error.slug];
  const body = {
    type: `${docsUrl}/errors/${error.slug}`,
    title: error.slug === "http_error" ? `HTTP ${error.status}` : entry.title,
    status: error.status,
    detail: error.message,
    instance: request.url.split("?")[0],
    request_id: request.id,
    ...error.extensions,
    // A service's issues are relative to the operation's input, which on REST is the body.
    ...(error.issues
      ? { errors: error.issues.map((i) => ({ loc: ["body", ...i.path], msg: i.msg, type: i.type })) }
      : {}),
  };
  return reply.code(error.status).type("application/problem+json").send(JSON.stringify(body));
}

/** Maps anything thrown (ours, Fastify's, a bug) to an ApiError; bugs are logged and never shown. */
export function toApiError(err: FastifyError & { entries?: ValidationEntry[] }, request: FastifyRequest): ApiError {
  if (err instanceof ApiError) return err;
  if (err.entries) {
    return new ApiError("validation_error", "The request does not match the schema; see `errors`.", {
      extensions: { errors: err.entries },
    });
  }
  if (
    err.code === "FST_ERR_CTP_INVALID_JSON_BODY" ||
    err.code === "FST_ERR_CTP_EMPTY_JSON_BODY" ||
    (err instanceof SyntaxError && err.statusCode === 400)
  ) {
    const msg =
      err.code === "FST_ERR_CTP_EMPTY_JSON_BODY"
        ? "Body is empty but Content-Type is application/json"
        : `JSON decode error: ${err.message}`;
    return new ApiError("validation_error", "The body is not valid JSON.", {
      extensions: { errors: [{ loc: ["body"], msg, type: "json_invalid" }] },
    });
  }
  if (err.code === "22021" || err.code === "22P05") {
    // PostgreSQL refuses NUL and invalid UTF-8 in text: the client's input, not our failure.
    return new ApiError("validation_error", "Text fields must not contain NUL characters.", {
      extensions: {
        errors: [{ loc: ["body"], msg: "Text must not contain NUL (\\u0000) characters", type: "string_type" }],
      },
    });
  }
  const status = err.statusCode ?? 500;
  if (status >= 500) {
    request.log.error({ err, request_id: request.id }, "unexpected error");
    return new ApiError("internal_error", `An unexpected error occurred. Quote request id ${request.id} to support.`);
  }
  const slug = statusSlug(status);
  return new ApiError(slug, err.message, { status });
}

/**
 * Errors Fastify raises before routing (a malformed URL, an over-long path parameter). No onRequest hook has run,
 * so the /v1 headers (X-API-Version, Sunset, Deprecation) are added here.
 */
export function frameworkErrorHandler(docsUrl: string, v1Headers: Record<string, string>) {
  return (err: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (request.url.startsWith("/v1/")) reply.headers(v1Headers);
    return sendProblem(request, reply, toApiError(err, request), docsUrl);
  };
}

/** Installs the one error handler and the not-found handler. */
export function installProblemHandlers(app: FastifyInstance, docsUrl: string): void {
  app.setErrorHandler((err: FastifyError & { entries?: ValidationEntry[] }, request, reply) =>
    sendProblem(request, reply, toApiError(err, request), docsUrl),
  );
  app.setNotFoundHandler((request, reply) =>
    sendProblem(
      request,
      reply,
      new ApiError("not_found", `No route ${request.method} ${request.url.split("?")[0]}.`),
      docsUrl,
    ),
  );
}
