import { errors, NAME_PATTERN, type Resource, type TendError } from "@tend/core/contract";

/**
 * What dinit cannot take beyond the capabilities: a `@` in a tend service's name (dinit reads
 * `tend-a@b` as the description `tend-a` started with the argument `b`), and `after` entries that
 * are not service names (each becomes a `depends-on` line).
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
  return found;
}
