// The reseller console (issue 18), served at /console: server-rendered pages on the same services as /v1, with a
// server-side session opened by an API key. Cookies, form bodies, CSRF tokens and the static assets come from the
// Fastify plugins made for them; this file adds the session, the security headers and the error page.
import { fileURLToPath } from "node:url";
import fastifyCookie from "@fastify/cookie";
import fastifyCsrf from "@fastify/csrf-protection";
import fastifyFormbody from "@fastify/formbody";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../context.ts";
import { ApiError } from "../errors.ts";
import { getAccount } from "../services/accounts.ts";
import { consoleSigningKey, findConsoleSession, getConsoleTimeZone, DEFAULT_TIME_ZONE } from "../services/console.ts";
import { DEFAULT_LOCALE, Formats, isLocale } from "./i18n.ts";
import { errorBox, layout, type View } from "./layout.ts";
import { consolePages } from "./pages.ts";
import { CONTENT_SECURITY_POLICY, type ConsoleHelpers, LANG_COOKIE, SESSION_COOKIE, CSRF_COOKIE } from "./helpers.ts";

const ASSETS = fileURLToPath(new URL("./assets/", import.meta.url));

/** Registers everything under /console; the cookie, form and CSRF plugins stay inside this scope. */
export async function consoleRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const secure = ctx.config.baseUrl.startsWith("https://");
  const cookie = { path: "/console", httpOnly: true as const, sameSite: "strict" as const, secure };
  const hmacKey = await consoleSigningKey(ctx);

  // None of the console's routes belongs in the OpenAPI document of /v1.
  app.addHook("onRoute", (route) => {
    route.schema = { ...route.schema, hide: true };
  });
  await app.register(fastifyCookie);
  await app.register(fastifyFormbody, { bodyLimit: 64 * 1024 });
  await app.register(fastifyCsrf, {
    sessionPlugin: "@fastify/cookie",
    cookieKey: CSRF_COOKIE,
    cookieOpts: { ...cookie, signed: false },
    // Each token is bound to the session it was made for (no cookie tossing), or to "signed-out" on the sign-in form.
    getUserInfo: (req) => req.consoleSession?.idHash ?? "signed-out",
    csrfOpts: { hmacKey, userInfo: true },
    getToken: (req) => (req.body as Record<string, string> | undefined)?.["_csrf"],
  });
  await app.register(fastifyStatic, {
    root: ASSETS,
    prefix: "/assets/",
    decorateReply: false,
    index: false,
    cacheControl: true,
    maxAge: 3600_000,
  });

  app.decorateRequest("consoleSession", null);
  app.decorateRequest("consoleFormats", null as unknown as Formats);

  app.addHook("onRequest", async (request, reply) => {
    reply.headers({
      "Content-Security-Policy": CONTENT_SECURITY_POLICY,
      "X-Content-Type-Options": "nosniff",
      "X-Frame-Options": "DENY",
      "Referrer-Policy": "same-origin",
      "Cross-Origin-Opener-Policy": "same-origin",
      "Cross-Origin-Resource-Policy": "same-origin",
      "Permissions-Policy": "camera=(), microphone=(), geolocation=()",
    });
    if (secure) reply.header("Strict-Transport-Security", "max-age=31536000");
    const lang = request.cookies[LANG_COOKIE];
    const locale = isLocale(lang) ? lang : DEFAULT_LOCALE;
    request.consoleFormats = new Formats(locale, DEFAULT_TIME_ZONE);
    if (request.url.startsWith("/console/assets/")) return;
    request.consoleSession = await findConsoleSession(ctx, request.cookies[SESSION_COOKIE]);
    if (request.consoleSession) {
      request.consoleFormats = new Formats(locale, await getConsoleTimeZone(ctx, request.consoleSession.principal));
      return;
    }
    if (request.routeOptions.config.consolePublic) return;
    // No live session: a stale cookie is cleared; a page asks to sign in (and comes back), anything else is 401.
    if (request.cookies[SESSION_COOKIE]) reply.clearCookie(SESSION_COOKIE, cookie);
    if (
      request.method === "GET" &&
      !request.url.startsWith("/console/calls/events") &&
      !/\/recording(\?|$)/.test(request.url)
    ) {
      const next =
        request.url === "/console" || request.url === "/console/" ? "" : `&next=${encodeURIComponent(request.url)}`;
      return reply.redirect(`/console/sign-in?ended=${request.cookies[SESSION_COOKIE] ? "1" : "0"}${next}`, 303);
    }
    throw new ApiError("invalid_api_key", "The console session is missing or has ended. Sign in again.");
  });

  const helpers: ConsoleHelpers = {
    ctx,
    cookie,
    async view(request, reply) {
      const session = request.consoleSession;
      const account = session ? await getAccount(ctx, session.principal) : null;
      return {
        f: request.consoleFormats,
        csrf: reply.generateCsrf({ userInfo: session?.idHash ?? "signed-out" }),
        path: request.url,
        signedIn: session !== null,
        accountName: account?.name,
      };
    },
    send(reply, page, status = 200) {
      return reply
        .code(status)
        .type("text/html; charset=utf-8")
        .header("Cache-Control", "no-store")
        .send(page.toString());
    },
    session(request) {
      if (!request.consoleSession)
        throw new ApiError("invalid_api_key", "The console session is missing or has ended. Sign in again.");
      return request.consoleSession;
    },
  };

  app.setErrorHandler(async (err: Error & { statusCode?: number; code?: string }, request, reply) => {
    let shown: { slug: string; status: number; detail: string };
    if (err instanceof ApiError) {
      shown = { slug: err.slug, status: err.status, detail: err.message };
      if (err.retryAfterSeconds) reply.header("Retry-After", String(err.retryAfterSeconds));
      for (const [k, v] of Object.entries(err.headers)) if (k.toLowerCase() === "retry-after") reply.header(k, v);
    } else if (err.code?.startsWith("FST_CSRF")) {
      shown = {
        slug: "forbidden",
        status: 403,
        detail:
          "This form has expired or did not come from this console (missing or invalid CSRF token). Go back, reload the page and send it again.",
      };
    } else if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
      shown = {
        slug: err.statusCode === 413 ? "http_error" : "bad_request",
        status: err.statusCode,
        detail: err.message,
      };
    } else {
      request.log.error({ err }, "console error");
      shown = {
        slug: "internal_error",
        status: 500,
        detail: `Something went wrong on our side (request ${request.id}). Try again.`,
      };
    }
    if (request.url.startsWith("/console/calls/events") || /\/recording(\?|$)/.test(request.url)) {
      return reply.code(shown.status).type("text/plain; charset=utf-8").send(`${shown.status} ${shown.detail}`);
    }
    const v = await helpers.view(request, reply).catch(
      () =>
        ({
          f: request.consoleFormats,
          csrf: "",
          path: request.url,
          signedIn: false,
        }) as View,
    );
    return helpers.send(reply, layout(v, v.f.t.error, errorBox(v.f, shown)), shown.status);
  });

  app.setNotFoundHandler(async (request, reply) => {
    const v = await helpers.view(request, reply);
    return helpers.send(
      reply,
      layout(v, v.f.t.notFoundTitle, errorBox(v.f, { slug: "not_found", status: 404, detail: v.f.t.notFound })),
      404,
    );
  });

  consolePages(app, helpers);
}
