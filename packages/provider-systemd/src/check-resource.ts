import { errors, TendError, type RenderContext, type Resource, type Service, signalReachesProgram } from "@tend/core/contract";
import { hatchDirectives, hatchValues } from "./merge-escape-hatch.js";
import { primaryUnit, tendUnitName } from "./unit-name.js";

/** systemd's limit on a unit name (UNIT_NAME_MAX less the NUL). */
const UNIT_NAME_MAX = 255;
/** What systemd accepts in a unit name. */
const UNIT_NAME_CHARS = /^[A-Za-z0-9:_.\\@-]+$/;

/**
 * The systemd-only rules, at plan time, beyond what the capabilities cover: names that make a
 * template or an over-long unit, a `reloadSignal` that would reach a shell instead of the program,
 * a `*.target` that is not a unit name, hatch values that would run into the next line. (Schedules are checked with the spec.)
 */
export function checkResource(resource: Resource, _ctx?: RenderContext): TendError[] {
  if (resource.type === "file" || resource.type === "package") return [];
  const ref = `${resource.type}:${resource.name}`;
  const found: TendError[] = [];
  const ownUnit = resource.type === "timer" || resource.exec !== undefined;
  if (ownUnit) {
    if (resource.name.endsWith("@")) {
      found.push(errors.invalidField(ref, "name", `a name ending in \`@\` makes ${tendUnitName(resource.name, "service")} a template unit, which cannot be started`));
    }
    if (tendUnitName(resource.name, "service").length > UNIT_NAME_MAX) {
      found.push(errors.invalidField(ref, "name", `${tendUnitName(resource.name, "service")} is longer than the ${UNIT_NAME_MAX} characters systemd allows in a unit name`));
    }
  } else if (primaryUnit(resource).length > UNIT_NAME_MAX) {
    found.push(errors.invalidField(ref, "name", `is longer than the ${UNIT_NAME_MAX} characters systemd allows in a unit name`));
  }
  // A relative exec is the spec's error on every init (the model refuses it).
  if (resource.type === "timer") return found;
  if (resource.displayManager && resource.user) {
    found.push(errors.invalidField(ref, "displayManager", "a display manager is a system service: it sets the host's default target"));
  }
  for (const entry of resource.after ?? []) {
    if (entry.endsWith(".target") && !UNIT_NAME_CHARS.test(entry)) {
      found.push(errors.invalidField(ref, "after", `\`${entry}\` is not a systemd unit name`));
    }
  }
  const ownReload = hatchDirectives(resource.systemd).some(([section, key]) => section === "Service" && key === "ExecReload");
  if (resource.exec !== undefined && resource.reloadSignal !== undefined && !ownReload && !signalReachesProgram(resource.exec, resource.reloadSignal)) {
    found.push(
      new TendError(
        "TEND_CANNOT_RELOAD",
        `${ref} sets reloadSignal = ${resource.reloadSignal}, but its exec runs under /bin/sh, which stays the main process (a pipeline, or a last command that cannot be exec'd): systemd would signal the shell, and the service would end instead of reloading`,
        { field: "reloadSignal", resource: ref, hint: "Put the command in a script that traps the signal and passes it on, make the program the last command of the line, or use restartOn" },
      ),
    );
  }
  found.push(...checkHatch(ref, resource.systemd));
  return found;
}

/**
 * Hatch values are written verbatim (they are systemd syntax), so a value ending in an odd run
 * of backslashes would continue onto the next line and swallow the directive after it.
 */
function checkHatch(ref: string, hatch: Service["systemd"]): TendError[] {
  const found: TendError[] = [];
  for (const [, key, value] of hatchDirectives(hatch)) {
    for (const text of hatchValues(value)) {
      const trailing = /\\+$/.exec(text)?.[0].length ?? 0;
      if (trailing % 2 === 1) {
        found.push(errors.invalidField(ref, "systemd", `\`${key}\` ends in a backslash, which would join the next line of the unit to it`));
      }
    }
  }
  return found;
}
