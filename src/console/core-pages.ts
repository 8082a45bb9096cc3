// The console's sign-in, sign-out, language switch and settings (the time zone), and its home's address.
// Each handler reads and writes through the services with the session's principal: another account's call, key or
// delivery is "not found" here too.
import type { FastifyInstance } from "fastify";
import { ApiError } from "../errors.ts";
import { closeConsoleSession, openConsoleSession, setConsoleTimeZone } from "../services/console.ts";
import { html, type Html } from "./html.ts";
import { isLocale } from "./i18n.ts";
import { csrfField, errorBox, layout, notice, type View } from "./layout.ts";
import { LANG_COOKIE, SESSION_COOKIE, type ConsoleHelpers } from "./helpers.ts";
import { type Form, one, safeNext } from "./page-kit.ts";

const SIGN_IN_LIMIT_PER_MINUTE = 10;

export function corePages(app: FastifyInstance, h: ConsoleHelpers): void {
  const { ctx } = h;
  app.get("/", async (_req, reply) => reply.redirect("/console/overview", 303));

  // ---- Sign-in, sign-out, language ----------------------------------------------------------------------------

  const signInPage = (v: View, next: string, extra: Html | string = "") =>
    layout(
      v,
      v.f.t.signInTitle,
      html`
${extra}
<p>${v.f.t.signInIntro}</p>
<form method="post" action="/console/sign-in" class="stack" autocomplete="off">
${csrfField(v)}<input type="hidden" name="next" value="${next}">
<label for="api_key">${v.f.t.apiKey}</label>
<input id="api_key" name="api_key" type="password" required autocomplete="off" spellcheck="false" autofocus>
<button type="submit">${v.f.t.signIn}</button>
</form>`,
    );

  app.get<{ Querystring: { next?: string; ended?: string; out?: string } }>(
    "/sign-in",
    { config: { consolePublic: true } },
    async (req, reply) => {
      if (req.consoleSession) return reply.redirect(safeNext(req.query.next), 303);
      const v = await h.view(req, reply);
      const extra =
        req.query.ended === "1" ? notice(v.f.t.sessionEnded) : req.query.out === "1" ? notice(v.f.t.signedOut) : "";
      return h.send(reply, signInPage(v, safeNext(req.query.next), extra));
    },
  );

  app.post<{ Body: Form }>(
    "/sign-in",
    { config: { consolePublic: true }, preHandler: app.csrfProtection },
    async (req, reply) => {
      // Attempts per client address, counted in the shared limiter (Redis with several nodes) before the key is read.
      const limit = Math.max(1, Math.floor(SIGN_IN_LIMIT_PER_MINUTE * ctx.config.WAKHA_RATE_LIMIT_SCALE));
      const decision = await ctx.limiter.consume(`console-sign-in:${req.ip}`, limit, 60_000, ctx.now());
      const next = safeNext(one(req.body, "next"));
      if (!decision.allowed) {
        reply.header("Retry-After", String(decision.retryAfter));
        const v = await h.view(req, reply);
        return h.send(
          reply,
          signInPage(
            v,
            next,
            errorBox(v.f, {
              slug: "rate_limit_exceeded",
              status: 429,
              detail: `Too many sign-in attempts from this address: at most ${limit} per minute. Retry after ${decision.retryAfter} s.`,
            }),
          ),
          429,
        );
      }
      const key = (Array.isArray(req.body?.["api_key"]) ? req.body["api_key"][0] : req.body?.["api_key"]) ?? "";
      try {
        const { token } = await openConsoleSession(ctx, key);
        // A new session replaces the one this browser may still hold (never two live sessions for one cookie jar).
        await closeConsoleSession(ctx, req.cookies[SESSION_COOKIE]);
        reply.setCookie(SESSION_COOKIE, token, h.cookie);
        return reply.redirect(next, 303);
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        const v = await h.view(req, reply);
        return h.send(
          reply,
          signInPage(v, next, errorBox(v.f, { slug: err.slug, status: err.status, detail: err.message })),
          err.status,
        );
      }
    },
  );

  // Signing out a session that has already ended needs no token: there is nothing left to protect.
  app.post(
    "/sign-out",
    {
      config: { consolePublic: true },
      preHandler: (req, reply, done) => (req.consoleSession ? app.csrfProtection.call(app, req, reply, done) : done()),
    },
    async (req, reply) => {
      await closeConsoleSession(ctx, req.cookies[SESSION_COOKIE]);
      reply.clearCookie(SESSION_COOKIE, h.cookie);
      return reply.redirect("/console/sign-in?out=1", 303);
    },
  );

  app.post<{ Body: Form }>(
    "/lang",
    { config: { consolePublic: true }, preHandler: app.csrfProtection },
    async (req, reply) => {
      const lang = one(req.body, "lang");
      if (isLocale(lang)) reply.setCookie(LANG_COOKIE, lang, { ...h.cookie, maxAge: 365 * 24 * 3600 });
      return reply.redirect(safeNext(one(req.body, "next")), 303);
    },
  );

  // ---- Settings -------------------------------------------------------------------------------------------------

  app.get<{ Querystring: { saved?: string } }>("/settings", async (req, reply) => {
    h.session(req);
    const v = await h.view(req, reply);
    const {
      f: { t },
    } = v;
    return h.send(
      reply,
      layout(
        v,
        t.settingsTitle,
        html`${req.query.saved ? notice(t.saved) : ""}
<form method="post" action="/console/settings" class="stack">${csrfField(v)}
<label for="tz">${t.timeZone}</label>
<select id="tz" name="time_zone">${["UTC", ...Intl.supportedValuesOf("timeZone")].map((z) => html`<option${z === v.f.timeZone ? html` selected` : ""}>${z}</option>`)}</select>
<button type="submit">${t.save}</button></form>`,
      ),
    );
  });

  app.post<{ Body: Form }>("/settings", { preHandler: app.csrfProtection }, async (req, reply) => {
    await setConsoleTimeZone(ctx, h.session(req).principal, one(req.body, "time_zone") ?? "");
    return reply.redirect("/console/settings?saved=1", 303);
  });
}
