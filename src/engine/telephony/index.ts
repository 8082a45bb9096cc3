// Chooses the telephony provider behind each open channel (WAKHA_CHANNELS) from WAKHA_TELEPHONY: either one
// provider name for every channel (`simulator`, the default) or `channel=provider` pairs
// (`gsm=simulator,whatsapp=simulator`). Only the simulator exists so far; real carriers join PROVIDERS.
import type { Config } from "../../config.ts";
import type { SpeechProvider } from "../speech/provider.ts";
import type { TelephonyProvider } from "./provider.ts";
import { type CustomerFactory, SimulatedTelephony } from "./simulator/provider.ts";

export const PROVIDERS = ["simulator"] as const;
export type ProviderName = (typeof PROVIDERS)[number];

/** The providers of a node, one per open channel. */
export interface Telephony {
  forChannel(channel: string): TelephonyProvider;
  close(): Promise<void>;
}

/** What the providers are built from, besides the configuration. */
export interface TelephonyDependencies {
  /** The simulator's customers (simulator/customer.ts). */
  customers: CustomerFactory;
  /** Renders simulated recordings; null for tones at the turns' real timing. */
  speech: SpeechProvider | null;
  log(message: string, err?: unknown): void;
}

/**
 * Reads WAKHA_TELEPHONY into a provider name per open channel. Throws one clear message for an unknown
 * provider or a channel that is not open, so a misconfigured node fails at start and not at its first call.
 */
export function telephonyPlan(config: Pick<Config, "WAKHA_CHANNELS" | "WAKHA_TELEPHONY">): Map<string, ProviderName> {
  const spec = config.WAKHA_TELEPHONY.trim();
  const pairs = spec.includes("=")
    ? spec.split(",").map((p) => p.trim()).filter(Boolean).map((p) => p.split("=").map((s) => s.trim()) as [string, string])
    : config.WAKHA_CHANNELS.map((channel) => [channel, spec] as [string, string]);
  const plan = new Map<string, ProviderName>();
  for (const [channel, name] of pairs) {
    if (!(PROVIDERS as readonly string[]).includes(name ?? "")) {
      throw new Error(`WAKHA_TELEPHONY: unknown telephony provider "${name ?? ""}" for channel "${channel}"; available: ${PROVIDERS.join(", ")}`);
    }
    if (!config.WAKHA_CHANNELS.includes(channel)) {
      throw new Error(`WAKHA_TELEPHONY: channel "${channel}" is not open (WAKHA_CHANNELS=${config.WAKHA_CHANNELS.join(",")})`);
    }
    plan.set(channel, name as ProviderName);
  }
  const missing = config.WAKHA_CHANNELS.filter((c) => !plan.has(c));
  if (missing.length) throw new Error(`WAKHA_TELEPHONY: no provider for the open channel(s) ${missing.join(", ")}`);
  return plan;
}

/** Builds the providers for the open channels; one instance of each provider is shared by its channels. */
export function createTelephony(config: Pick<Config, "WAKHA_CHANNELS" | "WAKHA_TELEPHONY" | "WAKHA_SIMULATOR_SPEED">, deps: TelephonyDependencies): Telephony {
  const plan = telephonyPlan(config);
  const instances = new Map<ProviderName, TelephonyProvider>();
  const build = (name: ProviderName): TelephonyProvider => {
    switch (name) {
      case "simulator":
        return new SimulatedTelephony({ customers: deps.customers, speed: config.WAKHA_SIMULATOR_SPEED, speech: deps.speech, onError: deps.log });
    }
  };
  for (const name of new Set(plan.values())) instances.set(name, build(name));
  return {
    forChannel(channel) {
      const name = plan.get(channel);
      if (!name) throw new Error(`channel "${channel}" is not open on this node (WAKHA_CHANNELS=${config.WAKHA_CHANNELS.join(",")})`);
      return instances.get(name)!;
    },
    async close() {
      await Promise.all([...instances.values()].map((p) => p.close()));
    },
  };
}
