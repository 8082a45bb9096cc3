// The closed catalogue of error slugs (spec 7.2). It feeds problem+json, /docs/errors and explain_error.

export interface ErrorEntry {
  status: number;
  title: string;
  /** When it happens, in the reader's terms. */
  cause: string;
  /** What the client should do about it. */
  remedy: string;
}

export const ERRORS = {
  bad_request: {
    status: 400,
    title: "Bad request",
    cause: "The request could not be understood; most 400 cases have a dedicated slug.",
    remedy: "Read `detail`, fix the request and send it again.",
  },
  invalid_api_key: {
    status: 401,
    title: "Invalid API key",
    cause:
      "The Authorization header is absent, lacks the `Bearer ` prefix, or carries an unknown or revoked key. The whole header value is hashed, so stray spaces or newlines make the key invalid.",
    remedy:
      "Send `Authorization: Bearer <API_KEY>` with an active key, exactly as it was issued. Create keys with POST /v1/me/api-keys.",
  },
  insufficient_balance: {
    status: 402,
    title: "Insufficient balance",
    cause:
      "The account's balance is below the 10 seconds needed to start a call. No call was created and nothing was billed.",
    remedy:
      "Do not retry blindly: credit the account, then create the call again. `balance_seconds` and `required_seconds` give the figures.",
  },
  forbidden: {
    status: 403,
    title: "Forbidden",
    cause:
      "A valid key without rights on the resource. Reserved for a future admin/reader split; no endpoint emits it today.",
    remedy: "Use a key with the needed rights.",
  },
  not_found: {
    status: 404,
    title: "Not found",
    cause: "No resource or route at this path, or it is not accessible to this key.",
    remedy: "Check the method and path against /openapi.json.",
  },
  erasure_not_found: {
    status: 404,
    title: "Erasure not found",
    cause: "No erasure with this id on the account (it may belong to another account, or the id is not a UUID).",
    remedy: "Use the id returned by POST /v1/erasures (or the erase_customer_data tool).",
  },
  call_not_found: {
    status: 404,
    title: "Call not found",
    cause:
      "No call with this id on the account (it may belong to another account), or its recording was never produced.",
    remedy: "Check the call id; list calls with GET /v1/calls. A call that was not answered has no recording.",
  },
  api_key_not_found: {
    status: 404,
    title: "API key not found",
    cause: "No key with this id on the account.",
    remedy: "List your keys with GET /v1/me/api-keys and use one of their ids.",
  },
  shop_not_found: {
    status: 404,
    title: "Shop not found",
    cause: "No active shop with this external id on the account (missing, archived or another account's).",
    remedy: "Create the shop with POST /v1/shops, or list archived ones with GET /v1/shops?status=archived.",
  },
  product_not_found: {
    status: 404,
    title: "Product not found",
    cause: "No active product with this external id in this shop (missing, archived or in another shop).",
    remedy: "Create the product under the shop, or list archived ones with ?status=archived.",
  },
  webhook_not_configured: {
    status: 404,
    title: "Webhook not configured",
    cause: "The account has no active webhook.",
    remedy: "Configure one with POST /v1/me/webhooks.",
  },
  whatsapp_not_configured: {
    status: 404,
    title: "WhatsApp not configured",
    cause: "The account has no WhatsApp fallback settings.",
    remedy: "Configure them with PUT /v1/me/whatsapp (phone number id, access token, templates).",
  },
  knowledge_not_configured: {
    status: 404,
    title: "Knowledge not configured",
    cause:
      "The shop has no knowledge set: the agent answers customers' questions only from the order, and records the others as unanswered.",
    remedy:
      "Set the shop's answers with PUT /v1/shops/{shop_external_id}/knowledge (delivery delays, returns, payment methods, questions and answers).",
  },
  connector_not_found: {
    status: 404,
    title: "Connector not found",
    cause: "The shop has no store connector.",
    remedy:
      "Connect the store with PUT /v1/shops/{shop_external_id}/connector (platform, store address, credentials, webhook secret).",
  },
  handoff_not_configured: {
    status: 404,
    title: "Handoff not configured",
    cause: "The shop has no handoff: its calls are never transferred to a person.",
    remedy:
      "Set one with PUT /v1/shops/{shop_external_id}/handoff (the person's number, the triggers, the ring timeout, optional hours), or the set_handoff tool.",
  },
  recording_gone: {
    status: 410,
    title: "Recording gone",
    cause: "The recording was purged after the 30-day retention period.",
    remedy: "No retry is possible; download recordings within 30 days (listen for `recording.ready`).",
  },
  conflict: {
    status: 409,
    title: "Conflict",
    cause:
      "The request conflicts with the current state of the resource, for example cancelling a call that has already ended, or a duplicate request still in flight.",
    remedy: "Read the resource again before deciding; when `Retry-After` is present, retry after that many seconds.",
  },
  idempotency_key_conflict: {
    status: 409,
    title: "Idempotency key reused with another body",
    cause: "This Idempotency-Key was used in the last 24 hours with a different request body.",
    remedy: "Use a new Idempotency-Key for a new request; resend the identical body to replay the original response.",
  },
  order_external_id_already_exists: {
    status: 409,
    title: "Order external id already exists",
    cause: "The shop already has an order with this `order.external_id`.",
    remedy:
      "To try the customer again, send a new Idempotency-Key and increment `order.previous_attempts`; to place a new order, use a new external id.",
  },
  shop_external_id_already_exists: {
    status: 409,
    title: "Shop external id already exists",
    cause: "The account already has a shop with this external id; the earlier creation succeeded.",
    remedy: "Use PATCH /v1/shops/{external_id} to modify it.",
  },
  product_external_id_already_exists: {
    status: 409,
    title: "Product external id already exists",
    cause: "The shop already has a product with this external id; the earlier creation succeeded.",
    remedy: "Use PATCH /v1/shops/{shop_external_id}/products/{product_external_id} to modify it.",
  },
  webhook_already_configured: {
    status: 409,
    title: "Webhook already configured",
    cause: "The account already has an active webhook (one per account).",
    remedy: "DELETE /v1/me/webhooks first, then create the new one (this also rotates the secret).",
  },
  missing_idempotency_key: {
    status: 400,
    title: "Missing Idempotency-Key",
    cause: "POST /v1/calls was sent without an Idempotency-Key header.",
    remedy:
      "Send a unique Idempotency-Key (1 to 255 characters, a UUID is ideal) and reuse it when retrying the same request.",
  },
  idempotency_key_empty: {
    status: 400,
    title: "Empty Idempotency-Key",
    cause: "The Idempotency-Key header is present but empty.",
    remedy: "Send a key of 1 to 255 characters.",
  },
  idempotency_key_too_long: {
    status: 400,
    title: "Idempotency-Key too long",
    cause: "The Idempotency-Key header is longer than 255 characters.",
    remedy: "Send a key of 1 to 255 characters; a UUID is ideal.",
  },
  invalid_key_id: {
    status: 400,
    title: "Invalid key id",
    cause: "The API key id in the path is not a strict UUID v4 (8-4-4-4-12).",
    remedy: "Use the `id` returned by POST /v1/me/api-keys or GET /v1/me/api-keys.",
  },
  invalid_period_format: {
    status: 400,
    title: "Invalid period",
    cause: "`period` is not `YYYY-MM` or its month is outside 01-12.",
    remedy: "Send `period` as `YYYY-MM`, for example 2026-11, or omit it for the current UTC month.",
  },
  invalid_status_filter: {
    status: 400,
    title: "Invalid status filter",
    cause: "`status` is not one of the values this list accepts; `detail` lists them.",
    remedy: "Use one of the values named in `detail`, or omit `status`.",
  },
  invalid_cursor: {
    status: 400,
    title: "Invalid cursor",
    cause:
      "The cursor is malformed, its signature does not verify (tampered, or signed before a key rotation), or it belongs to another list, filter or account.",
    remedy: "Restart the listing without `cursor`; pass `next_cursor` back unchanged and with the same filters.",
  },
  cursor_expired: {
    status: 400,
    title: "Cursor expired",
    cause: "The cursor is older than its 24-hour lifetime.",
    remedy: "Restart the listing without `cursor`.",
  },
  webhook_url_rejected: {
    status: 400,
    title: "Webhook URL rejected",
    cause:
      "The URL failed the address guard; `reason` is one of invalid_url, scheme_not_allowed, localhost_rejected, dns_resolution_failed, private_ip_rejected.",
    remedy: "Use a public https URL whose name resolves to public addresses.",
  },
  webhook_url_not_configured: {
    status: 400,
    title: "Webhook URL not configured",
    cause: "A test delivery was requested with no active webhook.",
    remedy: "Configure a webhook with POST /v1/me/webhooks first.",
  },
  payload_too_large: {
    status: 413,
    title: "Payload too large",
    cause: "The inbound messaging webhook body is over 256 KiB.",
    remedy: "Send bodies of at most 256 KiB.",
  },
  number_do_not_call: {
    status: 422,
    title: "Number on the do-not-call list",
    cause:
      "The customer's phone number is on the account's do-not-call list: added with POST /v1/me/do-not-call, or by the customer asking during a call not to be called again. No call was created.",
    remedy:
      "Do not call this customer. If the customer asked to be called again, remove the number with DELETE /v1/me/do-not-call/{phone_number}, then create the call.",
  },
  phone_number_not_allowed: {
    status: 422,
    title: "Phone number not allowed",
    cause:
      "The customer's number is not one calls go to: premium-rate, shared-cost, satellite (+881, +882), personal, VoIP, toll-free or another country's number than the call's (calls go only to mobile and fixed-line numbers of the call's country: the numbers of revenue-share fraud are refused), or the number was already called for 3 other orders of the account in the last 24 hours (the per-number daily limit, WAKHA_NUMBER_DAILY_LIMIT). The detail says which. No call was created.",
    remedy:
      "Check the number with the customer. Retries of one order (order.previous_attempts) are never limited. An account that must call other kinds of numbers can be allowed to by the installation's operator (wakha accounts set ACCOUNT_ID --allow-any-number on); the daily limit applies to every account.",
  },
  validation_error: {
    status: 422,
    title: "Validation error",
    cause:
      "The request violates its schema: unknown fields, wrong types (a numeric `amount`), a missing field, a value outside its enum or range, or a body that is not valid JSON. `errors` lists each problem with `loc`, `msg` and `type`.",
    remedy:
      "Fix each entry of `errors` (its `loc` points at the field) and send the request again; nothing was written.",
  },
  language_not_supported_for_country: {
    status: 422,
    title: "Language not supported for country",
    cause: "The (country, language) pair is not served: FR calls cannot be in `ar`.",
    remedy: "Omit `language` to get the country's default, or use `fr` for FR.",
  },
  channel_not_available: {
    status: 422,
    title: "Channel not available",
    cause:
      "`call_params.channel` names a channel that is not open on this installation; `detail` names the open channels and the default.",
    remedy: "Omit `call_params.channel` for the default channel, or pick one of the open channels.",
  },
  order_item_unknown_product: {
    status: 422,
    title: "Unknown product in order items",
    cause:
      "An item line names a `product_external_id` or `variant_external_id` absent from the call's shop. No call was created, nothing billed.",
    remedy:
      "Create the product under the shop first, fix the ids, or send an ad-hoc line with `name` and `unit_price`.",
  },
  order_item_variant_required: {
    status: 422,
    title: "Variant required",
    cause: "The product has several variants and the item line names none; `detail` lists them.",
    remedy: "Add `variant_external_id` to the line.",
  },
  rate_limit_exceeded: {
    status: 429,
    title: "Rate limit exceeded",
    cause: "This key exceeded the per-key limit of this route class.",
    remedy:
      "Wait `Retry-After` seconds (also `retry_after`) before retrying; spread load over time or over several keys.",
  },
  rate_limited: {
    status: 429,
    title: "Rate limited",
    cause: "Too many requests, outside the per-key counters.",
    remedy: "Retry after `Retry-After` seconds with exponential backoff.",
  },
  internal_error: {
    status: 500,
    title: "Internal error",
    cause: "An unexpected error on the server; it was logged with the request id.",
    remedy: "Retry with exponential backoff; if it persists, quote `request_id` to support.",
  },
  store_api_error: {
    status: 502,
    title: "Store API error",
    cause:
      "The store's platform (Shopify, YouCan, WooCommerce) refused or failed the request Wakha made with the connector's credentials: revoked token, missing scope, rate limit, outage.",
    remedy:
      "Read `detail`: fix the credentials with PUT .../connector if they were refused, or retry later on a rate limit or outage.",
  },
  service_unavailable: {
    status: 503,
    title: "Service unavailable",
    cause:
      "An external dependency is down or configuration is missing; paginated lists answer this when no cursor signing secret is configured.",
    remedy:
      "Retry with exponential backoff; operators: check the configuration (WAKHA_CURSOR_SECRET) and dependencies.",
  },
  http_error: {
    status: 0,
    title: "HTTP error",
    cause: "An HTTP error without a dedicated slug; the real code is in `status`.",
    remedy: "Fall back to the HTTP status code's usual meaning.",
  },
  call_not_dialable: {
    status: 422,
    title: "Call not dialable",
    cause:
      "This installation cannot dial the call as asked: the carrier behind the channel has no caller number for the customer's country, or the channel has no carrier configured. `detail` names what is missing. No call was created and nothing was billed.",
    remedy:
      "Pick another channel with `call_params.channel`, or ask the operator to configure a caller number for the country (the carrier's `WAKHA_<CARRIER>_CALLER_IDS` variable; `wakha doctor` shows the caller ids per country; docs/going-live.md).",
  },
} as const satisfies Record<string, ErrorEntry>;

export type ErrorSlug = keyof typeof ERRORS;

export function isErrorSlug(value: string): value is ErrorSlug {
  return Object.hasOwn(ERRORS, value);
}

/**
 * A problem with one field of an operation's input, found by a service after the schema passed. `path` is
 * relative to the input (the body on REST, the arguments on MCP); each transport roots it where its input lives.
 */
export interface InputIssue {
  path: (string | number)[];
  msg: string;
  /** A Pydantic v2 type name (CONTRACT §4): missing, value_error, ... */
  type: string;
}

export interface ApiErrorOptions {
  /** Extension fields of the problem (spec 7.1): hint, reason, balance_seconds, errors, ... */
  extensions?: Record<string, unknown>;
  /** validation_error raised by a service: the fields at fault, relative to the operation's input. */
  issues?: InputIssue[];
  /** The caller may retry after this many seconds (HTTP renders Retry-After; MCP a retry_after field). */
  retryAfterSeconds?: number;
  /** Transport headers; set only by the HTTP layer for its own errors (authentication, rate limits). */
  headers?: Record<string, string>;
  status?: number;
}

/**
 * The one error type services and routes throw; the HTTP problem handler renders it as RFC 7807 and the MCP
 * server as a tool error, from the same values. Services use transport-neutral wording.
 */
export class ApiError extends Error {
  readonly slug: ErrorSlug;
  readonly status: number;
  readonly extensions: Record<string, unknown>;
  readonly issues: InputIssue[] | null;
  readonly retryAfterSeconds: number | null;
  readonly headers: Record<string, string>;

  constructor(slug: ErrorSlug, detail?: string, options: ApiErrorOptions = {}) {
    super(detail ?? ERRORS[slug].cause);
    this.slug = slug;
    this.status = options.status ?? ERRORS[slug].status;
    this.extensions = options.extensions ?? {};
    this.issues = options.issues ?? null;
    this.retryAfterSeconds = options.retryAfterSeconds ?? null;
    this.headers = options.headers ?? {};
  }
}
