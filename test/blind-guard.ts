// The decision guard every blind set of issue 33 gets (rounds 8 and 9): no reply of the set is acted on as a
// confirmation the customer did not give, and no simulated call built from its sentences ends `confirmed` for a
// customer who did not confirm. Call inside a `describe`.
import { expect, it } from "vitest";
import { runConversations, type Row } from "../scripts/classifier/conversations.ts";
import { loadReplies, scoreReplies } from "../scripts/classifier/score.ts";

const file = (name: string) => new URL(`./fixtures/${name}`, import.meta.url).pathname;

export function guardDecisions(names: string[], replies = 120): void {
  for (const name of names) {
    it(`${name}: no decided false confirmation`, async () => {
      const rows = loadReplies(file(name));
      expect(rows.length).toBe(replies);
      const s = await scoreReplies(rows);
      expect(s.overall.decidedFalseConfirms).toBe(0);
    }, 60_000);

    it(`${name}: 1,000 conversations, none confirmed for a customer who did not confirm`, async () => {
      const s = await runConversations(loadReplies(file(name)) as Row[], 1000);
      expect(s.calls).toBe(1000);
      expect(s.falselyConfirmed).toBe(0);
    }, 120_000);
  }
}
