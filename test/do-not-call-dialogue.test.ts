// Issue 15: "don't call me again" recognised in each profile apart from the classifier, and the call ending politely.
import { describe, expect, it } from "vitest";
import { DO_NOT_CALL_END_REASON } from "../src/domain/do-not-call.ts";
import { LexiconIntentClassifier } from "../src/engine/dialogue/classifier.ts";
import { asksNotToBeCalled, doNotCallClosing } from "../src/engine/dialogue/do-not-call.ts";
import { createDialogue } from "../src/engine/dialogue/flow.ts";
import { dzPhrases } from "../src/engine/telephony/simulator/phrases/dz.ts";
import { frPhrases } from "../src/engine/telephony/simulator/phrases/fr.ts";
import { maPhrases } from "../src/engine/telephony/simulator/phrases/ma.ts";
import { tnPhrases } from "../src/engine/telephony/simulator/phrases/tn.ts";
import { NOW, ORDERS } from "./dialogue-fixtures.ts";
import { REQUESTS } from "./do-not-call-fixtures.ts";

const BANKS = { ma: maPhrases, dz: dzPhrases, tn: tnPhrases, fr: frPhrases } as const;

describe("the do-not-call phrase detector", () => {
  for (const dialect of ["ma", "dz", "tn", "fr"] as const) {
    it(`recognises the request in ${dialect}`, () => {
      for (const text of REQUESTS[dialect]) expect(asksNotToBeCalled(text, dialect), text).toBe(true);
    });

    it(`stays quiet on every line of the ${dialect} simulator's phrase bank (callbacks included)`, () => {
      for (const lines of Object.values(BANKS[dialect])) {
        for (const text of lines as readonly string[]) expect(asksNotToBeCalled(text, dialect), text).toBe(false);
      }
    });
  }

  it("does not take a callback for a refusal of calls", () => {
    for (const text of [
      "ma t3aytlich daba, 3ayet mba3d",
      "rappelez-moi plus tard",
      "ne m'appelez pas maintenant, rappelez demain",
      "ma tkalamnich tawa, kalamni ba3d",
    ]) {
      expect(
        asksNotToBeCalled(text, "ma") || asksNotToBeCalled(text, "tn") || asksNotToBeCalled(text, "fr"),
        text,
      ).toBe(false);
    }
  });
});

describe("the dialogue on a do-not-call request", () => {
  for (const dialect of ["ma", "dz", "tn", "fr"] as const) {
    it(`ends the ${dialect} call politely, declined, with end_reason ${DO_NOT_CALL_END_REASON}, at any step`, async () => {
      for (const replies of [
        [REQUESTS[dialect][0]!],
        [dialect === "fr" ? "oui c'est moi" : "iyeh", REQUESTS[dialect][1]!],
      ]) {
        const d = createDialogue(ORDERS[dialect], {
          classifier: new LexiconIntentClassifier(),
          now: NOW,
          random: () => 0,
        });
        d.opening();
        let turn = { text: "", end: false };
        for (const [i, text] of replies.entries()) turn = await d.hear(text, 2 + i * 4);
        expect(turn.end).toBe(true);
        expect(turn.text).toBe(doNotCallClosing(dialect, ORDERS[dialect].language));
        expect(d.result()).toMatchObject({
          outcome: "declined",
          end_reason: DO_NOT_CALL_END_REASON,
          outcome_details: { reason: "do_not_call" },
        });
      }
    });
  }
});
