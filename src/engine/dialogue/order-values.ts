// What a reply names of the order (issue 33, round 28): the values a reply names (a colour, a size) read against the
// order's own items. The classifier reads a reply without the order; the dialogue has it, so a "change" that names
// only what the order already holds ("oui la bleue s'il vous plaît" for a blue phone case) is resolved there as the
// agreement it is: the object of the yes is the order.
import type { Country } from "./lexicon/index.ts";
import { readReply } from "./reading.ts";
import { analyse } from "./signals.ts";
import type { DialogueOrder } from "./types.ts";

/** A value's canonical token, a French plural or feminine ending taken off ("bleue", "bleues" -> "bleu"). */
const stem = (t: string) => (t.length > 3 ? t.replace(/(?:es|e|s)$/, "") : t);

/** The values `text` names: its colours and other attributes the lexicon knows, and sizes (two digits, 20 to 60). */
function values(text: string, country: Country): string[] {
  const { tokens, hits } = analyse(text, country);
  const named = hits.filter((h) => h.signal === "attr" && !h.negated).flatMap((h) => tokens.slice(h.start, h.end));
  const sizes = tokens.filter((t) => /^\d{2}$/.test(t) && Number(t) >= 20 && Number(t) <= 60);
  return [...named, ...sizes].map(stem);
}

/**
 * The reply names one value or more, every one of them held by the order's items (their names and variants), and
 * nothing else to correct (reading `valueOnly`: no change verb, "instead", "not that", quantity, addition, address,
 * "otherwise", no "but" before the value). A value in another language than the order's ("lkhdar" for "Vert") is not
 * matched: the reply stays the change it was read as.
 */
export function namesOnlyTheOrder(text: string, order: Pick<DialogueOrder, "items" | "country">): boolean {
  if (readReply(text, order.country).valueOnly !== true) return false;
  const said = values(text, order.country);
  if (said.length === 0) return false;
  const held = new Set(order.items.flatMap((item) => values(`${item.name} ${item.variant ?? ""}`, order.country)));
  return said.every((v) => held.has(v));
}
