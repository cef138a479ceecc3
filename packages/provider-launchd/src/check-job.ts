import { errors, parseSchedule, signalReachesProgram, TendError, type PlistValue, type Resource, type Service } from "@tend/core/contract";
import { calendarEntryCount, MAX_CALENDAR_ENTRIES } from "./calendar-intervals.js";
import { xmlUnsafeCharacter, xmlUnsafeCharacterIn } from "./xml-unsafe-character.js";

/**
 * What launchd cannot take beyond the capabilities: a schedule it cannot express or that needs
 * more than 64 calendar entries (the seed's texts, with the real count), a `Label` in the escape
 * hatch (it is how tend finds the job), text a plist cannot carry, and a `reloadSignal` the
 * program would not receive.
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
    const lost = reloadSignalLost(resource);
    if (lost) found.push(lost);
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

/**
 * `launchctl kill SIG<reloadSignal>` signals the job's own process, the first of
 * ProgramArguments. When /bin/sh stays in front of the program (a pipeline, a background job, a
 * compound command last), that is the shell, which the signal ends: launchd would then start the
 * job again, or leave it stopped, and a reload would become a restart. A hatch that sets
 * `ProgramArguments` or `Program` runs something else than `exec`, which plan warns about.
 */
function reloadSignalLost(service: Service): TendError | undefined {
  const signal = service.reloadSignal;
  if (signal === undefined || service.exec === undefined || signalReachesProgram(service.exec, signal)) return undefined;
  if (service.launchd && ("ProgramArguments" in service.launchd || "Program" in service.launchd)) return undefined;
  return errors.invalidField(
    `service:${service.name}`,
    "reloadSignal",
    `\`exec\` is shell syntax that /bin/sh keeps running in front of the program (a pipeline, a background job or a compound command last), and \`launchctl kill SIG${signal}\` signals the job's own process, that shell: it would end, and launchd would start the job again (or leave it stopped) instead of the program reloading`,
    { hint: "Let the shell exec the program last (`cd /srv && server`), or put the pipeline in a script that traps the signal; otherwise use restartOn" },
  );
}
