// The self-description the reference tools read: the live OpenAPI document, CHANGELOG.md and the error catalogue.
import { readFileSync } from "node:fs";
import { ApiError, ERRORS, type ErrorSlug, isErrorSlug } from "../../errors.ts";
import { END_REASONS, isEndReason, OUTCOMES } from "../../domain/end-reasons.ts";

const METHODS = ["get", "post", "put", "patch", "delete"] as const;

interface OpenApiDocument {
  paths?: Record<string, Record<string, { operationId?: string; summary?: string; tags?: string[] } | undefined>>;
  components?: { schemas?: Record<string, unknown> };
}

export interface EndpointSummary {
  method: string;
  path: string;
  operation_id: string | null;
  summary: string | null;
  tags: string[];
}

/** Every operation of the document, in its order. */
export function listOperations(doc: unknown): EndpointSummary[] {
  const out: EndpointSummary[] = [];
  for (const [path, item] of Object.entries((doc as OpenApiDocument).paths ?? {})) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      out.push({
        method: method.toUpperCase(),
        path,
        operation_id: op.operationId ?? null,
        summary: op.summary ?? null,
        tags: op.tags ?? [],
      });
    }
  }
  return out;
}

function templateRegex(template: string): RegExp {
  const escaped = template.split(/\{[^}]+\}/).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  return new RegExp(`^${escaped.join("[^/]+")}$`);
}

/**
 * Finds the documented path a caller means: the template itself (`/v1/shops/{external_id}`, or with `:external_id`),
 * the path without its `/v1` prefix, or a concrete path such as `/v1/shops/my-shop`.
 */
export function resolvePath(doc: unknown, given: string): string | null {
  const paths = Object.keys((doc as OpenApiDocument).paths ?? {});
  const clean = given
    .trim()
    .split(/[?#]/)[0]!
    .replace(/\/+$/, "")
    .replace(/:([A-Za-z_]+)/g, "{$1}");
  const candidates = [clean, `/${clean.replace(/^\/+/, "")}`, `/v1/${clean.replace(/^\/+/, "")}`];
  for (const c of candidates) if (paths.includes(c)) return c;
  for (const c of candidates) {
    const found = paths.find((p) => templateRegex(p).test(c));
    if (found) return found;
  }
  return null;
}

/** The component schemas an operation refers to, followed transitively, so the answer stands alone. */
export function referencedSchemas(doc: unknown, start: unknown): Record<string, unknown> {
  const all = (doc as OpenApiDocument).components?.schemas ?? {};
  const out: Record<string, unknown> = {};
  const queue = [start];
  while (queue.length) {
    const json = JSON.stringify(queue.pop());
    for (const m of json.matchAll(/"#\/components\/schemas\/([^"]+)"/g)) {
      const name = decodeURIComponent(m[1]!);
      if (name in out || !(name in all)) continue;
      out[name] = all[name];
      queue.push(all[name]);
    }
  }
  return out;
}

/** The operation object at (method, path), or not_found naming what exists. */
export function findOperation(
  doc: unknown,
  method: string,
  path: string,
): { path: string; operation: Record<string, unknown> } {
  const resolved = resolvePath(doc, path);
  if (!resolved) {
    throw new ApiError(
      "not_found",
      `No documented path matches "${path.slice(0, 200)}". Call list_endpoints for every method and path.`,
    );
  }
  const item = (doc as OpenApiDocument).paths![resolved]!;
  const op = item[method.toLowerCase() as (typeof METHODS)[number]];
  if (!op) {
    const allowed = METHODS.filter((m) => item[m]).map((m) => m.toUpperCase());
    throw new ApiError(
      "not_found",
      `${resolved} has no ${method.toUpperCase().slice(0, 10)} operation; it has ${allowed.join(", ")}.`,
    );
  }
  return { path: resolved, operation: op as Record<string, unknown> };
}

export interface Release {
  version: string;
  date: string | null;
  changes: Record<string, string[]>;
}

export interface Changelog {
  /** The text above the first release: the API versions and any sunset. */
  notes: string;
  releases: Release[];
}

/** Parses a Keep a Changelog file: `## [version] - date` releases, `### Kind` sections, `- ` items (wrapped lines joined). */
export function parseChangelog(text: string): Changelog {
  const lines = text.split(/\r?\n/);
  const notes: string[] = [];
  const releases: Release[] = [];
  let release: Release | null = null;
  let section: string[] | null = null;
  for (const line of lines) {
    const heading = /^## \[([^\]]+)\](?:\s*-\s*(\S+))?/.exec(line);
    if (heading) {
      release = { version: heading[1]!, date: heading[2] ?? null, changes: {} };
      releases.push(release);
      section = null;
      continue;
    }
    if (!release) {
      if (!line.startsWith("# ")) notes.push(line);
      continue;
    }
    const kind = /^### (.+)$/.exec(line);
    if (kind) {
      section = release.changes[kind[1]!.trim()] ??= [];
    } else if (section && line.startsWith("- ")) {
      section.push(line.slice(2).trim());
    } else if (section?.length && /^\s+\S/.test(line)) {
      section[section.length - 1] += ` ${line.trim()}`;
    }
  }
  return {
    notes: notes
      .join("\n")
      .trim()
      .replace(/\n{3,}/g, "\n\n"),
    releases,
  };
}

const CHANGELOG_URL = new URL("../../../CHANGELOG.md", import.meta.url);

/** CHANGELOG.md as shipped with this installation, read on each call so an update needs no restart. */
export function readChangelog(): Changelog {
  return parseChangelog(readFileSync(CHANGELOG_URL, "utf8"));
}

/** Levenshtein distance, for suggesting the slug a caller meant. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_v, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}

/** The slug in what a caller passes: a bare slug, a `type` URI (`.../errors/<slug>`) or a docs anchor (`#<slug>`). */
export function slugOf(value: string): string {
  const trimmed = value.trim();
  const tail = /(?:\/errors\/|#)([^/#?\s]+)\/?$/.exec(trimmed)?.[1] ?? trimmed;
  return tail.toLowerCase().replace(/[\s-]+/g, "_");
}

/** The closest slugs first: those containing the text, then by edit distance. */
export function closestSlugs(text: string, count = 3): ErrorSlug[] {
  const slugs = Object.keys(ERRORS) as ErrorSlug[];
  const score = (slug: ErrorSlug) => (text.length >= 3 && slug.includes(text) ? -1 : editDistance(text, slug));
  return slugs
    .map((slug) => ({ slug, d: score(slug) }))
    .sort((a, b) => a.d - b.d)
    .slice(0, count)
    .map((s) => s.slug);
}

/** The catalogue entry of a slug; an unknown slug is not_found with the closest slugs and the full list. */
export function explainSlug(value: string, docsUrl: string) {
  const slug = slugOf(value);
  // A call's end_reason or outcome (issue 32.4) is explained from its own catalogue; a value that is both an error
  // slug and an end reason (insufficient_balance) answers the error and carries the end reason beside it.
  const ending = endingOf(slug, docsUrl);
  if (!isErrorSlug(slug) && ending) return ending;
  if (!isErrorSlug(slug)) {
    const near = closestSlugs(slug);
    throw new ApiError(
      "not_found",
      `"${value.slice(0, 100)}" is not an error slug, a call end reason or an outcome. Did you mean ${near.join(", ")}? Every slug is listed in \`slugs\`.`,
      {
        // not_found's catalogue remedy is about paths; this one says what to do here (extensions override the body's fields).
        extensions: {
          remedy: "Call explain_error again with one of `did_you_mean`, or pick from `slugs`.",
          did_you_mean: near,
          slugs: Object.keys(ERRORS),
        },
      },
    );
  }
  const e = ERRORS[slug];
  return {
    slug,
    status: e.status === 0 ? null : e.status,
    title: e.title,
    cause: e.cause,
    remedy: e.remedy,
    docs_url: `${docsUrl}/errors/${slug}`,
    kind: "error" as const,
    ...(ending ? { end_reason: { cause: ending.cause, remedy: ending.remedy, docs_url: ending.docs_url } } : {}),
  };
}

/** The explanation of an end_reason or outcome value of a call, or null when the value is neither. */
function endingOf(value: string, docsUrl: string) {
  if (isEndReason(value)) {
    const e = END_REASONS[value];
    return {
      slug: value,
      status: null,
      title: `Call end reason \`${value}\` (status ${e.statuses.join(" or ")})`,
      cause: e.cause,
      remedy: e.remedy,
      docs_url: `${docsUrl}/call-endings#${value}`,
      kind: "end_reason" as const,
    };
  }
  if (Object.hasOwn(OUTCOMES, value)) {
    const o = OUTCOMES[value as keyof typeof OUTCOMES];
    return {
      slug: value,
      status: null,
      title: `Call outcome \`${value}\``,
      cause: o.cause,
      remedy: o.remedy,
      docs_url: `${docsUrl}/call-endings#outcome-${value}`,
      kind: "outcome" as const,
    };
  }
  return null;
}
