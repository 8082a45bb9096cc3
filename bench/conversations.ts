// `node bench/conversations.ts [--n 1000] [--classifier NAME] [--seed S] [--no-digits]`: plays simulated
// customers against the real dialogue (flow, profiles, classifier) without a database, as the dialer does,
// spread evenly over the four profiles (ma, dz, tn, fr). Reports the share of calls whose outcome matches
// the simulated customer's intent and the false confirmations (confirmed although the customer did not want
// to confirm). Customers are personas drawn from random numbers (CONTRACT §5's weights) plus the announcement
// numbers (21-25), whose recorded message must end the call as failed/number_unreachable or voicemail.
import { parseArgs } from "node:util";
import { recogniseLineMessage } from "../src/engine/dialogue/line-messages.ts";
import { createDialogue } from "../src/engine/dialogue/flow.ts";
import type { Dialect, IntentClassifier } from "../src/engine/dialogue/types.ts";
import {
  type Behaviour,
  behaviourFor,
  createSimulatedCustomer,
  phraseBank,
  seededRandom,
} from "../src/engine/telephony/simulator/customer.ts";
import type { PhraseBank } from "../src/engine/telephony/simulator/phrases/bank.ts";
import { loadRows } from "./classifier-score.ts";
import { classifierByName } from "./classifier-choice.ts";
import { NOW, ORDERS } from "../test/dialogue-fixtures.ts";

const PREFIX: Record<Dialect, string> = { ma: "+2126", dz: "+2135", tn: "+2162", fr: "+336" };

/** What a call with this customer must end as: an outcome of a completed call, or a terminal status. */
const EXPECTED: Record<Behaviour, string> = {
  confirm: "confirmed",
  question_then_confirm: "confirmed",
  decline: "declined",
  reschedule: "rescheduled",
  wrong_number: "wrong_number",
  change: "change_requested",
  callback: "callback_requested",
  hangup: "no_decision",
  unintelligible: "no_decision",
  no_answer: "status:no_answer",
  busy: "status:busy",
  voicemail: "status:voicemail",
  not_in_service: "status:failed",
  switched_off: "status:failed",
  unavailable: "status:failed",
  voicemail_undetected: "status:voicemail",
  forwarded: "status:voicemail",
  confirm_correcting_city: "confirmed",
  confirm_adding_landmark: "confirmed",
  // Without a handoff (issue 34) the agent cannot put them through: no decision.
  asks_for_person: "no_decision",
  asks_for_person_unanswered: "no_decision",
  unanswerable_question: "no_decision",
};
const WANTS_CONFIRM = new Set<Behaviour>(["confirm", "question_then_confirm"]);

interface Played {
  behaviour: Behaviour;
  ended: string;
  turns: number;
  checks: number;
  keypad: boolean;
}

/** One call as the dialer runs it: pickup, then (for a person) opening, listen, hear or press, until the end. */
async function play(
  dialect: Dialect,
  phone: string,
  classifier: IntentClassifier,
  seed: number,
  digits: boolean,
  bank?: PhraseBank,
): Promise<Played> {
  const behaviour = behaviourFor(phone);
  const customer = createSimulatedCustomer(phone, dialect, seededRandom(seed), bank);
  const base = { behaviour, turns: 0, checks: 0, keypad: false };
  if (customer.pickup === "no_answer" || customer.pickup === "busy")
    return { ...base, ended: `status:${customer.pickup}` };
  if (customer.pickup === "voicemail") {
    // The greeting or announcement is what the dialer hears first; AMD's verdict is not trusted on its own.
    const text = customer.announcement?.text ?? "Bonjour, laissez votre message après le bip.";
    const kind = recogniseLineMessage(text)?.kind;
    const amdMachine = (customer.announcement?.answeredBy ?? "machine") === "machine";
    return {
      ...base,
      ended:
        kind === "unreachable"
          ? "status:failed"
          : kind === "voicemail" || amdMachine
            ? "status:voicemail"
            : "status:completed?",
    };
  }
  const dialogue = createDialogue(ORDERS[dialect], { classifier, now: NOW, random: seededRandom(seed + 7), digits });
  let turn = dialogue.opening();
  let at = 2;
  for (let i = 0; i < 30 && !turn.end; i++) {
    base.turns += 1;
    if (/باش نتأكد|pour être sûre/.test(turn.text)) base.checks += 1;
    if (/ضغط|appuyez/.test(turn.text)) base.keypad = true;
    const reply = customer.reply(turn.text, i);
    at += 3 + reply.thinkSeconds;
    if (reply.hangup) {
      if (reply.text) await dialogue.hear(reply.text, at);
      dialogue.interrupt("customer_hangup", at);
      break;
    }
    turn =
      reply.digits && dialogue.press ? await dialogue.press(reply.digits, at) : await dialogue.hear(reply.text, at);
  }
  const result = dialogue.result() ?? dialogue.interrupt("line_dropped", at);
  return { ...base, ended: result.outcome };
}

/**
 * Phrase banks whose decisions are another set's labelled sentences of that country (confirm, cancel, reschedule,
 * callback, change_request, wrong_number, question, unclear); the details asked afterwards (the reason, the day,
 * the time, the change) and the plain yes/no answers stay the simulator's own.
 */
function banksFrom(file: string): Record<Dialect, PhraseBank> {
  const rows = loadRows(file);
  const of = (country: string, intent: string) =>
    rows.filter((r) => r.country === country && r.intent === intent).map((r) => r.text);
  const build = (d: Dialect): PhraseBank => {
    const own = phraseBank(d);
    const c = d.toUpperCase();
    const or = (list: string[], fallback: readonly string[]) => (list.length > 0 ? list : fallback);
    return {
      ...own,
      confirm: or(of(c, "confirm"), own.confirm),
      decline: or(of(c, "cancel"), own.decline),
      reschedule: or(of(c, "reschedule"), own.reschedule),
      callback: or(of(c, "callback"), own.callback),
      change: or(of(c, "change_request"), own.change),
      wrongPerson: or(of(c, "wrong_number"), own.wrongPerson),
      question: or(of(c, "question"), own.question),
      mumble: or(of(c, "unclear"), own.mumble),
    };
  };
  return { ma: build("ma"), dz: build("dz"), tn: build("tn"), fr: build("fr") };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      n: { type: "string" },
      classifier: { type: "string" },
      seed: { type: "string" },
      "no-digits": { type: "boolean" },
      markdown: { type: "boolean" },
      phrases: { type: "string" },
    },
  });
  const banks = values.phrases ? banksFrom(values.phrases) : null;
  const n = Number(values.n ?? 1000);
  const classifier = classifierByName(values.classifier);
  const seed0 = Number(values.seed ?? 1);
  const digits = values["no-digits"] !== true;
  const dialects: Dialect[] = ["ma", "dz", "tn", "fr"];
  const rows = new Map<string, { n: number; match: number; falseConfirms: number; checks: number; keypad: number }>();
  const byBehaviour = new Map<Behaviour, { n: number; match: number }>();
  const wrongOutcomes = new Map<string, number>();
  const random = seededRandom(seed0 * 7919);
  for (let i = 0; i < n; i++) {
    const dialect = dialects[i % dialects.length]!;
    // One call in twenty is an announcement number (21-25); the rest are personas from random numbers.
    let suffix = String(Math.floor(random() * 100)).padStart(2, "0");
    if (i % 20 === 19) suffix = String(21 + Math.floor(random() * 5));
    const phone = `${PREFIX[dialect]}${String(Math.floor(random() * 1e6)).padStart(6, "0")}${suffix}`;
    const p = await play(dialect, phone, classifier, seed0 * 100_000 + i, digits, banks?.[dialect]);
    const ok = p.ended === EXPECTED[p.behaviour];
    const row = rows.get(dialect) ?? { n: 0, match: 0, falseConfirms: 0, checks: 0, keypad: 0 };
    row.n += 1;
    if (ok) row.match += 1;
    if (p.ended === "confirmed" && !WANTS_CONFIRM.has(p.behaviour)) row.falseConfirms += 1;
    if (p.checks > 0) row.checks += 1;
    if (p.keypad) row.keypad += 1;
    rows.set(dialect, row);
    if (!ok) wrongOutcomes.set(`${p.behaviour}→${p.ended}`, (wrongOutcomes.get(`${p.behaviour}→${p.ended}`) ?? 0) + 1);
    const b = byBehaviour.get(p.behaviour) ?? { n: 0, match: 0 };
    b.n += 1;
    if (ok) b.match += 1;
    byBehaviour.set(p.behaviour, b);
  }
  const total = [...rows.values()].reduce(
    (a, r) => ({
      n: a.n + r.n,
      match: a.match + r.match,
      falseConfirms: a.falseConfirms + r.falseConfirms,
      checks: a.checks + r.checks,
      keypad: a.keypad + r.keypad,
    }),
    { n: 0, match: 0, falseConfirms: 0, checks: 0, keypad: 0 },
  );
  const label = `${values.classifier ?? "default"}${values.phrases ? `, ${values.phrases.split("/").pop()} sentences` : ""}`;
  console.log(
    `| profile | calls | outcome matches intent | false confirmations | calls with a yes/no check | keypad offered |`,
  );
  console.log(`|---|---:|---:|---:|---:|---:|`);
  for (const [d, r] of [...rows, ["all", total] as const]) {
    console.log(
      `| ${d} (${label}) | ${r.n} | ${(r.match / r.n).toFixed(3)} | ${r.falseConfirms} | ${r.checks} | ${r.keypad} |`,
    );
  }
  if (!values.markdown) {
    console.log(
      `\nby customer intent: ${[...byBehaviour]
        .sort((a, b) => b[1].n - a[1].n)
        .map(([b, r]) => `${b} ${r.match}/${r.n}`)
        .join(", ")}`,
    );
    console.log(
      `mismatches, customer intent→outcome: ${
        [...wrongOutcomes]
          .sort((a, b) => b[1] - a[1])
          .map(([k, v]) => `${k} ${v}`)
          .join(", ") || "none"
      }`,
    );
  }
}

await main();
