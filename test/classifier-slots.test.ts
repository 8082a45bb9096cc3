// The slot extractors the dialogue uses after the intent: the day, the time, the reason, the change.
import { describe, expect, it } from "vitest";
import type { Country } from "../src/engine/dialogue/classifier.ts";
import {
  EID_DATES,
  extractChanges,
  extractClock,
  extractDate,
  extractReason,
  extractTime,
} from "../src/engine/dialogue/slots.ts";

// Wednesday 18 November 2026, 11:00 in Casablanca, Algiers, Tunis and Paris (all UTC+1 in November).
const NOW = new Date("2026-11-18T10:00:00Z");

describe("extractDate", () => {
  const cases: [Country, string, string | null][] = [
    ["MA", "jibouha ghedda", "2026-11-19"],
    ["DZ", "jibouha ghodwa", "2026-11-19"],
    ["MA", "غدا", "2026-11-19"],
    ["FR", "demain", "2026-11-19"],
    ["MA", "ba3d ghedda", "2026-11-20"],
    ["FR", "après-demain", "2026-11-20"],
    ["MA", "ghedda ma nkonch, ba3d ghedda", "2026-11-20"], // the last day named wins
    ["MA", "lyoum f l3chiya", "2026-11-18"],
    ["MA", "nhar ssebt", "2026-11-21"],
    ["MA", "نهار الخميس", "2026-11-19"],
    // Sunday in Arabic script alone (round 10); and a time gone by is no day to deliver on.
    ["TN", "جيبوه الأحد خير", "2026-11-22"],
    ["FR", "je l'attends depuis une semaine, envoyez-la", null],
    // A day followed by "gone by" (round 22): "I've been waiting since last week" names no day to deliver on.
    ["MA", "صيفطوها، راني كنتسناها من السيمانة اللي فاتت", null],
    ["FR", "envoyez, je l'ai commandée la semaine dernière", null],
    ["DZ", "tlebtha ljem3a lmadya, jibouha sebt", "2026-11-21"],
    ["FR", "ça fait deux jours que j'attends", null],
    ["FR", "j'ai commandé ça y a trois semaines", null],
    ["FR", "y a personne aujourd'hui, passez", "2026-11-18"], // "y a" before no count is "there is"
    ["FR", "livrez dans une semaine", "2026-11-25"],
    ["FR", "ce vendredi", "2026-11-20"],
    ["MA", "nhar jem3a", "2026-11-20"], // Friday in Morocco
    ["MA", "ssebt jay", "2026-11-28"], // next Saturday: the Saturday of next week
    ["FR", "samedi prochain", "2026-11-28"],
    ["FR", "lundi prochain", "2026-11-23"], // Monday is already next week
    ["FR", "dans 3 jours", "2026-11-21"],
    ["MA", "ba3d jouj iyam", "2026-11-20"],
    ["FR", "dans 2 semaines", "2026-12-02"],
    ["FR", "la semaine prochaine", "2026-11-23"],
    ["MA", "السيمانة الجاية", "2026-11-23"],
    ["DZ", "l'simana jaya", "2026-11-23"],
    ["TN", "ba3d jem3a", "2026-11-25"], // a week in Tunisia
    ["TN", "بعد جمعة", "2026-11-25"],
    ["TN", "el jem3a ejjeya", "2026-11-23"],
    ["TN", "nhar ejjem3a", "2026-11-20"],
    ["MA", "mn ba3d l3id", "2027-03-11"], // the next Eid is al-Fitr 2027
    ["DZ", "بعد العيد", "2027-03-11"],
    ["MA", "ba3d l3id lkbir", "2027-05-17"],
    ["FR", "après l'Aïd", "2027-03-11"],
    ["FR", "le 3 décembre", "2026-12-03"],
    ["FR", "25/12", "2026-12-25"],
    ["FR", "le 25 décembre 2027", "2027-12-25"],
    ["MA", "f 25 had chhar", "2026-11-25"],
    ["MA", "f 25 chhar 12", "2026-12-25"],
    ["FR", "le 15", "2026-12-15"], // the 15th has passed this month
    ["FR", "jusqu'au 20, après le 20 c'est bon", "2026-11-21"],
    ["FR", "ce week-end", "2026-11-21"],
    ["MA", "wakha sifto", null],
    ["MA", "ana f 3 dyal l3chiya", null], // a time, not the 3rd
    ["FR", "31/02", null],
  ];
  it.each(cases)("%s %j is %s", (country, text, date) => {
    expect(extractDate(text, country, NOW)).toBe(date);
  });

  it("counts from the customer's own calendar day", () => {
    // 23:30 UTC on the 18th is already the 19th in Paris
    expect(extractDate("demain", "FR", new Date("2026-11-18T23:30:00Z"))).toBe("2026-11-20");
  });

  it("knows the Eid dates of 2026 to 2028", () => {
    expect(EID_DATES).toHaveLength(3);
    for (const { fitr, adha } of EID_DATES) {
      expect(fitr < adha).toBe(true);
      expect(fitr).toMatch(/^202[678]-\d\d-\d\d$/);
    }
    expect(extractDate("après l'Aïd", "FR", new Date("2026-02-01T10:00:00Z"))).toBe("2026-03-21");
  });
});

describe("extractTime", () => {
  it.each([
    ["après six heures", "18:00"],
    ["vous pouvez livrer après 6 ?", "18:00"],
    ["à 18h", "18:00"],
    ["rappelez-moi à 18h30", "18:30"],
    ["à 17h et quart", "17:15"],
    ["m3a 6 dyal l3chiya", "18:00"],
    ["setta u nss d l3chiya", "18:30"],
    ["l3chiya", "18:00"],
    ["العشية", "18:00"],
    ["m3a l3achra d sbah", "10:00"],
    ["le matin", "09:00"],
    ["men b3d l3asr", "16:00"],
    ["wakha", null],
    ["dans 3 jours", null],
    ["الظهر", "12:00"],
    ["f ldhor", "12:00"],
    // "the house" is not "noon": "ldar" once read as "ldhor" with flexible vowels
    ["إيه نحبها، ابعثها للدار", null],
    ["jibouha l dar", null],
  ])("%j is %s", (text, time) => {
    expect(extractTime(text)).toBe(time);
  });

  it("extractClock gives the same time as numbers", () => {
    expect(extractClock("3ayet lia m3a setta d l3chiya")).toEqual({ hour: 18, minute: 0 });
    expect(extractClock("ok")).toBeNull();
  });
});

describe("extractReason", () => {
  it.each([
    ["ghalia bzaf", "too expensive"],
    ["c'est trop cher", "too expensive"],
    ["ma 3ndich lflous had chhar", "cannot afford it"],
    ["j'ai changé d'avis", "changed their mind"],
    ["bddelt rayi", "changed their mind"],
    ["ma tlebt walou", "did not place the order"],
    ["l9itha rkhisa f blasa khra", "bought it elsewhere"],
    ["t3ttlto bzaf", "delivery took too long"],
    ["ma b9itch m7taj liha", "no longer needed"],
    ["la ma bghitch", null],
  ])("%j is %s", (text, reason) => {
    expect(extractReason(text)).toBe(reason);
  });
});

describe("extractChanges", () => {
  it.each([
    ["iyeh walakin bghitha b lk7el machi l7mer", "bghitha b lk7el machi l7mer"],
    ["oui mais en rouge", "en rouge"],
    ["l'pointure 42 machi 41", "l'pointure 42 machi 41"],
    ["zidou liya wahed akhor", "zidou liya wahed akhor"],
    ["واخا، ولكن بغيتها بالكحل", "بغيتها بالكحل"],
    ["3afak bddel lia l'couleur", null], // what to change, but not into what: the agent asks
    ["wakha sifto", null],
  ])("%j is %j", (text, changes) => {
    expect(extractChanges(text)).toBe(changes);
  });
});
