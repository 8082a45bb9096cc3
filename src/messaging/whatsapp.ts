// The WhatsApp Cloud API adapter (issue 16): POST {graph}/{version}/{phone-number-id}/messages with a Bearer token.
// Templates open a conversation (quick-reply buttons carry our payloads back); an interactive reply-button message
// answers within the 24-hour customer service window. Chosen in the composition root (src/root/root.ts).

/** Meta's Graph API. WAKHA_WHATSAPP_GRAPH_URL points elsewhere (tests: test/fakes/whatsapp.ts). */
export const DEFAULT_GRAPH_URL = "https://graph.facebook.com";
export const DEFAULT_GRAPH_VERSION = "v21.0";
const TIMEOUT_MS = 10_000;

/**
 * Error codes the Cloud API documents as temporary (try again later): 1 API Unknown, 2 API Service (downtime or
 * overload), 4 app rate limit, 80007 WABA rate limit, 130429 throughput reached, 131000 something went wrong,
 * 131016 service unavailable, 131056 pair rate limit, 133004 server temporarily unavailable.
 */
export const TRANSIENT_CODES: ReadonlySet<number> = new Set([1, 2, 4, 80007, 130429, 131000, 131016, 131056, 133004]);
/** More than 24 hours since the customer last wrote: only a template may be sent. */
export const REENGAGEMENT_CODE = 131047;

export interface WhatsAppCredentials {
  phoneNumberId: string;
  accessToken: string;
}

/** One quick-reply button: the payload WhatsApp returns when it is tapped, and (interactive only) its title. */
export interface ReplyButton {
  payload: string;
  title: string;
}

export type OutboundWhatsApp =
  | { type: "template"; to: string; template: string; language: string; body: string[]; buttons: ReplyButton[] }
  | { type: "buttons"; to: string; body: string; buttons: ReplyButton[] }
  | { type: "text"; to: string; body: string };

/** A refused send, as the Graph API described it; `transient` when its documentation says to try again. */
export class WhatsAppError extends Error {
  readonly status: number;
  readonly code: number | null;
  readonly details: string | null;
  readonly transient: boolean;

  constructor(message: string, status: number, code: number | null, details: string | null, transient: boolean) {
    super(message);
    this.name = "WhatsAppError";
    this.status = status;
    this.code = code;
    this.details = details;
    this.transient = transient;
  }

  toJSON(): Record<string, unknown> {
    return { code: this.code, status: this.status, message: this.message, details: this.details };
  }
}

/** What the rest of Wakha sends WhatsApp messages through. */
export interface WhatsAppSender {
  /** Sends one message; resolves with its `wamid`, or throws a WhatsAppError. */
  send(credentials: WhatsAppCredentials, message: OutboundWhatsApp): Promise<{ wamid: string }>;
}

/** The request body of POST /{phone-number-id}/messages for one message. */
export function messageBody(message: OutboundWhatsApp): Record<string, unknown> {
  const to = message.to.replace(/^\+/, "");
  const base = { messaging_product: "whatsapp", recipient_type: "individual", to };
  switch (message.type) {
    case "template":
      return {
        ...base,
        type: "template",
        template: {
          name: message.template,
          language: { code: message.language },
          components: [
            { type: "body", parameters: message.body.map((text) => ({ type: "text", text })) },
            ...message.buttons.map((b, index) => ({
              type: "button",
              sub_type: "quick_reply",
              index: String(index),
              parameters: [{ type: "payload", payload: b.payload }],
            })),
          ],
        },
      };
    case "buttons":
      return {
        ...base,
        type: "interactive",
        interactive: {
          type: "button",
          body: { text: message.body },
          action: {
            buttons: message.buttons.map((b) => ({ type: "reply", reply: { id: b.payload, title: b.title } })),
          },
        },
      };
    case "text":
      return { ...base, type: "text", text: { preview_url: false, body: message.body } };
  }
}

interface GraphError {
  error?: { message?: string; type?: string; code?: number; error_data?: { details?: string } };
}

/** The Cloud API over fetch: there is no maintained official Node SDK. */
export class GraphWhatsApp implements WhatsAppSender {
  readonly #base: string;
  readonly version: string;

  constructor(graphUrl: string = DEFAULT_GRAPH_URL, version: string = DEFAULT_GRAPH_VERSION) {
    this.#base = graphUrl.replace(/\/+$/, "");
    this.version = version;
  }

  async send(credentials: WhatsAppCredentials, message: OutboundWhatsApp): Promise<{ wamid: string }> {
    const url = `${this.#base}/${this.version}/${encodeURIComponent(credentials.phoneNumberId)}/messages`;
    let res: Response;
    try {
      res = await fetch(url, {
        method: "POST",
        headers: { authorization: `Bearer ${credentials.accessToken}`, "content-type": "application/json" },
        body: JSON.stringify(messageBody(message)),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (err) {
      throw new WhatsAppError(
        `The Graph API did not answer: ${err instanceof Error ? err.message : String(err)}`,
        0,
        null,
        null,
        true,
      );
    }
    const text = await res.text();
    let json: unknown = null;
    try {
      json = JSON.parse(text);
    } catch {
      // not JSON: treated below by status
    }
    if (res.ok) {
      const id = (json as { messages?: { id?: unknown }[] } | null)?.messages?.[0]?.id;
      if (typeof id === "string" && id) return { wamid: id };
      throw new WhatsAppError("The Graph API accepted the message without a message id", res.status, null, null, false);
    }
    const error = (json as GraphError | null)?.error;
    const code = typeof error?.code === "number" ? error.code : null;
    const transient = code === null ? res.status >= 500 || res.status === 429 : TRANSIENT_CODES.has(code);
    throw new WhatsAppError(
      error?.message ?? `HTTP ${res.status}`,
      res.status,
      code,
      error?.error_data?.details ?? null,
      transient,
    );
  }
}
