import { errors, parseSchedule, TendError, type PlistValue, type Resource } from "@tend/core/contract";
import { calendarEntryCount, MAX_CALENDAR_ENTRIES } from "./calendar-intervals.js";
import { xmlUnsafeCharacter, xmlUnsafeCharacterIn } from "./xml-unsafe-character.js";

/**
 * What launchd cannot take beyond the capabilities: a schedule it cannot express or that needs
 * more than 64 calendar entries (the seed's texts, with the real count), a `Label` in the escape
 * hatch (it is how tend finds the job), and text a plist cannot carry.
 */
export function checkJob(resource: Resource): TendError[] {
  if (resource.type === "file" || resource.type === "package") return [];
  const ref = `${resource.type}:${resource.name}`;
  const found: TendError[] = [];
  const unsafe = (field: string, value: PlistValue | undefined) => {
    const character = value === undefined ? undefined : typeof value === "string" ? xmlUnsafeCharacter(value) : xmlUnsafeCharacterIn(value);
    if (character) found.push(errors.invalidField(ref, field, `it holds ${character}, which a plist cannot carry`));
  };
  unsafe("exec", resource.exec);
  unsafe("env", resource.env);
  if (resource.type === "service") {
    unsafe("launchd", resource.launchd);
    if (resource.launchd && "Label" in resource.launchd) {
      found.push(errors.invalidField(ref, "launchd", `\`Label\` is how tend finds the job (tend.${resource.name}), so it cannot be set here`));
    }
  }
  if (resource.type === "timer") {
    // The spec's validation refused schedules that do not parse; what is left to refuse here is
    // what launchd cannot express (a starred day field with the other one restricted).
    try {
      const count = calendarEntryCount(parseSchedule(resource.schedule));
      if (count > MAX_CALENDAR_ENTRIES) found.push(errors.launchdEntries(count, { resource: ref }));
    } catch (error) {
      if (!TendError.isInstance(error)) throw error;
      found.push(error.at({ resource: ref }));
    }
  }
  return found;
}
