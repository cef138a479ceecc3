import { errors, NAME_PATTERN, signalReachesProgram, type Resource, type TendError } from "@tend/core/contract";

/**
 * What dinit cannot take beyond the capabilities: a `@` in a tend service's name (dinit reads
 * `tend-a@b` as the description `tend-a` started with the argument `b`), `after` entries that
 * are not service names (each becomes a `depends-on` line), and a `reloadSignal` that would reach
 * a shell in front of the program instead of the program: `dinitctl signal` signals only the
 * process dinit started (not its process group), which for a pipeline is /bin/sh; sh would die of
 * the signal and dinit restart the service, and a reload never becomes a restart.
 */
export function checkService(resource: Resource): TendError[] {
  if (resource.type !== "service") return [];
  const ref = `service:${resource.name}`;
  const found: TendError[] = [];
  if (resource.exec !== undefined && resource.name.includes("@")) {
    found.push(
      errors.invalidField(ref, "name", `dinit reads \`tend-${resource.name}\` as the service \`tend-${resource.name.slice(0, resource.name.indexOf("@"))}\` started with an argument, so a service tend writes cannot hold \`@\` on dinit`, {
        hint: "Rename the service without `@`",
      }),
    );
  }
  for (const entry of resource.after ?? []) {
    if (entry === "network" || entry.endsWith(".target")) continue;
    if (!NAME_PATTERN.test(entry) || entry.includes("@")) {
      found.push(
        errors.invalidField(ref, "after", `\`${entry}\` is neither \`network\` nor the name of a tend service, and dinit writes each entry as \`depends-on = tend-<name>\``, {
          hint: "List `network` or another tend service's name",
        }),
      );
    }
  }
  if (resource.exec !== undefined && resource.reloadSignal !== undefined && !signalReachesProgram(resource.exec, resource.reloadSignal)) {
    found.push(
      errors.invalidField(
        ref,
        "reloadSignal",
        `\`exec\` is shell syntax that runs as \`/bin/sh -c\` without handing over to its last command (a pipeline, a background job or a compound command last), so \`dinitctl signal ${resource.reloadSignal}\` would reach that shell, not the program; the shell would end and dinit would restart the service instead of reloading it`,
        { hint: "Let the shell exec the program last (`cd /srv && server`), or put the pipeline in a script that traps the signal; otherwise use restartOn" },
      ),
    );
  }
  return found;
}
