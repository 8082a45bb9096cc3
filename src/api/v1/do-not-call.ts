import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import { pageSchema } from "../../schemas/common.ts";
import {
  doNotCallCreateBody,
  doNotCallEntrySchema,
  doNotCallListQuery,
  doNotCallParams,
} from "../../schemas/do-not-call.ts";
import { addDoNotCall, getDoNotCall, listDoNotCall, removeDoNotCall } from "../../services/do-not-call.ts";

/** /v1/me/do-not-call: numbers the account never calls (issue 15). */
export function doNotCallRoutes(app: FastifyInstance, ctx: AppContext): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.post(
    "/me/do-not-call",
    {
      schema: {
        operationId: "addDoNotCall",
        tags: ["Do not call"],
        summary: "List a number: it is never called",
        description:
          "Idempotent: 201 with the new entry, or 200 with the existing one, unchanged, when the number is already listed. " +
          "From then on `POST /v1/calls` to this number is 422 `number_do_not_call`, and the calls still queued to it end at once " +
          "(`failed` with `end_reason` `number_do_not_call`, unbilled, each with its `call.ended` webhook).",
        body: doNotCallCreateBody,
        response: { 200: doNotCallEntrySchema, 201: doNotCallEntrySchema },
      },
    },
    async (req, reply) => {
      const { entry, created } = await addDoNotCall(ctx, req.principal, req.body);
      return reply.code(created ? 201 : 200).send(entry);
    },
  );

  r.get(
    "/me/do-not-call",
    {
      schema: {
        operationId: "listDoNotCall",
        tags: ["Do not call"],
        summary: "List the do-not-call numbers, most recent first",
        querystring: doNotCallListQuery,
        response: { 200: pageSchema(doNotCallEntrySchema) },
      },
      config: { paginated: true },
    },
    (req) => listDoNotCall(ctx, req.principal, req.query),
  );

  r.get(
    "/me/do-not-call/:phone_number",
    {
      schema: {
        operationId: "getDoNotCall",
        tags: ["Do not call"],
        summary: "Read one listed number",
        params: doNotCallParams,
        response: { 200: doNotCallEntrySchema },
      },
      config: { errors: ["not_found"] },
    },
    (req) => getDoNotCall(ctx, req.principal, req.params.phone_number),
  );

  r.delete(
    "/me/do-not-call/:phone_number",
    {
      schema: {
        operationId: "removeDoNotCall",
        tags: ["Do not call"],
        summary: "Remove a number from the list",
        description: "Idempotent: 204 whether or not the number was listed.",
        params: doNotCallParams,
        response: { 204: z.null().describe("Not listed (any more).") },
      },
    },
    async (req, reply) => {
      await removeDoNotCall(ctx, req.principal, req.params.phone_number);
      return reply.code(204).send(null);
    },
  );
}
