// Secrets in places they do not belong: URLs and log lines. Redaction goes by the secret's shape (an API key, a
// webhook signing secret, whatever follows "Bearer") wherever it appears, and by parameter name for the rest.
import { ApiError } from "../errors.ts";

const MASK = "[REDACTED]";
// "_" may arrive percent-encoded (%5F) in a URL; the secret runs until a delimiter of URLs, JSON or prose.
const SEP = "(?:_|%5[Ff])";
const TAIL = "(?:[A-Za-z0-9\\-._~+/=]|%[0-9A-Fa-f]{2})+";
const SHAPES: [RegExp, string][] = [
  [new RegExp(`(wakha${SEP}sk${SEP})${TAIL}`, "g"), `$1${MASK}`],
  [new RegExp(`(whsec${SEP})${TAIL}`, "g"), `$1${MASK}`],
  // "Bearer", then spaces however written (" ", "+", "%20"), then the credential.
  [/(\bBearer(?:\s|\+|%20|%09)+)(?:[^\s&"'#,;]|%[0-9A-Fa-f]{2})+/gi, `$1${MASK}`],
  // A store connector's inbound address (/connectors/{platform}/{token}): the token routes a shop's orders to it.
  [/(\/connectors\/[A-Za-z0-9_-]+\/)[^/?#\s"']+/g, `$1${MASK}`],
];

/** Query parameter names that carry credentials whatever their value looks like (compared lowercased, "-" as "_"). */
const SECRET_PARAM_NAMES = new Set([
  "api_key",
  "apikey",
  "x_api_key",
  "key",
  "token",
  "access_token",
  "accesstoken",
  "auth",
  "authorization",
  "bearer",
  "secret",
  "client_secret",
  "password",
  "passwd",
  "signature",
  "sig",
  "session",
]);

const PARAM = /([?&;])([^=&#]*)=([^&#]*)/g;

function normaliseName(name: string): string {
  let decoded = name;
  try {
    decoded = decodeURIComponent(name);
  } catch {
    // keep the raw name
  }
  return decoded.toLowerCase().replaceAll("-", "_");
}

/** Masks every secret found in `text`: by shape anywhere, and the value of credential-named query parameters. */
export function redactSecrets(text: string): string {
  let out = text;
  for (const [shape, replacement] of SHAPES) out = out.replace(shape, replacement);
  if (out.includes("=")) {
    out = out.replace(PARAM, (all, lead: string, name: string, value: string) =>
      value !== "" && value !== MASK && SECRET_PARAM_NAMES.has(normaliseName(name)) ? `${lead}${name}=${MASK}` : all,
    );
  }
  return out;
}

/** Redacts every string inside a log record (objects and arrays walked to a bounded depth). */
export function redactDeep(value: unknown, depth = 0): unknown {
  if (typeof value === "string") return redactSecrets(value);
  if (depth > 6 || value === null || typeof value !== "object") return value;
  if (value instanceof Error) {
    const copy: Record<string, unknown> = { type: value.name, message: redactSecrets(value.message) };
    if (value.stack) copy["stack"] = redactSecrets(value.stack);
    for (const [k, v] of Object.entries(value)) copy[k] = redactDeep(v, depth + 1);
    return copy;
  }
  if (Array.isArray(value)) return value.map((v) => redactDeep(v, depth + 1));
  // Only plain records are copied: a request or reply object is left to its serializer (which redacts its URL).
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== null) return value;
  const copy: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) copy[k] = redactDeep(v, depth + 1);
  return copy;
}

/** True when the value is shaped like one of our credentials. */
function looksLikeCredential(value: string): boolean {
  return redactSecrets(value) !== value;
}

/**
 * Refuses a request whose query string carries a credential, by name (`api_key`, `token`, `auth`, ...) or by shape
 * (a `wakha_sk_` key, a `whsec_` secret, `Bearer ...`): URLs end up in logs, proxies and browser history.
 */
export function refuseKeyInQuery(url: string): void {
  const q = url.indexOf("?");
  if (q < 0) return;
  const params = new URLSearchParams(url.slice(q + 1));
  for (const [name, value] of params) {
    const byName = SECRET_PARAM_NAMES.has(name.toLowerCase().replaceAll("-", "_"));
    if (byName || looksLikeCredential(value) || looksLikeCredential(name)) {
      const shown = looksLikeCredential(name) ? "a parameter named like a key" : `\`${name.slice(0, 32)}\``;
      throw new ApiError(
        "bad_request",
        `API keys are never accepted in the query string (${shown}): URLs are logged. Send \`Authorization: Bearer <API_KEY>\` and drop the parameter. If that was a real key, revoke it (DELETE /v1/me/api-keys/{id}) and use a new one.`,
      );
    }
  }
}
