import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import { ApiError } from "../../errors.ts";
import { parseRange } from "../../http/byte-range.ts";
import { idempotencyKeyHeader } from "../../http/idempotency-header.ts";
import { problemSchema } from "../../http/problem.ts";
import {
  callCreateSchema,
  callIdParams,
  callOutSchema,
  idempotencyHeaders,
  listCallsQuery,
} from "../../schemas/calls.ts";
import { pageSchema } from "../../schemas/common.ts";
import { cancelCall, createCall, getCall, listCalls, openCallRecording } from "../../services/calls.ts";
import { transcriptSchema } from "../../schemas/transcripts.ts";
import { getCallTranscript } from "../../services/transcripts.ts";

const audio = {
  content: { "audio/*": { schema: z.string().meta({ format: "binary" }) } },
};

/** /v1/calls: create (idempotent), list, read, cancel, recording. */
export function callRoutes(app: FastifyInstance, ctx: AppContext): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    "/calls",
    {
      schema: {
        operationId: "createCall",
        tags: ["Calls"],
        summary: "Create a call (60 per minute; Idempotency-Key required)",
        description:
          "Queues a call that confirms an order with the customer. Answers 201 with `Location: /v1/calls/{id}`. " +
          "A repeat with the same Idempotency-Key and body within 24 hours replays the stored response with `X-Idempotent-Replay: true`.",
        headers: idempotencyHeaders,
        body: callCreateSchema,
        response: { 201: callOutSchema },
      },
      config: {
        rateClass: "calls_create",
        errors: [
          "missing_idempotency_key",
          "idempotency_key_empty",
          "idempotency_key_too_long",
          "insufficient_balance",
          "shop_not_found",
          "idempotency_key_conflict",
          "order_external_id_already_exists",
          "conflict",
          "language_not_supported_for_country",
          "channel_not_available",
          "order_item_unknown_product",
          "order_item_variant_required",
          "number_do_not_call",
          "phone_number_not_allowed",
        ],
      },
      // The header rules come before the body is read or validated (spec part 4, rule 1).
      onRequest: async (req) => void idempotencyKeyHeader(req.headers["idempotency-key"]),
    },
    async (req, reply) => {
      const key = idempotencyKeyHeader(req.headers["idempotency-key"]);
      const created = await createCall(ctx, req.principal, req.body, key);
      reply.code(201).header("Location", `/v1/calls/${created.call.id}`);
      if (created.replayed) reply.header("X-Idempotent-Replay", "true");
      // The call's JSON as stored with the key, sent as it is (a string skips the serializer): a replay is identical to
      // the first response, byte for byte.
      return reply.type("application/json; charset=utf-8").send(created.body as never);
    },
  );

  r.get(
    "/calls",
    {
      schema: {
        operationId: "listCalls",
        tags: ["Calls"],
        summary: "List calls, newest first",
        querystring: listCallsQuery,
        response: { 200: pageSchema(callOutSchema) },
      },
      config: { paginated: true, errors: ["invalid_status_filter"] },
    },
    (req) => {
      const { limit, cursor, ...filters } = req.query;
      return listCalls(ctx, req.principal, filters, { limit, cursor });
    },
  );

  r.get(
    "/calls/:id",
    {
      schema: {
        operationId: "getCall",
        tags: ["Calls"],
        summary: "Read a call",
        params: callIdParams,
        response: { 200: callOutSchema },
      },
      config: { errors: ["call_not_found"] },
    },
    (req) => getCall(ctx, req.principal, req.params.id),
  );

  r.get(
    "/calls/:id/transcript",
    {
      schema: {
        operationId: "getCallTranscript",
        tags: ["Calls"],
        summary: "Read a call's two-sided transcript",
        description:
          "Every turn of the agent and the customer with its start and end seconds since the call was answered, and for the " +
          "customer's turns the classifier's intent and confidence. Written when the call ends: `complete` is false and `turns` empty before.",
        params: callIdParams,
        response: { 200: transcriptSchema },
      },
      config: { errors: ["call_not_found"] },
    },
    (req) => getCallTranscript(ctx, req.principal, req.params.id),
  );

  r.post(
    "/calls/:id/cancel",
    {
      schema: {
        operationId: "cancelCall",
        tags: ["Calls"],
        summary: "Cancel a call (120 per minute)",
        description:
          "A queued, ringing or in-progress call becomes `canceled`; an answered call's line is closed within seconds and its " +
          "seconds billed (`ended_at` and `billed_seconds` are filled in then). A call already in a terminal status is 409 `conflict`.",
        params: callIdParams,
        response: { 200: callOutSchema },
      },
      config: { rateClass: "calls_cancel", errors: ["call_not_found", "conflict"] },
    },
    (req) => cancelCall(ctx, req.principal, req.params.id),
  );

  r.get(
    "/calls/:id/recording",
    {
      schema: {
        operationId: "getCallRecording",
        tags: ["Calls"],
        summary: "Read a call's audio (supports Range)",
        description:
          "Streams the recording with its content type and `Accept-Ranges: bytes`; a `Range: bytes=start-end` header gives 206 " +
          "with `Content-Range`, a range outside the file 416. 404 `call_not_found` when no recording was produced, 410 `recording_gone` after the 30-day purge.",
        params: callIdParams,
        response: {
          200: { description: "The whole recording.", ...audio },
          206: { description: "The requested byte range.", ...audio },
          416: {
            description:
              "`http_error` with status 416: the range is outside the recording; `Content-Range: bytes */<size>` gives its size.",
            content: { "application/problem+json": { schema: problemSchema } },
          },
        },
      },
      config: { errors: ["call_not_found", "recording_gone"] },
    },
    async (req, reply) => {
      const recording = await openCallRecording(ctx, req.principal, req.params.id);
      const range = parseRange(req.headers.range, recording.size);
      reply.header("Accept-Ranges", "bytes").header("Cache-Control", "private, no-transform");
      if (range.kind === "unsatisfiable") {
        throw new ApiError("http_error", `The requested range is outside the recording's ${recording.size} bytes.`, {
          status: 416,
          headers: { "Content-Range": `bytes */${recording.size}` },
        });
      }
      reply.type(recording.contentType);
      if (range.kind === "partial") {
        reply
          .code(206)
          .header("Content-Range", `bytes ${range.start}-${range.end}/${recording.size}`)
          .header("Content-Length", String(range.end - range.start + 1));
        return reply.send(recording.stream(range) as never);
      }
      reply.header("Content-Length", String(recording.size));
      return reply.send(recording.stream() as never);
    },
  );
}
