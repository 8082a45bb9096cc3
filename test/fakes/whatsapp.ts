// A local WhatsApp Cloud API (Graph API) for tests: POST /{version}/{phone-number-id}/messages with a Bearer token,
// answering as Meta documents: `{messaging_product, contacts: [{input, wa_id}], messages: [{id}]}` on success and
// `{error: {message, type, code, error_data: {messaging_product, details}, fbtrace_id}}` on failure (190
// OAuthException with 401 for a bad token, 131047 re-engagement outside the 24-hour window, 131016 / 130429 when told
// to fail transiently). Also builds signed inbound webhooks as WhatsApp sends them (messages, buttons, statuses).
import { createHmac, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server } from "node:http";
import { closeServer, listenOnLoopback } from "./loopback.ts";

export interface SentMessage {
  wamid: string;
  phoneNumberId: string;
  version: string;
  body: Record<string, unknown>;
}

interface GraphFailure {
  status: number;
  code: number;
  message: string;
  type: string;
  details: string;
}

export const FAILURES = {
  invalidToken: {
    status: 401,
    code: 190,
    type: "OAuthException",
    message: "Invalid OAuth access token - Cannot parse access token",
    details: "Invalid OAuth access token",
  },
  serviceUnavailable: {
    status: 503,
    code: 131016,
    type: "OAuthException",
    message: "(#131016) Service unavailable",
    details: "A service is temporarily unavailable. Please check the status page and try again later.",
  },
  rateLimit: {
    status: 400,
    code: 130429,
    type: "OAuthException",
    message: "(#130429) Rate limit hit",
    details: "Cloud API message throughput has been reached.",
  },
  reengagement: {
    status: 400,
    code: 131047,
    type: "OAuthException",
    message: "(#131047) Re-engagement message",
    details:
      "Message failed to send because more than 24 hours have passed since the customer last replied to this number.",
  },
  invalidParameter: {
    status: 400,
    code: 100,
    type: "OAuthException",
    message: "(#100) Invalid parameter",
    details: "Parameter value is not valid",
  },
} as const satisfies Record<string, GraphFailure>;

export class FakeWhatsApp {
  readonly sent: SentMessage[] = [];
  /** Requests refused (any reason), with the code they got. */
  readonly refused: { code: number; body: unknown }[] = [];
  /** Valid tokens: any other Bearer gets 190. */
  readonly tokens = new Set<string>();
  /** Numbers (digits) whose 24-hour window is closed: a non-template message gets 131047. */
  readonly closedWindows = new Set<string>();
  /** Failures to give, in order, before answering normally again. */
  readonly failNext: GraphFailure[] = [];
  #server: Server | null = null;
  url = "";

  async start(): Promise<this> {
    this.#server = createServer((req, res) => {
      void this.#handle(req).then(({ status, body }) => {
        res.writeHead(status, { "content-type": "application/json" });
        res.end(JSON.stringify(body));
      });
    });
    this.url = await listenOnLoopback(this.#server);
    return this;
  }

  async close(): Promise<void> {
    await closeServer(this.#server);
  }

  /** Resolves once `count` messages have been accepted (or throws after `ms`). */
  async waitForSent(count: number, ms = 15_000): Promise<SentMessage[]> {
    const end = Date.now() + ms;
    while (this.sent.length < count) {
      if (Date.now() > end) throw new Error(`the fake Graph API got ${this.sent.length} messages, not ${count}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    return this.sent;
  }

  #error(f: GraphFailure, body: unknown): { status: number; body: unknown } {
    this.refused.push({ code: f.code, body });
    return {
      status: f.status,
      body: {
        error: {
          message: f.message,
          type: f.type,
          code: f.code,
          error_data: { messaging_product: "whatsapp", details: f.details },
          fbtrace_id: `A${randomBytes(8).toString("hex")}`,
        },
      },
    };
  }

  async #handle(req: IncomingMessage): Promise<{ status: number; body: unknown }> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks).toString("utf8");
    const m = /^\/(v\d+\.\d+)\/(\d+)\/messages$/.exec(req.url ?? "");
    if (req.method !== "POST" || !m)
      return {
        status: 404,
        body: { error: { message: "Unknown path components", type: "OAuthException", code: 2500 } },
      };
    const auth = req.headers.authorization ?? "";
    if (!auth.startsWith("Bearer ") || !this.tokens.has(auth.slice(7))) return this.#error(FAILURES.invalidToken, raw);
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(raw) as Record<string, unknown>;
    } catch {
      return this.#error(FAILURES.invalidParameter, raw);
    }
    const failure = this.failNext.shift();
    if (failure) return this.#error(failure, body);
    const to = typeof body["to"] === "string" ? body["to"] : "";
    if (
      body["messaging_product"] !== "whatsapp" ||
      !/^\d{6,20}$/.test(to) ||
      !["template", "text", "interactive"].includes(String(body["type"]))
    ) {
      return this.#error(FAILURES.invalidParameter, body);
    }
    if (body["type"] !== "template" && this.closedWindows.has(to)) return this.#error(FAILURES.reengagement, body);
    const wamid = `wamid.${Buffer.from(`${to}-${randomBytes(12).toString("hex")}`).toString("base64")}`;
    this.sent.push({ wamid, phoneNumberId: m[2]!, version: m[1]!, body });
    return {
      status: 200,
      body: {
        messaging_product: "whatsapp",
        contacts: [{ input: to, wa_id: to }],
        messages: [{ id: wamid, ...(body["type"] === "template" ? { message_status: "accepted" } : {}) }],
      },
    };
  }
}

/** A webhook notification as WhatsApp posts it: one entry, one `messages` change. */
export function notification(value: Record<string, unknown>, phoneNumberId = "106540352242922"): string {
  return JSON.stringify({
    object: "whatsapp_business_account",
    entry: [
      {
        id: "102290129340398",
        changes: [
          {
            field: "messages",
            value: {
              messaging_product: "whatsapp",
              metadata: { display_phone_number: "15550783881", phone_number_id: phoneNumberId },
              ...value,
            },
          },
        ],
      },
    ],
  });
}

const unix = (at: Date) => String(Math.floor(at.getTime() / 1000));
const newWamid = () => `wamid.${randomBytes(16).toString("base64url")}`;

/** A customer's text message. */
export function textReply(from: string, body: string, at = new Date(), id = newWamid()): string {
  return notification({
    contacts: [{ profile: { name: "Customer" }, wa_id: from }],
    messages: [{ from, id, timestamp: unix(at), type: "text", text: { body } }],
  });
}

/** A tap on a template's quick-reply button: `type: button` with the payload the template was sent with. */
export function buttonReply(
  from: string,
  repliedTo: string,
  payload: string,
  text: string,
  at = new Date(),
  id = newWamid(),
): string {
  return notification({
    contacts: [{ profile: { name: "Customer" }, wa_id: from }],
    messages: [
      {
        context: { from: "15550783881", id: repliedTo },
        from,
        id,
        timestamp: unix(at),
        type: "button",
        button: { payload, text },
      },
    ],
  });
}

/** A tap on an interactive message's reply button. */
export function interactiveReply(
  from: string,
  repliedTo: string,
  buttonId: string,
  title: string,
  at = new Date(),
  id = newWamid(),
): string {
  return notification({
    contacts: [{ profile: { name: "Customer" }, wa_id: from }],
    messages: [
      {
        context: { from: "15550783881", id: repliedTo },
        from,
        id,
        timestamp: unix(at),
        type: "interactive",
        interactive: { type: "button_reply", button_reply: { id: buttonId, title } },
      },
    ],
  });
}

/** A delivery status of a message we sent. */
export function statusUpdate(
  wamid: string,
  recipient: string,
  status: "sent" | "delivered" | "read" | "failed",
  at = new Date(),
): string {
  return notification({
    statuses: [
      {
        id: wamid,
        status,
        timestamp: unix(at),
        recipient_id: recipient,
        ...(status === "failed"
          ? {
              errors: [
                {
                  code: 131026,
                  title: "Message undeliverable",
                  message: "Message undeliverable",
                  error_data: { details: "Message Undeliverable." },
                },
              ],
            }
          : {
              conversation: { id: randomBytes(16).toString("hex"), origin: { type: "utility" } },
              pricing: { billable: true, pricing_model: "CBP", category: "utility" },
            }),
      },
    ],
  });
}

/** `X-Hub-Signature-256` over the raw body with the app secret. */
export function hubSignature(raw: string, secret: string): string {
  return `sha256=${createHmac("sha256", secret).update(raw).digest("hex")}`;
}
