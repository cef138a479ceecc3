import { errors } from "../errors/catalogue.js";

/** One cron field, expanded. `star` is cron's own notion: the text starts with `*`. */
export interface ScheduleField {
  text: string;
  star: boolean;
  /** Every value it matches, sorted, deduplicated (day-of-week 7 folded to 0). */
  values: number[];
}

export interface Schedule {
  /** The schedule as written. */
  source: string;
  /** `@hourly`, `@daily`, `@weekly`, `@monthly` when written so. */
  keyword?: "@hourly" | "@daily" | "@weekly" | "@monthly";
  minute: ScheduleField;
  hour: ScheduleField;
  dayOfMonth: ScheduleField;
  month: ScheduleField;
  dayOfWeek: ScheduleField;
}

const KEYWORDS: Record<string, string> = {
  "@hourly": "0 * * * *",
  "@daily": "0 0 * * *",
  "@weekly": "0 0 * * 0",
  "@monthly": "0 0 1 * *",
};

/**
 * Blanks and invisible characters other than space and tab. cron separates fields by those two
 * only, so a schedule holding, say, a no-break space would mean one thing here and another to cron.
 */
const OTHER_BLANK = /(?![ \t])[\s\p{Zs}\p{Zl}\p{Zp}\p{Cf}]/u;

const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];
const DAYS = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"];
const DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

interface FieldSpec {
  label: string;
  min: number;
  max: number;
  names?: string[];
  nameBase?: number;
}

const FIELDS: FieldSpec[] = [
  { label: "minute", min: 0, max: 59 },
  { label: "hour", min: 0, max: 23 },
  { label: "day-of-month", min: 1, max: 31 },
  { label: "month", min: 1, max: 12, names: MONTHS, nameBase: 1 },
  { label: "day-of-week", min: 0, max: 7, names: DAYS, nameBase: 0 },
];

/**
 * Parses a schedule: five cron fields (numbers, `*`, ranges, lists, steps, month and day names)
 * or `@hourly`, `@daily`, `@weekly`, `@monthly`. Throws the seed's errors for `@yearly`, for a
 * schedule restricting both day-of-month and day-of-week, and names the field of any other fault.
 * Only spaces and tabs separate the fields or surround them; any other blank is refused.
 * One parser serves every timer provider.
 */
export function parseSchedule(source: string): Schedule {
  const odd = OTHER_BLANK.exec(source);
  if (odd) {
    const codePoint = `U+${odd[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`;
    throw errors.scheduleField(source, "whole", `only spaces and tabs separate fields, and it holds ${codePoint}`, {
      hint: "Retype the blanks between and around the fields as spaces or tabs (a no-break space often comes in with pasted text)",
    });
  }
  const trimmed = source.replace(/^[ \t]+|[ \t]+$/g, "");
  let text = trimmed;
  let keyword: Schedule["keyword"];
  if (trimmed.startsWith("@")) {
    const expanded = KEYWORDS[trimmed];
    if (!expanded) throw errors.scheduleKeyword(trimmed);
    keyword = trimmed as Schedule["keyword"];
    text = expanded;
  }
  const parts = text.split(/[ \t]+/).filter(Boolean);
  if (parts.length !== 5) {
    throw errors.scheduleField(source, "whole", `expected five fields (minute hour day-of-month month day-of-week), found ${parts.length}`);
  }
  const [minute, hour, dayOfMonth, month, dayOfWeek] = parts.map((part, i) => parseField(source, part, FIELDS[i]!)) as [
    ScheduleField,
    ScheduleField,
    ScheduleField,
    ScheduleField,
    ScheduleField,
  ];
  dayOfWeek.values = [...new Set(dayOfWeek.values.map((d) => (d === 7 ? 0 : d)))].sort((a, b) => a - b);
  if (!dayOfMonth.star && !dayOfWeek.star) throw errors.scheduleDomDow(source);
  if (!dayOfMonth.star && !month.star) {
    const longest = Math.max(...month.values.map((m) => DAYS_IN_MONTH[m - 1]!));
    if (dayOfMonth.values[0]! > longest) {
      throw errors.scheduleField(source, "day-of-month", `day ${dayOfMonth.values[0]} never occurs in the months it names, so it would never run`);
    }
  }
  return { source, ...(keyword ? { keyword } : {}), minute, hour, dayOfMonth, month, dayOfWeek };
}

function parseField(source: string, text: string, spec: FieldSpec): ScheduleField {
  const values = new Set<number>();
  for (const item of text.split(",")) {
    if (item === "") throw errors.scheduleField(source, spec.label, `\`${text}\` has an empty list item`);
    const [rangeText, stepText, extra] = item.split("/");
    if (extra !== undefined) throw errors.scheduleField(source, spec.label, `\`${item}\` has more than one step`);
    let from: number;
    let to: number;
    if (rangeText === "*") {
      from = spec.min;
      to = spec.label === "day-of-week" ? 6 : spec.max;
    } else {
      const bounds = (rangeText ?? "").split("-");
      if (bounds.length > 2) throw errors.scheduleField(source, spec.label, `\`${item}\` is not a range`);
      from = parseValue(source, bounds[0]!, spec);
      to = bounds.length === 2 ? parseValue(source, bounds[1]!, spec) : from;
      if (to < from) throw errors.scheduleField(source, spec.label, `range \`${rangeText}\` runs backwards`);
      if (stepText !== undefined && bounds.length === 1) {
        throw errors.scheduleField(source, spec.label, `a step needs \`*\` or a range before it, not \`${item}\``);
      }
    }
    let step = 1;
    if (stepText !== undefined) {
      if (!/^[0-9]+$/.test(stepText)) throw errors.scheduleField(source, spec.label, `step \`${stepText}\` is not a number`);
      step = Number(stepText);
      const span = to - from + 1;
      if (step < 1 || step > span) {
        throw errors.scheduleField(source, spec.label, `step ${step} must be between 1 and ${span}`);
      }
    }
    for (let value = from; value <= to; value += step) values.add(value);
  }
  return { text, star: text.startsWith("*"), values: [...values].sort((a, b) => a - b) };
}

function parseValue(source: string, text: string, spec: FieldSpec): number {
  const lower = text.toLowerCase();
  const named = spec.names?.indexOf(lower) ?? -1;
  if (named >= 0) return named + spec.nameBase!;
  if (!/^[0-9]+$/.test(text)) throw errors.scheduleField(source, spec.label, `\`${text}\` is not a number${spec.names ? " or a name" : ""}`);
  const value = Number(text);
  if (value < spec.min || value > spec.max) {
    throw errors.scheduleField(source, spec.label, `${value} is outside ${spec.min}-${spec.max}`);
  }
  return value;
}
