// The compliance vocabulary (issue 36): the legal basis of a call, the retention bounds, what an erasure counts.

/** Why a customer may be called: the order they placed. Never a marketing purpose; a call offers nothing. */
export const LEGAL_BASES = ["order_confirmation"] as const;
export type LegalBasis = (typeof LEGAL_BASES)[number];
