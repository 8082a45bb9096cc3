// The calendars calling hours depend on (issue 15): the Islamic (Umm al-Qura) date of a civil day from Node's Intl,
// Ramadan, public holidays per country, and the sunset that sets iftar. Pure functions of a local date (YYYY-MM-DD).
import type { Country } from "./locale.ts";

const HIJRI = new Intl.DateTimeFormat("en-u-ca-islamic-umalqura-nu-latn", {
  timeZone: "UTC",
  year: "numeric",
  month: "numeric",
  day: "numeric",
});

/** The Umm al-Qura date of a civil day (at its noon). Maghreb authorities sight the moon themselves: a day's drift is possible. */
export function hijriDate(date: string): { year: number; month: number; day: number } {
  const parts = HIJRI.formatToParts(new Date(`${date}T12:00:00Z`));
  const get = (type: string) => Number.parseInt(parts.find((p) => p.type === type)?.value ?? "0", 10);
  return { year: get("year"), month: get("month"), day: get("day") };
}

/** Whether the civil day falls in Ramadan (Hijri month 9). */
export function isRamadan(date: string): boolean {
  return hijriDate(date).month === 9;
}

/** Day of the week of a civil date: 0 Sunday ... 6 Saturday. */
export function weekday(date: string): number {
  return new Date(`${date}T12:00:00Z`).getUTCDay();
}

function addDays(date: string, days: number): string {
  const d = new Date(`${date}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** Western Easter Sunday of `year` (Meeus/Jones/Butcher), for France's movable holidays. */
export function easterSunday(year: number): string {
  const a = year % 19,
    b = Math.floor(year / 100),
    c = year % 100,
    d = Math.floor(b / 4),
    e = b % 4;
  const f = Math.floor((b + 8) / 25),
    g = Math.floor((b - f + 1) / 3),
    h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4),
    k = c % 4,
    l = (32 + 2 * e + 2 * i - h - k) % 7,
    m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31),
    day = ((h + l - 7 * m + 114) % 31) + 1;
  return `${year}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
}

/** Fixed civil holidays, MM-DD. */
const FIXED: Record<Country, readonly string[]> = {
  // New Year, Independence Manifesto, Amazigh New Year, Labour, Throne, Oued Eddahab, Revolution of the King and the People, Youth, Green March, Independence.
  MA: ["01-01", "01-11", "01-14", "05-01", "07-30", "08-14", "08-20", "08-21", "11-06", "11-18"],
  // New Year, Yennayer, Labour, Independence, Revolution.
  DZ: ["01-01", "01-12", "05-01", "07-05", "11-01"],
  // New Year, Independence, Martyrs, Labour, Republic, Women, Evacuation, Revolution.
  TN: ["01-01", "03-20", "04-09", "05-01", "07-25", "08-13", "10-15", "12-17"],
  // New Year, Labour, Victory 1945, Bastille Day, Assumption, All Saints, Armistice, Christmas.
  FR: ["01-01", "05-01", "05-08", "07-14", "08-15", "11-01", "11-11", "12-25"],
};

/** Islamic holidays, Hijri month-day: Eid al-Fitr, Eid al-Adha, the Islamic New Year, the Mawlid (and Ashura in DZ). */
const ISLAMIC: Record<Exclude<Country, "FR">, readonly string[]> = {
  MA: ["10-1", "10-2", "12-10", "12-11", "1-1", "3-12", "3-13"],
  DZ: ["10-1", "10-2", "12-10", "12-11", "1-1", "1-10", "3-12"],
  TN: ["10-1", "10-2", "10-3", "12-10", "12-11", "1-1", "3-12"],
};

/** Whether the civil day is a public holiday in the country: fixed dates, Easter-based ones (FR), Islamic ones (Umm al-Qura). */
export function isPublicHoliday(date: string, country: Country): boolean {
  if (FIXED[country].includes(date.slice(5))) return true;
  if (country === "FR") {
    const easter = easterSunday(Number(date.slice(0, 4)));
    // Easter Monday, Ascension, Whit Monday.
    return [1, 39, 50].some((offset) => addDays(easter, offset) === date);
  }
  const h = hijriDate(date);
  return ISLAMIC[country].includes(`${h.month}-${h.day}`);
}

/** Where iftar is timed: the most populous city of each country. */
const PLACES: Record<Country, { lat: number; lon: number }> = {
  MA: { lat: 33.57, lon: -7.59 }, // Casablanca
  DZ: { lat: 36.75, lon: 3.06 }, // Algiers
  TN: { lat: 36.81, lon: 10.18 }, // Tunis
  FR: { lat: 48.86, lon: 2.35 }, // Paris
};

/** Sunset (the Maghrib prayer, iftar in Ramadan) of a civil day in the country, as a UTC instant (NOAA's approximation, within a couple of minutes). */
export function sunset(date: string, country: Country): Date {
  const { lat, lon } = PLACES[country];
  const noon = new Date(`${date}T12:00:00Z`);
  const start = Date.UTC(noon.getUTCFullYear(), 0, 1);
  const dayOfYear = Math.floor((noon.getTime() - start) / 86_400_000) + 1;
  const g = ((2 * Math.PI) / 365) * (dayOfYear - 1);
  const eqTime =
    229.18 *
    (0.000075 +
      0.001868 * Math.cos(g) -
      0.032077 * Math.sin(g) -
      0.014615 * Math.cos(2 * g) -
      0.040849 * Math.sin(2 * g));
  const decl =
    0.006918 -
    0.399912 * Math.cos(g) +
    0.070257 * Math.sin(g) -
    0.006758 * Math.cos(2 * g) +
    0.000907 * Math.sin(2 * g) -
    0.002697 * Math.cos(3 * g) +
    0.00148 * Math.sin(3 * g);
  const phi = (lat * Math.PI) / 180;
  const zenith = (90.833 * Math.PI) / 180;
  const ha = Math.acos(Math.cos(zenith) / (Math.cos(phi) * Math.cos(decl)) - Math.tan(phi) * Math.tan(decl));
  const minutesUtc = 720 - 4 * lon - eqTime + 4 * ((ha * 180) / Math.PI);
  return new Date(
    Date.UTC(noon.getUTCFullYear(), noon.getUTCMonth(), noon.getUTCDate()) + Math.round(minutesUtc) * 60_000,
  );
}
