// A local fake of jambonz at its documented boundary (docs.jambonz.org, jambonz-api-server's swagger and
// jambonz-feature-server's requestors):
// - REST: POST /v1/Accounts/{sid}/Calls (Bearer API key; body checked: from, to {type: "phone", number},
//   call_hook or application_sid, call_status_hook, timeout, tag) answers 201 {sid}; POST
//   /v1/Accounts/{sid}/Calls/{CallSid} {call_status: completed | no-answer}; GET
//   /v1/Accounts/{sid}/RecentCalls/{CallSid}/record/{YYYY}/{MM}/{DD}/wav.
// - The status webhook: JSON of the call's record, signed `Jambonz-Signature: t=..,v1=hex(HMAC-SHA256(secret,
//   "t.body"))`.
// - The WebSocket client: opened with subprotocol ws.jambonz.org and the call hook's basic auth; sends
//   session:new on answer and expects an ack within 5 s; runs the verbs of acks and `redirect` commands (gather
//   with a nested say, hangup) and reports gathers as verb:hook; reconnects after a drop with session:reconnect.
// - Issue 34, the warm transfer as a conference: a POST /Calls with an http(s) call_hook is a call to the shop's
//   person (handoff-person.ts): its call_status_hook hears trying, ringing, in-progress and its end (with `duration`,
//   except for a number ending 98); once answered its call_hook is posted (JSON, signed, with the hook's basic auth)
//   and its verbs run: `say`, `redirect` (the actionHook's verbs), `conference`, `hangup`. The `conference` verb, on
//   either leg, puts the call in the named room; endConferenceOnExit ends the room and the others' calls with it. The
//   fake ties the person's call to the customer's by the `tag` our side sets on both. (The `dial` verb is still run.)
// The callee is the simulator's customer for the number, as in the Twilio fake.
import { readFileSync } from "node:fs";
import { createHmac, randomBytes, randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { WebSocket } from "ws";
import type { SimulatedCustomer } from "../../src/engine/dialogue/types.ts";
import { Timeline, tone } from "../../src/engine/speech/wav.ts";
import { createSimulatedCustomer } from "../../src/engine/telephony/simulator/customer.ts";
import { seededRandom } from "../../src/engine/telephony/simulator/provider.ts";
import { type Hostility, sendHostileFrames } from "./hostile-frames.ts";
import { dialectOf, talk } from "./twilio.ts";
import { type FakeHandoff, handoffPerson, newHandoff } from "./handoff-person.ts";

export interface JambonzScenario {
  /** Drop the socket after this many customer turns; jambonz reconnects unless `noReconnect`. */
  dropSocketAfterTurns?: number;
  noReconnect?: boolean;
  /** Post every status webhook twice (the second with the same signature: a replay). */
  duplicateCallbacks?: boolean;
  /** Before the real webhooks, post a `completed` signed with the wrong secret. */
  forgedCallback?: boolean;
  /** Hostile frames on the call's socket right after session:new (issue 30.3; hostile-frames.ts). */
  hostile?: Hostility;
  /** Open the socket with this (wrong) basic-auth password (issue 30.6). */
  socketPassword?: string;
  /** Report speech in gather's top-level `alternatives` shape (issue 30.5) instead of the verb:hook reference's `transcripts`. */
  topLevelAlternatives?: boolean;
}

export interface FakeJambonzOptions {
  accountSid: string;
  apiKey: string;
  webhookSecret: string;
  speed: number;
  scenarios?: Record<string, JambonzScenario>;
}

export interface FakeJambonzCall {
  sid: string;
  body: Record<string, any>;
  status: string;
  answeredAt: number | null;
  endedAt: number | null;
  duration: number;
  transcript: { speaker: "agent" | "customer"; text: string }[];
  received: Record<string, unknown>[];
  callbacks: { status: number; payload: Record<string, unknown> }[];
  tokenLatencies: number[];
  socket: WebSocket | null;
  connections: number;
  /** Issue 34: the warm transfer, when our side ran one (on the customer's call and on the person's). */
  handoff: FakeHandoff | null;
  /** The verbs our side answered to the person's call_hook (played to the person only). */
  confirmVerbs: Record<string, unknown>[] | null;
  /** Issue 34: a call to the shop's person (an http(s) call_hook); the customer's call it was dialled for, if found. */
  person: boolean;
  personOf: FakeJambonzCall | null;
  /** The conference the call is in, and whether its leaving ends it. */
  room: { name: string; endOnExit: boolean } | null;
  /** When the customer's last words were sent (performance.now(); the bench's transfer line starts there). */
  lastPromptAt: number | null;
}

const DIAL_ACTION_SAMPLE = JSON.parse(
  readFileSync(new URL("../fixtures/vendors/jambonz/dial-action-hook-completed.json", import.meta.url), "utf8"),
) as Record<string, unknown>;

export function jambonzSignature(secret: string, payload: string, t = Math.floor(Date.now() / 1000)): string {
  return `t=${t},v1=${createHmac("sha256", secret).update(`${t}.${payload}`, "utf8").digest("hex")}`;
}

export class FakeJambonz {
  readonly calls = new Map<string, FakeJambonzCall>();
  readonly refusals: { kind: string; status: number }[] = [];
  outage = false;
  readonly #o: FakeJambonzOptions;
  readonly #server: http.Server;
  #url = "";
  readonly #timers = new Set<NodeJS.Timeout>();

  constructor(options: FakeJambonzOptions) {
    this.#o = options;
    this.#server = http.createServer(
      (req, res) => void this.#handle(req, res).catch((err) => res.writeHead(500).end(String(err))),
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

  async close(): Promise<void> {
    for (const t of this.#timers) clearTimeout(t);
    for (const call of this.calls.values()) call.socket?.terminate();
    this.#server.closeAllConnections();
    await new Promise((resolve) => this.#server.close(resolve));
  }

  async #handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    let raw = "";
    for await (const chunk of req) raw += chunk;
    const json = (status: number, payload?: unknown): void =>
      void res
        .writeHead(status, { "content-type": "application/json" })
        .end(payload === undefined ? undefined : JSON.stringify(payload));
    // The bench's transfer line (issue 34): wall ms from the customer's request for a person to the person's phone
    // ringing, per transfer (not jambonz's: the fake's own).
    if (req.url === "/__fake/transfers")
      return json(
        200,
        [...this.calls.values()].flatMap((c) =>
          !c.person && c.handoff?.customerAskedAt && c.handoff.ringingAt
            ? [{ ms: c.handoff.ringingAt - c.handoff.customerAskedAt, speed: this.#o.speed }]
            : [],
        ),
      );
    if (this.outage) return json(503, { msg: "system error" });
    if (req.headers.authorization !== `Bearer ${this.#o.apiKey}`) return json(401, { msg: "unauthorized" });
    const base = `/v1/Accounts/${this.#o.accountSid}`;
    const path = (req.url ?? "").split("?")[0]!;
    if (req.method === "POST" && path === `${base}/Calls`) return this.#create(JSON.parse(raw || "{}"), json);
    if (req.method === "GET" && path === `${base}/WebhookSecret`)
      return json(200, { webhook_secret: this.#o.webhookSecret });
    const update = new RegExp(`^${base}/Calls/([0-9a-f-]{36})$`).exec(path);
    if (req.method === "POST" && update) {
      const call = this.calls.get(update[1]!);
      if (!call) return json(404, { msg: "call not found" });
      const { call_status: status } = JSON.parse(raw || "{}") as { call_status?: string };
      if (status !== "completed" && status !== "no-answer")
        return json(400, { msg: "call_status must be completed or no-answer" });
      if (call.status === "in-progress" && status === "completed") {
        // During a bridge both legs end with the call.
        if (call.handoff && call.handoff.bridgedAt !== null && call.handoff.dialStatus === null)
          call.handoff.cut = true;
        void this.#finish(call, "completed");
      } else if (["trying", "ringing", "early-media"].includes(call.status)) void this.#finish(call, "no-answer");
      return json(204);
    }
    const recording = new RegExp(
      `^${base}/RecentCalls/([0-9a-f-]{36})/record/(\\d{4})/(\\d{2})/(\\d{2})/(wav|mp3)$`,
    ).exec(path);
    if (req.method === "GET" && recording) {
      const call = this.calls.get(recording[1]!);
      const day = new Date().toISOString().slice(0, 10).split("-");
      if (
        !call ||
        call.answeredAt === null ||
        call.endedAt === null ||
        recording.slice(2, 5).join("-") !== day.join("-")
      )
        return json(404, { msg: "recording or call not found" });
      const timeline = new Timeline(Math.max(1, call.duration));
      let at = 0;
      for (const turn of call.transcript) {
        timeline.place(at, tone(turn.speaker === "agent" ? 440 : 330, Math.min(2, talk(turn.text))));
        at = Math.min(call.duration, at + talk(turn.text));
      }
      const wav = timeline.toWav();
      res
        .writeHead(200, { "content-type": "audio/wav", "content-length": wav.byteLength })
        .end(Buffer.from(wav.buffer, wav.byteOffset, wav.byteLength));
      return;
    }
    return json(404, { msg: "not found" });
  }

  #create(body: Record<string, any>, json: (s: number, b?: unknown) => void): void {
    const problems: string[] = [];
    if (typeof body["from"] !== "string") problems.push("from");
    if (body["to"]?.type !== "phone" || !/^\+?\d{7,15}$/.test(body["to"]?.number ?? "")) problems.push("to");
    if (!body["application_sid"] && !/^(wss?|https?):\/\//.test(body["call_hook"]?.url ?? ""))
      problems.push("call_hook or application_sid");
    if (body["call_status_hook"] && !/^https?:\/\//.test(body["call_status_hook"].url ?? ""))
      problems.push("call_status_hook");
    if (body["timeout"] !== undefined && !Number.isInteger(body["timeout"])) problems.push("timeout");
    if (problems.length) return json(400, { msg: `invalid: ${problems.join(", ")}` });
    const call: FakeJambonzCall = {
      sid: randomUUID(),
      body,
      status: "queued",
      answeredAt: null,
      endedAt: null,
      duration: 0,
      transcript: [],
      received: [],
      callbacks: [],
      tokenLatencies: [],
      socket: null,
      connections: 0,
      handoff: null,
      confirmVerbs: null,
      person: /^https?:\/\//.test(body["call_hook"]?.url ?? ""),
      personOf: null,
      room: null,
      lastPromptAt: null,
    };
    if (call.person) {
      // Issue 34: our side dials the shop's person; tied to the customer's call by the tag our side sets on both.
      const id = body["tag"]?.wakha_call_id;
      call.personOf =
        [...this.calls.values()].find((c) => !c.person && id !== undefined && c.body["tag"]?.wakha_call_id === id) ??
        null;
    }
    this.calls.set(call.sid, call);
    json(201, { sid: call.sid });
    void (call.person ? this.#runPerson(call) : this.#run(call));
  }

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

  #scenario(call: FakeJambonzCall): JambonzScenario {
    return this.#o.scenarios?.[call.body["to"].number] ?? {};
  }

  #record(call: FakeJambonzCall): Record<string, unknown> {
    return {
      call_sid: call.sid,
      direction: "outbound",
      from: call.body["from"],
      to: call.body["to"].number,
      call_id: call.sid,
      sip_status:
        call.status === "in-progress" || call.status === "completed" ? 200 : call.status === "busy" ? 486 : 180,
      call_status: call.status,
      account_sid: this.#o.accountSid,
      customerData: call.body["tag"] ?? {},
      // A handoff number ending 98 reports no duration (our side then measures the bridge on its clock).
      ...(call.status === "completed" &&
      call.answeredAt !== null &&
      !(call.person && /98$/.test(call.body["to"].number))
        ? { duration: call.duration }
        : {}),
    };
  }

  async #run(call: FakeJambonzCall): Promise<void> {
    const customer = createSimulatedCustomer(
      call.body["to"].number,
      dialectOf(call.body["to"].number),
      seededRandom(call.sid),
    );
    if (this.#scenario(call).forgedCallback)
      await this.#post(
        call,
        { ...this.#record(call), call_status: "completed", duration: 9999 },
        "not-the-secret-0000",
      );
    await this.#status(call, "trying");
    await this.#sleep(1);
    if (customer.pickup === "busy") return this.#finish(call, "busy");
    await this.#status(call, "ringing");
    const timeout = Number(call.body["timeout"] ?? 60);
    await this.#sleep(Math.min(customer.ringSeconds, timeout));
    if (call.status !== "ringing") return;
    if (customer.pickup === "no_answer" || customer.ringSeconds > timeout) return this.#finish(call, "no-answer");
    call.answeredAt = performance.now();
    await this.#status(call, "in-progress");
    this.#connect(call, customer, "session:new");
  }

  /** The socket to the call hook; the callee's side of the conversation runs on its messages. */
  #connect(call: FakeJambonzCall, customer: SimulatedCustomer, first: "session:new" | "session:reconnect"): void {
    const hook = call.body["call_hook"] as { url: string; username?: string; password?: string };
    const password = this.#scenario(call).socketPassword ?? hook.password;
    const socket = new WebSocket(
      hook.url,
      ["ws.jambonz.org"],
      hook.username ? { auth: `${hook.username}:${password}` } : {},
    );
    call.socket = socket;
    call.connections++;
    const scenario = this.#scenario(call);
    const machine = customer.pickup === "voicemail";
    let turn = 0;
    let acked = first === "session:reconnect";
    let generation = 0; // a redirect flushes what runs: older timers see a newer generation and stop
    let promptAt = 0;
    /** When the customer's last words were sent (the bench's transfer line starts there). */
    let lastPromptAt = 0;
    // jambonz matches an ack to the message it answers by msgid: an ack for a msgid it never sent runs nothing.
    const awaitingAck = new Set<string>();
    /** Acks awaited by the dial (its confirmHook's verbs), by msgid. */
    const ackWaiters = new Map<string, (verbs: Record<string, any>[]) => void>();
    const send = (m: object) => {
      if (socket.readyState !== socket.OPEN) return false;
      const msgid = (m as { msgid?: unknown }).msgid;
      if (typeof msgid === "string") awaitingAck.add(msgid);
      socket.send(JSON.stringify(m));
      return true;
    };
    const hookMessage = (data: Record<string, unknown>) => ({
      type: "verb:hook",
      msgid: randomBytes(8).toString("hex"),
      call_sid: call.sid,
      hook: "gather",
      data: { ...data, ...this.#record(call) },
    });
    const reply = async (said: string, gen: number) => {
      if (machine) return;
      const answer = customer.reply(said, turn++);
      await this.#sleep(talk(said) + Math.max(0, answer.thinkSeconds));
      if (gen !== generation || socket.readyState !== socket.OPEN) return;
      if (answer.digits) send(hookMessage({ digits: answer.digits, reason: "dtmfDetected" }));
      else if (answer.text) {
        call.transcript.push({ speaker: "customer", text: answer.text });
        await this.#sleep(talk(answer.text));
        if (gen !== generation) return;
        promptAt = performance.now();
        lastPromptAt = promptAt;
        call.lastPromptAt = promptAt;
        send(
          hookMessage({
            speech: scenario.topLevelAlternatives
              ? { is_final: true, language_code: "xx", alternatives: [{ confidence: 0.87, transcript: answer.text }] }
              : {
                  is_final: true,
                  transcripts: [
                    {
                      is_final: true,
                      language_code: "xx",
                      alternatives: [{ confidence: 0.87, transcript: answer.text }],
                    },
                  ],
                },
            reason: "speechDetected",
          }),
        );
      }
      if (answer.hangup) return this.#finish(call, "completed");
      if (
        scenario.dropSocketAfterTurns !== undefined &&
        turn === scenario.dropSocketAfterTurns &&
        call.connections === 1
      ) {
        socket.terminate();
        if (scenario.noReconnect) return;
        await this.#sleep(0.5);
        if (call.endedAt === null) this.#connect(call, customer, "session:reconnect");
      }
    };
    const run = (verbs: Record<string, any>[]) => {
      const gen = ++generation;
      for (const verb of verbs) {
        if (verb["verb"] === "hangup") return void this.#finish(call, "completed");
        if (verb["verb"] === "dial") return void dial(verb);
        if (verb["verb"] === "conference") return void this.#conference(call, verb);
        if (verb["verb"] === "gather" && verb["say"]?.text) {
          if (promptAt) call.tokenLatencies.push(performance.now() - promptAt);
          promptAt = 0;
          call.transcript.push({ speaker: "agent", text: verb["say"].text });
          void reply(verb["say"].text, gen);
        }
      }
    };
    // The dial verb (docs.jambonz.org/verbs/verbs/dial), issue 34: rings the shop's person (handoff-person.ts) with
    // callerId for `timeout` seconds; when they answer, dial:confirm asks for the confirmHook's verbs, played to them
    // only; then the two are bridged; the dial's end is reported to its actionHook (verb:hook) with dial_call_status,
    // dial_sip_status, dial_call_sid and duration, and the acked verbs go on with the customer's call.
    const dial = async (verb: Record<string, any>) => {
      const h = (call.handoff = newHandoff());
      h.customerAskedAt = lastPromptAt || null;
      const target = Array.isArray(verb["target"]) ? verb["target"][0] : undefined;
      h.to = target?.type === "phone" && typeof target.number === "string" ? target.number : null;
      h.callerId = typeof verb["callerId"] === "string" ? verb["callerId"] : null;
      const timeout: number = Number.isInteger(verb["timeout"]) ? verb["timeout"] : 60;
      h.timeout = timeout;
      const childSid = randomUUID();
      let answeredAt: number | null = null;
      const end = async (status: string, sip: number) => {
        if (call.endedAt !== null) return;
        h.dialStatus = status;
        h.dialDuration =
          answeredAt === null ? null : Math.ceil(((performance.now() - answeredAt) / 1000) * this.#o.speed);
        if (typeof verb["actionHook"] !== "string") return run([]);
        send({
          type: "verb:hook",
          msgid: randomBytes(8).toString("hex"),
          call_sid: call.sid,
          hook: verb["actionHook"],
          // The shape of a real dial actionHook request (test/fixtures/vendors/jambonz/dial-action-hook-completed.json)
          // with this call's fields; `duration` (the dialled leg's seconds) is left out for a number ending 98, as that
          // sample has none.
          data: {
            ...DIAL_ACTION_SAMPLE,
            ...this.#record(call),
            dial_call_status: status,
            dial_sip_status: sip,
            dial_call_sid: childSid,
            ...(h.dialDuration !== null && !h.to?.endsWith("98") ? { duration: h.dialDuration } : {}),
          },
        });
      };
      const e164 = /^\+[1-9]\d{6,14}$/;
      if (!h.to || !e164.test(h.to) || (h.callerId !== null && !e164.test(h.callerId))) return end("failed", 404);
      const person = handoffPerson(h.to);
      await this.#sleep(0.2);
      if (person.pickup === "busy") {
        await this.#sleep(1);
        return end("busy", 486);
      }
      h.ringingAt = performance.now();
      if (person.pickup === "no_answer" || person.ringSeconds > timeout) {
        await this.#sleep(timeout);
        return end("no-answer", 487);
      }
      await this.#sleep(person.ringSeconds);
      if (call.endedAt !== null) return;
      answeredAt = performance.now();
      let verbs: Record<string, any>[] = [];
      if (typeof target.confirmHook === "string") {
        const msgid = randomBytes(8).toString("hex");
        const acked = new Promise<Record<string, any>[]>((resolve) => ackWaiters.set(msgid, resolve));
        send({
          type: "dial:confirm",
          msgid,
          call_sid: call.sid,
          hook: target.confirmHook,
          data: { ...this.#record(call), call_sid: childSid, direction: "outbound", to: h.to, from: h.callerId },
        });
        verbs = await Promise.race([acked, this.#sleep(5).then(() => [])]);
      }
      call.confirmVerbs = verbs;
      const say = verbs.find((v) => v["verb"] === "say");
      h.whisper = typeof say?.["text"] === "string" ? say["text"] : null;
      h.whisperLanguage = say?.["synthesizer"]?.language ?? null;
      const played = h.whisper ? talk(h.whisper) : 0;
      if (person.refuses || verbs.some((v) => v["verb"] === "hangup")) {
        await this.#sleep(played / 2);
        h.refused = true;
        return end("completed", 200);
      }
      await this.#sleep(played);
      if (call.endedAt !== null) return;
      h.bridgedAt = performance.now();
      call.transcript.push({ speaker: "agent", text: "[the shop's person]" });
      await this.#sleep(person.bridgeSeconds);
      return end("completed", 200);
    };
    socket.on("open", () => {
      send({ type: first, msgid: randomBytes(8).toString("hex"), call_sid: call.sid, data: this.#record(call) });
      if (scenario.hostile && first === "session:new") void sendHostileFrames(socket, "jambonz", scenario.hostile);
      if (first === "session:new") {
        // No ack in 5 s: jambonz hangs up (docs.jambonz.org session:new).
        void this.#sleep(5).then(() => {
          if (!acked) void this.#finish(call, "completed");
        });
        if (machine) {
          const greeting = customer.announcement?.text ?? "Bonjour, laissez votre message après le bip.";
          void this.#sleep(1).then(() =>
            send(
              hookMessage({
                speech: {
                  is_final: true,
                  transcripts: [{ is_final: true, alternatives: [{ confidence: 0.9, transcript: greeting }] }],
                },
                reason: "speechDetected",
              }),
            ),
          );
          if (customer.announcement?.closesLine) void this.#sleep(4).then(() => this.#finish(call, "completed"));
        }
      }
    });
    socket.on("unexpected-response", (_req, res) => {
      this.refusals.push({ kind: "ws", status: res.statusCode ?? 0 });
      void this.#finish(call, "completed");
    });
    socket.on("error", () => {});
    socket.on("message", (data) => {
      const message = JSON.parse(String(data)) as Record<string, any>;
      call.received.push(message);
      if (message["type"] === "ack") {
        if (!awaitingAck.delete(message["msgid"])) return;
        acked = true;
        const waiter = ackWaiters.get(message["msgid"]);
        if (waiter) {
          ackWaiters.delete(message["msgid"]);
          return waiter(Array.isArray(message["data"]) ? message["data"] : []);
        }
        if (Array.isArray(message["data"])) run(message["data"]);
      }
      if (message["type"] === "command" && message["command"] === "redirect") run(message["data"]);
      if (
        message["type"] === "command" &&
        message["command"] === "call:status" &&
        message["data"]?.call_status === "completed"
      )
        void this.#finish(call, "completed");
    });
    socket.on("close", () => {
      if (call.socket === socket) call.socket = null;
    });
  }

  async #status(call: FakeJambonzCall, status: string): Promise<void> {
    call.status = status;
    await this.#post(call, this.#record(call));
  }

  async #finish(call: FakeJambonzCall, status: string): Promise<void> {
    if (call.endedAt !== null) return;
    call.endedAt = performance.now();
    if (call.answeredAt !== null) call.duration = Math.ceil(((call.endedAt - call.answeredAt) / 1000) * this.#o.speed);
    call.socket?.close();
    const final = call.answeredAt === null && status === "completed" ? "no-answer" : status;
    if (call.person && call.handoff) {
      call.handoff.dialStatus = final;
      call.handoff.dialDuration = call.answeredAt === null ? null : call.duration;
    }
    // Leaving a conference whose member had endConferenceOnExit ends it, and the others' calls with it.
    const room = call.room;
    if (room) {
      call.room = null;
      const others = [...this.calls.values()].filter((c) => c.room?.name === room.name);
      if (room.endOnExit || others.some((c) => c.room?.endOnExit))
        for (const other of others) void this.#finish(other, "completed");
    }
    await this.#status(call, final);
  }

  /**
   * Issue 34: the call to the shop's person (test/fakes/handoff-person.ts), created with an http(s) call_hook: its
   * call_status_hook hears trying, ringing, in-progress and its end; once answered, the call_hook is requested (POST,
   * JSON, signed, with the hook's basic auth) and its verbs run: `say` (the brief), `redirect` (its actionHook's verbs),
   * `conference`, `hangup`.
   */
  async #runPerson(leg: FakeJambonzCall): Promise<void> {
    const h = newHandoff();
    leg.handoff = h;
    if (leg.personOf) leg.personOf.handoff = h;
    h.customerAskedAt = leg.personOf?.lastPromptAt ?? null;
    h.to = leg.body["to"].number;
    h.callerId = typeof leg.body["from"] === "string" ? leg.body["from"] : null;
    h.timeout = Number.isInteger(leg.body["timeout"]) ? leg.body["timeout"] : 60;
    const person = handoffPerson(h.to!);
    await this.#status(leg, "trying");
    await this.#sleep(0.2);
    if (leg.status !== "trying") return;
    if (person.pickup === "unreachable") return this.#finish(leg, "failed");
    if (person.pickup === "busy") {
      await this.#sleep(1);
      return this.#finish(leg, "busy");
    }
    await this.#status(leg, "ringing");
    h.ringingAt = performance.now();
    if (person.pickup === "no_answer" || person.ringSeconds > h.timeout!) {
      await this.#sleep(h.timeout!);
      if ((leg.status as string) === "ringing") await this.#finish(leg, "no-answer");
      return;
    }
    await this.#sleep(person.ringSeconds);
    if ((leg.status as string) !== "ringing") return;
    leg.answeredAt = performance.now();
    await this.#status(leg, "in-progress");
    const verbs = await this.#hook(leg, leg.body["call_hook"].url);
    leg.confirmVerbs = verbs;
    if (leg.personOf) leg.personOf.confirmVerbs = verbs;
    const say = verbs.find((v) => v["verb"] === "say");
    h.whisper = typeof say?.["text"] === "string" ? say["text"] : null;
    h.whisperLanguage = say?.["synthesizer"]?.language ?? null;
    const played = h.whisper ? talk(h.whisper) : 0;
    if (person.refuses || verbs.some((v) => v["verb"] === "hangup")) {
      await this.#sleep(played / 2);
      h.refused = person.refuses;
      return this.#finish(leg, "completed");
    }
    await this.#sleep(played);
    if (leg.endedAt !== null) return;
    const redirect = verbs.find((v) => v["verb"] === "redirect");
    const next = typeof redirect?.["actionHook"] === "string" ? await this.#hook(leg, redirect["actionHook"]) : [];
    const conference = next.find((v) => v["verb"] === "conference");
    if (conference && leg.endedAt === null) return this.#conference(leg, conference);
    return this.#finish(leg, "completed");
  }

  /** The `conference` verb: the call waits in the named room; with two in it they talk, then the person leaves. */
  async #conference(call: FakeJambonzCall, verb: Record<string, any>): Promise<void> {
    if (typeof verb["name"] !== "string" || call.endedAt !== null) return;
    call.room = { name: verb["name"], endOnExit: verb["endConferenceOnExit"] === true };
    const members = [...this.calls.values()].filter((c) => c.room?.name === verb["name"] && c.endedAt === null);
    const person = members.find((c) => c.person);
    const customer = members.find((c) => !c.person);
    if (!person?.handoff || !customer) return;
    person.handoff.bridgedAt = performance.now();
    customer.transcript.push({ speaker: "agent", text: "[the shop's person]" });
    await this.#sleep(handoffPerson(person.body["to"].number).bridgeSeconds);
    if (person.endedAt === null) await this.#finish(person, "completed");
  }

  /** Requests a call_hook or actionHook of the person's call as jambonz does over HTTP; the verbs it answered. */
  async #hook(call: FakeJambonzCall, url: string): Promise<Record<string, any>[]> {
    const hook = call.body["call_hook"] as { username?: string; password?: string };
    const payload = this.#record(call);
    const body = JSON.stringify(payload);
    const res = await fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "jambonz-signature": jambonzSignature(this.#o.webhookSecret, body),
        ...(hook.username
          ? { authorization: `Basic ${Buffer.from(`${hook.username}:${hook.password ?? ""}`).toString("base64")}` }
          : {}),
      },
      body,
    }).catch(() => null);
    const status = res?.status ?? 0;
    call.callbacks.push({ status, payload: { ...payload, hook: url } });
    if (status >= 400 || status === 0) this.refusals.push({ kind: "hook", status });
    if (!res || status >= 300) return [];
    const verbs = (await res.json().catch(() => [])) as unknown;
    return Array.isArray(verbs) ? (verbs as Record<string, any>[]) : [];
  }

  async #post(call: FakeJambonzCall, payload: Record<string, unknown>, secret = this.#o.webhookSecret): Promise<void> {
    const hook = call.body["call_status_hook"] as { url: string } | undefined;
    if (!hook) return;
    const body = JSON.stringify(payload);
    const signature = jambonzSignature(secret, body);
    const send = async () => {
      const res = await fetch(hook.url, {
        method: "POST",
        headers: { "content-type": "application/json", "jambonz-signature": signature },
        body,
      }).catch(() => null);
      const status = res?.status ?? 0;
      call.callbacks.push({ status, payload });
      if (status >= 400 || status === 0) this.refusals.push({ kind: "status", status });
    };
    await send();
    if (this.#scenario(call).duplicateCallbacks && secret === this.#o.webhookSecret) await send();
  }
}
