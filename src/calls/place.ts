// The place-call handler: takes a queued call to a terminal status through a TelephonyProvider (issue 5).
// Claim (queued to ringing, exactly once), dial, on answer run the dialogue turn by turn, stop at its end,
// at a customer hang-up, at a cancel (polled between turns) or before the balance runs out; then end the
// call, bill it and emit call.ended in one transaction; then store the recording and emit recording.ready.
import type { AppContext } from "../context.ts";
import { type CallFailure, failureOf } from "../domain/end-reasons.ts";
import { REQUIRED_SECONDS } from "../domain/money.ts";
import { closingLine, voicemailMessage } from "../engine/agent-lines.ts";
import {
  type CallEnd,
  type ClaimedCall,
  claimCalls,
  emitCallEvent,
  heartbeat,
  type LineCheck,
  markAnswered,
  settleCall,
} from "./call-states.ts";
import { profileFor } from "../engine/dialogue/flow.ts";
import { speechSeconds } from "../engine/speech/talk-time.ts";
import { recogniseLineMessage } from "../engine/dialogue/line-messages.ts";
import { enqueueWoken } from "./policy/concurrency.ts";
import { recoveryClock } from "./sweeper.ts";
import type { Dialogue, DialogueOrder, Interruption, TranscriptEntry } from "../engine/dialogue/types.ts";
import { saveCarrierRecording, saveRecording } from "./recordings.ts";
import type { AnswerResult, CallSession } from "../engine/telephony/provider.ts";
import type { Telephony } from "../engine/telephony/provider.ts";
import type { HandoffTrigger } from "../domain/handoff.ts";
import { applyPersonDecision, loadHandoff, runTransfer, type ShopHandoff, type TransferRun } from "./transfer.ts";

/** What the dialer runs on: chosen once per node in the engine's composition (engine.ts). */
export interface CallEngine {
  telephony: Telephony;
  /**
   * `line.digits`: the carrier carries keypad digits, so the dialogue may offer "press 1 or 2". `extra.handoff`: the
   * shop's handoff triggers (issue 34).
   */
  dialogue(
    order: DialogueOrder,
    now: Date,
    line?: { digits: boolean },
    extra?: { handoff?: readonly HandoffTrigger[] },
  ): Dialogue;
  log(message: string, err?: unknown): void;
  /** Places the calls that ending calls hand their places to (Relay); set on first use. */
  relay?: Relay;
}

/** Seconds the customer is given to start answering. */
export const LISTEN_TIMEOUT_SECONDS = 8;
export const RING_TIMEOUT_SECONDS = 30;
/** How long the voicemail path waits for the carrier to report the end of a machine's greeting (its beep). */
const MACHINE_GREETING_WAIT_SECONDS = 30;
/** Customer utterances read for a carrier announcement or a voicemail greeting (they come first). */
const ANNOUNCEMENT_TURNS = 2;
/** Kept in hand beyond the next question: the customer's answer and the polite close. */
const REPLY_RESERVE_SECONDS = 12;

export { speechSeconds };

const UNANSWERED: Record<Exclude<AnswerResult["type"], "answered">, CallEnd["status"]> = {
  busy: "busy",
  no_answer: "no_answer",
  failed: "failed",
  canceled: "canceled",
};

/** Places one call; never throws once the call is claimed (a failure ends it as failed, or the sweep does). */
export async function placeCall(ctx: AppContext, engine: CallEngine, callId: string): Promise<void> {
  await placeCalls(ctx, engine, [callId]);
}

/**
 * Places a batch of calls (a fetch of place-call jobs): claimed together in one transaction (claimCalls), then each
 * dialled and run to its end at once. Throws only when the claim does (the jobs are then retried). Resolves once the
 * calls have ended, and the calls their ends handed their places to (Relay) too.
 */
export async function placeCalls(ctx: AppContext, engine: CallEngine, callIds: string[]): Promise<void> {
  const calls = await claimCalls(ctx, callIds);
  const fetchedAt = performance.now();
  await Promise.all(calls.map((call) => new CallRun(ctx, engine, call, fetchedAt).run()));
}

/**
 * How long after its fetch a place-call job keeps relaying the places its calls' ends free (it stays active until the
 * calls it relayed have ended); after that the next wake goes through a job again, well inside the job's 30-minute
 * expiry whatever the calls' length.
 */
export const RELAY_FOR_MS = 10 * 60_000;
/** At most this many woken calls are claimed by one transaction of the relay. */
const RELAY_BATCH = 100;

/**
 * Issue 15: the calls woken by the ends of this node's calls (the next in line for the place, or the line, an end
 * freed) are claimed here, by the node that ended them, without a place-call job: no job to insert, fetch and complete,
 * and the wakes of concurrent ends are claimed together, in one transaction per batch (while one claim runs, the next
 * batch gathers). A woken call is `queued` and holds its place until claimed; should this node die before, the sweep
 * gives it a job once it has waited QUEUED_GRACE_SECONDS. A claim that fails gives each of its calls a job at once.
 */
class Relay {
  readonly #ctx: AppContext;
  readonly #engine: CallEngine;
  #pending: { id: string; fetchedAt: number; done: () => void }[] = [];
  #draining = false;

  constructor(ctx: AppContext, engine: CallEngine) {
    this.#ctx = ctx;
    this.#engine = engine;
  }

  /** Claims and runs the calls; resolves once each has ended (or was not claimed: ended, canceled, parked again). */
  place(ids: string[], fetchedAt: number): Promise<void> {
    if (ids.length === 0) return Promise.resolve();
    const runs = ids.map((id) => new Promise<void>((done) => this.#pending.push({ id, fetchedAt, done })));
    if (!this.#draining) void this.#drain();
    return Promise.all(runs).then(() => undefined);
  }

  async #drain(): Promise<void> {
    this.#draining = true;
    try {
      while (this.#pending.length > 0) {
        const batch = this.#pending.splice(0, RELAY_BATCH);
        let claimed: ClaimedCall[];
        try {
          claimed = await claimCalls(
            this.#ctx,
            batch.map((b) => b.id),
          );
        } catch (err) {
          this.#engine.log(`the claim of ${batch.length} woken calls failed; they go through place-call jobs`, err);
          await Promise.all(
            batch.map((b) =>
              enqueueWoken(this.#ctx, b.id).catch((e: unknown) =>
                this.#engine.log(`call ${b.id}: no job either; the sweep will give it one`, e),
              ),
            ),
          );
          for (const b of batch) b.done();
          continue;
        }
        const byId = new Map(claimed.map((c) => [c.id, c]));
        for (const b of batch) {
          const call = byId.get(b.id);
          if (!call) b.done();
          else void new CallRun(this.#ctx, this.#engine, call, b.fetchedAt).run().finally(b.done);
        }
      }
    } finally {
      this.#draining = false;
    }
  }
}

/** The engine's relay: built with the first call it places, on the engine the root built once (no registry). */
function relayOf(ctx: AppContext, engine: CallEngine): Relay {
  return (engine.relay ??= new Relay(ctx, engine));
}

function unanswered(status: CallEnd["status"], endReason: string): CallEnd {
  return { status, outcome: null, outcomeDetails: null, endReason, transcript: null, connectedSeconds: 0 };
}

/** A carrier's report that the attempt failed: `carrier_failed_486` (the adapters' SIP status) is end reason carrier_failed. */
function carrierFailure(reason: string): CallEnd {
  const sip = /^carrier_failed_(\d{3})$/.exec(reason)?.[1];
  if (sip)
    return {
      ...unanswered("failed", "carrier_failed"),
      error: { code: `sip_${sip}`, message: `The carrier reported the call failed with SIP status ${sip}.` },
    };
  return { ...unanswered("failed", reason), error: failureOf(reason) };
}

/** How often a transfer's hold is checked (wall milliseconds). */
const HOLD_WATCH_MS = 200;

class CallRun {
  readonly #ctx: AppContext;
  readonly #engine: CallEngine;
  readonly #call: ClaimedCall;
  #session: CallSession | null = null;
  #answered = false;
  #check: LineCheck;
  #timer: NodeJS.Timeout | null = null;
  #refreshedAt = 0;
  /** When (connected seconds) the agent said each of its lines, in order. */
  readonly #agentTimes: number[] = [];

  /** When the place-call job that this call (or the chain of ends that handed it its place) came from was fetched. */
  readonly #fetchedAt: number;
  /** The customer objected to the recording (issue 36). */
  #recordingDeclined = false;
  /** Issue 34: the warm transfer the call had, if any. */
  #transfer: TransferRun | null = null;
  /** Issue 34: the hold watch ended the call during the transfer (the balance ran out). */
  #holdCut = false;
  /** Issue 34: the shop's handoff, read while the call rings (so the opening line waits for nothing). */
  #handoff: Promise<ShopHandoff | null> = Promise.resolve(null);

  constructor(ctx: AppContext, engine: CallEngine, call: ClaimedCall, fetchedAt: number) {
    this.#ctx = ctx;
    this.#engine = engine;
    this.#call = call;
    this.#fetchedAt = fetchedAt;
    // What the call may use is its hold on the balance (call-states.ts), extended by the heartbeat as it goes.
    this.#check = { lost: false, cancel: false, availableSeconds: call.heldSeconds };
  }

  async run(): Promise<void> {
    let end: CallEnd;
    try {
      end = await this.#dial();
    } catch (err) {
      // Speech that refused our key, or stopped recognising, says so (audio-session.ts); anything else is ours.
      const said = (err as { endReason?: unknown } | null)?.endReason;
      const reason = said === "speech_refused" || said === "speech_unavailable" ? said : "engine_error";
      this.#engine.log(`call ${this.#call.id}: the call failed mid-call (${reason}); ending it as failed`, err);
      await this.#session?.hangup().catch(() => {});
      end = {
        ...unanswered("failed", reason),
        connectedSeconds: this.#session?.connectedSeconds() ?? 0,
        error: failureOf(reason),
        recordingDeclined: this.#recordingDeclined,
      };
    } finally {
      if (this.#timer) clearInterval(this.#timer);
    }
    // A line whose carrier socket was refused (issue 30.6) ends failed with the line's reason, billed as connected.
    const lineFailure = this.#session?.lineFailure?.() ?? null;
    if (lineFailure && end.status === "completed")
      end = { ...end, status: "failed", outcome: null, outcomeDetails: null, endReason: lineFailure };
    if (this.#check.lost) return; // the sweep ended it while we were cut off from the database
    // The calls this end hands its place (and line) to: claimed by this node within RELAY_FOR_MS of the job's fetch;
    // past that they get a job, so no place-call job stays active for ever.
    const relay = performance.now() - this.#fetchedAt < RELAY_FOR_MS ? ([] as string[]) : undefined;
    try {
      if (!(await settleCall(this.#ctx, this.#call, end, relay, (m) => this.#engine.log(m)))) return;
    } catch (err) {
      this.#engine.log(`call ${this.#call.id}: could not record its end; the sweep will`, err);
      return;
    }
    // The simulator's person settles the order as a real one would through PUT .../resolution (issue 34).
    if (this.#transfer?.decision)
      await applyPersonDecision(this.#ctx, this.#call, this.#transfer.decision).catch((err: unknown) =>
        this.#engine.log(`call ${this.#call.id}: the person's decision was not recorded`, err),
      );
    const next = relay && relay.length > 0 ? relayOf(this.#ctx, this.#engine).place(relay, this.#fetchedAt) : null;
    await this.#storeRecording();
    await next;
  }

  async #dial(): Promise<CallEnd> {
    const call = this.#call;
    // Created with enough balance, but other calls may have spent it since: not worth ringing anyone.
    if (call.balanceSeconds < REQUIRED_SECONDS) return unanswered("failed", "insufficient_balance");
    const provider = this.#engine.telephony.forChannel(call.channel);
    let session: CallSession;
    try {
      session = await provider.originate({
        callId: call.id,
        to: call.phone,
        ...(call.callerNumber ? { from: call.callerNumber } : {}),
        country: call.country,
        language: call.language,
        dialect: call.dialect,
        ringTimeoutSeconds: RING_TIMEOUT_SECONDS,
        machineDetection: true,
        record: true,
        timeLimitSeconds: call.balanceSeconds,
        phrases: recognitionPhrases(dialogueOrder(call)),
      });
    } catch (err) {
      // An outage of the carrier's API is carrier_unavailable (text-carrier.ts); any other refusal carrier_refused.
      const reason =
        (err as { endReason?: unknown }).endReason === "carrier_unavailable"
          ? "carrier_unavailable"
          : "carrier_refused";
      this.#engine.log(`call ${call.id}: the carrier did not dial (${reason})`, err);
      // The cause on the call (issue 32.4): what the adapter said without secrets, else the catalogue's sentence.
      const failure = (err as { failure?: CallFailure } | null)?.failure;
      return { ...unanswered("failed", reason), error: failure ?? failureOf(reason) };
    }
    this.#session = session;
    this.#handoff = loadHandoff(this.#ctx.db, call.shopId).catch((err: unknown) => {
      this.#engine.log(`call ${call.id}: the shop's handoff could not be read; no transfer on this call`, err);
      return null;
    });
    // The heartbeat on the sweep's clock (WAKHA_RECOVERY_TIME_SCALE, tests only, compresses both).
    const { heartbeatMs } = recoveryClock(this.#ctx.config);
    this.#timer = setInterval(() => {
      if (performance.now() - this.#refreshedAt < heartbeatMs / 2) return; // a turn just refreshed it
      this.#refresh().catch((err) => this.#engine.log(`call ${call.id}: heartbeat failed`, err));
    }, heartbeatMs);
    const answer = await session.answered();
    if (answer.type === "failed") return carrierFailure(answer.reason);
    if (answer.type !== "answered") return unanswered(UNANSWERED[answer.type], answer.type);
    this.#answered = true;
    this.#check = await markAnswered(this.#ctx, call);
    if (this.#check.lost) {
      await session.hangup();
      return unanswered("failed", "worker_lost");
    }
    const end = answer.by === "machine" ? await this.#leaveVoicemail(session) : await this.#converse(session);
    await session.hangup();
    return {
      ...end,
      connectedSeconds: session.connectedSeconds(),
      ...(this.#transfer ? { transfer: this.#transfer.transfer } : {}),
    };
  }

  // Heartbeat and line state; a cancel while ringing hangs up at once (the API already answered `canceled`).
  async #refresh(): Promise<void> {
    const session = this.#session;
    this.#refreshedAt = performance.now();
    this.#check = await heartbeat(
      this.#ctx.db,
      this.#call.id,
      this.#answered && session ? session.connectedSeconds() : null,
    );
    if (session && !this.#answered && (this.#check.cancel || this.#check.lost)) await session.hangup();
  }

  /** Seconds this call may still run on its hold: it never talks on credit the account does not have. */
  #remaining(session: CallSession): number {
    return this.#check.availableSeconds - session.connectedSeconds();
  }

  /**
   * Issue 34: while the carrier runs a transfer the dialer says nothing, so no turn checks the balance: this does. When
   * the call's hold runs out and a fresh line check cannot extend it (the balance is spent), the call is ended at the
   * carrier (its REST API during a transfer: both legs). Returns the function that stops watching.
   */
  #watchHold(session: CallSession): () => void {
    let checking = false;
    const timer = setInterval(() => {
      if (checking || session.closed || this.#remaining(session) > 0) return;
      checking = true;
      void this.#refresh()
        .catch((err) => this.#engine.log(`call ${this.#call.id}: line check failed`, err))
        .then(async () => {
          if (this.#remaining(session) > 0 || session.closed) return;
          this.#engine.log(`call ${this.#call.id}: the balance ran out during the transfer; ending the call`);
          this.#holdCut = true;
          await session.hangup();
        })
        .catch((err) => this.#engine.log(`call ${this.#call.id}: could not end the call`, err))
        .finally(() => (checking = false));
    }, HOLD_WATCH_MS);
    timer.unref();
    return () => clearInterval(timer);
  }

  async #say(session: CallSession, text: string): Promise<void> {
    this.#agentTimes.push(session.connectedSeconds());
    await session.say(text);
  }

  async #converse(session: CallSession): Promise<Omit<CallEnd, "connectedSeconds">> {
    const call = this.#call;
    // The shop's handoff (issue 34): its triggers shape the dialogue; read while the call rang.
    const handoff = await this.#handoff;
    const dialogue = this.#engine.dialogue(
      dialogueOrder(call),
      new Date(this.#ctx.now()),
      { digits: session.carriesDigits === true },
      handoff ? { handoff: handoff.triggers } : undefined,
    );
    const extra: TranscriptEntry[] = [];
    let interruption: Interruption | null = null;
    let heardTurns = 0;
    let turn = dialogue.opening();
    let refreshing: Promise<void> | null = null;
    // The turn is decided on the line state of the last refresh (markAnswered's, then a turn or a heartbeat old:
    // a cancel still closes the line within seconds) while a new one runs behind the agent's words, so no
    // database round trip sits between the customer's last word and the agent's answer (issue 12). The refresh
    // is sent once the agent's line is on the wire: not even the query's write comes before the first token.
    const refresh = () =>
      (refreshing ??= this.#refresh()
        .catch((err) => this.#engine.log(`call ${call.id}: line check failed`, err))
        .finally(() => (refreshing = null)));
    for (;;) {
      if (this.#check.lost) throw new Error("the call was ended elsewhere");
      const needed = speechSeconds(turn.text) + (turn.end ? 0 : REPLY_RESERVE_SECONDS);
      if (!this.#check.cancel && this.#remaining(session) < needed) {
        // The last line state may predate the top-up of this call's hold: before closing for lack of balance, wait
        // for the refresh under way and, if it still does not cover the turn, take a fresh one (it tops the hold up).
        await refreshing;
        if (this.#remaining(session) < needed)
          await this.#refresh().catch((err) => this.#engine.log(`call ${call.id}: line check failed`, err));
        if (this.#check.lost) throw new Error("the call was ended elsewhere");
      }
      const cancel = this.#check.cancel;
      if (cancel || this.#remaining(session) < needed) {
        // A goodbye that does not fit is left unsaid; anything else is replaced by the polite close.
        if (!turn.end || cancel) {
          interruption = cancel ? "canceled" : "balance_exhausted";
          await this.#closePolitely(session, extra);
        }
        break;
      }
      if (turn.transfer && dialogue.transferred) {
        // Issue 34: the person's phone is dialled at once, while the agent says it puts the customer through (the
        // carrier joins them once the line is said and the person heard the brief). The bridged part is billed like
        // the rest: when the hold can no longer be topped up, the line is cut (both legs).
        const stopWatch = this.#watchHold(session);
        const spoken = turn.text ? this.#say(session, turn.text) : Promise.resolve();
        refresh();
        const transferring = runTransfer(this.#ctx, call, session, handoff, turn.transfer, spoken);
        await spoken.catch(() => {});
        this.#transfer = await transferring.finally(stopWatch);
        // A bridge the balance cut says so (the call's `transfer.ended_by`): status stays `bridged`.
        if (this.#holdCut && this.#transfer.transfer.status === "bridged") this.#transfer.transfer.ended_by = "balance";
        for (const t of this.#transfer.bridgedTurns) extra.push(t);
        turn = dialogue.transferred(this.#transfer.transfer.status, session.connectedSeconds());
        if (this.#transfer.transfer.status === "bridged") break;
        continue;
      }
      if (turn.text) {
        const saying = this.#say(session, turn.text);
        refresh();
        await saying;
      } else refresh();
      if (turn.end) break;
      // A machine reported while the call talks (asynchronous detection, issue 30.1/30.2): stop the dialogue.
      if (this.#machineAnswered(session))
        return this.#leaveVoicemail(
          session,
          this.#transcript(
            dialogue.transcript().filter((e) => e.speaker === "agent"),
            [],
          ),
        );
      if (session.closed) {
        interruption = "customer_hangup";
        break;
      }
      const heard = await session.listen({ timeoutSeconds: LISTEN_TIMEOUT_SECONDS });
      if (this.#machineAnswered(session))
        return this.#leaveVoicemail(
          session,
          this.#transcript(
            dialogue.transcript().filter((e) => e.speaker === "agent"),
            [],
          ),
        );
      if (session.closed) {
        // Words said just before hanging up are kept in the transcript; the hang-up decides the call.
        if (heard) extra.push({ speaker: "customer", text: heard.text, at: heard.at });
        interruption = "customer_hangup";
        break;
      }
      // A carrier announcement or a voicemail greeting, whatever answering-machine detection said.
      const recorded = heard?.text && heardTurns++ < ANNOUNCEMENT_TURNS ? recogniseLineMessage(heard.text) : null;
      if (heard && recorded) return this.#recordedMessage(session, recorded.kind, dialogue.transcript(), heard);
      turn =
        heard?.digits && dialogue.press
          ? await dialogue.press(heard.digits, heard.at)
          : await dialogue.hear(heard?.text ?? null, heard?.at ?? session.connectedSeconds());
      // Issue 36: from the objection on, the whole recording is discarded (the audio before it is the customer's too).
      if (dialogue.recordingDeclined?.()) this.#recordingDeclined = true;
    }
    const at = session.connectedSeconds();
    const result =
      (interruption ? dialogue.interrupt(interruption, at) : dialogue.result()) ??
      dialogue.interrupt("line_dropped", at);
    return {
      status: interruption === "canceled" ? "canceled" : "completed",
      outcome: result.outcome,
      outcomeDetails: result.outcome_details,
      endReason: result.end_reason,
      transcript: this.#transcript(dialogue.transcript(), extra),
      recordingDeclined: this.#recordingDeclined,
    };
  }

  async #closePolitely(session: CallSession, extra: TranscriptEntry[]): Promise<void> {
    const line = closingLine(this.#call.language, this.#call.dialect);
    if (session.closed || this.#remaining(session) < speechSeconds(line)) return;
    extra.push({ speaker: "agent", text: line, at: session.connectedSeconds() });
    await session.say(line);
  }

  // The dialogue's transcript, with the agent's lines placed at the second they were really said.
  #transcript(log: TranscriptEntry[], extra: TranscriptEntry[]): TranscriptEntry[] {
    let agentLine = 0;
    const timed = log.map((entry) =>
      entry.speaker === "agent" && agentLine < this.#agentTimes.length
        ? { ...entry, at: this.#agentTimes[agentLine++]! }
        : entry,
    );
    return [...timed, ...extra].map((e) => ({ ...e, at: Math.round(e.at * 10) / 10 })).sort((a, b) => a.at - b.at);
  }

  // What was heard is a recording, not the customer: a carrier announcement ends the call at once as failed
  // (number_unreachable); a voicemail greeting gets the voicemail message. Billed as connected either way.
  async #recordedMessage(
    session: CallSession,
    kind: "unreachable" | "voicemail",
    said: TranscriptEntry[],
    heard: { text: string; at: number },
  ): Promise<Omit<CallEnd, "connectedSeconds">> {
    const transcript = [
      ...this.#transcript(
        said.filter((e) => e.speaker === "agent"),
        [],
      ),
      { speaker: "customer" as const, text: heard.text, at: heard.at },
    ];
    if (kind === "voicemail") return this.#leaveVoicemail(session, transcript);
    await session.hangup();
    return { status: "failed", outcome: null, outcomeDetails: null, endReason: "number_unreachable", transcript };
  }

  #machineAnswered(session: CallSession): boolean {
    const machine = session.answeringMachine?.();
    return machine === "greeting" || machine === "ended";
  }

  // A machine answered: wait for its greeting and beep, leave a short message, hang up. Billed as connected.
  // A greeting that is a carrier announcement ("the number is not in service") ends the call as failed.
  // With the carrier's own detection of the greeting's end (Twilio DetectMessageEnd), the message waits for it and is
  // spoken not interruptible, so neither the greeting nor anything else cuts it (issue 30.2).
  async #leaveVoicemail(
    session: CallSession,
    heardAlready?: TranscriptEntry[],
  ): Promise<Omit<CallEnd, "connectedSeconds">> {
    const call = this.#call;
    const transcript: TranscriptEntry[] = heardAlready ?? [];
    const detected = this.#machineAnswered(session);
    if (
      detected &&
      session.machineGreetingEnded &&
      !(await session.machineGreetingEnded(MACHINE_GREETING_WAIT_SECONDS))
    ) {
      // No end of greeting in time (or the line closed): no message over a greeting that still plays.
      return { status: "voicemail", outcome: null, outcomeDetails: null, endReason: "voicemail", transcript };
    }
    // A greeting recognised from its words just ended: the carrier's verdict on its end (the beep) is due; wait a moment.
    if (!detected && heardAlready && session.machineGreetingEnded) await session.machineGreetingEnded(3);
    if (!heardAlready && !detected) {
      const greeting = await session.listen({ timeoutSeconds: 30 });
      if (greeting) transcript.push({ speaker: "customer", text: greeting.text, at: greeting.at });
      if (greeting && recogniseLineMessage(greeting.text)?.kind === "unreachable") {
        await session.hangup();
        return { status: "failed", outcome: null, outcomeDetails: null, endReason: "number_unreachable", transcript };
      }
    }
    await this.#refresh();
    const message = voicemailMessage(call.language, call.dialect, call.shopName);
    if (!session.closed && !this.#check.cancel && this.#remaining(session) >= speechSeconds(message)) {
      transcript.push({ speaker: "agent", text: message, at: session.connectedSeconds() });
      await session.say(message, { interruptible: false });
    }
    return { status: "voicemail", outcome: null, outcomeDetails: null, endReason: "voicemail", transcript };
  }

  async #storeRecording(): Promise<void> {
    const session = this.#session;
    // Objected to during the call (issue 36): nothing is stored, downloaded or announced (no recording.ready).
    if (!session || !this.#answered || this.#recordingDeclined) return;
    try {
      const recording = await session.recording();
      if (!recording) return;
      if ("bytes" in recording) await saveRecording(this.#ctx, this.#call.id, recording.bytes, recording.contentType);
      else if (!(await saveCarrierRecording(this.#ctx, this.#call.id, recording.source))) return;
      await this.#ctx.db.tx((client) =>
        emitCallEvent(this.#ctx, client, this.#call.accountId, this.#call.id, "recording.ready"),
      );
    } catch (err) {
      this.#engine.log(`call ${this.#call.id}: the recording could not be stored`, err);
    }
  }
}

/** The order's words for the recogniser's phrase list: products and variants, the shop, the amount as the agent says it. */
export function recognitionPhrases(order: DialogueOrder): string[] {
  const phrases = [
    order.shopName,
    ...order.items.flatMap((i) => [i.name, ...(i.variant ? [i.variant] : [])]),
    profileFor(order).spokenAmount(order.amount),
    order.amount.replace(/\.0+$/, ""),
  ];
  return [...new Set(phrases.map((p) => p.trim()).filter(Boolean))];
}

export function dialogueOrder(call: ClaimedCall): DialogueOrder {
  return {
    shopName: call.shopName,
    customerName: call.customerName,
    country: call.country,
    language: call.language,
    dialect: call.dialect,
    amount: call.amount,
    currency: call.currency,
    items: call.items.map((i) => ({
      name: i.name,
      variant: i.variant_name,
      quantity: i.quantity,
      unit_price: i.unit_price,
    })),
    address: call.address ? { city: call.address.city, line1: call.address.line1 } : null,
    knowledge: call.knowledge,
  };
}
