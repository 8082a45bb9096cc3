// Issue 13: Azure streaming recognition through Microsoft's Speech SDK against the fake of the service's WebSocket
// protocol (test/fakes/azure-speech-ws.ts): interim and final results with confidence in the four locales, the
// phrase list reaching the service, a refused key failing fast with its status, a dropped socket mid-turn.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AzureSpeechError } from "../src/engine/speech/azure-recognition.ts";
import { AzureSpeech } from "../src/engine/speech/azure.ts";
import { MULAW_FRAME_BYTES } from "../src/engine/speech/mulaw.ts";
import type { Recognition } from "../src/engine/speech/provider.ts";
import { FakeAzureSpeech } from "./fakes/azure-speech.ts";

const KEY = "azure-speech-test-key-0123456789";
const MULAW = { encoding: "mulaw" as const, sampleRate: 8000, channels: 1 as const };

const frames = (bytes: Uint8Array) =>
  Array.from({ length: Math.ceil(bytes.length / MULAW_FRAME_BYTES) }, (_, i) =>
    bytes.subarray(i * MULAW_FRAME_BYTES, (i + 1) * MULAW_FRAME_BYTES),
  );
const silence = (ms: number) => new Uint8Array((ms / 1000) * 8000).fill(0xff);

/** Frames at a steady pace (2 ms of wall time per 20 ms frame), as a call's audio arrives, only faster. */
async function* paced(bytes: Uint8Array): AsyncIterable<Uint8Array> {
  for (const f of frames(bytes)) {
    yield f;
    await new Promise((r) => setTimeout(r, 2));
  }
}

async function collect(it: AsyncIterable<Recognition>): Promise<Recognition[]> {
  const out: Recognition[] = [];
  for await (const r of it) out.push(r);
  return out;
}

describe("Azure streaming recognition against the fake of its WebSocket protocol", () => {
  let azure: FakeAzureSpeech;
  beforeAll(async () => {
    azure = new FakeAzureSpeech({ key: KEY });
    await azure.start();
  });
  afterAll(async () => azure?.close());

  it("yields growing interim results, then the final phrase with its confidence, in each locale; the phrase list reaches the service", async () => {
    const speech = new AzureSpeech({ key: KEY, endpoint: azure.url });
    for (const [locale, text, phrases] of [
      ["ar-MA", "واه صافي أكد ليا الطلبية ديال جوج قفاطن", ["قفطان", "بوتيك الأطلس", "ربعمية و تمنية و تسعين درهم"]],
      ["ar-DZ", "ايه نأكد الكوموند تاعي", ["حذاء رياضي", "متجر الجزائر"]],
      ["ar-TN", "ايه باهي نأكد الكوموند متاعي", ["جبة", "حانوت تونس"]],
      ["fr-FR", "oui je confirme ma commande de deux caftans", ["Caftan Atlas", "quatre cent quatre-vingt-dix-huit"]],
    ] as const) {
      const sockets = azure.stt.sockets.length;
      const heard = await collect(
        speech.recognize(paced(Buffer.concat([silence(200), azure.speak(text), silence(200)])), {
          locale,
          format: MULAW,
          phrases,
        }),
      );
      const interim = heard.filter((r) => !r.final);
      const final = heard.filter((r) => r.final);
      expect(final, locale).toEqual([expect.objectContaining({ text, final: true, confidence: 0.93 })]);
      expect(final[0]!.startSeconds, locale).toBeCloseTo(0.2, 1);
      // Interim results come first and grow word by word towards the sentence.
      expect(interim.length, locale).toBeGreaterThanOrEqual(2);
      expect(heard.indexOf(final[0]!), locale).toBe(heard.length - 1);
      for (const r of interim) expect(text.startsWith(r.text), `${locale}: ${r.text}`).toBe(true);
      const socket = azure.stt.sockets.at(-1)!;
      expect(azure.stt.sockets.length, locale).toBe(sockets + 1);
      expect(socket).toMatchObject({ language: locale, format: "detailed", phrases: [...phrases] });
      expect(socket.received.slice(0, 3), locale).toEqual(["speech.config", "speech.context", "audio"]);
      expect(
        socket.sent.map((m) => m.path),
        locale,
      ).toEqual(
        expect.arrayContaining([
          "turn.start",
          "speech.startDetected",
          "speech.hypothesis",
          "speech.endDetected",
          "speech.phrase",
          "turn.end",
        ]),
      );
      // 8 kHz mu-law went as it came: one byte per sample.
      expect(socket.audioBytes, locale).toBe(0.4 * 8000 + azure.speak(text).length);
    }
    expect(azure.refusals).toEqual([]);
    // Each turn's socket is closed by the client once its final result is in: none left open.
    for (let i = 0; i < 100 && azure.stt.openSockets > 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(azure.stt.openSockets).toBe(0);
  }, 60_000);

  it("audio that is not speech gives no result; a phrase from the list is recognised with a higher confidence", async () => {
    const speech = new AzureSpeech({ key: KEY, endpoint: azure.url });
    expect(await collect(speech.recognize(paced(silence(600)), { locale: "ar-MA", format: MULAW }))).toEqual([]);
    const heard = await collect(
      speech.recognize(paced(azure.speak("Caftan Atlas")), {
        locale: "fr-FR",
        format: MULAW,
        phrases: ["Caftan Atlas"],
      }),
    );
    expect(heard.filter((r) => r.final)).toEqual([expect.objectContaining({ text: "Caftan Atlas", confidence: 0.97 })]);
  }, 30_000);

  it("a refused key fails the recognition with status 401, without waiting for the audio", async () => {
    const speech = new AzureSpeech({ key: "not-the-key-0000000000", endpoint: azure.url });
    async function* endless() {
      for (;;) {
        yield silence(20);
        await new Promise((r) => setTimeout(r, 5));
      }
    }
    const refusals = azure.refusals.length;
    const err = await collect(speech.recognize(endless(), { locale: "ar-MA", format: MULAW })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AzureSpeechError);
    expect(err).toMatchObject({ status: 401, endReason: "speech_refused" });
    expect(azure.refusals.slice(refusals).every((r) => r.status === 401)).toBe(true);
    // An unsupported locale is refused by the service (400), not as a key problem.
    const other = await collect(
      new AzureSpeech({ key: KEY, endpoint: azure.url }).recognize(paced(silence(100)), {
        locale: "ar-EG",
        format: MULAW,
      }),
    ).catch((e: unknown) => e);
    expect(other).toMatchObject({ status: 400, endReason: undefined });
  }, 60_000);

  it("a socket dropped mid-turn: the SDK reconnects and the turn is still recognised", async () => {
    const speech = new AzureSpeech({ key: KEY, endpoint: azure.url });
    azure.stt.dropNext = 1;
    const sockets = azure.stt.sockets.length;
    const text = "non merci je ne veux plus la commande";
    const heard = await collect(
      speech.recognize(paced(Buffer.concat([azure.speak(text), silence(200)])), { locale: "fr-FR", format: MULAW }),
    );
    expect(azure.stt.sockets.slice(sockets).map((s) => s.dropped)).toEqual([true, false]);
    expect(heard.filter((r) => r.final).map((r) => r.text)).toEqual([text]);
  }, 60_000);
});
