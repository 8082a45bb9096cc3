// Issue 20, finding 8: a change request made over two turns keeps both parts when they name different things
// ("change the address" then "in white" is an address and a colour), and keeps the refinement alone otherwise.
import { describe, expect, it } from "vitest";
import { combineChanges } from "../src/engine/dialogue/slots.ts";

describe("multi-part change requests are kept whole", () => {
  it.each([
    [
      "il faudrait changer l'adresse de livraison",
      "et la couleur blanche",
      "il faudrait changer l'adresse de livraison; et la couleur blanche",
    ],
    [
      "ah, walakin bdlo liya l'adresse",
      "bghitha b lbyed machi b l7mer",
      "bdlo liya l'adresse; bghitha b lbyed machi b l7mer",
    ],
    [
      "oui, mais je voudrais changer la couleur",
      "la nouvelle adresse c'est 12 rue des Lilas à Lyon",
      "je voudrais changer la couleur; la nouvelle adresse c'est 12 rue des Lilas à Lyon",
    ],
  ])("%s + %s", (first, second, whole) => {
    expect(combineChanges(first, second)).toBe(whole);
  });

  it.each([
    ["oui, mais je voudrais changer la couleur", "en bleu plutôt qu'en noir", "en bleu plutôt qu'en noir"],
    [
      "il faudrait changer l'adresse de livraison",
      "la nouvelle adresse c'est 12 rue des Lilas à Lyon",
      "la nouvelle adresse c'est 12 rue des Lilas à Lyon",
    ],
    ["je voudrais modifier quelque chose dans la commande", "taille L au lieu de M", "taille L au lieu de M"],
    ["other color", "blue one", "blue one"],
  ])("keeps only the refinement: %s + %s", (first, second, kept) => {
    expect(combineChanges(first, second)).toBe(kept);
  });
});

describe("the dialogue keeps a two-turn change whole", () => {
  it("reports the address and the colour in outcome_details.changes", async () => {
    const { createDialogue } = await import("../src/engine/dialogue/flow.ts");
    const { seededRandom } = await import("../src/engine/telephony/simulator/customer.ts");
    const { NOW, ORDERS } = await import("./dialogue-fixtures.ts");
    const intents: Record<string, "confirm" | "change_request" | "unclear"> = {
      oui: "confirm",
      "il faudrait changer l'adresse de livraison": "change_request",
    };
    const classifier = { classify: (text: string) => ({ intent: intents[text] ?? "unclear", confidence: 0.9 }) };
    const d = createDialogue(ORDERS.fr, { classifier, now: NOW, random: seededRandom(7) });
    d.opening();
    let at = 2;
    for (const line of ["oui", "il faudrait changer l'adresse de livraison", "et en blanc s'il vous plaît"]) {
      await d.hear(line, at);
      at += 4;
    }
    expect(d.result()).toMatchObject({
      outcome: "change_requested",
      outcome_details: { changes: "il faudrait changer l'adresse de livraison; et en blanc s'il vous plaît" },
    });
  });
});
