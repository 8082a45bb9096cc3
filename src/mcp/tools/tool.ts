// What a Wakha MCP tool is, and how one call runs: rate limit, arguments, the service, then either
// structured content or a catalogue error. Tools never loop back over HTTP; they call the services.
import type { CallToolResult, ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import type { FastifyError, FastifyRequest } from "fastify";
import { z } from "zod";
import type { AppContext, Principal } from "../../context.ts";
import { ApiError, ERRORS } from "../../errors.ts";
import { enforceRateLimit, type RateClass } from "../../http/guard.ts";
import { toApiError } from "../../http/problem.ts";
import { toValidationEntries } from "../../http/validation.ts";

/** The live OpenAPI document, as `app.swagger()` returns it. */
export type OpenApiGetter = () => unknown;

/** What one tool call runs with: built per MCP request, after authentication. */
export interface ToolEnv {
  ctx: AppContext;
  who: Principal;
  openapi: OpenApiGetter;
  /** The HTTP request carrying the MCP message: its id is the `request_id` of errors, its logger logs bugs. */
  request: FastifyRequest;
}

/** The REST operation a tool mirrors, for list_endpoints and get_endpoint_spec. */
export interface Mirror {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  path: string;
}

export interface WakhaTool<I extends z.ZodObject = z.ZodObject, O extends z.ZodObject = z.ZodObject> {
  name: string;
  title: string;
  /** Written for a model that has never seen the API: what it does, when to use it, the rules that bite. */
  description: string;
  input: I;
  output: O;
  annotations: ToolAnnotations;
  /** The per-key bucket of the REST route it mirrors; self-description tools count as reads. */
  rateClass: RateClass;
  mirrors?: Mirror;
  run(args: z.output<I>, env: ToolEnv): Promise<z.input<O>>;
}

/** Keeps each tool's argument and result types checked where it is written, then erases them for the registry. */
export function defineTool<I extends z.ZodObject, O extends z.ZodObject>(tool: WakhaTool<I, O>): WakhaTool {
  return tool as unknown as WakhaTool;
}

/** A schema with an OpenAPI component id is emitted as a `$ref`; an MCP input or output schema must be an object at its root. */
export function rootObject<T extends z.ZodRawShape>(schema: z.ZodObject<T>, description?: string): z.ZodObject<T> {
  const copy = z.object(schema.shape);
  return description ? copy.describe(description) : copy;
}

/** Parses tool arguments (or a part of them) with a REST schema; a violation is `validation_error` with Pydantic entries under `arguments`. */
export function parseArguments<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value, { reportInput: true });
  if (result.success) return result.data;
  throw new ApiError(
    "validation_error",
    'The arguments do not match the tool\'s input schema; see `errors` (each `loc` starts with "arguments").',
    {
      extensions: { errors: toValidationEntries(result.error.issues, "arguments") },
    },
  );
}

/**
 * The error object of a failed tool call: the slug to route on, what happened, what to do (the catalogue's remedy
 * unless the error carries a more precise one), plus the slug's extension fields.
 */
export function toolErrorBody(error: ApiError, env: ToolEnv): Record<string, unknown> {
  const entry = ERRORS[error.slug];
  return {
    error: error.slug,
    title: error.slug === "http_error" ? `HTTP ${error.status}` : entry.title,
    status: error.status,
    detail: error.message,
    remedy: entry.remedy,
    type: `${env.ctx.config.docsUrl}/errors/${error.slug}`,
    request_id: env.request.id,
    ...error.extensions,
    // A service's issues are relative to the operation's input, which on MCP is the tool's arguments.
    ...(error.issues
      ? { errors: error.issues.map((i) => ({ loc: ["arguments", ...i.path], msg: i.msg, type: i.type })) }
      : {}),
    ...(error.retryAfterSeconds !== null ? { retry_after: error.retryAfterSeconds } : {}),
  };
}

/**
 * Runs one tool call. A failure is a result with `isError: true` whose text is the JSON error object. It carries
 * no `structuredContent`: the SDK 1.x client validates structuredContent against the tool's outputSchema even on
 * errors (modelcontextprotocol/typescript-sdk#1943), so an error object there would turn every failure into a
 * protocol error for such clients and hide the slug and remedy.
 */
export async function callTool(tool: WakhaTool, rawArgs: unknown, env: ToolEnv): Promise<CallToolResult> {
  try {
    // As on REST, the call counts before its input is read: an invalid call still spends a request.
    await enforceRateLimit(env.ctx, env.who, tool.rateClass, `MCP ${tool.name}`);
    const args = parseArguments(tool.input, rawArgs ?? {});
    const result = await tool.run(args, env);
    // Encoding with the output schema drops anything the schema does not declare, as the REST serializer does.
    const structured = tool.output.encode(result as never) as Record<string, unknown>;
    return { content: [{ type: "text", text: JSON.stringify(structured) }], structuredContent: structured };
  } catch (err) {
    const error = toApiError(err as FastifyError, env.request);
    return { isError: true, content: [{ type: "text", text: JSON.stringify(toolErrorBody(error, env)) }] };
  }
}
