// Carrier announcements and voicemail greetings recognised from what is said (issue 14), and never a
// customer's reply taken for one.
import { readFileSync, existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { recogniseLineMessage } from "../src/engine/dialogue/line-messages.ts";
import { ANNOUNCEMENTS } from "../src/engine/telephony/simulator/phrases/announcements.ts";
import { phraseBank } from "../src/engine/telephony/simulator/customer.ts";

/** Operators' usual texts, written independently of the simulator's bank. */
const UNREACHABLE = [
  // France: Orange, SFR, Bouygues Telecom, Free
  "Le numéro que vous avez demandé n'est pas attribué",
  "le numero de votre correspondant n'est plus en service actuellement",
  "Votre correspondant n'est pas joignable pour le moment. Veuillez renouveler votre appel ultérieurement.",
  "votre correspondant est actuellement injoignable",
  "Le téléphone de votre correspondant est éteint",
  "bienvenue chez sfr le numero que vous avez compose n'existe pas",
  "votre appel ne peut aboutir veuillez verifier le numero",
  // Morocco (Maroc Telecom, inwi, Orange Maroc), MSA and Darija, with recogniser spelling
  "الرقم الذي طلبتموه غير موجود",
  "المرجو إعادة الاتصال لاحقا",
  "المخاطب لا يمكن الاتصال به حاليا",
  "الهاتف الذي تتصلون به مغلق او يوجد خارج التغطيه",
  "النمرة اللي عيطتي ليها ماشي خدامة",
  // Algeria (Djezzy, Mobilis, Ooredoo)
  "المشترك الذي تحاول الاتصال به غير متاح حاليا",
  "الرقم المطلوب خارج الخدمة",
  "le numéro demandé est momentanément injoignable",
  // Tunisia (Tunisie Telecom, Ooredoo, Orange)
  "الرقم الذي تطلبه غير مشغل",
  "هاتف مخاطبك مغلق",
  "التليفون مسكر",
];

const VOICEMAIL = [
  "Bonjour, vous êtes bien sur la messagerie vocale de Julie, laissez un message après le bip",
  "votre appel va être transféré sur la messagerie de votre correspondant",
  "je ne suis pas disponible pour le moment laissez moi un message",
  "vous êtes sur le répondeur du 06 11 22 33 44",
  "سيتم تحويل مكالمتك إلى العلبة الصوتية",
  "المرجو ترك رسالتكم بعد سماع الإشارة الصوتية",
  "المخاطب غير متوفر حاليا، اترك رسالتك بعد الصفارة",
  "سلام ما كاينش دابا خلي ميساج",
  "salam khalli message ba3d l bip",
  "aslema khallili message w nkallmek",
];

describe("line messages", () => {
  it.each(UNREACHABLE)("%j is a number that cannot be reached", (text) => {
    expect(recogniseLineMessage(text)?.kind).toBe("unreachable");
  });

  it.each(VOICEMAIL)("%j is a voicemail box", (text) => {
    expect(recogniseLineMessage(text)?.kind).toBe("voicemail");
  });

  it("reads every announcement the simulator plays as what it is", () => {
    for (const a of Object.values(ANNOUNCEMENTS)) {
      for (const t of [...a.notInService, ...a.switchedOff, ...a.unavailable])
        expect(recogniseLineMessage(t)?.kind, t).toBe("unreachable");
      for (const t of [...a.forwarded, ...a.greeting]) expect(recogniseLineMessage(t)?.kind, t).toBe("voicemail");
    }
  });

  it("never takes a customer's reply for a recording: the labelled sets and the phrase banks", () => {
    const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), "fixtures");
    const texts: string[] = [];
    for (const name of [
      "intents-dev.jsonl",
      "intents-holdout.jsonl",
      "intents-blind-dev.jsonl",
      "intents-own-train.jsonl",
      "intents-own-holdout.jsonl",
    ]) {
      const file = path.join(fixtures, name);
      if (!existsSync(file)) continue;
      for (const line of readFileSync(file, "utf8").split("\n"))
        if (line.trim()) texts.push((JSON.parse(line) as { text: string }).text);
    }
    for (const d of ["ma", "dz", "tn", "fr"] as const) texts.push(...Object.values(phraseBank(d)).flat());
    texts.push(
      "ana machi f dar, 3ayet liya men b3d",
      "rappelez-moi plus tard svp",
      "le numéro est faux, c'est pas moi",
      "الرقم غالط، ماشي أنا",
    );
    expect(texts.length).toBeGreaterThan(1000);
    expect(texts.filter((t) => recogniseLineMessage(t) !== null)).toEqual([]);
  });
});
