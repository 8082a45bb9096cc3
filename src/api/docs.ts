import type { FastifyInstance } from "fastify";
import scalar from "@scalar/fastify-api-reference";
import { ERRORS, isErrorSlug } from "../errors.ts";

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
// Backticks in the catalogue mark code.
const render = (s: string) => escapeHtml(s).replace(/`([^`]+)`/g, "<code>$1</code>");

/** The errors reference: one section per slug, anchored by the slug (CONTRACT §8). */
export function errorsPage(): string {
  const sections = Object.entries(ERRORS).map(([slug, e]) => `
<section id="${slug}">
  <h2><a href="#${slug}">${slug}</a></h2>
  <p><strong>${e.status === 0 ? "any unmapped 4xx/5xx" : `HTTP ${e.status}`}</strong>: ${escapeHtml(e.title)}</p>
  <p><em>Cause.</em> ${render(e.cause)}</p>
  <p><em>Remedy.</em> ${render(e.remedy)}</p>
</section>`);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Wakha API errors</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font-family:system-ui,sans-serif;max-width:52rem;margin:2rem auto;padding:0 1rem;line-height:1.5}
section{border-top:1px solid #ddd;padding:.5rem 0}h2{font-family:ui-monospace,monospace;font-size:1.1rem}code{background:#f3f3f3;padding:0 .2em}</style>
</head><body>
<h1>Wakha API errors</h1>
<p>Every error under <code>/v1</code> is <code>application/problem+json</code> (RFC 7807). Route on the slug that ends
<code>type</code>, not on the HTTP status alone: slugs are stable across versions. Quote <code>request_id</code> to support.
See also the <a href="/docs">API reference</a> and <a href="/openapi.json">OpenAPI document</a>.</p>
${sections.join("\n")}
</body></html>`;
}

/** /openapi.json, the reference at /docs, and the errors reference. */
export async function docsRoutes(app: FastifyInstance): Promise<void> {
  app.get("/openapi.json", { schema: { hide: true } }, () => app.swagger());

  const page = errorsPage();
  app.get("/docs/errors", { schema: { hide: true } }, (_req, reply) => reply.type("text/html; charset=utf-8").send(page));
  app.get<{ Params: { slug: string } }>("/docs/errors/:slug", { schema: { hide: true } }, (req, reply) => {
    const slug = req.params.slug;
    return reply.redirect(isErrorSlug(slug) ? `/docs/errors#${slug}` : "/docs/errors", 302);
  });

  await app.register(scalar, {
    routePrefix: "/docs",
    configuration: { url: "/openapi.json", title: "Wakha API reference" },
  });
}
