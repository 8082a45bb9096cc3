// The shop's answers as the dialogue reads them (issue 37): plain types of the engine's own, which the API's schema
// (schemas/knowledge.ts) produces; calls/ hands them over (the engine imports no REST schema, issue 29).

/** Free text per language: `fr`, `ar`, and `ar_ma`, `ar_dz`, `ar_tn` for one dialect (they win over `ar`). */
export interface LocalizedText {
  fr?: string | undefined;
  ar?: string | undefined;
  ar_ma?: string | undefined;
  ar_dz?: string | undefined;
  ar_tn?: string | undefined;
}

interface DayRange {
  min_days: number;
  max_days: number;
}

export interface ShopKnowledge {
  delivery?: { default: DayRange; areas?: (DayRange & { names: string[] })[] | undefined } | undefined;
  open_before_paying?: boolean | undefined;
  returns?:
    | {
        accepted: boolean;
        days?: number | undefined;
        exchange?: boolean | undefined;
        fee?: string | undefined;
        note?: LocalizedText | undefined;
      }
    | undefined;
  payment_methods?: ("cash" | "card_on_delivery" | "transfer")[] | undefined;
  opening_hours?: LocalizedText | undefined;
  contact?:
    | { channel: "phone" | "whatsapp" | "email" | "website" | "instagram" | "facebook"; value: string }
    | undefined;
  qa?: { question: string; keywords: string[]; answer: LocalizedText }[] | undefined;
}
