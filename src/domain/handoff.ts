// A shop's warm transfer to a person (issue 34): what may hand a call over, and when the person takes calls. Pure: no I/O.

/** What hands a call over to the shop's person, when the shop's handoff lists it. */
export const HANDOFF_TRIGGERS = ["customer_asks", "unanswered_question", "unclear", "angry"] as const;
export type HandoffTrigger = (typeof HANDOFF_TRIGGERS)[number];

/** How a transfer ended: bridged to the person, or why not (then the call ends `callback_requested`). */
export const TRANSFER_STATUSES = ["bridged", "no_answer", "busy", "failed", "outside_hours"] as const;
export type TransferStatus = (typeof TRANSFER_STATUSES)[number];
/** Issue 34: what ended a bridged transfer, when Wakha did (the balance ran out during it). */
export const TRANSFER_ENDED_BY = ["balance"] as const;

export const WEEK_DAYS = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"] as const;
export type WeekDay = (typeof WEEK_DAYS)[number];

export interface HandoffWindow {
  from: string;
  to: string;
}

/** The person's weekly hours in `time_zone`; a day left out (or `[]`) takes no transfers. */
export interface HandoffHours {
  time_zone: string;
  days: Partial<Record<WeekDay, HandoffWindow[]>>;
}

/** Whether `zone` is an IANA time zone this runtime knows. */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat("en", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

const FORMATTERS = new Map<string, Intl.DateTimeFormat>();

/** The day of the week and HH:MM in `zone` at `at`. */
export function wallClock(at: Date, zone: string): { day: WeekDay; time: string } {
  let f = FORMATTERS.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      weekday: "short",
      hour: "2-digit",
      minute: "2-digit",
    });
    FORMATTERS.set(zone, f);
  }
  const parts = f.formatToParts(at);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? "";
  return { day: get("weekday").toLowerCase().slice(0, 3) as WeekDay, time: `${get("hour")}:${get("minute")}` };
}

/** Whether the person takes transfers at `at`: always without hours, else inside one of that day's windows (from inclusive, to exclusive). */
export function insideHandoffHours(hours: HandoffHours | null, at: Date): boolean {
  if (!hours) return true;
  const { day, time } = wallClock(at, hours.time_zone);
  return (hours.days[day] ?? []).some((w) => w.from <= time && time < w.to);
}
