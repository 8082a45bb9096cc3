// jambonz's inbound side (issue 12), outside /v1: the call-status webhook and the WebSocket API.
// - The status webhook is JSON signed with `Jambonz-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(webhook
//   secret, "<t>.<body>")>` (docs.jambonz.org/guides/features/securing-http-endpoints; the scheme of
//   jambonz-feature-server's base-requestor and @jambonz/node-client's verifyJambonzSignature), refused
//   outside 5 minutes and when the same signature comes twice (a replay).
// - The WebSocket uses the subprotocol ws.jambonz.org (docs.jambonz.org/reference/websocket-api/call-control/overview);
//   jambonz opens it with the HTTP basic auth of the call_hook we gave it. From jambonz: session:new,
//   session:reconnect, verb:hook, call:status; to jambonz: ack {msgid, data: verbs}, command {command:
//   "redirect" | "call:status", queueCommand, data}.
// - Issue 34, the warm transfer as a conference: the person is dialled at once through the REST API (provider.ts) with
//   an http call_hook (`.../person`) and call_status_hook (`.../person-status`). When they answer, jambonz posts the
//   call_hook (JSON, signed like the status webhook): we answer `say` the brief (their ears only) then `redirect`
//   (docs.jambonz.org/verbs/verbs/redirect) to `.../whisper-done`, whose request marks the brief heard in full and is
//   answered with the `conference` verb (docs.jambonz.org/verbs/verbs/conference: name, beep, startConferenceOnEnter,
//   endConferenceOnExit). The customer joins the room by a `redirect` command on the call's socket once the agent's
//   line is said. The person leg's call_status_hook (ringing; completed with its duration, busy, no-answer, failed)
//   says how it went; a refusal is a leg that ended before the brief's end.
import { createHmac, timingSafeEqual } from "node:crypto";
import type { WebSocket } from "ws";
import type { z } from "zod";
import { parseFrame, parseMessage, RefusedFrames } from "../frames.ts";
import {
  CALL_ID,
  type CarrierAnswer,
  type CarrierInbound,
  type CarrierLog,
  type CarrierReports,
  type CarrierRequest,
  header,
  refusal,
} from "../inbound.ts";
import type { CarrierLines, TextCarrierSession, TextChannel } from "../text-carrier.ts";
import { jambonzMessage } from "./frames.ts";
import { jambonzPaths, socketPassword, validApplicationCallToken } from "./provider.ts";

export interface JambonzInboundOptions {
  webhookSecret: string;
  /** WAKHA_PUBLIC_URL: where jambonz reaches the transfer's hooks (issue 34). */
  publicUrl: string;
  lines: CarrierLines;
  reports: CarrierReports;
  ttsVendor: string;
  sttVendor: string;
  /** Voice per dialect (ma, dz, tn, fr). */
  voices: Partial<Record<string, string>>;
}

const TOLERANCE_SECONDS = 300;
/**
 * Issue 34: both legs' way into the transfer's conference (docs.jambonz.org/verbs/verbs/conference): named after our
 * call id only, no beep, and the room ends when either leaves.
 */
export function conferenceVerb(callId: string): Record<string, unknown> {
  return {
    verb: "conference",
    name: `wakha-transfer-${callId}`,
    beep: false,
    startConferenceOnEnter: true,
    endConferenceOnExit: true,
  };
}
const DIALECT_OF_LOCALE: Record<string, string> = { "ar-MA": "ma", "ar-DZ": "dz", "ar-TN": "tn", "fr-FR": "fr" };

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Checks a Jambonz-Signature header over the raw body; the signature is returned for replay detection. */
export function verifyJambonzSignature(
  secret: string,
  header: string | undefined,
  rawBody: string,
  nowSeconds = Date.now() / 1000,
): string | null {
  if (!header) return null;
  let t = -1;
  const signatures: string[] = [];
  for (const part of header.split(",")) {
    const [key, value] = part.split("=");
    if (key === "t" && value && /^\d+$/.test(value)) t = Number(value);
    if (key === "v1" && value) signatures.push(value);
  }
  if (t < 0 || Math.abs(nowSeconds - t) > TOLERANCE_SECONDS) return null;
  const expected = createHmac("sha256", secret).update(`${t}.${rawBody}`, "utf8").digest("hex");
  return signatures.find((s) => sameText(s, expected)) ?? null;
}

/** Signatures seen in the last tolerance window: the same one twice is a replay. */
class SeenSignatures {
  readonly #seen = new Map<string, number>();
  add(signature: string): boolean {
    const now = Date.now();
    if (this.#seen.size > 10_000)
      for (const [s, at] of this.#seen) if (now - at > TOLERANCE_SECONDS * 2000) this.#seen.delete(s);
    if (this.#seen.has(signature)) return false;
    this.#seen.set(signature, now);
    return true;
  }
}

type CallInfo = Record<string, unknown>;

/** call_status: trying, ringing, early-media, in-progress, completed, failed, busy, no-answer, queued. */
function applyStatus(session: TextCarrierSession, data: CallInfo): boolean {
  switch (data["call_status"]) {
    case "trying":
    case "queued":
      return session.progress("initiated");
    case "ringing":
    case "early-media":
      return session.progress("ringing");
    case "in-progress":
      return session.progress("answered");
    // `duration` (seconds) is part of jambonz's Call record (jambonz-api-server swagger, components/schemas/Call).
    case "completed":
      return session.completed(typeof data["duration"] === "number" ? data["duration"] : session.connectedSeconds());
    case "busy":
      return session.unanswered("busy");
    case "no-answer":
      return session.unanswered("no_answer");
    case "failed":
      return session.unanswered(
        "failed",
        `carrier_failed${typeof data["sip_status"] === "number" ? `_${data["sip_status"]}` : ""}`,
      );
    default:
      return false;
  }
}

type Alternative = { transcript: string; confidence?: number };

function alternativeOf(value: unknown): Alternative | null {
  if (value === null || typeof value !== "object") return null;
  const { transcript, confidence } = value as Record<string, unknown>;
  if (typeof transcript !== "string" || !transcript.trim()) return null;
  return { transcript, ...(typeof confidence === "number" && Number.isFinite(confidence) ? { confidence } : {}) };
}

function firstAlternative(list: unknown): Alternative | null {
  if (!Array.isArray(list)) return null;
  for (const item of list) {
    const found = alternativeOf(item);
    if (found) return found;
  }
  return null;
}

/**
 * The best transcript of a gather's `speech`, in each shape jambonz documents or relays from its recognisers
 * (issue 30.5): `{is_final, transcripts: [{is_final, language_code, alternatives: [{confidence, transcript}]}]}`
 * (the verb:hook reference), and `{is_final, language_code, alternatives: [{confidence, transcript}]}` (gather's
 * examples, Google-style results). The first non-empty alternative wins; null when there is none.
 */
export function bestTranscript(speech: unknown): Alternative | null {
  if (speech === null || typeof speech !== "object" || Array.isArray(speech)) return null;
  const s = speech as Record<string, unknown>;
  if (Array.isArray(s["transcripts"])) {
    for (const t of s["transcripts"]) {
      const found =
        t !== null && typeof t === "object"
          ? (firstAlternative((t as Record<string, unknown>)["alternatives"]) ?? alternativeOf(t))
          : null;
      if (found) return found;
    }
  }
  return firstAlternative(s["alternatives"]);
}

/** The call-status webhook, the per-call WebSocket and, with an application SID, the application's one. */
export function jambonzInbound(options: JambonzInboundOptions): CarrierInbound {
  const seen = new SeenSignatures();
  const refuse = (request: CarrierRequest, log: CarrierLog, status: number, detail: string) =>
    refusal("jambonz", request, log, status, detail);
  const basic = (password: string) => `Basic ${Buffer.from(`wakha:${password}`).toString("base64")}`;
  /** A signed request about the person's leg of a call: `act` on the session (when the leg is its transfer's), answer verbs. */
  const personHook =
    <T>(
      answer: (session: TextCarrierSession | null, acted: T) => Record<string, unknown>[] | null,
      act: (session: TextCarrierSession | null, data: CallInfo) => T,
    ) =>
    async (request: CarrierRequest, log: CarrierLog): Promise<CarrierAnswer> => {
      const callId = request.params["callId"] ?? "";
      if (!CALL_ID.test(callId)) return refuse(request, log, 404, "unknown call");
      const signature = verifyJambonzSignature(
        options.webhookSecret,
        header(request, "jambonz-signature"),
        request.rawBody ?? "",
      );
      if (!signature) return refuse(request, log, 403, "invalid or expired Jambonz-Signature");
      // A replay is the same signature to the same hook: jambonz may post the same call record to two of them.
      if (!seen.add(`${request.path}|${signature}`)) return refuse(request, log, 409, "replayed Jambonz-Signature");
      const data = (
        request.body !== null && typeof request.body === "object" && !Array.isArray(request.body) ? request.body : {}
      ) as CallInfo;
      const found = options.lines.get(callId);
      const sid = typeof data["call_sid"] === "string" ? data["call_sid"] : undefined;
      const session = found?.isTransferLeg(sid) ? found : null;
      const verbs = answer(session, act(session, data));
      return verbs ? { status: 200, body: JSON.stringify(verbs), contentType: "application/json" } : { status: 204 };
    };
  return {
    carrier: "jambonz",
    // jambonz asks for the subprotocol ws.jambonz.org.
    subprotocol: "ws.jambonz.org",
    callbacks: [
      {
        method: "POST",
        path: "/carriers/jambonz/calls/:callId/status",
        async handle(request, log) {
          const callId = request.params["callId"] ?? "";
          if (!CALL_ID.test(callId)) return refuse(request, log, 404, "unknown call");
          const signature = verifyJambonzSignature(
            options.webhookSecret,
            header(request, "jambonz-signature"),
            request.rawBody ?? "",
          );
          if (!signature) return refuse(request, log, 403, "invalid or expired Jambonz-Signature");
          if (!seen.add(signature)) return refuse(request, log, 409, "replayed Jambonz-Signature");
          const data = (
            request.body !== null && typeof request.body === "object" && !Array.isArray(request.body)
              ? request.body
              : {}
          ) as CallInfo;
          const session = options.lines.get(callId);
          const changed = session && session.providerCallId === data["call_sid"] ? applyStatus(session, data) : false;
          if (data["call_status"] === "completed" && typeof data["duration"] === "number")
            await options.reports.carrierSeconds(callId, data["duration"]);
          if (session && !changed)
            log.info(
              { carrier: "jambonz", status: data["call_status"] },
              "duplicate or out-of-order callback: nothing changed",
            );
          return { status: 204 };
        },
      },
      // Issue 34, the person's leg (a call of its own, created through the REST API at the transfer's start): its
      // call_hook (answered: the brief, then a redirect), the redirect's actionHook (the brief heard in full: the
      // conference) and its call_status_hook. Signed like the status webhook; the answers are jambonz verbs.
      {
        method: "POST",
        path: "/carriers/jambonz/calls/:callId/person",
        handle: personHook<ReturnType<TextCarrierSession["transferAnswered"]>>(
          (session, transfer) =>
            transfer && session
              ? [
                  {
                    verb: "say",
                    text: transfer.whisper,
                    synthesizer: {
                      vendor: options.ttsVendor,
                      language: transfer.whisperLocale,
                      ...(options.voices[DIALECT_OF_LOCALE[transfer.whisperLocale] ?? ""]
                        ? { voice: options.voices[DIALECT_OF_LOCALE[transfer.whisperLocale] ?? ""] }
                        : {}),
                    },
                  },
                  { verb: "redirect", actionHook: `${options.publicUrl}${jambonzPaths.whisperDone(session.callId)}` },
                ]
              : [{ verb: "hangup" }],
          (session) => session?.transferAnswered() ?? null,
        ),
      },
      {
        method: "POST",
        path: "/carriers/jambonz/calls/:callId/whisper-done",
        handle: personHook<boolean>(
          (session, bridged) => (bridged && session ? [conferenceVerb(session.callId)] : [{ verb: "hangup" }]),
          (session) => session?.transferBridged() ?? false,
        ),
      },
      {
        method: "POST",
        path: "/carriers/jambonz/calls/:callId/person-status",
        handle: personHook<null>(
          () => null,
          (session, data) => {
            const status = typeof data["call_status"] === "string" ? data["call_status"] : "";
            if (status === "ringing") session?.transferRinging();
            else if (["completed", "failed", "busy", "no-answer"].includes(status))
              session?.transferEnded(status, typeof data["duration"] === "number" ? data["duration"] : null);
            return null;
          },
        ),
      },
    ],
    sockets: [
      {
        path: "/carriers/jambonz/calls/:callId/ws",
        authorize(request, log) {
          const callId = request.params["callId"] ?? "";
          if (!CALL_ID.test(callId)) return refuse(request, log, 404, "unknown call");
          if (!sameText(header(request, "authorization") ?? "", basic(socketPassword(options.webhookSecret, callId)))) {
            // A security event: logged as one, and the call, if it never gets a genuine socket, ends carrier_auth_failed.
            const session = options.lines.get(callId);
            session?.socketRefused();
            log.warn(
              { carrier: "jambonz", security: true, event: "carrier_auth_failed", live_call: session !== undefined },
              "jambonz socket refused: bad basic auth",
            );
            return refuse(request, log, 401, "bad basic auth on the jambonz socket");
          }
          if (!options.lines.get(callId)) return refuse(request, log, 404, "no live call here");
          return undefined;
        },
        open(socket, request, log) {
          const callId = request.params["callId"] ?? "";
          jambonzSocket(socket, log, () => options.lines.get(callId), options);
        },
      },
      // With WAKHA_JAMBONZ_APPLICATION_SID, the application's call hook is this one URL (basic auth user `wakha`,
      // password socketPassword(secret, "application")); the call is found by the tag we set at creation, and only with
      // that call's unexpired token (applicationCallToken).
      {
        path: "/carriers/jambonz/ws",
        authorize(request, log) {
          if (
            !sameText(
              header(request, "authorization") ?? "",
              basic(socketPassword(options.webhookSecret, "application")),
            )
          )
            return refuse(request, log, 401, "bad basic auth on the jambonz socket");
          return undefined;
        },
        open(socket, _request, log) {
          jambonzSocket(
            socket,
            log,
            (data) => {
              // The application's password is one for all calls: the call's own short-lived token opens its session (issue 30.4).
              const tag = data["customerData"] as Record<string, unknown> | undefined;
              const id = tag?.["wakha_call_id"];
              if (
                typeof id !== "string" ||
                !validApplicationCallToken(options.webhookSecret, id, tag?.["wakha_call_token"])
              ) {
                log.warn(
                  { carrier: "jambonz", security: true },
                  "carrier request refused: application socket without a valid, unexpired token of the call",
                );
                return undefined;
              }
              return options.lines.get(id);
            },
            options,
          );
        },
      },
    ],
  };
}

function jambonzSocket(
  socket: WebSocket,
  log: CarrierLog,
  find: (data: Record<string, unknown>) => TextCarrierSession | undefined,
  options: JambonzInboundOptions,
): void {
  if (socket.protocol !== "ws.jambonz.org") {
    socket.close(1002, "expected subprotocol ws.jambonz.org");
    return;
  }
  const send = (message: object) => {
    if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(message));
  };
  let session: TextCarrierSession | undefined;
  // Gather (docs.jambonz.org/verbs/verbs/gather): speech or one keypress, reported by verb:hook "gather".
  const listen = (say?: string) => {
    const locale = session?.locale ?? "fr-FR";
    const voice = options.voices[DIALECT_OF_LOCALE[locale] ?? ""];
    return {
      verb: "gather",
      actionHook: "gather",
      input: ["speech", "digits"],
      numDigits: 1,
      timeout: 30,
      recognizer: { vendor: options.sttVendor, language: locale },
      ...(say
        ? {
            say: {
              text: say,
              synthesizer: { vendor: options.ttsVendor, language: locale, ...(voice ? { voice } : {}) },
            },
            bargein: true,
            dtmfBargein: true,
          }
        : {}),
    };
  };
  const channel: TextChannel = {
    // A redirect without queueCommand replaces whatever runs (the idle gather) with our words, then listens.
    speak: (text) => send({ type: "command", command: "redirect", queueCommand: false, data: [listen(text)] }),
    end: () => send({ type: "command", command: "call:status", data: { call_status: "completed" } }),
    // Issue 34: the person heard the brief and waits in the conference: the customer joins it.
    transfer: () => {
      if (session)
        send({ type: "command", command: "redirect", queueCommand: false, data: [conferenceVerb(session.callId)] });
    },
  };
  let attached = false;
  const refused = new RefusedFrames();
  const ignore = (reason: string) => {
    if (refused.note(reason))
      log.warn({ carrier: "jambonz", refused: refused.count }, `jambonz sent ${reason}: ignored`);
  };
  // No frame may raise out of here (issue 30.3): each is parsed before a field is read; the rest is logged and ignored.
  socket.on("message", (raw, isBinary) => {
    const frame = parseFrame(raw, isBinary, "type");
    if (!frame.ok) return ignore(frame.reason);
    const parsed = parseMessage(jambonzMessage, frame.message);
    if (!parsed.ok) return ignore(parsed.reason);
    try {
      onMessage(parsed.message);
    } catch (err) {
      log.error({ carrier: "jambonz", err }, "a jambonz message could not be handled: ignored");
    }
  });
  const onMessage = (message: z.infer<typeof jambonzMessage>) => {
    const msgid = message.msgid;
    const data = message.data ?? {};
    switch (message.type) {
      case "session:new":
      case "session:reconnect":
        session ??= find(data);
        if (!session || message.call_sid !== session.providerCallId || !(attached ||= session.attach(channel))) {
          log.warn({ carrier: "jambonz" }, "carrier request refused: a socket for another call, or a second one");
          socket.close(1008, "not this call");
          return;
        }
        // session:new must be acked within 5 s: listen while the agent gets ready. A reconnect resumes as it was.
        send({ type: "ack", msgid, ...(message.type === "session:new" ? { data: [listen()] } : {}) });
        if (message.type === "session:new") session.progress("answered");
        return;
      case "verb:hook": {
        if (!session || !attached) return;
        send({ type: "ack", msgid, data: [listen()] });
        const digits = typeof data["digits"] === "string" ? data["digits"] : "";
        for (const digit of digits) session.digit(digit);
        const best = bestTranscript(data["speech"]);
        if (best) {
          session.interrupted(); // with bargein on, speech during our words cut them short
          session.heard(best.transcript, best.confidence);
        } else if (data["speech"] !== undefined || data["reason"] === "speechDetected") {
          // Speech came but in no shape we read: say so, rather than take it silently for silence (issue 30.5).
          log.warn(
            {
              carrier: "jambonz",
              reason: typeof data["reason"] === "string" ? data["reason"].slice(0, 64) : undefined,
              speech: JSON.stringify(data["speech"] ?? null).slice(0, 300),
            },
            "jambonz reported speech but no transcript could be read from it",
          );
        }
        return;
      }
      case "call:status":
        if (session && attached) applyStatus(session, data);
        return;
      case "jambonz:error":
      case "error":
        if (refused.note(`error ${JSON.stringify(data).slice(0, 500)}`))
          log.warn({ carrier: "jambonz", error: JSON.stringify(data).slice(0, 500) }, "jambonz reported an error");
        return;
      default:
        return;
    }
  };
  socket.on("close", () => session?.channelClosed(channel));
  socket.on("error", () => session?.channelClosed(channel));
}
