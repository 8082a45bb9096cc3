// Every enum value the console shows has words in French, English and Arabic (issue 38.1): the tables are read
// against the enums themselves, so a value added to src/domain or src/schemas without a label fails here.
import { describe, expect, it } from "vitest";
import { CALL_OUTCOMES, CALL_STATUSES, SCHEDULE_REASONS } from "../src/domain/calls.ts";
import { DO_NOT_CALL_SOURCES } from "../src/domain/do-not-call.ts";
import { END_REASON_VALUES } from "../src/domain/end-reasons.ts";
import { RETRY_TRIGGERS } from "../src/domain/retries.ts";
import { DELIVERY_STATUSES, EVENT_TYPES } from "../src/domain/webhooks.ts";
import { transactionSchema } from "../src/schemas/account.ts";
import { DAY_KEYS } from "../src/schemas/calling-hours.ts";
import { CONNECTOR_EVENT_STATUSES, CONNECTOR_EVENT_TYPES } from "../src/schemas/connectors.ts";
import { TRANSCRIPT_INTENTS } from "../src/schemas/transcripts.ts";
import { Formats, LOCALES, MESSAGES } from "../src/console/i18n.ts";
import {
  CONNECTOR_REASONS,
  KEY_EVENT_TYPES,
  LABELS,
  type Labels,
  TRANSACTION_KINDS,
  WHATSAPP_MESSAGE_KINDS,
  WHATSAPP_MESSAGE_STATUSES,
} from "../src/console/labels.ts";
import { STORE_PLATFORMS } from "../src/connectors/platform.ts";

const ENUMS: Record<keyof Labels, readonly string[]> = {
  endReasons: END_REASON_VALUES,
  intents: TRANSCRIPT_INTENTS,
  webhookEvents: EVENT_TYPES,
  connectorEventTypes: CONNECTOR_EVENT_TYPES,
  connectorEventStatuses: CONNECTOR_EVENT_STATUSES,
  transactionKinds: transactionSchema.shape.type.options,
  keyEvents: KEY_EVENT_TYPES,
  retryTriggers: RETRY_TRIGGERS,
  doNotCallSources: DO_NOT_CALL_SOURCES,
  days: DAY_KEYS,
  scheduleReasons: SCHEDULE_REASONS,
  whatsappStatuses: WHATSAPP_MESSAGE_STATUSES,
  whatsappKinds: WHATSAPP_MESSAGE_KINDS,
  connectorReasons: CONNECTOR_REASONS,
  platforms: STORE_PLATFORMS,
};

describe("console labels (issue 38.1)", () => {
  it("the transaction kinds listed here are the schema's", () => {
    expect([...TRANSACTION_KINDS].sort()).toEqual([...transactionSchema.shape.type.options].sort());
  });

  for (const locale of LOCALES) {
    it(`${locale}: every enum value has its own words, and no more`, () => {
      for (const [table, values] of Object.entries(ENUMS) as [keyof Labels, readonly string[]][]) {
        const words = LABELS[locale][table] as Record<string, string>;
        expect(Object.keys(words).sort(), `${locale} ${table}`).toEqual([...values].sort());
        for (const v of values) {
          expect(words[v]!.trim(), `${locale} ${table}.${v}`).not.toBe("");
          // A French or Arabic label is never the slug itself (English words may coincide: "busy" is not shown).
          if (locale !== "en" && table !== "platforms") expect(words[v], `${locale} ${table}.${v}`).not.toBe(v);
        }
      }
      const t = MESSAGES[locale];
      for (const [names, values] of [
        [t.statusNames, CALL_STATUSES],
        [t.outcomeNames, CALL_OUTCOMES],
        [t.deliveryStatusNames, DELIVERY_STATUSES],
      ] as const) {
        expect(Object.keys(names).sort()).toEqual([...values].sort());
        for (const v of values) expect((names as Record<string, string>)[v]).not.toBe(v);
      }
    });
  }

  it("Arabic pages read Arabic words, not Latin letters, for every enum value", () => {
    for (const table of (Object.keys(ENUMS) as (keyof Labels)[]).filter((k) => k !== "platforms")) {
      for (const [v, w] of Object.entries(LABELS.ar[table])) expect(w, `ar ${table}.${v}`).not.toMatch(/[A-Za-z]/);
    }
  });

  it("formats durations in hours and minutes in each language, the seconds kept for the hover", () => {
    expect(new Formats("fr", "UTC").span(34_808)).toMatch(/^9\sh\s40\smin$/);
    expect(new Formats("en", "UTC").span(720)).toMatch(/^12 min/);
    expect(new Formats("ar", "UTC").span(36)).toMatch(/^36\sث$/);
    expect(new Formats("fr", "UTC").label("endReasons", "completed")).toBe("Conversation menée à son terme");
    expect(new Formats("ar", "UTC").label("intents", "confirm")).toBe("يؤكد");
  });
});
