// What the dialogue needs beyond the intent: the day of a reschedule, the hour of a callback, the reason of
// a decline and the change asked for. Read from the same canonical text as the classifier (normalize.ts), so
// Arabic script, arabizi and French are handled alike.
import type { Country } from "./lexicon/index.ts";
import { compilePhrases } from "./lexicon/pattern.ts";
import { localDate } from "../../domain/local-time.ts";
import { canonicalTokens, canonicalWord } from "./normalize.ts";
import { analyse, PAST, tokenIndexByOffset } from "./signals.ts";

/**
 * First day of Eid al-Fitr and Eid al-Adha, 2026 to 2028: astronomical predictions; the Maghreb countries
 * follow moon sighting, so the real day may differ by one.
 */
export const EID_DATES: { fitr: string; adha: string }[] = [
  { fitr: "2026-03-20", adha: "2026-05-27" },
  { fitr: "2027-03-10", adha: "2027-05-16" },
  { fitr: "2028-02-27", adha: "2028-05-05" },
];

interface Found {
  at: number;
  date: string;
}

const phrase = (p: string) => compilePhrases(p);
const RE = {
  today: phrase("~lyum|~lyoum|~lyuma|aujourd|aujourdhui, el yum, had nhar, had lyum"),
  tomorrow: phrase("~=gheda|~=ghda|~=ghudwa|~=ghodwa|~=ghedwa|~=ghadwa|~=ghdwa|~=ghdua|demain"),
  afterTomorrow: phrase("ba3d|mn|mba3d =gheda|=ghda|=ghudwa|=ghodwa|=ghdwa|=ghedwa|=ghadwa, apres demain"),
  week: phrase("~simana*|~semana*|~usbu3|~sbu3|semaine*"),
  nextWord: phrase("jay*|jey*|ljay*|ejay*|ejey*|ljey*|l9adem|l9adma|prochain*|ejeya, d apres"),
  weekend: phrase("wikand|wikend|lwikend|weekend, week|wik end"),
  eid: phrase("~3id|~l3id*|~=3aid|aid|eid|ramdan|ramadan|ramdhan"),
  eidAdha: phrase("~3id ~kbir|~dhha|~adha, ~3id el|l kbir"),
  eidFitr: phrase("~3id ~sghir|~sghar|~fitr|~ftur, ramdan|ramadan|ramdhan"),
  nextMonth: phrase("~chhar jay*|ljay|ljaya|l9adem|jey*, mois prochain, rass ~chhar, debut du|de mois"),
};
/** "chhar" (month) in canonical form. */
const CHHAR = canonicalWord("chhar");
const AFTER = new Set(["ba3d", "mba3d", "apres", "mn", "men", "min"]);

const WEEKDAYS: [number, RegExp][] = [
  [1, phrase("~tnin|~itnin|~atnin|~etnin|~tnayn|~itnayn|lundi")],
  [2, phrase("=ltlat|=ltlata|=etlata|=tlat|=ltlatha|mardi, nhar ~tlat*")],
  [3, phrase("=larb3|=larb3a|=larba3|=lerb3a|=larbe3|=larba|mercredi, nhar ~arb3*|~erb3*")],
  [4, phrase("~khmis|~khamis|jeudi")],
  [5, phrase("~jem3a|~jum3a|~jema3|~jom3a|~juma|~jam3a|vendredi")],
  [6, phrase("~sebt|~sabt|~sibt|samedi")],
  [0, phrase("=lhed|=lahad|=elahad|=lhad|=elhad|=ahad|=lahd|=lhd|dimanche, nhar ~hed|~ahad")],
];

const MONTHS: [number, RegExp][] = [
  [1, phrase("janvier|janv|yanayr|yanayir|yenayer|janfi|janfiye")],
  [2, phrase("fevrier|fev|fbrayr|fibrayr|fifri|fivri")],
  [3, phrase("mars")],
  [4, phrase("avril|avr|abril|afril")],
  [5, phrase("mai|may|mayu")],
  [6, phrase("juin|yunyu|yunyo|juan|jwan")],
  [7, phrase("juillet|juil|yulyuz|yulyu|juiliya|jwilya|jwiliya")],
  [8, phrase("aout|ghucht|ghocht|ghust|ut")],
  [9, phrase("septembre|sept|chtanbir|chutanbir|sebtamber|sibtambir")],
  [10, phrase("octobre|oct|oktubr|oktobr|oktober|uktubar")],
  [11, phrase("novembre|nov|nunbir|nuvanbir|novamber|nufambir")],
  [12, phrase("decembre|dec|dujanbir|dijanbir|disamber|dicembr")],
];

const NUMBER_WORDS: Record<string, number> = {
  un: 1,
  une: 1,
  wahed: 1,
  wahd: 1,
  wahda: 1,
  deux: 2,
  juj: 2,
  zuj: 2,
  zuz: 2,
  tnin: 2,
  trois: 3,
  tlata: 3,
  tleta: 3,
  quatre: 4,
  rb3a: 4,
  arb3a: 4,
  cinq: 5,
  khamsa: 5,
  six: 6,
  seta: 6,
  sept: 7,
  sab3a: 7,
  huit: 8,
  tmenya: 8,
  tmanya: 8,
  neuf: 9,
  tes3a: 9,
  dix: 10,
  "3achra": 10,
  onze: 11,
  hdach: 11,
  douze: 12,
  tnach: 12,
  quinze: 15,
  vingt: 20,
};
const DAY_UNITS = /^(?:l?iyam|l?ayam|yam|jurs?|nhar|nhara|iam)$/;
const WEEK_UNITS = /^(?:semaines?|simanat|simanet|asabi3|jma3i)$/;

function numberAt(token: string | undefined): number | null {
  if (!token) return null;
  if (/^\d{1,3}$/.test(token)) return Number(token);
  return NUMBER_WORDS[token] ?? null;
}

function addDays(date: string, days: number): string {
  const [y = 1970, m = 1, d = 1] = date.split("-").map(Number);
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

function weekday(date: string): number {
  return new Date(`${date}T00:00:00Z`).getUTCDay();
}

function iso(y: number, m: number, d: number): string | null {
  const dt = new Date(Date.UTC(y, m - 1, d));
  if (dt.getUTCMonth() !== m - 1 || dt.getUTCDate() !== d) return null;
  return dt.toISOString().slice(0, 10);
}

/** The next date with this day (and month) on or after `today`. */
function upcoming(today: string, day: number, month?: number, year?: number): string | null {
  const [ty = 1970, tm = 1] = today.split("-").map(Number);
  if (year !== undefined && month !== undefined) return iso(year < 100 ? 2000 + year : year, month, day);
  if (month !== undefined) {
    const d = iso(ty, month, day);
    return d && d >= today ? d : iso(ty + 1, month, day);
  }
  const d = iso(ty, tm, day);
  if (d && d >= today) return d;
  return tm === 12 ? iso(ty + 1, 1, day) : iso(ty, tm + 1, day);
}

/** Sticky twins of the slot patterns: a match only ever starts where a token does (their `(?<![^ ])`). */
const stickyTwins = new WeakMap<RegExp, RegExp>();

/**
 * The non-overlapping matches of `re`, tried only at token starts (sticky) rather than scanned through every
 * character: the scan's backtracking through the patterns' optional prefixes cost up to 9 ms on one reply in the
 * carriers bench (issue 12's first-token goal). The same matches as a global scan, since none starts mid-token.
 */
function matchesOf(re: RegExp, canon: string, tokenAt: Map<number, number>): { start: number; end: number }[] {
  let sticky = stickyTwins.get(re);
  if (!sticky) stickyTwins.set(re, (sticky = new RegExp(re.source, `${re.flags.replace("g", "")}y`)));
  const out: { start: number; end: number }[] = [];
  let from = 0;
  for (const offset of tokenAt.keys()) {
    if (offset < from || offset >= canon.length) continue;
    sticky.lastIndex = offset;
    const m = sticky.exec(canon);
    if (!m || m[0].length === 0) continue;
    out.push({ start: tokenAt.get(offset) ?? 0, end: tokenAt.get(offset + m[0].length + 1) ?? 0 });
    from = offset + m[0].length;
  }
  return out;
}

/**
 * The day the customer names, as YYYY-MM-DD in the country's calendar, counted from `now`; null when
 * there is none. When several days are named the last one wins ("not tomorrow, after tomorrow").
 * Weekdays: "Saturday" is the next Saturday after today; "next Saturday" is the Saturday of next week.
 * "Next week" is its Monday. In Tunisia "jem3a" is a week ("ba3d jem3a": in a week), elsewhere Friday.
 */
export function extractDate(text: string, country: Country, now: Date): string | null {
  const tokens = canonicalTokens(text);
  const canon = tokens.join(" ");
  const at = tokenIndexByOffset(tokens);
  const today = localDate(now, country);
  const found: Found[] = [];
  const add = (pos: number, date: string | null) => {
    if (date) found.push({ at: pos, date });
  };
  const covered = (i: number) => found.some((f) => f.at === i);
  const isNext = (end: number) => matchesOf(RE.nextWord, canon, at).some((m) => m.start === end || m.start === end + 1);
  const nextMonday = () => addDays(today, (8 - weekday(today)) % 7 || 7);

  for (const m of matchesOf(RE.afterTomorrow, canon, at)) add(m.start, addDays(today, 2));
  for (const m of matchesOf(RE.tomorrow, canon, at))
    if (!found.some((f) => f.at < m.start && m.start <= f.at + 1)) add(m.start, addDays(today, 1));
  for (const m of matchesOf(RE.today, canon, at)) add(m.start, today);
  for (const m of matchesOf(RE.weekend, canon, at)) add(m.start, addDays(today, (6 - weekday(today) + 7) % 7));

  for (const [dow, re] of WEEKDAYS) {
    for (const m of matchesOf(re, canon, at)) {
      const before = tokens[m.start - 1];
      if (
        dow === 5 &&
        country === "TN" &&
        !["nhar", "yum", "youm"].includes(before ?? "") &&
        !/^(?:jom3a|jum3a|vendredi)$/.test(tokens[m.start] ?? "")
      ) {
        // Tunisian "jem3a" is a week: "ba3d jem3a" in a week, "jem3a jeya" next week.
        add(m.start, isNext(m.end) ? nextMonday() : addDays(today, 7));
        continue;
      }
      let days = (dow - weekday(today) + 7) % 7 || 7;
      const nextWeek = isNext(m.end) || before === "prochain";
      const daysToSunday = (7 - weekday(today)) % 7;
      if (nextWeek && days <= daysToSunday) days += 7;
      add(m.start, addDays(today, days));
    }
  }

  for (const m of matchesOf(RE.week, canon, at)) {
    if (covered(m.start)) continue;
    const before = tokens[m.start - 1];
    const n = numberAt(before);
    if (isNext(m.end)) add(m.start, nextMonday());
    else if (AFTER.has(before ?? "") || before === "dans" || before === "une") add(m.start, addDays(today, 7));
    else if (n !== null && WEEK_UNITS.test(tokens[m.start] ?? "")) add(m.start, addDays(today, 7 * n));
  }
  for (const m of matchesOf(RE.nextMonth, canon, at)) {
    const [y = 1970, mo = 1] = today.split("-").map(Number);
    add(m.start, mo === 12 ? iso(y + 1, 1, 1) : iso(y, mo + 1, 1));
  }

  type EidKind = "adha" | "fitr" | "any";
  const eids: { m: { start: number; end: number }; kind: EidKind }[] = [
    ...matchesOf(RE.eidAdha, canon, at).map((m) => ({ m, kind: "adha" as EidKind })),
    ...matchesOf(RE.eidFitr, canon, at).map((m) => ({ m, kind: "fitr" as EidKind })),
    ...matchesOf(RE.eid, canon, at).map((m) => ({ m, kind: "any" as EidKind })),
  ];
  for (const { m, kind } of eids) {
    if (found.some((f) => f.at === m.start || f.at === m.start + 1 || f.at + 1 === m.start)) continue;
    const next = EID_DATES.flatMap((e) => (kind === "any" ? [e.fitr, e.adha] : kind === "adha" ? [e.adha] : [e.fitr]))
      .filter((d) => d >= today)
      .sort()[0];
    // "after Eid" is the day after its first day; Eid itself is a holiday, the day after too in practice
    if (next) add(m.start, addDays(next, 1));
  }

  // "in 3 days", "ba3d jouj iyam", "dans 10 jours", "dans 2 semaines"
  tokens.forEach((t, i) => {
    const n = numberAt(t);
    const unit = tokens[i + 1];
    if (n === null || !unit || (!DAY_UNITS.test(unit) && !WEEK_UNITS.test(unit))) return;
    const lead = tokens[i - 1];
    if (
      !["dans", "ba3d", "mba3d", "mn", "men", "f", "fi", "d", "ici", "min", "apres"].includes(lead ?? "") &&
      lead !== undefined
    )
      return;
    add(i, addDays(today, WEEK_UNITS.test(unit) ? 7 * n : n));
  });
  // "yumin" (two days)
  tokens.forEach((t, i) => {
    if (t === "yumin" && ["ba3d", "mba3d", "f", "fi"].includes(tokens[i - 1] ?? "")) add(i, addDays(today, 2));
  });

  // Dates: "25/12", "25/12/2026", "le 3 decembre", "f 25 chhar 12", "le 15", "jusqu'au 20", "apres le 20"
  tokens.forEach((t, i) => {
    const slash = /^(\d{1,2})\/(\d{1,2})(?:\/(\d{2,4}))?$/.exec(t);
    if (slash) {
      add(i, upcoming(today, Number(slash[1]), Number(slash[2]), slash[3] ? Number(slash[3]) : undefined));
      return;
    }
    if (!/^\d{1,2}(?:er)?$/.test(t)) return;
    const day = Number.parseInt(t, 10);
    if (day < 1 || day > 31) return;
    const next = tokens[i + 1];
    // "ba3d 2 iyam" is a count of days; "f 3 dyal l3chiya" is a clock time
    if (
      next !== undefined &&
      (DAY_UNITS.test(next) || WEEK_UNITS.test(next) || /^(?:h|heures?|min|minutes?|u|w|et)$/.test(next))
    )
      return;
    if (
      next !== undefined &&
      /^(?:d|du|dyal|ta3|mta3|de)$/.test(next) &&
      tokens[i + 2] !== CHHAR &&
      extractClock(tokens.slice(i, i + 4).join(" ")) !== null
    )
      return;
    const month = MONTHS.find(([, re]) => {
      re.lastIndex = 0;
      return next !== undefined && re.test(next);
    })?.[0];
    const chhar =
      next === CHHAR || (["f", "fi", "dyal", "d", "mn", "ta3", "mta3"].includes(next ?? "") && tokens[i + 2] === CHHAR);
    const chharNum = chhar ? numberAt(tokens[i + (next === CHHAR ? 2 : 3)]) : null;
    const year = /^\d{4}$/.test(tokens[i + 2] ?? "") ? Number(tokens[i + 2]) : undefined;
    const lead = tokens[i - 1] ?? "";
    let date: string | null = null;
    if (month !== undefined) date = upcoming(today, day, month, year);
    else if (chharNum !== null && chharNum >= 1 && chharNum <= 12) date = upcoming(today, day, chharNum);
    else if (
      chhar ||
      ["le", "f", "fi", "nhar", "au", "du", "avant", "jusqu", "hta", "hata", "ba3d", "apres"].includes(lead)
    )
      date = upcoming(today, day);
    if (!date) return;
    // "until the 20th" and "after the 20th" mean the 21st
    const afterIt =
      ["jusqu", "hta", "hata", "apres"].includes(lead) ||
      (lead === "le" && tokens[i - 2] === "apres") ||
      (lead === "au" && tokens[i - 2] === "jusqu");
    add(i, afterIt ? addDays(date, 1) : date);
  });

  // "je l'attends depuis une semaine", "il y a une semaine", "ça y a trois semaines", "ça fait deux jours": a time
  // gone by (round 10).
  const since = (i: number) => SINCE.test(tokens.slice(Math.max(0, i - 4), i).join(" "));
  // ("راني كنتسناه من السيمانة اللي فاتت", "depuis la semaine dernière": a day followed by "gone by"; round 22.)
  const gone = (i: number) => tokens.slice(i + 1, i + 4).some((t) => PAST.has(t));
  const ahead = found.filter((f) => !since(f.at) && !gone(f.at));
  if (ahead.length === 0) return null;
  return ahead.reduce((a, b) => (b.at >= a.at ? b : a)).date;
}

/** A time gone by just before a day ("depuis une semaine", "il y a trois jours", "ça fait deux jours"); "y a" and "ça
 * fait" only before a count ("y a personne aujourd'hui" names today). */
const SINCE_COUNT = "(?: (?:une?|deux|trois|quatre|cinq|six|sept|huit|dix|quinze|\\d+))?";
const SINCE = new RegExp(
  `(?:^| )depuis(?: \\S+)?$|(?:^| )(?:il )?y a${SINCE_COUNT}$|(?:^| )(?:sa|ca|cela) fait${SINCE_COUNT}$`,
);

// Times of day: "18h", "18:30", "à 6h", "m3a setta", "after six", "setta d l3chiya", "l3chiya" alone.
const HOUR_WORDS: Record<string, number> = {
  wahda: 1,
  une: 1,
  juj: 2,
  zuj: 2,
  deux: 2,
  tlata: 3,
  trois: 3,
  rb3a: 4,
  arb3a: 4,
  quatre: 4,
  khamsa: 5,
  cinq: 5,
  seta: 6,
  six: 6,
  sab3a: 7,
  sept: 7,
  tmenya: 8,
  tmanya: 8,
  huit: 8,
  tes3a: 9,
  neuf: 9,
  "3achra": 10,
  dix: 10,
  hdach: 11,
  onze: 11,
  tnach: 12,
  douze: 12,
};
const TIME_LEADS = new Set([
  "a",
  "m3a",
  "vers",
  "apres",
  "ba3d",
  "mba3d",
  "mn",
  "men",
  "avant",
  "9bel",
  "f",
  "fi",
  "l",
  "el",
  "lel",
  "des",
  "entre",
  "wa9t",
  "sa3a",
  "sa3",
  "hta",
]);
const PERIODS: [RegExp, number, "am" | "pm" | null][] = [
  [phrase("~3chiya|~3achiya|~3chia|~3chiye|~3achia|~3chya, le|ce soir, soir|soiree, ~3chi"), 18, "pm"],
  [phrase("~sbah|~sbeh|~sobh|~sbh|~sbe7, le|ce matin, matin|matinee"), 9, "am"],
  [phrase("~=lil|~=lila|~=lail|~=layl, la nuit, ce soir tard"), 20, "pm"],
  [phrase("~3asr|~la3sar|~3sar"), 16, "pm"],
  [phrase("~dhor|~dohr|~dhur, midi, nus nhar, f nus nhar"), 12, null],
  [phrase("apres midi, aprem, ba3d dhor|ldhor"), 15, "pm"],
  [phrase("~maghrib|~meghreb|~mghreb|~ftur|~ftour"), 19, "pm"],
];

/** A clock time named in the text, as hour and minute in the speaker's day; null when none. */
export function extractClock(text: string): { hour: number; minute: number } | null {
  const tokens = canonicalTokens(text);
  const canon = tokens.join(" ");
  const at = tokenIndexByOffset(tokens);
  let period: { hour: number; part: "am" | "pm" | null; pos: number } | null = null;
  for (const [re, hour, part] of PERIODS) {
    for (const m of matchesOf(re, canon, at))
      if (!period || m.start > period.pos) period = { hour, part, pos: m.start };
  }
  let clock: { hour: number; minute: number } | null = null;
  const fraction = (i: number, minute: number) => {
    const rest = tokens.slice(i + 1, i + 4).join(" ");
    if (/^(?:heures? )?et demie|^(?:u|w) ?n[eu]?s\b/.test(rest)) return 30;
    if (/^(?:heures? )?et 9uart|^(?:u|w) ?r[uo]?b3\b/.test(rest)) return 15;
    return minute;
  };
  tokens.forEach((t, i) => {
    const hm = /^(\d{1,2})(?:h(\d{2})?|:(\d{2}))$/.exec(t);
    if (hm) {
      clock = { hour: Number(hm[1]), minute: fraction(i, Number(hm[2] ?? hm[3] ?? 0)) };
      return;
    }
    const n = /^\d{1,2}$/.test(t) ? Number(t) : HOUR_WORDS[t.replace(/^e?l(?=\S{3,})/, "")];
    if (n === undefined || n < 1 || n > 24) return;
    const next = tokens[i + 1] ?? "";
    if (DAY_UNITS.test(next) || WEEK_UNITS.test(next) || /^(?:min|minutes?|d9i9a|d9aye9)$/.test(next)) return;
    // "m3a setta", "à 6", or "setta u nss", "six heures", "setta d l3chiya"
    const timeLike =
      TIME_LEADS.has(tokens[i - 1] ?? "") ||
      /^(?:h|heures?|u|w|et)$/.test(next) ||
      (period !== null && /^(?:d|du|dyal|ta3|mta3|f|fi|de)$/.test(next));
    if (timeLike) clock = { hour: n, minute: fraction(i, 0) };
  });
  if (clock === null) return period ? { hour: period.hour, minute: 0 } : null;
  const c: { hour: number; minute: number } = clock;
  let hour = c.hour % 24;
  // "setta d l3chiya" is 18:00; a bare "after six" for a delivery or a call is the evening too
  if (hour < 12 && (period?.part === "pm" || (!period && hour >= 1 && hour <= 7))) hour += 12;
  return { hour, minute: c.minute };
}

/** The time of day the customer names, as "HH:MM"; null when none. */
export function extractTime(text: string): string | null {
  const c = extractClock(text);
  return c ? `${String(c.hour).padStart(2, "0")}:${String(c.minute).padStart(2, "0")}` : null;
}

/** Each reason: its Maghrebi phrases (vowel-flexible) and its French ones (exact). */
const REASONS: [string, RegExp, RegExp][] = [
  [
    "changed their mind",
    phrase("badelt|bedelt|badalt|tbadel|bdelt|ghayert ray*|fikra"),
    compilePhrases("change* d avis", true),
  ],
  [
    "did not place the order",
    phrase("ma tlebt*|tlabt*|talabt*|comandit*|3malt*|3mlt*"),
    compilePhrases("rien|pas|jamais commande*", true),
  ],
  [
    "ordered by mistake",
    phrase("=ghalta, b ghalat"),
    compilePhrases("par erreur, c est une erreur, me suis trompe*", true),
  ],
  [
    "too expensive",
    phrase("ghali|ghalia|ghalya|ghaliya|ghaly, bzaf|bezaf|barcha 3liya|3lia"),
    compilePhrases("trop cher|chere, cher|chere", true),
  ],
  [
    "cannot afford it",
    phrase("ma 3andi*|3ndi* _ ~flus*|~drahem|~drahm|~sold|~mal, ma n9der*|najam* nkhales*"),
    compilePhrases("pas|plus d argent|sous, pas les moyens, peux pas payer", true),
  ],
  [
    "bought it elsewhere",
    phrase("l9it*|chrit*|cherit*, f|fi|men blasa khra|okhra, arkhas|rkhes"),
    compilePhrases("trouve* ailleurs|moins, achete* ailleurs", true),
  ],
  [
    "delivery took too long",
    phrase("t3atal*|ta3tal*|t3tal*|t3atl*|=t3tlt*|=t3tlet*"),
    compilePhrases("trop long, delai*, en retard, trop de retard", true),
  ],
  [
    "no longer needed",
    phrase("ma b9it* _ m7taj*|mhtaj*, ma n7taj*|nhtaj*|mhtaj*|htaj*, mouch|mech lazem, ma 3ad* _ mhtaj*"),
    compilePhrases("pas|plus besoin", true),
  ],
  ["does not like it", phrase("ma 3jbatni*|3jebni*|3ajbatni*|3jbetni*"), compilePhrases("plait pas, aime pas", true)],
  [
    "not interested",
    phrase("ma 3andi ma ndir bih*"),
    compilePhrases("interesse* pas|plus, pas|plus interesse*, m interesse pas|plus", true),
  ],
];

/** A short normalised reason for a decline ("too expensive"); null when the words give none. */
export function extractReason(text: string): string | null {
  const tokens = canonicalTokens(text);
  const canon = tokens.join(" ");
  const at = tokenIndexByOffset(tokens);
  let best: { reason: string; pos: number } | null = null;
  for (const [reason, maghrebi, french] of REASONS) {
    for (const re of [maghrebi, french]) {
      for (const m of matchesOf(re, canon, at)) if (!best || m.start < best.pos) best = { reason, pos: m.start };
    }
  }
  return best?.reason ?? null;
}

const LEADING_ASSENT =
  /^(?:\s*(?:oui|ouais|ok|okay|d'accord|wakha|waxa|iyeh|ih|ey|eyh|wah|ah|safi|behi|mrigel|mais|walakin|walaken|lakin|ama|amma|bessah|bsah|but|euh|bon|alors|3afak|svp|واخا|إيه|ايه|اه|آه|واه|إي|باهي|ولكن|لكن|أما|اما|بصح|عافاك)(?:[\s,.!…،]+|$))+/iu;

/** What a change request is about: the delivery address, the items (colour, size, model, quantity), or both. */
function changeSubjects(text: string): Set<"address" | "items"> {
  const { hits } = analyse(text, "MA");
  const subjects = new Set<"address" | "items">();
  for (const h of hits) {
    if (h.signal === "address") subjects.add("address");
    if (["attr", "attrNoun", "qty", "add", "instead"].includes(h.signal)) subjects.add("items");
  }
  return subjects;
}

const trimChange = (text: string) =>
  text
    .replace(LEADING_ASSENT, "")
    .trim()
    .replace(/[\s,.;!،]+$/u, "") || text.trim();

/**
 * The change asked over two turns (the request, then the answer to "what would you like to change?"): the answer
 * alone when it refines the request ("the colour" then "in blue"), both when the request named something the
 * answer does not ("change the address" then "and in white"), so a multi-part change is kept whole.
 */
export function combineChanges(first: string, second: string): string {
  const before = changeSubjects(first);
  const after = changeSubjects(second);
  const answer = extractChanges(second) ?? trimChange(second);
  if (after.size === 0 || [...before].every((s) => after.has(s))) return answer;
  return `${extractChanges(first) ?? trimChange(first)}; ${answer}`;
}

/** What the customer wants changed, as their own words lightly trimmed; null when no change is named. */
export function extractChanges(text: string): string | null {
  const { tokens, hits } = analyse(text, "MA");
  const has = (...signals: string[]) => hits.some((h) => signals.includes(h.signal));
  const specific = tokens.some(
    (t) =>
      /^\d+$/.test(t) ||
      ["jdida", "jdid", "nouvelle", "nouveau", "autre", "khra", "okhra", "machi", "much", "mech", "pas"].includes(t),
  );
  if (!has("attr", "add", "instead") && !(has("attrNoun", "qty", "address") && specific)) return null;
  const trimmed = text
    .replace(LEADING_ASSENT, "")
    .trim()
    .replace(/[\s,.;!،]+$/u, "");
  return trimmed || text.trim();
}
