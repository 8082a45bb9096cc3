// Orders per dialect and a small driver that plays a simulated customer against a dialogue the way the
// dialer does (opening, then reply / hear until the agent ends or the customer hangs up).
import { createDialogue } from "../src/engine/dialogue/flow.ts";
import type {
  Dialect,
  Dialogue,
  DialogueOrder,
  DialogueResult,
  IntentClassifier,
  SimulatedCustomer,
  TranscriptEntry,
} from "../src/engine/dialogue/types.ts";
import { createSimulatedCustomer, seededRandom } from "../src/engine/telephony/simulator/customer.ts";

/** Sunday 22 November 2026, 10:00 UTC. */
export const NOW = new Date("2026-11-22T10:00:00Z");

export const ORDERS: Record<Dialect, DialogueOrder> = {
  ma: {
    shopName: "Dar Lbahja",
    customerName: "Fatima Zahra",
    country: "MA",
    language: "ar",
    dialect: "ma",
    amount: "690.00",
    currency: "MAD",
    items: [
      { name: "Caftan", variant: "Vert, M", quantity: 1, unit_price: "450.00" },
      { name: "Babouche", variant: "38", quantity: 2, unit_price: "120.00" },
    ],
  },
  dz: {
    shopName: "Bled Store",
    customerName: "Yacine",
    country: "DZ",
    language: "ar",
    dialect: "dz",
    amount: "4500.00",
    currency: "DZD",
    items: [{ name: "Montre", variant: "Noir", quantity: 1, unit_price: "4500.00" }],
  },
  tn: {
    shopName: "Souk Ennour",
    customerName: "Amira",
    country: "TN",
    language: "ar",
    dialect: "tn",
    amount: "89.500",
    currency: "TND",
    items: [
      { name: "Sac à main", variant: "Beige", quantity: 1, unit_price: "82.500" },
      { name: "Livraison", variant: null, quantity: 1, unit_price: "7.000" },
    ],
  },
  fr: {
    shopName: "Maison Lila",
    customerName: "Julie Martin",
    country: "FR",
    language: "fr",
    dialect: "fr",
    amount: "49.90",
    currency: "EUR",
    items: [{ name: "Coque de téléphone", variant: "Bleu", quantity: 2, unit_price: "24.95" }],
  },
};

/** A test number per country ending in `suffix` (CONTRACT §5). */
export function phoneFor(dialect: Dialect, suffix: string): string {
  const base: Record<Dialect, string> = { ma: "+2126123456", dz: "+2135512345", tn: "+2162012345", fr: "+3361234567" };
  return `${base[dialect]}${suffix}`;
}

export interface Conversation {
  customer: SimulatedCustomer;
  dialogue: Dialogue | null;
  result: DialogueResult | null;
  transcript: TranscriptEntry[];
  /** How many agent turns asked something (not the closing). */
  agentTurns: number;
}

/** Plays `customer` against a new dialogue; null dialogue when nobody picks up. */
export async function converse(
  order: DialogueOrder,
  phoneNumber: string,
  classifier: IntentClassifier,
  seed = 1,
): Promise<Conversation> {
  const customer = createSimulatedCustomer(phoneNumber, order.dialect, seededRandom(seed));
  if (customer.pickup !== "answer") return { customer, dialogue: null, result: null, transcript: [], agentTurns: 0 };
  const dialogue = createDialogue(order, { classifier, now: NOW, random: seededRandom(seed + 1000) });
  let turn = dialogue.opening();
  let at = customer.ringSeconds > 0 ? 1 : 0;
  let agentTurns = 0;
  for (let i = 0; i < 30 && !turn.end; i++) {
    agentTurns += 1;
    const reply = customer.reply(turn.text, i);
    at += 3 + reply.thinkSeconds;
    if (reply.hangup) {
      if (reply.text) await dialogue.hear(reply.text, at);
      dialogue.interrupt("customer_hangup", at);
      break;
    }
    turn = await dialogue.hear(reply.text, at);
  }
  return { customer, dialogue, result: dialogue.result(), transcript: dialogue.transcript(), agentTurns };
}
