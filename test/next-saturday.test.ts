// Issue 20, finding 8: "next Saturday" resolves to the same date in every profile, by one rule (slots.ts
// extractDate): "Saturday" is the first Saturday after today, "next Saturday" the Saturday of next week.
import { describe, expect, it } from "vitest";
import { extractDate } from "../src/engine/dialogue/slots.ts";

const NEXT_SATURDAY: [string, "MA" | "DZ" | "TN" | "FR"][] = [
  ["samedi prochain", "FR"],
  ["le samedi prochain", "FR"],
  ["prochain samedi", "FR"],
  ["nhar sebt jay", "MA"],
  ["sebt ljay", "MA"],
  ["نهار السبت الجاي", "MA"],
  ["samedi prochain", "MA"],
  ["nhar sebt jay", "DZ"],
  ["sebt ejay", "DZ"],
  ["nhar essebt ejjay", "DZ"],
  ["samedi prochain", "DZ"],
  ["nhar essebt ejjay", "TN"],
  ["essebt jey", "TN"],
  ["nhar sebt ejjey", "TN"],
  ["السبت الجاي", "TN"],
  ["samedi prochain", "TN"],
];

describe("next Saturday, one rule in every profile", () => {
  // Monday 2026-11-23 to Sunday 2026-11-29, at 10:00 UTC.
  const week = Array.from({ length: 7 }, (_, i) => new Date(Date.UTC(2026, 10, 23 + i, 10)));

  it.each(NEXT_SATURDAY)("%s (%s) is the Saturday of next week, whatever today is", (text, country) => {
    for (const now of week) {
      const expected = extractDate("samedi prochain", "FR", now);
      expect(extractDate(text, country, now), now.toISOString()).toBe(expected);
    }
    expect(extractDate(text, country, week[0]!)).toBe("2026-12-05");
    expect(extractDate(text, country, week[5]!)).toBe("2026-12-05");
    expect(extractDate(text, country, week[6]!)).toBe("2026-12-05");
  });

  it("a bare Saturday is the first one after today", () => {
    expect(extractDate("samedi", "FR", week[0]!)).toBe("2026-11-28");
    expect(extractDate("nhar sebt", "MA", week[0]!)).toBe("2026-11-28");
    expect(extractDate("essebt", "TN", week[0]!)).toBe("2026-11-28");
    expect(extractDate("samedi", "FR", week[5]!)).toBe("2026-12-05");
  });
});
