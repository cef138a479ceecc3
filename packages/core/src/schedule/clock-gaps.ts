/**
 * A stretch of local time that a clock change skips (a change to summer time): on the local date
 * `year`-`month`-`day` (`weekday` 0 = Sunday, as cron counts), the minutes of the day from `from`
 * up to, not including, `to` never happen.
 */
export interface ClockGap {
  year: number;
  month: number;
  day: number;
  weekday: number;
  from: number;
  to: number;
}

/** A day as `YYYY-MM-DD`. */
export function dayText(day: { year: number; month: number; day: number }): string {
  return `${day.year}-${pad(day.month)}-${pad(day.day)}`;
}

/** Minutes since midnight as `HH:MM` (24:00 as 00:00). */
export function clockText(minutes: number): string {
  return `${pad(Math.floor(minutes / 60) % 24)}:${pad(minutes % 60)}`;
}

function pad(n: number): string {
  return String(n).padStart(2, "0");
}

const MINUTE = 60_000;
const DAY = 86_400_000;

/**
 * The clock gaps of a time zone (an IANA name, `Europe/Berlin`) in the `days` days after `start`,
 * from the zone rules Node carries (ICU's). None for a zone Node does not know. A zone changes
 * its offset at most once a day, so one look a day finds each change, and halving finds its minute.
 */
export function clockGaps(zone: string, start: Date, days: number): ClockGap[] {
  const offsetAt = offsetReader(zone);
  if (!offsetAt) return [];
  const gaps: ClockGap[] = [];
  const first = Math.floor(start.getTime() / MINUTE) * MINUTE;
  let before = offsetAt(first);
  for (let t = first + DAY; t <= first + days * DAY; t += DAY) {
    const after = offsetAt(t);
    if (after === before) continue;
    // The offset is `before` at lo and `after` at hi: the change is the first minute of hi.
    let lo = t - DAY;
    let hi = t;
    while (hi - lo > MINUTE) {
      const mid = lo + Math.floor((hi - lo) / (2 * MINUTE)) * MINUTE;
      if (offsetAt(mid) === before) lo = mid;
      else hi = mid;
    }
    if (after > before) {
      const local = new Date(hi + before * MINUTE);
      const from = local.getUTCHours() * 60 + local.getUTCMinutes();
      gaps.push({
        year: local.getUTCFullYear(),
        month: local.getUTCMonth() + 1,
        day: local.getUTCDate(),
        weekday: local.getUTCDay(),
        from,
        // A gap that ran past midnight: only its part on its first day is kept.
        to: Math.min(from + after - before, 24 * 60),
      });
    }
    before = after;
  }
  return gaps;
}

/** The zone's offset from UTC in minutes at an instant, or undefined for a zone Node does not know. */
function offsetReader(zone: string): ((ms: number) => number) | undefined {
  let format: Intl.DateTimeFormat;
  try {
    format = new Intl.DateTimeFormat("en-US", { timeZone: zone, timeZoneName: "longOffset" });
  } catch {
    return undefined;
  }
  return (ms) => {
    const name = format.formatToParts(ms).find((part) => part.type === "timeZoneName")?.value ?? "";
    const found = /^GMT(?:([+-])(\d\d):(\d\d))?$/.exec(name);
    if (!found?.[1]) return 0;
    const minutes = Number(found[2]) * 60 + Number(found[3]);
    return found[1] === "-" ? -minutes : minutes;
  };
}
