import type { HostFiles } from "../contract/context.js";
import type { ProviderDefinition } from "../contract/provider.js";
import type { Resource } from "../model/resource-schema.js";
import { clockGaps } from "../schedule/clock-gaps.js";
import { hostTimeZone } from "../schedule/host-time-zone.js";
import { parseSchedule, type Schedule } from "../schedule/parse-schedule.js";
import { atTimesOfDay, clockGapWarning } from "./clock-gap-warning.js";

/** How far ahead plan looks for clock changes: a year, so every yearly change is seen once. */
const DAYS_AHEAD = 366;

/**
 * Plan's warnings, by key, for timers at set times of day that a clock change in the coming year
 * skips in the host's time zone (see clockGapWarning). Nothing is read unless such a timer is there.
 */
export async function clockGapNotes(resources: readonly Resource[], assigned: Map<string, ProviderDefinition>, files: HostFiles, now: Date): Promise<Map<string, string>> {
  const notes = new Map<string, string>();
  const timers: { key: string; schedule: Schedule; provider: ProviderDefinition }[] = [];
  for (const resource of resources) {
    if (resource.type !== "timer") continue;
    const key = `timer:${resource.name}`;
    const provider = assigned.get(key);
    let schedule: Schedule;
    try {
      schedule = parseSchedule(resource.schedule);
    } catch {
      continue; // validation has said why
    }
    if (provider && atTimesOfDay(schedule)) timers.push({ key, schedule, provider });
  }
  if (timers.length === 0) return notes;
  const zone = await hostTimeZone(files);
  const gaps = zone ? clockGaps(zone, now, DAYS_AHEAD) : [];
  if (!zone || gaps.length === 0) return notes;
  for (const { key, schedule, provider } of timers) {
    const warning = clockGapWarning(schedule, gaps, zone, provider.name, provider.capabilities.timer?.skippedTimes);
    if (warning) notes.set(key, warning);
  }
  return notes;
}
