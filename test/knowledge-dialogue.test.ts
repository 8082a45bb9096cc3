// Issue 37.2: the shop's answers in the call, in every profile. Each knowledge field is asked in the profile's words,
// read by the real intent classifier, answered from the knowledge (durations and amounts as the profile says them,
// free text as written), then the confirmation question comes back; a question the knowledge does not answer is
// recorded in outcome_details.unanswered_questions, however the call ends.
import { describe, expect, it } from "vitest";
import { classifyIntent } from "../src/engine/dialogue/classifier.ts";
import { createDialogue, profileFor } from "../src/engine/dialogue/flow.ts";
import type { Dialect, DialogueOrder, IntentClassifier } from "../src/engine/dialogue/types.ts";
import { phraseBank } from "../src/engine/telephony/simulator/customer.ts";
import { NOW, ORDERS } from "./dialogue-fixtures.ts";
import { SHOP_KNOWLEDGE } from "./knowledge-fixtures.ts";

const classifier: IntentClassifier = { classify: (text, country) => classifyIntent(text, country) };

type Field = "delivery" | "open_before_paying" | "returns" | "exchange" | "payment" | "hours" | "contact" | "qa";
/** Each field asked in the profile's words, and what its answer must say. */
const ASKED: Record<Dialect, Record<Field, [string, string[]]>> = {
  ma: {
    delivery: ["ch7al kayakhod tawsil l casa?", ["casa", "نهار واحد"]],
    open_before_paying: ["wach n9der n7el lcolis 9bel ma nkhalas?", ["آه", "تحل الكولي"]],
    returns: [
      "wach n9der nraja3 lmontaj ila ma 3jbnich?",
      ["الرجوع ممكن", "سبعة ايام", "خمسة و عشرين درهم", "الليفرور كياخد السلعة."],
    ],
    exchange: ["wach n9der nbeddel l9yas ila ma jatnich?", ["تبدل السلعة", "سبعة ايام"]],
    payment: ["wach n9der nkhalas b lkart?", ["كاش عند الاستلام", "بالكارط عند الليفرور"]],
    hours: ["fo9ach kat7allo lmagasin?", ["من الاثنين حتى السبت، من 9 حتى 6"]],
    contact: ["kifach n9der nt9assel m3akom?", ["الواتساب", "+212 6 12 34 56 78"]],
    qa: ["wach fih damana?", ["آه، عندو ضمانة عام."]],
  },
  dz: {
    delivery: ["9adach twsal l wahran?", ["wahran", "بين ثلاثة أيام و خمسة أيام"]],
    open_before_paying: ["wach nagder n7el lcolis 9bel ma nkhalles?", ["إيه", "تحل الكولي"]],
    returns: ["wach nagder nraja3ha ila ma 3jbatnich?", ["الرجوع ممكن", "سبعة أيام", "الليفرور كياخد السلعة."]],
    exchange: ["ila ma jatnich l9yas, wach kayen tabdil?", ["تبدل السلعة"]],
    payment: ["wach nagder nkhalles bel carte?", ["كاش عند الاستلام", "بالكارت عند الليفرور"]],
    hours: ["wa9tach t7allo?", ["من الاثنين حتى السبت، من 9 حتى 6"]],
    contact: ["kifach nt3ayetlkom?", ["الواتساب", "+212 6 12 34 56 78"]],
    qa: ["kayen damana 3la had lproduit?", ["إيه، عندو ضمان عام."]],
  },
  tn: {
    delivery: ["9adech yekhou ettawsil l sfax?", ["Sfax", "بين يومين و ثلاثة أيام"]],
    open_before_paying: ["najjem n7el el colis 9bal ma nkhalles?", ["إيه", "تحل الكولي"]],
    returns: ["najjem nraja3ha ken ma 3jbetnich?", ["الرجوع ممكن", "سبعة أيام", "الليفرور ياخو السلعة."]],
    exchange: ["fama tabdil ken el 9yas ma jech?", ["تبدل السلعة"]],
    payment: ["najjem nkhalles bel carte?", ["كاش وقت الاستلام", "بالكارط عند الليفرور"]],
    hours: ["waktech t7ellou?", ["من الاثنين حتى السبت، من 9 حتى 6"]],
    contact: ["kifech nkalmkom?", ["الواتساب", "+212 6 12 34 56 78"]],
    qa: ["fama damana 3al produit?", ["آه، عندو ضمانة عام."]],
  },
  fr: {
    delivery: ["combien de temps pour la livraison à Lyon ?", ["Lyon", "entre 1 et 2 jours"]],
    open_before_paying: ["est-ce que je peux ouvrir le colis avant de payer ?", ["Oui, vous pouvez ouvrir le colis"]],
    returns: [
      "est-ce que je peux retourner l'article s'il ne me plaît pas ?",
      ["le retour est possible dans les 7 jours", "Le livreur reprend l'article."],
    ],
    exchange: ["est-ce que je peux échanger la taille ?", ["échanger l'article contre une autre taille"]],
    payment: ["est-ce que je peux payer par carte ?", ["en espèces à la livraison ou par carte au livreur"]],
    hours: ["vous êtes ouverts à quelle heure ?", ["du lundi au samedi, de 9 h à 18 h"]],
    contact: ["comment je peux vous contacter ?", ["sur WhatsApp", "+212 6 12 34 56 78"]],
    qa: ["il y a une garantie sur le produit ?", ["Oui, un an de garantie."]],
  },
};

const FIELDS = Object.keys(ASKED.ma) as Field[];

/** Opening, identity, then `lines`; returns the agent's reply to each line. */
async function play(order: DialogueOrder, lines: string[]) {
  const dialogue = createDialogue(order, { classifier, now: NOW, random: () => 0 });
  dialogue.opening();
  await dialogue.hear(phraseBank(order.dialect).identityYes[0]!, 2);
  const replies: string[] = [];
  let at = 3;
  for (const line of lines) replies.push((await dialogue.hear(line, at++)).text);
  return { dialogue, replies };
}

describe.each(["ma", "dz", "tn", "fr"] as const)("the shop's answers in profile %s (issue 37)", (dialect) => {
  const order: DialogueOrder = { ...ORDERS[dialect], knowledge: SHOP_KNOWLEDGE };
  const profile = profileFor(order);

  it.each(FIELDS)("answers %s from the knowledge, then asks for the confirmation again", async (field) => {
    const [line, expected] = ASKED[dialect][field];
    const { dialogue, replies } = await play(order, [line]);
    const reply = replies[0]!;
    for (const words of expected) expect(reply, `${field}: ${line}`).toContain(words);
    expect(reply.endsWith(profile.confirmationQuestion())).toBe(true);
    const heard = dialogue
      .transcript()
      .filter((e) => e.speaker === "customer")
      .at(-1)!;
    expect(heard).toMatchObject({
      intent: "question",
      answered_from: field === "payment" ? "payment" : field,
      decision: "act",
    });
    // Then the customer confirms: no unanswered question on the outcome.
    for (let i = 0; i < 3 && !dialogue.result(); i++) await dialogue.hear(phraseBank(dialect).shortYes[0]!, 10 + i);
    expect(dialogue.result()?.outcome).toBe("confirmed");
    expect(dialogue.result()?.outcome_details).not.toHaveProperty("unanswered_questions");
  });

  it("the return fee is said as the profile says amounts", async () => {
    const { replies } = await play(order, [ASKED[dialect].returns[0]]);
    expect(replies[0]).toContain(profile.spokenAmount("25.00"));
  });

  it("without the field, the question is unanswered: said so, recorded, and the confirmation comes back", async () => {
    const bare: DialogueOrder = { ...order, knowledge: { delivery: SHOP_KNOWLEDGE.delivery! } };
    const [line] = ASKED[dialect].payment;
    const { dialogue, replies } = await play(bare, [line, ASKED[dialect].hours[0]]);
    expect(replies[0]!.endsWith(profile.confirmationQuestion())).toBe(true);
    expect(replies[0]).not.toContain("الكارط");
    const hung = dialogue.interrupt("customer_hangup", 20);
    expect(hung.outcome).toBe("no_decision");
    expect(hung.outcome_details["unanswered_questions"]).toEqual([line, ASKED[dialect].hours[0]]);
  });

  it("an answer missing in the call's language is not invented", async () => {
    const onlyOther: DialogueOrder = {
      ...order,
      knowledge: { opening_hours: order.language === "fr" ? { ar: "من 9 حتى 6" } : { fr: "de 9 h à 18 h" } },
    };
    const [line] = ASKED[dialect].hours;
    const { dialogue, replies } = await play(onlyOther, [line]);
    expect(replies[0]).not.toMatch(/9/);
    expect(dialogue.interrupt("customer_hangup", 9).outcome_details["unanswered_questions"]).toEqual([line]);
  });

  it("the delivery delay follows the call's address when the customer names no town; the default elsewhere", async () => {
    const city = { ma: "Casablanca", dz: "Oran", tn: "Sfax", fr: "Lyon" }[dialect];
    const generic = {
      ma: "imta ghadi twsal?",
      dz: "wa9tach twsal?",
      tn: "waktech twsal?",
      fr: "quand est-ce que ça arrive ?",
    }[dialect];
    const there = await play({ ...order, address: { city } }, [generic]);
    expect(there.replies[0]).toContain(city);
    const elsewhere = await play({ ...order, address: { city: "Nowhere" } }, [generic]);
    expect(elsewhere.replies[0]).toContain(order.language === "fr" ? "entre 2 et 4 jours" : "يومين");
  });
});

describe("without any knowledge (issue 37)", () => {
  it("price, items and delivery still come from the order; a question about anything else is recorded", async () => {
    const { dialogue, replies } = await play(ORDERS.ma, ["bch7al kolchi?", "wach n9der nkhalas b lkart?"]);
    expect(replies[0]).toContain(profileFor(ORDERS.ma).spokenAmount(ORDERS.ma.amount));
    for (let i = 0; i < 3 && !dialogue.result(); i++) await dialogue.hear("iyeh", 10 + i);
    expect(dialogue.result()).toMatchObject({
      outcome: "confirmed",
      outcome_details: { unanswered_questions: ["wach n9der nkhalas b lkart?"] },
    });
  });
});
