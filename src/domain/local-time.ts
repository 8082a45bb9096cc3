// The customer names days and hours in their own time zone; the API speaks UTC (CONTRACT §2).
import type { Country } from "./locale.ts";

export const TIME_ZONES: Record<Country, string> = {
  MA: "Africa/Casablanca",
  DZ: "Africa/Algiers",
  TN: "Africa/Tunis",
  FR: "Europe/Paris",
};

// One formatter per zone: building one costs far more than formatting (the calling hours use them at each claim).
const FORMATTERS = new Map<string, Intl.DateTimeFormat>();
function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = FORMATTERS.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    FORMATTERS.set(timeZone, f);
  }
  return f;
}

/** Minutes the zone is ahead of UTC at `instant` (Morocco's Ramadan hour and French summer time included). */
function offsetMinutes(instant: number, timeZone: string): number {
  const parts = formatter(timeZone).formatToParts(new Date(instant));
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? "0");
  const asUtc = Date.UTC(get("year"), get("month") - 1, get("day"), get("hour"), get("minute"), get("second"));
  return Math.round((asUtc - Math.floor(instant / 1000) * 1000) / 60_000);
}

/** A wall-clock time in the country's zone as a UTC instant. */
export function localToUtc(date: string, hour: number, minute: number, country: Country): Date {
  const zone = TIME_ZONES[country];
  const [y = 1970, m = 1, d = 1] = date.split("-").map(Number);
  const wall = Date.UTC(y, m - 1, d, hour, minute);
  let instant = wall - offsetMinutes(wall, zone) * 60_000;
  instant = wall - offsetMinutes(instant, zone) * 60_000; // once more across a DST change
  return new Date(instant);
}

/** The calendar day (YYYY-MM-DD) in the country's zone at `now`. */
export function localDate(now: Date, country: Country): string {
  return DATE_FORMATTERS[country].format(now);
}

const DATE_FORMATTERS = Object.fromEntries(
  Object.entries(TIME_ZONES).map(([c, timeZone]) => [
    c,
    new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }),
  ]),
) as Record<Country, Intl.DateTimeFormat>;

/** The next day after `date` (YYYY-MM-DD). */
export function nextDay(date: string): string {
  const [y = 1970, m = 1, d = 1] = date.split("-").map(Number);
  return new Date(Date.UTC(y, m - 1, d + 1)).toISOString().slice(0, 10);
}

/** RFC 3339 UTC without milliseconds: 2026-11-23T17:00:00Z. */
export function utcIso(instant: Date): string {
  return `${instant.toISOString().slice(0, 19)}Z`;
}
