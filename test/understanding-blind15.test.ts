// Issue 33, round 4: the development halves of the fifteenth blind sets (intents-blind15a-dev.jsonl: MA and TN;
// intents-blind15b-dev.jsonl: DZ and FR; 120 replies each, the odd lines of two files written blind by two writers who
// saw no code and no earlier set; the even lines stay unseen and are scored by the lead). Before round 4 (the branch's
// base): 0.858 and 0.867, 2 and 1 decided false confirmations, 20 and 13 of 1,000 simulated calls ended `confirmed`
// for a customer who did not confirm (docs/understanding.md). The round's fixes were read from these halves, so they
// guard against regressions only: no decided false confirmation, no call confirmed without a confirmation, and the
// accuracy they reached kept within a reply or two.
import { describe, expect, it } from "vitest";
import { runConversations, type Row } from "../scripts/classifier/conversations.ts";
import { loadReplies, scoreReplies } from "../scripts/classifier/score.ts";

const file = (name: string) => new URL(`./fixtures/${name}`, import.meta.url).pathname;

describe("blind set 15, development halves", () => {
  for (const [name, floor] of [
    ["intents-blind15a-dev.jsonl", 0.95],
    ["intents-blind15b-dev.jsonl", 0.93],
  ] as const) {
    it(`${name}: no decided false confirmation, accuracy at least ${floor}`, async () => {
      const rows = loadReplies(file(name));
      expect(rows.length).toBe(120);
      const s = await scoreReplies(rows);
      expect(s.overall.decidedFalseConfirms).toBe(0);
      expect(s.overall.accuracy).toBeGreaterThanOrEqual(floor);
    }, 60_000);

    it(`${name}: 1,000 conversations, none confirmed for a customer who did not confirm`, async () => {
      const s = await runConversations(loadReplies(file(name)) as Row[], 1000);
      expect(s.calls).toBe(1000);
      expect(s.falselyConfirmed).toBe(0);
      expect(s.matched / s.calls).toBeGreaterThanOrEqual(0.95);
    }, 120_000);
  }
});

// Issue 33, round 5: the development halves of the sixteenth blind sets (intents-blind16a-dev.jsonl: MA and TN;
// intents-blind16b-dev.jsonl: DZ and FR; 120 replies each, the odd lines of two files written blind by two writers who
// saw no code and no earlier set; the even lines stay unseen until the lead scores them). Before round 5: 0.925 and
// 0.950, no decided false confirmation, 2 and 1 label false confirmations; after: 0.975 and 1.000, none
// (docs/understanding.md). The round's fixes were read from these halves, so they guard against regressions only.
describe("blind set 16, development halves", () => {
  for (const [name, floor] of [
    ["intents-blind16a-dev.jsonl", 0.958],
    ["intents-blind16b-dev.jsonl", 0.983],
  ] as const) {
    it(`${name}: no false confirmation, decided or labelled; accuracy at least ${floor}`, async () => {
      const rows = loadReplies(file(name));
      expect(rows.length).toBe(120);
      const s = await scoreReplies(rows);
      expect(s.overall.decidedFalseConfirms).toBe(0);
      expect(s.overall.falseConfirms).toBe(0);
      expect(s.overall.accuracy).toBeGreaterThanOrEqual(floor);
    }, 60_000);

    it(`${name}: 1,000 conversations, none confirmed for a customer who did not confirm`, async () => {
      const s = await runConversations(loadReplies(file(name)) as Row[], 1000);
      expect(s.calls).toBe(1000);
      expect(s.falselyConfirmed).toBe(0);
      expect(s.matched / s.calls).toBeGreaterThanOrEqual(0.99);
    }, 120_000);
  }
});
