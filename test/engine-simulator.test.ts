// The simulator provider, the recording audio and the provider choice, without a database.
import { describe, expect, it } from "vitest";
import type { Pickup, SimulatedCustomer } from "../src/engine/dialogue/types.ts";
import { EspeakSpeech, espeakAvailable, Limiter } from "../src/engine/speech/espeak.ts";
import { decodeWav, encodeWav, Timeline, tone } from "../src/engine/speech/wav.ts";
import { ConfigError, loadConfig } from "../src/config/config.ts";
import { telephonyPlan } from "../src/root/telephony.ts";
import type { OriginateRequest } from "../src/engine/telephony/provider.ts";
import { SimulatedTelephony } from "../src/engine/telephony/simulator/provider.ts";

/** A scripted far end: fixed pickup and ring time, replies from a list. */
function scripted(
  pickup: Pickup,
  ringSeconds: number,
  replies: { text: string | null; hangup?: boolean; thinkSeconds?: number }[] = [],
): SimulatedCustomer {
  return {
    pickup,
    ringSeconds,
    reply: (_agent, turn) => {
      const r = replies[turn] ?? { text: null };
      return { text: r.text, hangup: r.hangup ?? false, thinkSeconds: r.thinkSeconds ?? 1 };
    },
  };
}

const request = (overrides: Partial<OriginateRequest> = {}): OriginateRequest => ({
  callId: "6f1c2d3e-4b5a-4c6d-8e7f-8091a2b3c4d5",
  to: "+212612345601",
  country: "MA",
  language: "ar",
  dialect: "ma",
  ringTimeoutSeconds: 30,
  machineDetection: true,
  record: true,
  ...overrides,
});

const simulator = (customer: SimulatedCustomer, speed = 1000) =>
  new SimulatedTelephony({ customers: () => customer, speed, speech: null, setupSeconds: 1 });

describe("simulator provider (CONTRACT §5)", () => {
  it("settles busy and no_answer without a connection or a recording", async () => {
    const busy = await simulator(scripted("busy", 2)).originate(request());
    expect(await busy.answered()).toMatchObject({ type: "busy" });
    expect(busy.closed).toBe(true);
    expect(busy.connectedSeconds()).toBe(0);
    expect(await busy.recording()).toBeNull();

    const events: string[] = [];
    const silent = await simulator(scripted("no_answer", 45)).originate(request({ ringTimeoutSeconds: 25 }));
    silent.on((e) => events.push(e.type));
    expect(await silent.answered()).toMatchObject({ type: "no_answer", seconds: 26 });
    expect(events).toEqual(["ringing", "no_answer"]);
    expect(await silent.recording()).toBeNull();
  });

  it("compresses only wall time: 40 simulated seconds of ringing take a few milliseconds at speed 1000", async () => {
    const started = performance.now();
    const session = await simulator(scripted("no_answer", 40)).originate(request({ ringTimeoutSeconds: 40 }));
    const settled = await session.answered();
    expect(settled).toMatchObject({ type: "no_answer", seconds: 41 });
    expect(performance.now() - started).toBeLessThan(500);
  });

  it("runs a conversation on the simulated clock with talk time per word, and hears a hang-up", async () => {
    const session = await simulator(
      scripted("answer", 5, [
        { text: "iyeh ana hiya", thinkSeconds: 1 },
        { text: "safi bslama", hangup: true, thinkSeconds: 2 },
      ]),
    ).originate(request());
    expect(await session.answered()).toMatchObject({ type: "answered", by: "human", seconds: 6 });
    const said = await session.say("salam, wach nta fatima?"); // 4 words
    expect(said.spokenSeconds).toBeCloseTo(1.9);
    const heard = await session.listen({ timeoutSeconds: 8 });
    expect(heard).toMatchObject({ text: "iyeh ana hiya", at: 2.9 });
    expect(session.connectedSeconds()).toBeCloseTo(2.9 + 1.5);
    await session.say("wakha, chokran");
    const last = await session.listen({ timeoutSeconds: 8 });
    expect(last?.text).toBe("safi bslama");
    expect(session.closed).toBe(true);
    const ended = await session.ended();
    expect(ended).toMatchObject({ type: "hangup", by: "customer" });
    expect(ended.connectedSeconds).toBeCloseTo(session.connectedSeconds());
    expect(await session.listen({ timeoutSeconds: 8 })).toBeNull();
  });

  it("times out on silence after the listen timeout", async () => {
    const session = await simulator(scripted("answer", 1, [{ text: null, thinkSeconds: 20 }])).originate(request());
    await session.answered();
    expect(await session.listen({ timeoutSeconds: 8 })).toBeNull();
    expect(session.connectedSeconds()).toBe(8);
    expect(session.closed).toBe(false);
  });

  it("lets a voicemail box answer as a machine and records the connected seconds", async () => {
    const session = await simulator(scripted("voicemail", 8)).originate(
      request({ language: "fr", dialect: "fr", country: "FR" }),
    );
    expect(await session.answered()).toMatchObject({ type: "answered", by: "machine" });
    const greeting = await session.listen({ timeoutSeconds: 30 });
    expect(greeting?.text).toContain("message");
    await session.say("Bonjour, ici la boutique, nous vous rappellerons.");
    await session.hangup();
    expect(await session.ended()).toMatchObject({ by: "agent" });
    const recording = await session.recording();
    if (!recording || !("bytes" in recording)) throw new Error("the simulator renders its recording in memory");
    expect(recording.contentType).toBe("audio/wav");
    const wav = decodeWav(recording.bytes);
    expect(wav.sampleRate).toBe(8000);
    expect(wav.samples.length).toBe(Math.ceil(session.connectedSeconds()) * 8000);
    expect(wav.samples.some((s) => s !== 0)).toBe(true);
  });

  it("cancels a ringing call when we hang up before the answer", async () => {
    const session = await simulator(scripted("answer", 20), 10).originate(request());
    setTimeout(() => void session.hangup(), 30);
    expect(await session.answered()).toMatchObject({ type: "canceled" });
    expect(await session.recording()).toBeNull();
  });
});

const HAS_ESPEAK = await espeakAvailable();

describe("recording audio", () => {
  it("writes a valid 16-bit PCM mono WAV and reads it back", () => {
    const timeline = new Timeline(2);
    timeline.place(0.5, tone(440, 0.5));
    const wav = timeline.toWav();
    expect(Buffer.from(wav.subarray(0, 4)).toString("ascii")).toBe("RIFF");
    expect(wav.byteLength).toBe(44 + 2 * 8000 * 2);
    const back = decodeWav(wav);
    expect(back.sampleRate).toBe(8000);
    expect(back.samples.slice(0, 4000).every((s) => s === 0)).toBe(true);
    expect(back.samples.slice(4000, 8000).some((s) => s !== 0)).toBe(true);
    expect(decodeWav(encodeWav(new Int16Array([1, -2, 3]), 16000)).samples).toEqual(new Int16Array([1, -2, 3]));
  });

  it("bounds concurrent work with the limiter", async () => {
    const limiter = new Limiter(2);
    let running = 0;
    let peak = 0;
    await Promise.all(
      Array.from({ length: 10 }, () =>
        limiter.run(async () => {
          peak = Math.max(peak, ++running);
          await new Promise((r) => setTimeout(r, 5));
          running--;
        }),
      ),
    );
    expect(peak).toBe(2);
  });

  it.runIf(HAS_ESPEAK)("speaks Arabic and French turns with espeak-ng", async () => {
    const speech = new EspeakSpeech();
    for (const locale of ["ar-MA", "fr-FR"]) {
      const spoken = await speech.synthesize(
        locale === "fr-FR" ? "Bonjour, votre commande est confirmée." : "السلام عليكم، واش نتي فاطمة؟",
        { locale },
      );
      expect(spoken.samples.length / spoken.sampleRate).toBeGreaterThan(0.5);
    }
    const session = await new SimulatedTelephony({
      customers: () => scripted("answer", 1, [{ text: "iyeh" }]),
      speed: 1000,
      speech,
    }).originate(request());
    await session.answered();
    await session.say("السلام عليكم");
    await session.listen({ timeoutSeconds: 8 });
    await session.hangup();
    const recording = await session.recording();
    if (!recording || !("bytes" in recording)) throw new Error("the simulator renders its recording in memory");
    const wav = decodeWav(recording.bytes);
    expect(wav.samples.length).toBe(Math.ceil(session.connectedSeconds()) * 8000);
  });
});

describe("telephony provider choice (WAKHA_CHANNELS, WAKHA_TELEPHONY)", () => {
  it("maps every open channel to one provider, or channel=provider pairs", () => {
    expect([...telephonyPlan({ WAKHA_CHANNELS: ["gsm", "whatsapp"], WAKHA_TELEPHONY: "simulator" })]).toEqual([
      ["gsm", "simulator"],
      ["whatsapp", "simulator"],
    ]);
    expect([...telephonyPlan({ WAKHA_CHANNELS: ["gsm"], WAKHA_TELEPHONY: "gsm=simulator" })]).toEqual([
      ["gsm", "simulator"],
    ]);
  });

  it("fails with a clear message on an unknown provider or a channel left without one", () => {
    expect(() => telephonyPlan({ WAKHA_CHANNELS: ["gsm"], WAKHA_TELEPHONY: "nexmo" })).toThrow(
      /unknown telephony provider "nexmo".*available: simulator, twilio, twilio-media, jambonz/,
    );
    expect(() => telephonyPlan({ WAKHA_CHANNELS: ["gsm", "sip"], WAKHA_TELEPHONY: "gsm=simulator" })).toThrow(
      /no provider for the open channel\(s\) sip/,
    );
    expect(() => telephonyPlan({ WAKHA_CHANNELS: ["gsm"], WAKHA_TELEPHONY: "sip=simulator" })).toThrow(
      /channel "sip" is not open/,
    );
  });

  it("stops a node at start: the configuration refuses an unknown provider", () => {
    expect(() => loadConfig({ WAKHA_TELEPHONY: "nexmo" })).toThrow(ConfigError);
    expect(() => loadConfig({ WAKHA_TELEPHONY: "nexmo" })).toThrow(
      /WAKHA_TELEPHONY: unknown telephony provider "nexmo"/,
    );
    // A channel names its provider in WAKHA_CHANNELS (the plain form still works); a carrier's variables are required.
    expect([...loadConfig({ WAKHA_CHANNELS: "gsm,voip=simulator" }).telephony]).toEqual([
      ["gsm", "simulator"],
      ["voip", "simulator"],
    ]);
    expect(loadConfig({ WAKHA_CHANNELS: "gsm,voip=simulator" }).WAKHA_CHANNELS).toEqual(["gsm", "voip"]);
    expect(() => loadConfig({ WAKHA_CHANNELS: "gsm=twilio" })).toThrow(
      /WAKHA_PUBLIC_URL: required by the twilio channel\(s\)[^\n]*\n.*WAKHA_TWILIO_ACCOUNT_SID: required[^\n]*\n.*WAKHA_TWILIO_AUTH_TOKEN[^\n]*\n.*WAKHA_TWILIO_CALLER_IDS/,
    );
    expect(loadConfig({ WAKHA_CHANNELS: "gsm,whatsapp" }).WAKHA_TELEPHONY).toBe("simulator");
  });
});
