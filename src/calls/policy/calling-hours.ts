// Calling hours in the customer's local time (issue 15): per-country defaults, overridden by the account and the shop,
// and the next instant a call may ring. Pure: the clock, the country and the settings come in.
import type { Country } from "../../domain/locale.ts";
import type { ScheduleReason } from "../../domain/calls.ts";
import {
  type CallingHoursOverride,
  type CallingWindow,
  type CountryCallingHours,
  DAY_KEYS,
  type EffectiveCallingHours,
} from "../../schemas/calling-hours.ts";
import { localDate, localToUtc, nextDay } from "../../domain/local-time.ts";
import { isPublicHoliday, isRamadan, sunset, weekday } from "../../domain/calendar.ts";

const w = (from: string, to: string): CallingWindow => ({ from, to });
const every = (windows: CallingWindow[]) =>
  Object.fromEntries(DAY_KEYS.map((d) => [d, windows])) as EffectiveCallingHours["days"];

const MAGHREB = {
  enabled: true,
  friday_prayer: w("12:00", "14:30"),
  ramadan: { day: [w("10:30", "16:00")], evening_after_iftar_minutes: 60, evening_until: "23:00" },
  public_holidays: true,
  exceptions: [],
};

/** The defaults: daytime calls in the Maghreb (the weekend's morning later), France's legal hours for consumer calls. */
export const DEFAULT_CALLING_HOURS: Record<Country, EffectiveCallingHours> = {
  MA: { ...MAGHREB, days: { ...every([w("09:00", "21:00")]), sun: [w("10:00", "20:00")] } },
  // Friday and Saturday are the Algerian weekend.
  DZ: { ...MAGHREB, days: { ...every([w("09:00", "21:00")]), fri: [w("10:00", "21:00")], sat: [w("10:00", "21:00")] } },
  TN: { ...MAGHREB, days: { ...every([w("09:00", "21:00")]), sun: [w("10:00", "20:00")] } },
  // Code de la consommation, art. D223-8 (decree 2022-1313): weekdays 10:00-13:00 and 14:00-20:00, never on
  // Saturdays, Sundays or public holidays.
  FR: {
    enabled: true,
    days: { ...every([w("10:00", "13:00"), w("14:00", "20:00")]), sat: [], sun: [] },
    friday_prayer: null,
    ramadan: null,
    public_holidays: true,
    exceptions: [],
  },
};

function apply(base: EffectiveCallingHours, override: CountryCallingHours | undefined): EffectiveCallingHours {
  if (!override) return base;
  return {
    enabled: override.enabled ?? base.enabled,
    days: {
      ...base.days,
      ...Object.fromEntries(Object.entries(override.days ?? {}).filter(([, v]) => v !== undefined)),
    },
    friday_prayer: override.friday_prayer === undefined ? base.friday_prayer : override.friday_prayer,
    ramadan: override.ramadan === undefined ? base.ramadan : override.ramadan,
    public_holidays: override.public_holidays ?? base.public_holidays,
    exceptions: override.exceptions ?? base.exceptions,
  };
}

/** A country's hours: the defaults, then the account's override, then the shop's. */
export function effectiveHours(
  country: Country,
  ...overrides: (CallingHoursOverride | null | undefined)[]
): EffectiveCallingHours {
  return overrides.reduce<EffectiveCallingHours>(
    (hours, o) => apply(hours, o?.[country]),
    DEFAULT_CALLING_HOURS[country],
  );
}

const minutes = (clock: string) => Number(clock.slice(0, 2)) * 60 + Number(clock.slice(3, 5));

/** [start, end) instants of the day's open windows, in order, with the Friday prayer cut out. */
function openings(date: string, country: Country, hours: EffectiveCallingHours): [number, number][] {
  const exception = hours.exceptions.find((e) => e.date === date);
  if (!exception && hours.public_holidays && isPublicHoliday(date, country)) return [];
  const at = (clock: string | number) => {
    const m = typeof clock === "number" ? clock : minutes(clock);
    return m >= 1440
      ? localToUtc(nextDay(date), 0, m - 1440, country).getTime()
      : localToUtc(date, Math.floor(m / 60), m % 60, country).getTime();
  };
  let spans: [number, number][];
  if (exception) {
    // A dated exception replaces the day's windows, Ramadan's and a holiday's (the Friday prayer still applies).
    spans = exception.windows.map((x) => [at(x.from), at(x.to)]);
  } else if (hours.ramadan && country !== "FR" && isRamadan(date)) {
    const iftar = sunset(date, country).getTime();
    spans = hours.ramadan.day.map((x) => [at(x.from), at(x.to)]);
    const evening: [number, number] = [
      iftar + hours.ramadan.evening_after_iftar_minutes * 60_000,
      at(hours.ramadan.evening_until),
    ];
    // The daytime windows stop an hour before iftar, whatever they say: the meal is being prepared.
    spans = spans.map(([s, e]) => [s, Math.min(e, iftar - 3600_000)] as [number, number]).concat([evening]);
  } else {
    spans = hours.days[DAY_KEYS[weekday(date)]!].map((x) => [at(x.from), at(x.to)]);
  }
  if (hours.friday_prayer && weekday(date) === 5) {
    const [ps, pe] = [at(hours.friday_prayer.from), at(hours.friday_prayer.to)];
    spans = spans.flatMap(([s, e]): [number, number][] =>
      pe <= s || ps >= e
        ? [[s, e]]
        : [
            [s, Math.min(e, ps)],
            [Math.max(s, pe), e],
          ],
    );
  }
  return spans.filter(([s, e]) => e > s).sort((a, b) => a[0] - b[0]);
}

/** Days searched for an opening: past a month of holidays and Ramadan, the settings allow no call at all. */
const SEARCH_DAYS = 40;

/**
 * The first instant at or after `from` inside the calling hours of the country; `from` itself when the hours are off
 * or it is inside a window; null when the settings leave no window in the next 40 days.
 */
export function nextCallingTime(from: Date, country: Country, hours: EffectiveCallingHours): Date | null {
  if (!hours.enabled) return from;
  const t = from.getTime();
  let date = localDate(new Date(t - 86_400_000), country); // a window of the previous local day may run past midnight
  for (let i = 0; i <= SEARCH_DAYS; i++, date = nextDay(date)) {
    for (const [s, e] of openings(date, country, hours)) if (e > t) return new Date(Math.max(s, t));
  }
  return null;
}

/**
 * Why `at` is outside the calling hours (issue 32.6: a CallOut's `schedule_reason` when they moved its `scheduled_at`):
 * a public holiday, the Friday prayer, a day with no window at all (a weekend day), or else the hours of the day.
 */
export function closedReason(at: Date, country: Country, hours: EffectiveCallingHours): ScheduleReason {
  const date = localDate(at, country);
  const exception = hours.exceptions.find((e) => e.date === date);
  if (exception?.windows.length === 0) return "holiday";
  if (!exception && hours.public_holidays && isPublicHoliday(date, country)) return "holiday";
  const t = at.getTime();
  const clock = (c: string) => localToUtc(date, Math.floor(minutes(c) / 60), minutes(c) % 60, country).getTime();
  if (
    hours.friday_prayer &&
    weekday(date) === 5 &&
    t >= clock(hours.friday_prayer.from) &&
    t < clock(hours.friday_prayer.to)
  )
    return "friday_prayer";
  const ramadan = hours.ramadan && country !== "FR" && isRamadan(date);
  if (!exception && !ramadan && hours.days[DAY_KEYS[weekday(date)]!].length === 0) return "weekend";
  return "outside_hours";
}
