// Caller lines (issue 15): a caller number may carry a limited number of calls at once (a GSM gateway behind jambonz
// has as many lines as SIM slots; WAKHA_JAMBONZ_CALLER_IDS=MA=+212522000001/8). The claim takes a free line of the
// call's numbers atomically (concurrency.ts); a line is busy while a call on it has not ended, so whatever ends the
// call (the dialer, the sweep of a dead worker) frees it.
import { CARRIER_TRAITS, type CallerIds, type CarrierTraits } from "../../config/carriers.ts";
import type { Config } from "../../config/config.ts";
import type { Country } from "../../domain/locale.ts";

/** A number a call may show, with its line count; `key` names it across the installation (carrier family and number). */
export interface CallerLineChoice {
  key: string;
  number: string;
  /** Calls it carries at once; null for no limit. */
  lines: number | null;
}

type LineConfig = Pick<Config, "telephony" | CarrierTraits["callerIds"]>;

/** The numbers of each carrier family: Twilio's serve both of its providers (one Twilio account's numbers). */
function family(config: LineConfig, channel: string): [string, CallerIds | undefined] | null {
  const traits = CARRIER_TRAITS[config.telephony.get(channel) ?? ""];
  return traits ? [traits.family, config[traits.callerIds]] : null;
}

/** The numbers a call on `channel` to `country` may show, in their configured order; empty when none is configured. */
export function callerLinesFor(config: LineConfig, channel: string, country: Country): CallerLineChoice[] {
  const f = family(config, channel);
  if (!f) return [];
  const [name, ids] = f;
  return (ids?.[country] ?? ids?.default ?? []).map((l) => ({
    key: `${name}:${l.number}`,
    number: l.number,
    lines: l.lines,
  }));
}

/** Every number with a line count on this node, by key: the lines the dispatcher hands to parked calls. */
export function lineLimits(config: Omit<LineConfig, "telephony">): Map<string, number> {
  const out = new Map<string, number>();
  const families = new Map(
    Object.values(CARRIER_TRAITS).flatMap((t): [string, CallerIds | undefined][] =>
      t ? [[t.family, config[t.callerIds]]] : [],
    ),
  );
  for (const [name, ids] of families) {
    for (const list of Object.values(ids ?? {}))
      for (const l of list) if (l.lines !== null) out.set(`${name}:${l.number}`, l.lines);
  }
  return out;
}
