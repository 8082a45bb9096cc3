// What the console's pages share with its plugin: cookie names, the security policy and the helpers' type.
import type { FastifyReply, FastifyRequest } from "fastify";
import type { AppContext } from "../context.ts";
import type { ConsoleSession } from "../services/console.ts";
import type { Html } from "./html.ts";
import type { Formats } from "./i18n.ts";
import type { View } from "./layout.ts";

export const SESSION_COOKIE = "wakha_session";
export const CSRF_COOKIE = "wakha_csrf";
export const LANG_COOKIE = "wakha_lang";

/** No inline script or style, nothing from another origin, no framing, forms post only to us. */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "media-src 'self'",
  "connect-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join("; ");

declare module "fastify" {
  interface FastifyRequest {
    consoleSession: ConsoleSession | null;
    consoleFormats: Formats;
  }
  interface FastifyContextConfig {
    /** A console route open without a session (sign-in, assets). */
    consolePublic?: boolean;
  }
}

export interface ConsoleHelpers {
  ctx: AppContext;
  /** Cookie options: HttpOnly, SameSite=Strict, path /console, Secure when the public URL is https. */
  cookie: { path: string; httpOnly: true; sameSite: "strict"; secure: boolean };
  view(request: FastifyRequest, reply: FastifyReply): Promise<View>;
  send(reply: FastifyReply, page: Html, status?: number): FastifyReply;
  session(request: FastifyRequest): ConsoleSession;
}
