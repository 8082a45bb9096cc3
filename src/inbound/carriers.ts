// The carriers' signed endpoints under /carriers, outside /v1 (issues 12, 29): each carrier in use has an adapter
// (engine/telephony/<vendor>/inbound.ts, built in the composition root) that describes its callbacks and WebSockets
// in its own wire format; this file serves them over HTTP. Bodies are small and form- or JSON-encoded; JSON is kept
// raw too, for signatures over its bytes. No vendor is named here.
import websocket from "@fastify/websocket";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { AppContext } from "../context.ts";
import type { CarrierInbound, CarrierRequest } from "../engine/telephony/inbound.ts";

/** Carrier callbacks are a few hundred bytes; anything much larger is not a carrier's. */
const CARRIER_BODY_LIMIT = 64 * 1024;

/** Carrier endpoints stay out of the OpenAPI document of the /v1 API. */
const HIDDEN = { schema: { hide: true } } as const;

function carrierRequest(request: FastifyRequest): CarrierRequest {
  return {
    params: (request.params ?? {}) as Record<string, string>,
    body: request.body,
    rawBody: (request as FastifyRequest & { rawBody?: string }).rawBody,
    headers: request.headers,
    path: request.url.split("?")[0] ?? request.url,
  };
}

export async function carrierRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const adapters: CarrierInbound[] = ctx.carriers;
  if (adapters.length === 0) return;
  const subprotocols = new Set(adapters.flatMap((a) => (a.subprotocol ? [a.subprotocol] : [])));
  await app.register(websocket, {
    options: {
      maxPayload: CARRIER_BODY_LIMIT,
      handleProtocols: (offered) => [...offered].find((p) => subprotocols.has(p)) ?? false,
    },
  });
  app.addContentTypeParser(
    "application/x-www-form-urlencoded",
    { parseAs: "string", bodyLimit: CARRIER_BODY_LIMIT },
    (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    },
  );
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser(
    "application/json",
    { parseAs: "string", bodyLimit: CARRIER_BODY_LIMIT },
    (request, body, done) => {
      (request as typeof request & { rawBody?: string }).rawBody = body as string;
      try {
        done(null, JSON.parse(body as string));
      } catch (err) {
        (err as { statusCode?: number }).statusCode = 400;
        done(err as Error, undefined);
      }
    },
  );
  // Two adapters of one vendor may share a path (Media Streams calls use ConversationRelay's callbacks, on the same
  // lines): the first registration serves it.
  const served = new Set<string>();
  for (const adapter of adapters) {
    for (const callback of adapter.callbacks) {
      if (served.has(`${callback.method} ${callback.path}`)) continue;
      served.add(`${callback.method} ${callback.path}`);
      app.route({
        method: callback.method,
        url: callback.path,
        ...HIDDEN,
        handler: async (request: FastifyRequest, reply: FastifyReply) => {
          const answer = await callback.handle(carrierRequest(request), request.log);
          reply.code(answer.status);
          if (answer.contentType) reply.type(answer.contentType);
          return answer.body === undefined ? reply.send() : reply.send(answer.body);
        },
      });
    }
    for (const socket of adapter.sockets) {
      if (served.has(`GET ${socket.path}`)) continue;
      served.add(`GET ${socket.path}`);
      app.get(
        socket.path,
        {
          ...HIDDEN,
          websocket: true,
          preValidation: async (request: FastifyRequest, reply: FastifyReply) => {
            const refused = socket.authorize(carrierRequest(request), request.log);
            if (refused) return reply.code(refused.status).send(refused.body);
          },
        },
        (ws, request) => socket.open(ws, carrierRequest(request), request.log),
      );
    }
  }
}
