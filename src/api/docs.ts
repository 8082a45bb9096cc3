import type { FastifyInstance } from "fastify";
import scalar from "@scalar/fastify-api-reference";
import { ERRORS, isErrorSlug } from "../errors.ts";
import { END_REASONS, OUTCOMES } from "../domain/end-reasons.ts";

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
// Backticks in the catalogue mark code.
const render = (s: string) => escapeHtml(s).replace(/`([^`]+)`/g, "<code>$1</code>");

/** The errors reference: one section per slug, anchored by the slug (CONTRACT §8). */
export function errorsPage(): string {
  const sections = Object.entries(ERRORS).map(
    ([slug, e]) => `
<section id="${slug}">
  <h2><a href="#${slug}">${slug}</a></h2>
  <p><strong>${e.status === 0 ? "any unmapped 4xx/5xx" : `HTTP ${e.status}`}</strong>: ${escapeHtml(e.title)}</p>
  <p><em>Cause.</em> ${render(e.cause)}</p>
  <p><em>Remedy.</em> ${render(e.remedy)}</p>
</section>`,
  );
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

const ENDINGS_INTRO =
  'A call that has ended has a terminal `status`, an `end_reason` saying why it ended and, when it is `completed`, an `outcome` saying what the customer decided. A `failed` call also carries its cause in `outcome_details.error` (`{"code", "message"}`, never a secret). Both lists are closed: the OpenAPI document gives them as enums.';

/** docs/call-endings.md, generated from the catalogue (test/end-reasons.test.ts keeps the file equal to it). */
export function callEndingsMarkdown(): string {
  const reasons = Object.entries(END_REASONS).map(
    ([k, e]) => `| \`${k}\` | ${e.statuses.map((s) => `\`${s}\``).join(", ")} | ${e.cause} | ${e.remedy} |`,
  );
  const outcomes = Object.entries(OUTCOMES).map(([k, o]) => `| \`${k}\` | ${o.cause} | ${o.remedy} |`);
  return `# How calls end: end reasons and outcomes

<!-- Generated from src/domain/end-reasons.ts (callEndingsMarkdown in src/api/docs.ts); served as HTML at /docs/call-endings. -->

${ENDINGS_INTRO} \`explain_error\` (MCP) explains any value below.

## End reasons (\`end_reason\`)

| Value | Status | Cause | Remedy |
|---|---|---|---|
${reasons.join("\n")}

## Outcomes (\`outcome\`, on \`completed\` calls)

| Value | Meaning | What to do |
|---|---|---|
${outcomes.join("\n")}
`;
}

/** The call endings reference: every end_reason and outcome, anchored by its value (issue 32.4). */
export function callEndingsPage(): string {
  const reasons = Object.entries(END_REASONS).map(
    ([k, e]) => `
<section id="${k}">
  <h3><a href="#${k}">${k}</a></h3>
  <p><strong>status ${e.statuses.join(" or ")}</strong></p>
  <p><em>Cause.</em> ${render(e.cause)}</p>
  <p><em>Remedy.</em> ${render(e.remedy)}</p>
</section>`,
  );
  const outcomes = Object.entries(OUTCOMES).map(
    ([k, o]) => `
<section id="outcome-${k}">
  <h3><a href="#outcome-${k}">${k}</a></h3>
  <p><em>Meaning.</em> ${render(o.cause)}</p>
  <p><em>What to do.</em> ${render(o.remedy)}</p>
</section>`,
  );
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Wakha: how calls end</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font-family:system-ui,sans-serif;max-width:52rem;margin:2rem auto;padding:0 1rem;line-height:1.5}
section{border-top:1px solid #ddd;padding:.5rem 0}h3{font-family:ui-monospace,monospace;font-size:1.05rem}code{background:#f3f3f3;padding:0 .2em}</style>
</head><body>
<h1>How calls end</h1>
<p>${render(ENDINGS_INTRO)} See also the <a href="/docs/errors">errors</a> and the <a href="/docs">API reference</a>.</p>
<h2>End reasons (<code>end_reason</code>)</h2>
${reasons.join("\n")}
<h2>Outcomes (<code>outcome</code>, on <code>completed</code> calls)</h2>
${outcomes.join("\n")}
</body></html>`;
}

/** /openapi.json, the reference at /docs, and the errors reference. */
export async function docsRoutes(app: FastifyInstance): Promise<void> {
  app.get("/openapi.json", { schema: { hide: true } }, () => app.swagger());

  const page = errorsPage();
  app.get("/docs/errors", { schema: { hide: true } }, (_req, reply) =>
    reply.type("text/html; charset=utf-8").send(page),
  );
  const endings = callEndingsPage();
  app.get("/docs/call-endings", { schema: { hide: true } }, (_req, reply) =>
    reply.type("text/html; charset=utf-8").send(endings),
  );
  app.get<{ Params: { slug: string } }>("/docs/errors/:slug", { schema: { hide: true } }, (req, reply) => {
    const slug = req.params.slug;
    return reply.redirect(isErrorSlug(slug) ? `/docs/errors#${slug}` : "/docs/errors", 302);
  });

  await app.register(scalar, {
    routePrefix: "/docs",
    configuration: { url: "/openapi.json", title: "Wakha API reference" },
  });
}
