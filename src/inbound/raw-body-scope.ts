// What every signed inbound endpoint outside /v1 shares (the messaging webhook, the store connectors): the body read
// raw for the signature with the 256 KiB limit checked first, and errors in the legacy `{detail}` shape.
import type { FastifyError, FastifyInstance } from "fastify";
import { z } from "zod";
import { ApiError } from "../errors.ts";
import { sendProblem, toApiError } from "../http/problem.ts";

/** Spec part 8: inbound bodies are at most 256 KiB, checked before the signature. */
export const INBOUND_BODY_LIMIT = 256 * 1024;

export const detailSchema = z
  .object({ detail: z.string() })
  .meta({ id: "LegacyError", description: "Errors outside /v1 keep the legacy shape." });

/** The body is read raw (for the signature) and parsed by the handler; route schemas only document it. */
export const passThrough = () => (data: unknown) => ({ value: data });

/** Sets up an inbound route scope: every content type read as a raw Buffer within the limit, errors rendered. */
export function rawBodyScope(app: FastifyInstance, docsUrl: string): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("*", { parseAs: "buffer", bodyLimit: INBOUND_BODY_LIMIT }, (_req, body, done) =>
    done(null, body),
  );
  app.setErrorHandler((err: FastifyError, request, reply) => {
    const error =
      err.code === "FST_ERR_CTP_BODY_TOO_LARGE"
        ? new ApiError("payload_too_large", `The body is over ${INBOUND_BODY_LIMIT / 1024} KiB.`)
        : toApiError(err, request);
    return sendProblem(request, reply, error, docsUrl);
  });
}
