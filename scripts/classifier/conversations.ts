// `node scripts/classifier/conversations.ts SET.jsonl [N]` (issue 33.5): N simulated conversations (1,000 by default)
// built from a labelled set's sentences, each through the real dialogue (flow.ts) with the local model. A customer
// means one thing (the sentence's label) and says it with that sentence after the order is read; when the agent asks
// again or checks ("so I confirm, yes?") a confirming customer says a bare yes, a declining one a bare no; asked "am I
// speaking with <name>, yes or no?", a wrong number says no and anyone else says it is them; any other says another
// sentence of the set with the same meaning and country, but never, to the agent's yes/no check ("so I confirm, yes or
// no?"), a yes and nothing else: that is the check's answer, a confirmation, whatever the same word meant to the
// read-back (round 33: a set's bare "Oui ?" or "نعم" labelled `unclear` answered the question read back, not "yes or
// no?"). Asked for the detail of what they mean (a day, a time, a reason, the change), they give one; asked for the
// detail of something they did not mean (a misreading: "which day?" to a customer who confirmed), they say another
// sentence of the set with their meaning. A question is followed by a confirmation or a refusal (half each), which is
// then what the customer means. Counts: the outcome matches what the customer meant, and calls ended `confirmed` for a
// customer who did not confirm.
import { readFileSync } from "node:fs";
import type { CallOutcome } from "../../src/domain/calls.ts";
import { answersYes, createDialogue, profileFor } from "../../src/engine/dialogue/flow.ts";
import { ModelIntentClassifier } from "../../src/engine/dialogue/model/model.ts";
import { keepingReadings } from "../../src/engine/dialogue/reading.ts";
import type { Dialect, DialogueOrder, Intent, IntentClassifier } from "../../src/engine/dialogue/types.ts";
import { phraseBank, seededRandom } from "../../src/engine/telephony/simulator/customer.ts";

export interface Row {
  country: "MA" | "DZ" | "TN" | "FR";
  text: string;
  intent: Intent;
  style?: string;
}

const OUTCOME: Record<Exclude<Intent, "question">, CallOutcome> = {
  confirm: "confirmed",
  cancel: "declined",
  reschedule: "rescheduled",
  callback: "callback_requested",
  change_request: "change_requested",
  wrong_number: "wrong_number",
  unclear: "no_decision",
};

/** One order per dialect (bench/llm-section.ts plays the same). */
export const ORDERS: Record<Dialect, DialogueOrder> = {
  ma: {
    shopName: "Dar Lbahja",
    customerName: "Fatima Zahra",
    country: "MA",
    language: "ar",
    dialect: "ma",
    amount: "690.00",
    currency: "MAD",
    items: [{ name: "Caftan", variant: "Vert, M", quantity: 1, unit_price: "690.00" }],
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
    items: [{ name: "Sac à main", variant: "Beige", quantity: 1, unit_price: "89.500" }],
  },
  fr: {
    shopName: "Maison Lila",
    customerName: "Julie Martin",
    country: "FR",
    language: "fr",
    dialect: "fr",
    amount: "49.90",
    currency: "EUR",
    items: [{ name: "Coque", variant: "Bleu", quantity: 2, unit_price: "24.95" }],
  },
};

/** The details a customer gives when asked: a day, a time, a reason, the change. */
const DETAILS: Record<Dialect, { date: string; time: string; reason: string; change: string }> = {
  ma: { date: "nhar sebt", time: "ba3d l3asr", reason: "ghalia bzaf", change: "bghitha b l7mer" },
  dz: { date: "nhar essebt", time: "ba3d l3asr", reason: "ghalia bezzaf", change: "n7ebha b l7mer" },
  tn: { date: "nhar essebt", time: "ba3d l 3asr", reason: "ghalia barcha", change: "n7ebha b l a7mer" },
  fr: { date: "samedi", time: "après 18h", reason: "c'est trop cher", change: "je la voudrais en rouge" },
};

/** The agent's detail questions: the intent each belongs to, and the detail a customer who meant it gives. */
const DETAIL_QUESTIONS = [
  ["askDate", "reschedule", "date"],
  ["askCallbackTime", "callback", "time"],
  ["askReason", "cancel", "reason"],
  ["askChange", "change_request", "change"],
] as const satisfies readonly (readonly [
  "askDate" | "askCallbackTime" | "askReason" | "askChange",
  Intent,
  keyof (typeof DETAILS)[Dialect],
])[];

export interface ConversationStats {
  calls: number;
  matched: number;
  /** Calls ended `confirmed` for a customer who did not mean to confirm. */
  falselyConfirmed: number;
  /** Calls ended in another outcome than the one meant, by "meant→got". */
  mismatches: Record<string, number>;
  /** Mean customer turns per call. */
  turns: number;
}

/**
 * `n` simulated calls built from `rows`. The calls say the same few hundred sentences again and again: the readings of
 * all of them are kept for the run (reading.ts `keepingReadings`), which changes no reading, only the time.
 */
export function runConversations(
  rows: Row[],
  n = 1000,
  seed = 33,
  classifier: IntentClassifier = new ModelIntentClassifier(),
): Promise<ConversationStats> {
  return keepingReadings(4096, () => simulate(rows, n, seed, classifier));
}

async function simulate(
  rows: Row[],
  n: number,
  seed: number,
  classifier: IntentClassifier,
): Promise<ConversationStats> {
  const random = seededRandom(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const byKey = new Map<string, Row[]>();
  for (const r of rows) byKey.set(`${r.country}/${r.intent}`, [...(byKey.get(`${r.country}/${r.intent}`) ?? []), r]);
  const stats: ConversationStats = { calls: 0, matched: 0, falselyConfirmed: 0, mismatches: {}, turns: 0 };
  let turns = 0;
  for (let i = 0; i < n; i++) {
    const row = rows[i % rows.length]!;
    const dialect = row.country.toLowerCase() as Dialect;
    const order = ORDERS[dialect];
    const profile = profileFor(order);
    const bank = phraseBank(dialect);
    const follow: Intent = row.intent === "question" ? (random() < 0.5 ? "confirm" : "cancel") : row.intent;
    const meant = OUTCOME[follow as Exclude<Intent, "question">];
    const d = createDialogue(order, {
      classifier,
      now: new Date("2026-11-22T10:00:00Z"),
      random: seededRandom(seed + i),
    });
    let agent = d.opening().text;
    let at = 1;
    const say = async (text: string | null) => {
      turns += 1;
      const turn = await d.hear(text, (at += 4));
      agent = turn.text;
      return turn.end;
    };
    // Who they are: a wrong number says so at once; everyone else says yes, it is them.
    let ended =
      row.intent === "wrong_number"
        ? await say(row.text)
        : await say(pick(bank.identityYes.filter((t) => !/écoute|m3ak/.test(t))));
    if (!ended && row.intent !== "wrong_number") ended = await say(row.text);
    let asked = row.intent === "question";
    // The agent's yes/no checks about the order ("so I confirm the order, yes or no?").
    const checks = new Set([profile.checkConfirm(), ...[1, 2, 3].map((n) => profile.confirmationAgain(n))]);
    for (let k = 0; k < 8 && !ended; k++) {
      const detail = DETAILS[dialect];
      // Asked the detail of what they meant, they give it; asked the detail of something they did not mean (the
      // agent misheard), they say again what they mean, as the simulator's customers do (customer.ts).
      const asks = DETAIL_QUESTIONS.find(([question]) => agent === profile[question]());
      if (asks) {
        const [, intent, key] = asks;
        asked = false; // a question misread as a request: they now say what they mean
        ended = await say(follow === intent ? detail[key] : pick(byKey.get(`${row.country}/${follow}`) ?? [row]).text);
      } else if (asked) {
        asked = false; // the question answered: now what they mean
        ended = await say(pick(byKey.get(`${row.country}/${follow}`) ?? [row]).text);
      } else if (agent === profile.checkIdentity(order)) {
        // "Am I speaking with <name>, yes or no?": only a wrong number says no; anyone else is that person.
        ended = await say(
          follow === "wrong_number"
            ? pick(["la", "non", "لا"].filter((t) => dialect !== "fr" || t === "non"))
            : pick(bank.identityYes.filter((t) => !/écoute|m3ak/.test(t))),
        );
      } else if (follow === "confirm") ended = await say(pick(bank.shortYes));
      else if (follow === "cancel")
        ended = await say(pick(["la", "non", "لا"].filter((t) => dialect !== "fr" || t === "non")));
      else {
        // Asked yes or no, a customer who did not mean yes says no bare yes (the check's answer); any other sentence.
        const own = byKey.get(`${row.country}/${follow}`) ?? [row];
        const fit = checks.has(agent) ? own.filter((r) => !answersYes(r.text)) : own;
        ended = await say(pick(fit.length ? fit : own).text);
      }
    }
    const got = d.result()?.outcome ?? d.interrupt("customer_hangup", at).outcome;
    stats.calls += 1;
    if (got === meant) stats.matched += 1;
    else {
      stats.mismatches[`${meant}→${got}`] = (stats.mismatches[`${meant}→${got}`] ?? 0) + 1;
      if (process.env["CONVERSATIONS_DEBUG"])
        console.error(
          `${meant}→${got}: ${d
            .transcript()
            .map((e) => `${e.speaker[0]}: ${e.text.slice(0, 70)}`)
            .join(" | ")}`,
        );
    }
    if (got === "confirmed" && follow !== "confirm") stats.falselyConfirmed += 1;
  }
  stats.turns = turns / Math.max(1, stats.calls);
  return stats;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [file, count] = process.argv.slice(2);
  if (!file) {
    process.stderr.write("Usage: node scripts/classifier/conversations.ts SET.jsonl [N]\n");
    process.exit(2);
  }
  const rows = readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Row);
  const s = await runConversations(rows, Number(count ?? 1000));
  console.log(
    `${s.calls} conversations: outcome as meant ${s.matched} (${((100 * s.matched) / s.calls).toFixed(1)}%), confirmed without a confirmation ${s.falselyConfirmed}, ${s.turns.toFixed(2)} customer turns per call`,
  );
  console.log(
    `mismatches: ${
      Object.entries(s.mismatches)
        .sort((a, b) => b[1] - a[1])
        .map(([k, v]) => `${k} ${v}`)
        .join(", ") || "none"
    }`,
  );
}
