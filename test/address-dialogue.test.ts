// The address read-back after a confirmation (issue 35), in every profile, with the real intent classifier and the
// simulator's customers: a plain yes confirms the address, 16 corrects the city, 17 adds a landmark, silence leaves
// it unconfirmed; each call stays confirmed. Without an address on the call nothing is asked.
import { describe, expect, it } from "vitest";
import { classifyIntent } from "../src/engine/dialogue/classifier.ts";
import { createDialogue } from "../src/engine/dialogue/flow.ts";
import type { Dialect, DialogueOrder, IntentClassifier } from "../src/engine/dialogue/types.ts";
import { cueOf } from "../src/engine/telephony/simulator/customer.ts";
import { converse, NOW, ORDERS, phoneFor } from "./dialogue-fixtures.ts";

const classifier: IntentClassifier = { classify: (text, country) => classifyIntent(text, country) };
const ADDRESSES: Record<Dialect, NonNullable<DialogueOrder["address"]>> = {
  ma: { city: "Casablanca", line1: "12 rue Ibn Battouta" },
  dz: { city: "Alger", line1: "Cité 5 Juillet, bât 3" },
  tn: { city: "Tunis", line1: "Rue de Marseille 8" },
  fr: { city: "Paris", line1: "10 rue de Rivoli" },
};
const CORRECTED: Record<Dialect, string> = { ma: "Rabat", dz: "Oran", tn: "Sfax", fr: "Lyon" };
const withAddress = (dialect: Dialect): DialogueOrder => ({ ...ORDERS[dialect], address: ADDRESSES[dialect] });

describe.each(["ma", "dz", "tn", "fr"] as const)("the address read-back, profile %s (issue 35)", (dialect) => {
  it("a plain yes: confirmed, address confirmed, the address read back in the profile's words", async () => {
    const played = await converse(withAddress(dialect), phoneFor(dialect, "01"), classifier);
    expect(played.result).toMatchObject({
      outcome: "confirmed",
      outcome_details: { delivery: { address_confirmed: true } },
    });
    const asked = played.transcript.find((e) => e.speaker === "agent" && e.text.includes(ADDRESSES[dialect].city));
    expect(asked?.text).toContain(ADDRESSES[dialect].line1);
    expect(cueOf(asked!.text)).toBe("address");
  });

  it("16 corrects the city: still confirmed, the city heard in corrected", async () => {
    const played = await converse(withAddress(dialect), phoneFor(dialect, "16"), classifier);
    expect(played.result).toMatchObject({
      outcome: "confirmed",
      outcome_details: { delivery: { address_confirmed: false, corrected: { city: CORRECTED[dialect] } } },
    });
  });

  it("17 adds a landmark: confirmed, the landmark kept in the customer's words", async () => {
    const played = await converse(withAddress(dialect), phoneFor(dialect, "17"), classifier);
    const delivery = (
      played.result?.outcome_details as { delivery?: { address_confirmed: boolean; landmark?: string } }
    ).delivery;
    expect(played.result?.outcome).toBe("confirmed");
    expect(delivery).toMatchObject({ address_confirmed: true, landmark: expect.any(String) });
    const said = played.transcript
      .filter((e) => e.speaker === "customer")
      .map((e) => e.text)
      .join(" ");
    expect(said).toContain(delivery!.landmark);
  });

  it("silence to the address question: still confirmed, address not confirmed; a hang-up there too", async () => {
    const order = withAddress(dialect);
    const dialogue = createDialogue(order, { classifier, now: NOW, random: () => 0 });
    dialogue.opening();
    await dialogue.hear(dialect === "fr" ? "Oui c'est moi" : "iyeh", 1);
    let turn = await dialogue.hear(
      dialect === "fr" ? "Oui je confirme la commande" : "iyeh, akked liya la commande",
      2,
    );
    for (let i = 0; i < 3 && cueOf(turn.text) !== "address"; i++)
      turn = await dialogue.hear(dialect === "fr" ? "oui" : "iyeh", 3 + i);
    expect(cueOf(turn.text)).toBe("address");
    const closing = await dialogue.hear(null, 9);
    expect(closing.end).toBe(true);
    expect(dialogue.result()).toMatchObject({
      outcome: "confirmed",
      end_reason: "completed",
      outcome_details: { delivery: { address_confirmed: false } },
    });

    const hung = createDialogue(order, { classifier, now: NOW, random: () => 0 });
    hung.opening();
    await hung.hear(dialect === "fr" ? "Oui c'est moi" : "iyeh", 1);
    let t2 = await hung.hear(dialect === "fr" ? "Oui je confirme la commande" : "iyeh, akked liya la commande", 2);
    for (let i = 0; i < 3 && cueOf(t2.text) !== "address"; i++)
      t2 = await hung.hear(dialect === "fr" ? "oui" : "iyeh", 3 + i);
    expect(hung.interrupt("customer_hangup", 10)).toMatchObject({
      outcome: "confirmed",
      outcome_details: { delivery: { address_confirmed: false } },
    });
  });

  it("without an address on the call, a confirmation asks nothing more", async () => {
    const played = await converse(ORDERS[dialect], phoneFor(dialect, "01"), classifier);
    expect(played.result?.outcome).toBe("confirmed");
    expect(played.result?.outcome_details).not.toHaveProperty("delivery");
    expect(played.transcript.some((e) => e.speaker === "agent" && cueOf(e.text) === "address")).toBe(false);
  });
});
