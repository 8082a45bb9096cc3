// A local fake of Twilio Programmable Voice with ConversationRelay, at its documented protocol boundary:
// - REST: POST /2010-04-01/Accounts/{AccountSid}/Calls.json (HTTP basic auth AccountSid:AuthToken, form
//   parameters checked), POST .../Calls/{CallSid}.json (Status=canceled|completed), GET
//   .../Recordings/{RecordingSid}.wav; 401 with Twilio's error JSON on bad credentials.
// - Callbacks to our server, form-encoded and signed with X-Twilio-Signature exactly as documented
//   (https://www.twilio.com/docs/usage/webhooks/webhooks-security): base64 HMAC-SHA1, keyed with the auth token,
//   of the full URL followed by each POST parameter name and value, sorted by name. Implemented here from the
//   documentation, not with the SDK that our side validates with.
// - The ConversationRelay WebSocket: opened to the url of <ConversationRelay> with the signature over that URL,
//   then setup, prompt {voicePrompt, lang, last}, interrupt (the callee talking over an interruptible line of ours),
//   dtmf {digit}; it reads text {token, last, interruptible} and end.
// - Issue 34, the warm transfer with a conference: a Calls create with a `Url` (no Twiml) is a call to the shop's
//   person (test/fakes/handoff-person.ts): it posts its StatusCallback events (initiated, ringing, answered, completed
//   with CallDuration; busy, no-answer), requests the Url when they answer, plays its <Say> to them only and follows
//   its <Redirect>; <Dial><Conference> puts a call in the named room (endConferenceOnExit: either leaving ends it).
//   An `end` with `handoffData` ends the relay session and the fake requests the <Connect action> URL with
//   HandoffData and runs what we answer (<Dial><Conference>, <Hangup/>, or <Connect><ConversationRelay> again); a
//   Calls update with `Twiml` replaces what a live call runs (the Media Streams customer joining the room).
//   The fake ties a person's call to the customer's for the tests' assertions (`handoff`) by our call id in its Url.
// - Media Streams (issue 13): a call whose TwiML is <Connect><Stream url> streams audio instead (twilio-media.ts),
//   with the `voice` option as the callee's mouth and ears.
// The callee is the simulator's customer for the number (the same personas, phrase banks and dialects), so a
// call through the fake reaches the same outcome as through the simulator.
import { createHmac, randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { WebSocket } from "ws";
import type { Dialect, SimulatedCustomer } from "../../src/engine/dialogue/types.ts";
import { type Hostility, sendHostileFrames } from "./hostile-frames.ts";
import { sendToneRecording } from "./tone-recording.ts";
import { createSimulatedCustomer } from "../../src/engine/telephony/simulator/customer.ts";
import { seededRandom } from "../../src/engine/telephony/simulator/provider.ts";
import { type MediaCallStats, type MediaVoice, runMediaStream } from "./twilio-media.ts";
import { type FakeHandoff, handoffPerson, newHandoff } from "./handoff-person.ts";

/** Per-number misbehaviour, on top of the persona the number's last two digits choose. */
export interface TwilioScenario {
  /** Close the ConversationRelay socket after this many customer turns (Twilio then ends the call: error 64105). */
  dropSocketAfterTurns?: number;
  /** Post every status callback twice, and a stale `ringing` after the answer. */
  duplicateCallbacks?: boolean;
  /** Before the real callbacks, post a forged `completed` signed with the wrong token. */
  forgedCallback?: boolean;
  /** The final `completed` callback reports this CallDuration (signed, as a carrier error or a leaked token would). */
  reportedDuration?: number;
  /** The customer talks over the agent's first line (an `interrupt`, then the reply). */
  bargeIn?: boolean;
  /**
   * Media Streams: the customer answers who they are, then only mumbles ("euh...") at the order's read-back until
   * the agent offers the keypad, and presses these keys (`dtmf` events) instead of speaking.
   */
  keypad?: string;
  /** Media Streams: the customer says this filler (0.3 s, "euh") halfway through the agent's first line, then answers as usual. */
  filler?: string;
  /** Hostile frames on the call's socket right after setup/start (issue 30.3; hostile-frames.ts). */
  hostile?: Hostility;
  /** Open the ConversationRelay or Media Streams socket signed with this (wrong) auth token (issue 30.6). */
  socketToken?: string;
  /** Carrier seconds after the answer at which the AMD verdict of a human comes (default 1.5; issue 30.1). */
  amdSeconds?: number;
  /** The verdict for a human callee (default `human`; `unknown` when detection timed out). */
  amdVerdict?: string;
}

export interface FakeTwilioOptions {
  accountSid: string;
  authToken: string;
  /** Carrier seconds per wall second (WAKHA_CARRIER_TIME_SCALE on our side). */
  speed: number;
  scenarios?: Record<string, TwilioScenario>;
  /**
   * How much faster than the 150 words a minute Wakha budgets the fake's text-to-speech plays our lines (default 1):
   * at 4 the callee has heard a line and answers well before Wakha's own estimate of its playback (issue 30.7).
   */
  playbackSpeed?: number;
  /** How Media Streams callees speak and hear (<Connect><Stream> calls; twilio-media.ts). */
  voice?: MediaVoice;
}

export interface FakeCall {
  sid: string;
  to: string;
  from: string;
  params: Record<string, string>;
  status: string;
  answeredAt: number | null;
  endedAt: number | null;
  duration: number;
  /** What our server said (text tokens joined per turn) and heard, in order. */
  transcript: { speaker: "agent" | "customer"; text: string }[];
  messages: Record<string, unknown>[];
  callbacks: { kind: string; status: number; params: Record<string, string> }[];
  /** Milliseconds from each final prompt to the first text token back. */
  tokenLatencies: number[];
  /** When each of those prompts was sent (CLOCK_MONOTONIC ms, the clock of V8's .cpuprofile), for lining turns up with profiles. */
  tokenPromptAt: number[];
  socket: WebSocket | null;
  recordingSid: string | null;
  /** Carrier seconds from the answer to our first `text` token (issue 30.1). */
  firstTextSeconds: number | null;
  /** When the AMD verdict was posted, in carrier seconds after the answer. */
  amdAtSeconds: number | null;
  /** A machine callee: what we said to it, and whether it came after the end of its greeting (the beep) and not interruptible. */
  toMachine: { text: string; afterBeep: boolean; interruptible: unknown }[];
  /** Media Streams calls: frames, clears, barge-in timing. */
  media?: MediaCallStats;
  /** Issue 34: the warm transfer, when our side asked for one (on the customer's call and on the person's). */
  handoff: FakeHandoff | null;
  /** Issue 34: a call to the shop's person: the customer's call it was dialled for (null: a customer's call). */
  personOf: FakeCall | null;
  /** The conference room the call is in, and whether leaving it ends it. */
  room: { name: string; endOnExit: boolean } | null;
  /** When the customer's last prompt was sent (performance.now()). */
  lastPromptAt: number | null;
  /** When our `end` with a transfer's handoffData arrived (performance.now()). */
  transferEndAt: number | null;
  /** A Calls update replaced the call's TwiML: the end of its stream or relay no longer ends the call. */
  redirected: boolean;
  /** ConversationRelay sessions opened (a second one: back to our side after a transfer nobody took). */
  relaySessions: number;
  /** The content types of the TwiML documents our side answered. */
  twimlTypes: string[];
  /** Our side's Calls updates of this call (Status, Twiml), in order. */
  restUpdates: Record<string, string>[];
  /** The TwiML documents our side answered, in order. */
  answeredTwiml: string[];
}

const SECONDS_PER_WORD = 0.4;
export const talk = (text: string) => text.split(/\s+/).filter(Boolean).length * SECONDS_PER_WORD + 0.3;
const e164 = /^\+[1-9]\d{6,14}$/;
const EVENTS = new Set(["initiated", "ringing", "answered", "completed"]);

/** X-Twilio-Signature as the documentation describes it. */
export function twilioSignature(authToken: string, url: string, params: Record<string, string>): string {
  const data =
    url +
    Object.keys(params)
      .sort()
      .map((k) => k + params[k])
      .join("");
  return createHmac("sha1", authToken).update(Buffer.from(data, "utf8")).digest("base64");
}

function unescapeXml(text: string): string {
  return text
    .replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">")
    .replaceAll("&quot;", '"')
    .replaceAll("&apos;", "'")
    .replaceAll("&amp;", "&");
}

export function dialectOf(to: string): Dialect {
  if (to.startsWith("+212")) return "ma";
  if (to.startsWith("+213")) return "dz";
  if (to.startsWith("+216")) return "tn";
  return "fr";
}

export class FakeTwilio {
  readonly calls = new Map<string, FakeCall>();
  /** Every refusal our server answered (status >= 400) to a callback or a socket. */
  readonly refusals: { kind: string; status: number }[] = [];
  /** When true, the REST API answers 503 (an outage). */
  outage = false;
  readonly #o: FakeTwilioOptions;
  readonly #server: http.Server;
  #url = "";
  readonly #timers = new Set<NodeJS.Timeout>();

  constructor(options: FakeTwilioOptions) {
    this.#o = options;
    this.#server = http.createServer(
      (req, res) =>
        void this.#handle(req, res).catch((err) => {
          res.writeHead(500).end(String(err));
        }),
    );
  }

  get url(): string {
    return this.#url;
  }

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.#server.listen(0, "127.0.0.1", resolve));
    this.#url = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
    return this.#url;
  }

  /**
   * The status callbacks with this CallStatus, once the fake has read our route's answer to `count` of them (or the
   * time is up). Our route writes the call before it answers, so a test that saw the call end can get here first.
   */
  async statusCallbacks(
    call: FakeCall,
    status: string,
    count = 1,
    timeoutMs = 10_000,
  ): Promise<{ kind: string; status: number; params: Record<string, string> }[]> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = call.callbacks.filter((c) => c.kind === "StatusCallback" && c.params["CallStatus"] === status);
      if (found.length >= count || Date.now() > deadline) return found;
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  async close(): Promise<void> {
    for (const t of this.#timers) clearTimeout(t);
    for (const call of this.calls.values()) call.socket?.terminate();
    this.#server.closeAllConnections();
    await new Promise((resolve) => this.#server.close(resolve));
  }

  // ---- REST ----

  async #handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<unknown> {
    const body = await new Promise<string>((resolve) => {
      let data = "";
      req.on("data", (c) => (data += c));
      req.on("end", () => resolve(data));
    });
    const json = (status: number, payload: unknown): void =>
      void res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(payload));
    // Not Twilio's: the benchmark reads the fake's measurements here when the fake runs in a process of its own.
    if (req.url === "/__fake/latencies")
      return json(
        200,
        [...this.calls.values()].flatMap((c) => c.tokenLatencies),
      );
    // The bench's transfer line (issue 34): wall ms from the customer's request for a person (the prompt) to the
    // person's phone ringing, per transfer.
    if (req.url === "/__fake/transfers")
      return json(
        200,
        [...this.calls.values()].flatMap((c) =>
          c.personOf === null && c.handoff?.customerAskedAt && c.handoff.ringingAt
            ? [{ ms: c.handoff.ringingAt - c.handoff.customerAskedAt, speed: this.#o.speed }]
            : [],
        ),
      );
    if (req.url === "/__fake/turns")
      return json(
        200,
        [...this.calls.values()].flatMap((c) =>
          c.tokenLatencies.map((ms, i) => ({ sid: c.sid, to: c.to, turn: i, at: c.tokenPromptAt[i], ms })),
        ),
      );
    if (this.outage) return json(503, { code: 20500, message: "Service Unavailable", status: 503 });
    const auth = req.headers.authorization ?? "";
    const expected = `Basic ${Buffer.from(`${this.#o.accountSid}:${this.#o.authToken}`).toString("base64")}`;
    if (auth !== expected)
      return json(401, {
        code: 20003,
        message: "Authenticate",
        more_info: "https://www.twilio.com/docs/errors/20003",
        status: 401,
      });
    const base = `/2010-04-01/Accounts/${this.#o.accountSid}`;
    const path = (req.url ?? "").split("?")[0]!;
    const params = Object.fromEntries(new URLSearchParams(body));
    const multi = new URLSearchParams(body);
    if (req.method === "POST" && path === `${base}/Calls.json`) return this.#create(params, multi, json);
    if (req.method === "GET" && path === `${base}.json`)
      return json(200, { sid: this.#o.accountSid, friendly_name: "fake", status: "active", type: "Full" });
    const update = new RegExp(`^${base}/Calls/(CA[0-9a-f]{32})\\.json$`).exec(path);
    if (req.method === "POST" && update) return this.#update(update[1]!, params, json);
    const recording = new RegExp(`^${base}/Recordings/(RE[0-9a-f]{32})\\.wav$`).exec(path);
    if (req.method === "GET" && recording) {
      const call = [...this.calls.values()].find((c) => c.recordingSid === recording[1]);
      if (!call) return json(404, { code: 20404, message: "not found", status: 404 });
      await sendToneRecording(
        res,
        "audio/x-wav",
        Math.max(1, Math.ceil(call.duration)),
        call.duration,
        call.transcript.map((turn) => ({ hz: turn.speaker === "agent" ? 440 : 330, talk: talk(turn.text) })),
      );
      return undefined;
    }
    return json(404, { code: 20404, message: `The requested resource ${path} was not found`, status: 404 });
  }

  #create(p: Record<string, string>, multi: URLSearchParams, json: (s: number, b: unknown) => void): void {
    const problems: string[] = [];
    if (!e164.test(p["To"] ?? "")) problems.push("To");
    if (!e164.test(p["From"] ?? "")) problems.push("From");
    if (!p["Twiml"] && !p["Url"] && !p["ApplicationSid"]) problems.push("Url, Twiml or ApplicationSid");
    if (multi.getAll("StatusCallbackEvent").some((e) => !EVENTS.has(e))) problems.push("StatusCallbackEvent");
    if (p["MachineDetection"] && !["Enable", "DetectMessageEnd"].includes(p["MachineDetection"]))
      problems.push("MachineDetection");
    // MachineDetectionTimeout: whole seconds; 3 to 59 in the current reference (1 to 120 in the older one): both hold here.
    if (
      p["MachineDetectionTimeout"] !== undefined &&
      !(
        /^\d+$/.test(p["MachineDetectionTimeout"]) &&
        Number(p["MachineDetectionTimeout"]) >= 3 &&
        Number(p["MachineDetectionTimeout"]) <= 59
      )
    )
      problems.push("MachineDetectionTimeout");
    if (p["AsyncAmd"] === "true" && !p["AsyncAmdStatusCallback"]) problems.push("AsyncAmdStatusCallback");
    if (problems.length)
      return json(400, { code: 21205, message: `Invalid parameter(s): ${problems.join(", ")}`, status: 400 });
    const sid = `CA${randomBytes(16).toString("hex")}`;
    const call: FakeCall = {
      sid,
      to: p["To"]!,
      from: p["From"]!,
      params: { ...p, StatusCallbackEvent: multi.getAll("StatusCallbackEvent").join(" ") },
      status: "queued",
      answeredAt: null,
      endedAt: null,
      duration: 0,
      transcript: [],
      messages: [],
      callbacks: [],
      tokenLatencies: [],
      tokenPromptAt: [],
      socket: null,
      recordingSid: null,
      firstTextSeconds: null,
      amdAtSeconds: null,
      toMachine: [],
      handoff: null,
      personOf: null,
      room: null,
      lastPromptAt: null,
      transferEndAt: null,
      redirected: false,
      relaySessions: 0,
      twimlTypes: [],
      answeredTwiml: [],
      restUpdates: [],
    };
    this.calls.set(sid, call);
    if (p["Url"] && !p["Twiml"]) {
      // Issue 34: our side dials the shop's person; tied to the customer's call by our call id in the Url.
      const callId = /\/calls\/([0-9a-f-]{36})\//.exec(p["Url"])?.[1];
      call.personOf = callId
        ? ([...this.calls.values()].find((c) => c.personOf === null && c.params["Twiml"]?.includes(callId)) ?? null)
        : null;
    }
    json(201, {
      sid,
      account_sid: this.#o.accountSid,
      to: call.to,
      from: call.from,
      status: "queued",
      direction: "outbound-api",
      duration: null,
      answered_by: null,
    });
    if (p["Url"] && !p["Twiml"]) void this.#runPerson(call);
    else void this.#run(call);
  }

  #update(sid: string, p: Record<string, string>, json: (s: number, b: unknown) => void): void {
    const call = this.calls.get(sid);
    if (!call) return json(404, { code: 20404, message: "not found", status: 404 });
    call.restUpdates.push(p);
    if (p["Status"] === "canceled" && ["queued", "initiated", "ringing"].includes(call.status))
      void this.#finish(call, "canceled");
    else if (p["Status"] === "completed" && call.status === "in-progress") {
      // Our side ending a leg during the bridge (the balance ran out).
      if (call.handoff && call.handoff.bridgedAt !== null && call.handoff.dialStatus === null) call.handoff.cut = true;
      void this.#finish(call, "completed");
    } else if (p["Twiml"] && call.status === "in-progress") {
      // Update a live call with new TwiML: what it runs stops (the stream or relay ends) and the new document runs.
      call.redirected = true;
      call.socket?.close();
      void this.#follow(call, null, p["Twiml"]);
    }
    json(200, { sid, status: call.status });
  }

  // ---- the call ----

  #sleep(seconds: number): Promise<void> {
    return new Promise((resolve) => {
      const t = setTimeout(
        () => {
          this.#timers.delete(t);
          resolve();
        },
        (seconds * 1000) / this.#o.speed,
      );
      this.#timers.add(t);
    });
  }

  #scenario(call: FakeCall): TwilioScenario {
    return this.#o.scenarios?.[call.to] ?? {};
  }

  async #run(call: FakeCall): Promise<void> {
    const customer = createSimulatedCustomer(call.to, dialectOf(call.to), seededRandom(call.sid));
    const scenario = this.#scenario(call);
    if (scenario.forgedCallback)
      await this.#post(
        call,
        "StatusCallback",
        { CallStatus: "completed", CallDuration: "9999" },
        "wrong-token-000000000000",
      );
    await this.#status(call, "initiated");
    await this.#sleep(1);
    if ((call.status as string) !== "initiated") return;
    if (customer.pickup === "busy") return this.#finish(call, "busy");
    await this.#status(call, "ringing");
    const timeout = Number(call.params["Timeout"] ?? 60);
    await this.#sleep(Math.min(customer.ringSeconds, timeout));
    if ((call.status as string) !== "ringing") return;
    if (customer.pickup === "no_answer" || customer.ringSeconds > timeout) return this.#finish(call, "no-answer");
    call.answeredAt = performance.now();
    await this.#status(call, "in-progress");
    if (scenario.duplicateCallbacks)
      await this.#post(call, "StatusCallback", { CallStatus: "ringing", CallbackSource: "call-progress-events" });
    void this.#converse(call, customer);
    if (call.params["AsyncAmd"] === "true") {
      const machine =
        customer.announcement?.answeredBy === "machine" || (customer.pickup === "voicemail" && !customer.announcement);
      // DetectMessageEnd reports a machine once its greeting has ended (#converse posts machine_end_beep then).
      if (machine && call.params["MachineDetection"] === "DetectMessageEnd" && !customer.announcement) return;
      const seconds = machine ? 1.5 : (scenario.amdSeconds ?? 1.5);
      await this.#sleep(seconds);
      const answeredBy = machine
        ? call.params["MachineDetection"] === "DetectMessageEnd"
          ? "machine_end_other"
          : "machine_start"
        : (scenario.amdVerdict ?? "human");
      const params = { AnsweredBy: answeredBy, MachineDetectionDuration: String(Math.round(seconds * 1000)) };
      call.amdAtSeconds = ((performance.now() - call.answeredAt) / 1000) * this.#o.speed;
      await this.#post(call, "AsyncAmdStatusCallback", params);
      if (scenario.duplicateCallbacks)
        await this.#post(call, "AsyncAmdStatusCallback", { ...params, AnsweredBy: "human" });
    }
  }

  /** The ConversationRelay session: the relay url from the TwiML, signed, then the customer's side. */
  async #converse(
    call: FakeCall,
    customer: SimulatedCustomer,
    twiml = call.params["Twiml"] ?? "",
    resumed = false,
  ): Promise<void> {
    const streamUrl = /<Stream[^>]*\surl="([^"]+)"/.exec(twiml)?.[1]?.replaceAll("&amp;", "&");
    if (streamUrl && this.#o.voice) return this.#stream(call, customer, streamUrl, twiml, this.#o.voice);
    const url = /<ConversationRelay[^>]*\surl="([^"]+)"/.exec(twiml)?.[1]?.replaceAll("&amp;", "&");
    const lang = /<ConversationRelay[^>]*\slanguage="([^"]+)"/.exec(twiml)?.[1] ?? "en-US";
    if (!url) return this.#finish(call, "completed");
    const socket = new WebSocket(url, {
      headers: {
        "x-twilio-signature": twilioSignature(this.#scenario(call).socketToken ?? this.#o.authToken, url, {}),
      },
    });
    call.socket = socket;
    call.relaySessions++;
    /** Our `end` message, when we ended the session (its handoffData goes to the <Connect> action). */
    let ended: Record<string, unknown> | null = null;
    socket.on("unexpected-response", (_req, res) => {
      this.refusals.push({ kind: "relay", status: res.statusCode ?? 0 });
      void this.#finish(call, "completed");
    });
    socket.on("error", () => {});
    const scenario = this.#scenario(call);
    let agentText = "";
    let turn = 0;
    let promptAt = 0;
    let promptMono = 0;
    let firstToken = true;
    let greeted = false;
    let beeped = false;
    const machine = customer.pickup === "voicemail";
    // Our line being played: the callee talking over an interruptible one interrupts it ("ConversationRelay sends this
    // message when the caller interrupts TTS playback by speaking",
    // https://www.twilio.com/docs/voice/conversationrelay/websocket-messages), before the prompt of what they said.
    let playing: { text: string; at: number; until: number } | null = null;
    /** Until when the callee is talking (the prompt goes at the end of their words). */
    let talkingUntil = 0;
    const send = (m: object) => socket.readyState === socket.OPEN && socket.send(JSON.stringify(m));
    const speak = async (text: string | null, digits?: string) => {
      if (socket.readyState !== socket.OPEN) return;
      if (digits) for (const digit of digits) send({ type: "dtmf", digit });
      if (text) {
        const now = performance.now();
        if (playing && now < playing.until - 5) {
          // (timers may fire a millisecond early: no interruption at the very end)
          const playedMs = Math.round((now - playing.at) * this.#o.speed);
          const words = playing.text.split(/\s+/).filter(Boolean);
          send({
            type: "interrupt",
            utteranceUntilInterrupt: words.slice(0, Math.floor(playedMs / 1000 / SECONDS_PER_WORD)).join(" "),
            durationUntilInterruptMs: playedMs,
          });
        }
        playing = null;
        call.transcript.push({ speaker: "customer", text });
        talkingUntil = now + (talk(text) * 1000) / this.#o.speed;
        await this.#sleep(talk(text));
        promptAt = performance.now();
        call.lastPromptAt = promptAt;
        promptMono = Number(process.hrtime.bigint()) / 1e6;
        firstToken = true;
        send({ type: "prompt", voicePrompt: text, lang, last: true });
      }
    };
    socket.on("open", () => {
      send({
        type: "setup",
        sessionId: `VX${randomBytes(16).toString("hex")}`,
        accountSid: this.#o.accountSid,
        parentCallSid: "",
        callSid: call.sid,
        from: call.from,
        to: call.to,
        forwardedFrom: "",
        callType: "PSTN",
        callerName: "",
        direction: "outbound-api",
        callStatus: "IN-PROGRESS",
        customParameters: Object.fromEntries(
          [...twiml.matchAll(/<Parameter name="([^"]+)" value="([^"]+)"/g)].map((m) => [m[1]!, m[2]!]),
        ),
      });
      if (scenario.hostile) void sendHostileFrames(socket, "relay", scenario.hostile);
      if (machine && !greeted) {
        greeted = true;
        const text =
          customer.announcement?.text ??
          (lang.startsWith("fr")
            ? "Bonjour, laissez votre message après le bip."
            : "مرحبا، المرجو ترك رسالتكم بعد الإشارة.");
        void speak(text).then(async () => {
          if (
            !customer.announcement &&
            call.params["AsyncAmd"] === "true" &&
            call.params["MachineDetection"] === "DetectMessageEnd"
          ) {
            // The greeting ended with its beep: DetectMessageEnd's verdict.
            beeped = true;
            call.amdAtSeconds = ((performance.now() - (call.answeredAt ?? 0)) / 1000) * this.#o.speed;
            await this.#post(call, "AsyncAmdStatusCallback", {
              AnsweredBy: "machine_end_beep",
              MachineDetectionDuration: String(Math.round(talk(text) * 1000)),
            });
          }
          if (customer.announcement?.closesLine) {
            await this.#sleep(1);
            socket.close();
          }
        });
      }
    });
    socket.on("message", (data) => {
      const message = JSON.parse(String(data)) as Record<string, unknown>;
      call.messages.push(message);
      if (message["type"] === "text") {
        call.firstTextSeconds ??= ((performance.now() - (call.answeredAt ?? 0)) / 1000) * this.#o.speed;
        if (firstToken && promptAt) {
          call.tokenLatencies.push(performance.now() - promptAt);
          call.tokenPromptAt.push(promptMono);
        }
        firstToken = false;
        agentText += `${String(message["token"] ?? "")}`;
        if (message["last"] !== true) return;
        const said = agentText;
        agentText = "";
        call.transcript.push({ speaker: "agent", text: said });
        const at = performance.now();
        const played = talk(said) / (this.#o.playbackSpeed ?? 1);
        playing =
          message["interruptible"] === false ? null : { text: said, at, until: at + (played * 1000) / this.#o.speed };
        if (playing && at < talkingUntil - 5) {
          // Our line started while the callee was talking: their speech interrupts it at once.
          send({ type: "interrupt", utteranceUntilInterrupt: "", durationUntilInterruptMs: 0 });
          playing = null;
        }
        if (machine) {
          call.toMachine.push({ text: said, afterBeep: beeped, interruptible: message["interruptible"] });
          return;
        }
        // Back from a transfer nobody took: the customer listens to the agent's last words.
        if (resumed) return;
        const reply = customer.reply(said, turn++);
        void (async () => {
          if (scenario.bargeIn && turn === 1 && reply.text) {
            await this.#sleep(played / 3);
            await speak(reply.text, reply.digits); // over our line: an `interrupt` first
          } else {
            await this.#sleep(played + Math.max(0, reply.thinkSeconds));
            if (reply.text !== null || reply.digits) await speak(reply.text, reply.digits);
          }
          if (reply.hangup) socket.close();
          else if (scenario.dropSocketAfterTurns !== undefined && turn >= scenario.dropSocketAfterTurns)
            socket.terminate();
        })();
      }
      if (message["type"] === "end") {
        ended = message;
        if (typeof message["handoffData"] === "string" && message["handoffData"].includes("transfer"))
          call.transferEndAt = performance.now();
        socket.close();
      }
    });
    // The session ended. Our `end`: the <Connect> action, if any, says what follows. The customer hanging up, or the
    // socket dropping (64105): the call is over.
    socket.on("close", () => {
      const action = /<Connect[^>]*\saction="([^"]+)"/.exec(twiml)?.[1]?.replaceAll("&amp;", "&");
      if (call.redirected) return;
      if (!ended || !action || call.endedAt !== null) return void this.#finish(call, "completed");
      const handoffData = typeof ended["handoffData"] === "string" ? ended["handoffData"] : undefined;
      void this.#postTo(call, action, "ConnectAction", {
        CallStatus: "in-progress",
        SessionId: `VX${randomBytes(16).toString("hex")}`,
        SessionStatus: "ended",
        SessionDuration: String(Math.round(((performance.now() - (call.answeredAt ?? 0)) / 1000) * this.#o.speed)),
        ...(handoffData !== undefined ? { HandoffData: handoffData } : {}),
      }).then((doc) => this.#follow(call, customer, doc));
    });
  }

  /** Runs the TwiML our side answered to an action or a Calls update: a conference, the relay again, or the end. */
  async #follow(call: FakeCall, customer: SimulatedCustomer | null, doc: string): Promise<void> {
    if (call.endedAt !== null) return;
    if (/<Conference[\s>]/.test(doc)) return this.#conference(call, doc);
    if (customer && /<ConversationRelay[\s>]/.test(doc)) return this.#converse(call, customer, doc, true);
    return this.#finish(call, "completed");
  }

  /** Issue 34: the call to the shop's person, created by our side with the whisper as its Url. */
  async #runPerson(leg: FakeCall): Promise<void> {
    const h = newHandoff();
    leg.handoff = h;
    if (leg.personOf) leg.personOf.handoff = h;
    h.customerAskedAt = leg.personOf?.lastPromptAt ?? null;
    h.to = leg.to;
    h.callerId = leg.from;
    h.timeout = Number(leg.params["Timeout"] ?? 60);
    const person = handoffPerson(leg.to);
    await this.#status(leg, "initiated");
    await this.#sleep(0.2);
    if (leg.status !== "initiated") return;
    if (person.pickup === "unreachable") return this.#finish(leg, "failed");
    if (person.pickup === "busy") {
      await this.#sleep(1);
      return this.#finish(leg, "busy");
    }
    await this.#status(leg, "ringing");
    h.ringingAt = performance.now();
    if (person.pickup === "no_answer" || person.ringSeconds > h.timeout) {
      await this.#sleep(h.timeout);
      if ((leg.status as string) === "ringing") await this.#finish(leg, "no-answer");
      return;
    }
    await this.#sleep(person.ringSeconds);
    if ((leg.status as string) !== "ringing") return;
    leg.answeredAt = performance.now();
    await this.#status(leg, "in-progress");
    const whisperDoc = await this.#postTo(leg, leg.params["Url"]!, "PersonUrl", { CallStatus: "in-progress" });
    const say = /<Say\b([^>]*)>([\s\S]*?)<\/Say>/.exec(whisperDoc);
    h.whisper = say ? unescapeXml(say[2]!) : null;
    h.whisperLanguage = say ? (/\slanguage="([^"]*)"/.exec(say[1]!)?.[1] ?? null) : null;
    const played = h.whisper ? talk(h.whisper) : 0;
    if (person.refuses || /<Hangup/.test(whisperDoc)) {
      await this.#sleep(played / 2);
      h.refused = person.refuses;
      return this.#finish(leg, "completed");
    }
    await this.#sleep(played);
    if (leg.endedAt !== null) return;
    const redirect = /<Redirect\b[^>]*>([^<]+)<\/Redirect>/.exec(whisperDoc)?.[1];
    const next = redirect
      ? await this.#postTo(leg, unescapeXml(redirect.trim()), "WhisperRedirect", { CallStatus: "in-progress" })
      : "";
    return this.#follow(leg, null, next);
  }

  /** <Dial><Conference>: the call waits in the named room; two in it talk; the person leaves after their talk. */
  async #conference(call: FakeCall, doc: string): Promise<void> {
    const tag = /<Conference\b([^>]*)>([^<]+)<\/Conference>/.exec(doc);
    if (!tag) return this.#finish(call, "completed");
    const name = unescapeXml(tag[2]!.trim());
    call.room = { name, endOnExit: /\sendConferenceOnExit="true"/.test(tag[1]!) };
    const members = [...this.calls.values()].filter((c) => c.room?.name === name && c.endedAt === null);
    const person = members.find((c) => c.personOf !== null);
    const customer = members.find((c) => c.personOf === null);
    if (!person || !customer || !person.handoff) return;
    person.handoff.bridgedAt = performance.now();
    customer.transcript.push({ speaker: "agent", text: "[the shop's person]" });
    await this.#sleep(handoffPerson(person.to).bridgeSeconds);
    if (person.endedAt === null) await this.#finish(person, "completed");
  }

  /** Posts a signed request to `url` (an action or a <Number url>) and returns the TwiML our side answered. */
  async #postTo(call: FakeCall, url: string, kind: string, params: Record<string, string>): Promise<string> {
    const form = {
      AccountSid: this.#o.accountSid,
      CallSid: call.sid,
      From: call.from,
      To: call.to,
      Direction: "outbound-api",
      ApiVersion: "2010-04-01",
      ...params,
    };
    const res = await fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        "x-twilio-signature": twilioSignature(this.#o.authToken, url, form),
      },
      body: new URLSearchParams(form).toString(),
    }).catch(() => null);
    const status = res?.status ?? 0;
    call.callbacks.push({ kind, status, params: form });
    if (status >= 400 || status === 0) this.refusals.push({ kind, status });
    if (res) call.twimlTypes.push(res.headers.get("content-type") ?? "");
    const doc = res && status < 400 ? await res.text() : "";
    call.answeredTwiml.push(doc);
    return doc;
  }

  /** A bidirectional Media Stream to the <Stream> url (twilio-media.ts); the stream's end completes the call. */
  #stream(call: FakeCall, customer: SimulatedCustomer, url: string, twiml: string, voice: MediaVoice): void {
    call.media = {
      framesIn: 0,
      framesOut: 0,
      clears: 0,
      bargeIn: null,
      turnGapsMs: [],
      digitsSent: "",
      fillerFrame: null,
    };
    runMediaStream({
      url,
      signature: twilioSignature(this.#scenario(call).socketToken ?? this.#o.authToken, url, {}),
      accountSid: this.#o.accountSid,
      callSid: call.sid,
      from: call.from,
      to: call.to,
      speed: this.#o.speed,
      customer,
      lang: dialectOf(call.to) === "fr" ? "fr-FR" : "ar",
      voice,
      customParameters: Object.fromEntries(
        [...twiml.matchAll(/<Parameter name="([^"]+)" value="([^"]+)"/g)].map((m) => [m[1]!, m[2]!]),
      ),
      bargeIn: this.#scenario(call).bargeIn === true,
      keypad: this.#scenario(call).keypad ?? null,
      filler: this.#scenario(call).filler ?? null,
      hostile: this.#scenario(call).hostile ?? null,
      transcript: call.transcript,
      messages: call.messages,
      stats: call.media,
      onSocket: (socket) => (call.socket = socket),
      onRefused: (status) => this.refusals.push({ kind: "media", status }),
      onEnd: () => {
        if (!call.redirected) void this.#finish(call, "completed");
      },
    });
  }

  async #status(call: FakeCall, status: string): Promise<void> {
    call.status = status;
    const events = call.params["StatusCallbackEvent"]?.split(" ") ?? [];
    const event =
      status === "in-progress"
        ? "answered"
        : ["busy", "no-answer", "canceled", "failed", "completed"].includes(status)
          ? "completed"
          : status;
    if (!events.includes(event)) return;
    const extra: Record<string, string> = { CallbackSource: "call-progress-events" };
    if (event === "completed") extra["CallDuration"] = String(this.#scenario(call).reportedDuration ?? call.duration);
    await this.#post(call, "StatusCallback", { CallStatus: status, ...extra });
    if (this.#scenario(call).duplicateCallbacks)
      await this.#post(call, "StatusCallback", { CallStatus: status, ...extra });
  }

  async #finish(call: FakeCall, status: string): Promise<void> {
    if (call.endedAt !== null) return;
    call.endedAt = performance.now();
    if (call.answeredAt !== null && status === "completed") {
      call.duration = Math.ceil(((call.endedAt - call.answeredAt) / 1000) * this.#o.speed);
    }
    call.socket?.close();
    if (call.personOf !== null && call.handoff) {
      call.handoff.dialStatus = status;
      call.handoff.dialDuration = call.answeredAt === null ? null : call.duration;
    }
    // Leaving a room whose member had endConferenceOnExit: the conference ends, and with it the others' calls.
    const room = call.room;
    if (room) {
      const others = [...this.calls.values()].filter((c) => c !== call && c.room?.name === room.name);
      call.room = null;
      if (room.endOnExit || others.some((c) => c.room?.endOnExit))
        for (const other of others) void this.#finish(other, "completed");
    }
    await this.#status(call, status);
    if (
      status === "completed" &&
      call.answeredAt !== null &&
      call.params["Record"] === "true" &&
      call.params["RecordingStatusCallback"]
    ) {
      call.recordingSid = `RE${randomBytes(16).toString("hex")}`;
      await this.#post(call, "RecordingStatusCallback", {
        RecordingSid: call.recordingSid,
        RecordingUrl: `${this.#url}/2010-04-01/Accounts/${this.#o.accountSid}/Recordings/${call.recordingSid}`,
        RecordingStatus: "completed",
        RecordingDuration: String(call.duration),
        RecordingChannels: call.params["RecordingChannels"] === "dual" ? "2" : "1",
        RecordingSource: "OutboundAPI",
      });
    }
  }

  /** Posts a signed callback to the URL our server gave for it. */
  async #post(
    call: FakeCall,
    urlParam: string,
    params: Record<string, string>,
    token = this.#o.authToken,
  ): Promise<void> {
    const url = call.params[urlParam];
    if (!url) return;
    const form = {
      AccountSid: this.#o.accountSid,
      CallSid: call.sid,
      From: call.from,
      To: call.to,
      Direction: "outbound-api",
      ApiVersion: "2010-04-01",
      Timestamp: new Date().toUTCString(),
      ...params,
    };
    const res = await fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        "x-twilio-signature": twilioSignature(token, url, form),
        "i-twilio-idempotency-token": randomBytes(8).toString("hex"),
      },
      body: new URLSearchParams(form).toString(),
    }).catch(() => null);
    const status = res?.status ?? 0;
    call.callbacks.push({ kind: urlParam, status, params: form });
    if (status >= 400 || status === 0) this.refusals.push({ kind: urlParam, status });
  }
}
