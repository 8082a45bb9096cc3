// Builds the telephony provider behind each open channel (WAKHA_CHANNELS) per WAKHA_TELEPHONY's plan, which the
// configuration reads and checks (config.ts telephonyPlan, config.telephony): the simulator, Twilio
// ConversationRelay and jambonz (issue 12), Twilio Media Streams paired with Azure Speech
// (`twilio-media`) and the simulator's audio mode (issue 13). The carriers' sessions meet their inbound routes in CarrierLines.
import { type Config, type ProviderName, telephonyPlan } from "../config/config.ts";
import { firstCallerIds } from "../config/carriers.ts";
import type { SpeechProvider } from "../engine/speech/provider.ts";
import type { Telephony, TelephonyProvider } from "../engine/telephony/provider.ts";
import { type CustomerFactory, SimulatedTelephony } from "../engine/telephony/simulator/provider.ts";
import { JambonzTelephony } from "../engine/telephony/jambonz/provider.ts";
import { TwilioTelephony } from "../engine/telephony/twilio/provider.ts";
import { AzureSpeech, DEFAULT_AZURE_VOICES } from "../engine/speech/azure.ts";
import { PairedTelephony, type TurnTaking } from "../engine/telephony/audio-session.ts";
import { SimulatedAudioTelephony } from "../engine/telephony/simulator/audio.ts";
import { TwilioMediaStreams } from "../engine/telephony/twilio/media-streams.ts";
import type { CarrierInbound, CarrierReports } from "../engine/telephony/inbound.ts";
import { jambonzInbound } from "../engine/telephony/jambonz/inbound.ts";
import type { NodeLines } from "../engine/telephony/lines.ts";
import { twilioInbound } from "../engine/telephony/twilio/inbound.ts";
import { twilioMediaInbound } from "../engine/telephony/twilio/media-inbound.ts";

export { PROVIDERS, type ProviderName, telephonyPlan } from "../config/config.ts";

/** What the providers are built from, besides the configuration. */
export interface TelephonyDependencies {
  /** The simulator's customers (simulator/customer.ts). */
  customers: CustomerFactory;
  /** Renders simulated recordings; null for tones at the turns' real timing. */
  speech: SpeechProvider | null;
  log(message: string, err?: unknown): void;
  /** The node's live carrier sessions, shared with the inbound adapters (carrierInbound). */
  lines: NodeLines;
}

/**
 * Turn-taking on audio carriers, from the configuration. The defaults per detector were measured (bench/audio.ts,
 * test/vad.test.ts, bench/results/audio.md): Silero ends a turn 200 ms after its speech probability falls (about
 * 300 ms after the last sample of speech, its own hangover of ~100 ms included) and barges in at 320 ms of voiced
 * speech, above what it hears of espeak-ng's fillers "ah" (280 ms) and "euh" (300 ms); the energy detector keeps
 * 400 ms and 160 ms. With a recogniser that streams interim results (Azure, the simulator's), words stop the agent
 * as soon as they are recognised and the duration bound is WAKHA_VAD_FILLER_MS (600 ms: above the longest filler
 * measured, espeak-ng's at 280-500 ms as Silero hears them).
 */
export function turnTaking(config: Config): TurnTaking {
  const silero = config.WAKHA_VAD === "silero";
  return {
    vad: config.WAKHA_VAD,
    threshold: config.WAKHA_VAD_THRESHOLD,
    endSilenceMs: config.WAKHA_VAD_END_SILENCE_MS ?? (silero ? 200 : 400),
    bargeInMs: config.WAKHA_VAD_BARGE_IN_MS ?? (silero ? 320 : 160),
    fillerMs: config.WAKHA_VAD_FILLER_MS ?? 600,
    minRms: config.WAKHA_VAD_MIN_RMS,
  };
}

/** What a telephony provider is made of: the provider that dials, and the inbound adapters its carrier calls back on. */
interface CarrierModule {
  provider(config: Config, deps: TelephonyDependencies): TelephonyProvider;
  inbound(config: Config, lines: NodeLines, reports: CarrierReports): CarrierInbound[];
}

/**
 * Every telephony provider, in one table (issue 29): adding a carrier is its folder under engine/telephony/, its
 * variables and traits in config/carriers.ts, and one entry here. loadConfig has checked that the variables a channel's
 * provider needs are set.
 */
const CARRIERS: Record<ProviderName, CarrierModule> = {
  simulator: {
    provider(config, deps) {
      if (!config.WAKHA_SIMULATOR_AUDIO) {
        return new SimulatedTelephony({
          customers: deps.customers,
          speed: config.WAKHA_SIMULATOR_SPEED,
          speech: deps.speech,
          onError: deps.log,
        });
      }
      // The audio mode: simulated customers speaking espeak-ng audio, paired like any audio carrier.
      const carrier = new SimulatedAudioTelephony({
        customers: deps.customers,
        speed: config.WAKHA_SIMULATOR_SPEED,
        voice: deps.speech,
        onError: deps.log,
      });
      return new PairedTelephony({
        name: "simulator",
        carrier,
        speech: carrier.speech,
        voices: {},
        speed: config.WAKHA_SIMULATOR_SPEED,
        turnTaking: turnTaking(config),
        log: deps.log,
      });
    },
    inbound: () => [],
  },
  twilio: {
    provider: (config, deps) =>
      new TwilioTelephony({
        accountSid: config.WAKHA_TWILIO_ACCOUNT_SID!,
        authToken: config.WAKHA_TWILIO_AUTH_TOKEN!,
        apiBaseUrl: config.WAKHA_TWILIO_API_URL,
        publicUrl: config.WAKHA_PUBLIC_URL!,
        callerIds: firstCallerIds(config.WAKHA_TWILIO_CALLER_IDS),
        voices: config.WAKHA_TWILIO_VOICES ?? {},
        ttsProvider: config.WAKHA_TWILIO_TTS_PROVIDER,
        transcriptionProvider: config.WAKHA_TWILIO_TRANSCRIPTION_PROVIDER,
        lines: deps.lines.text,
        speed: config.WAKHA_CARRIER_TIME_SCALE,
        log: deps.log,
      }),
    inbound: (config, lines, reports) => [
      twilioInbound({
        authToken: config.WAKHA_TWILIO_AUTH_TOKEN!,
        publicUrl: config.WAKHA_PUBLIC_URL!,
        lines: lines.text,
        reports,
      }),
    ],
  },
  "twilio-media": {
    provider: (config, deps) =>
      // Twilio Media Streams paired with Azure Speech (issue 13): the audio path, our own voices and recognition.
      new PairedTelephony({
        name: "twilio-media",
        carrier: new TwilioMediaStreams({
          accountSid: config.WAKHA_TWILIO_ACCOUNT_SID!,
          authToken: config.WAKHA_TWILIO_AUTH_TOKEN!,
          apiBaseUrl: config.WAKHA_TWILIO_API_URL,
          publicUrl: config.WAKHA_PUBLIC_URL!,
          callerIds: firstCallerIds(config.WAKHA_TWILIO_CALLER_IDS),
          voices: {},
          lines: deps.lines.text,
          media: deps.lines.media,
          speed: config.WAKHA_CARRIER_TIME_SCALE,
          log: deps.log,
        }),
        speech: new AzureSpeech({
          key: config.WAKHA_AZURE_SPEECH_KEY!,
          region: config.WAKHA_AZURE_SPEECH_REGION,
          endpoint: config.WAKHA_AZURE_SPEECH_ENDPOINT,
        }),
        voices: { ...DEFAULT_AZURE_VOICES, ...config.WAKHA_AZURE_SPEECH_VOICES },
        speed: config.WAKHA_CARRIER_TIME_SCALE,
        turnTaking: turnTaking(config),
        log: deps.log,
      }),
    // Media Streams calls share ConversationRelay's status, AMD and recording callbacks (the same lines).
    inbound: (config, lines, reports) => [
      ...CARRIERS.twilio.inbound(config, lines, reports),
      twilioMediaInbound({
        authToken: config.WAKHA_TWILIO_AUTH_TOKEN!,
        publicUrl: config.WAKHA_PUBLIC_URL!,
        media: lines.media,
      }),
    ],
  },
  jambonz: {
    provider: (config, deps) =>
      new JambonzTelephony({
        apiBaseUrl: config.WAKHA_JAMBONZ_API_URL!,
        accountSid: config.WAKHA_JAMBONZ_ACCOUNT_SID!,
        apiKey: config.WAKHA_JAMBONZ_API_KEY!,
        applicationSid: config.WAKHA_JAMBONZ_APPLICATION_SID,
        publicUrl: config.WAKHA_PUBLIC_URL!,
        callerIds: firstCallerIds(config.WAKHA_JAMBONZ_CALLER_IDS),
        webhookSecret: config.WAKHA_JAMBONZ_WEBHOOK_SECRET!,
        lines: deps.lines.text,
        speed: config.WAKHA_CARRIER_TIME_SCALE,
        log: deps.log,
      }),
    inbound: (config, lines, reports) => [
      jambonzInbound({
        publicUrl: config.WAKHA_PUBLIC_URL!,
        webhookSecret: config.WAKHA_JAMBONZ_WEBHOOK_SECRET!,
        lines: lines.text,
        reports,
        voices: config.WAKHA_JAMBONZ_VOICES ?? {},
        ttsVendor: config.WAKHA_JAMBONZ_TTS_VENDOR,
        sttVendor: config.WAKHA_JAMBONZ_STT_VENDOR,
      }),
    ],
  },
};

/** Builds the providers for the open channels; one instance of each provider is shared by its channels. */
export function createTelephony(config: Config, deps: TelephonyDependencies): Telephony {
  const plan = config.telephony ?? telephonyPlan(config);
  const instances = new Map<ProviderName, TelephonyProvider>();
  const build = (name: ProviderName): TelephonyProvider => CARRIERS[name].provider(config, deps);
  for (const name of new Set(plan.values())) instances.set(name, build(name));
  return {
    forChannel(channel) {
      const name = plan.get(channel);
      if (!name)
        throw new Error(
          `channel "${channel}" is not open on this node (WAKHA_CHANNELS=${config.WAKHA_CHANNELS.join(",")})`,
        );
      return instances.get(name)!;
    },
    async close() {
      await Promise.all([...instances.values()].map((p) => p.close()));
    },
  };
}

/**
 * The inbound adapters of the carriers the open channels use, on the same lines as their providers: what
 * inbound/carriers.ts serves under /carriers (a path two adapters share is served once).
 */
export function carrierInbound(config: Config, lines: NodeLines, reports: CarrierReports): CarrierInbound[] {
  return [...new Set(config.telephony.values())].flatMap((name) => CARRIERS[name].inbound(config, lines, reports));
}
